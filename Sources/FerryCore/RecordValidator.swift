/// Checks a stream of records against a schema and throws the first
/// violation, as a conversion does.
///
/// It reads the schema's plan (`Schema.fieldRules`): the simple rules (a
/// type, required, not empty, at least zero) in its own switch, and the
/// schema's full check only for the fields whose rule has other
/// constraints. It looks the plan's fields up once per field list, not once
/// per record. Its errors are the first that `Schema.check` reports.
public struct RecordValidator {
    public let schema: Schema
    private let names: [String]
    /// Each field's rule, which copies without a reference count (the raw
    /// path checks every record with them).
    private let rules: [ColumnRule]
    /// Whether the schema has rules for the fields it does not name.
    private let checksOtherFields: Bool
    /// Nothing to check: no rules, no rules for other fields.
    private let checksNothing: Bool
    /// Where each rule's field sits, and which fields the schema does not
    /// name (when it has rules for them), for the field lists seen lately:
    /// records often alternate between a few (with and without a photo).
    private var recent: [(fields: FieldList, positions: [Int?], others: [Int])] = []
    /// The positions in the field list of the last record, and that list's
    /// identity. The list is the one `recent` gained or found last, so it is
    /// alive there and no other list can have its address.
    private var positions: [Int?] = []
    private var others: [Int] = []
    private var positionsFields: ObjectIdentifier?

    /// A validator of the kind's built-in schema.
    public init(kind: RecordKind) {
        self.init(schema: kind.schema)
    }

    public init(schema: Schema) {
        self.schema = schema
        names = schema.fieldRules.map(\.name)
        rules = schema.fieldRules.map(\.column)
        checksOtherFields = schema.otherFieldsRule != nil
        checksNothing = rules.isEmpty && !checksOtherFields && !schema.checksWholeRecord
    }

    /// - Throws: the first rule `record` breaks, located at `location` and
    ///   the field: `record.missingField`, `record.emptyField`,
    ///   `record.wrongType`, `record.negative`, or another keyword's `schema.*` code.
    public mutating func validate(_ record: Record, at location: SourceLocation) throws(FerryError) {
        guard !checksNothing else { return }
        if schema.checksWholeRecord {
            if let error = schema.firstError(in: record, at: location) { throw error }
            return
        }
        lookUpPositions(in: record.fields)
        for index in rules.indices {
            let rule = rules[index]
            let value = positions[index].map { record.values[$0] } ?? .null
            if case .null = value {
                if rule.required {
                    var here = location
                    here.field = names[index]
                    throw .recordMissingField(names[index], at: here)
                }
                continue
            }
            if rule.hasOtherConstraints {
                if let error = schema.firstError(inField: index, value, at: location) { throw error }
                continue
            }
            do throws(FerryError) {
                try rule.check(value, name: names[index])
            } catch {
                throw error.located(SourceLocation(field: names[index])).located(location)
            }
        }
        for position in others where record.values[position] != .null {
            let name = record.fields.names[position]
            if let error = schema.firstErrorInOtherField(name, record.values[position], at: location) { throw error }
        }
    }

    /// Checks a raw record as `validate(_:at:)` checks a record. The error
    /// names the field; the caller adds where the record is.
    public mutating func validate(_ record: RawRecord) throws(FerryError) {
        guard !checksNothing else { return }
        if schema.checksWholeRecord {
            if let error = schema.firstError(in: record.record(), at: .unknown) { throw error }
            return
        }
        lookUpPositions(in: record.fields)
        // Only the rules are read per record; a name only when a check fails.
        for index in rules.indices {
            let rule = rules[index]
            guard let position = positions[index] else {
                if rule.required { throw missing(index) }
                continue
            }
            if rule.hasOtherConstraints {
                let value = record.value(at: position)
                if case .null = value {
                    if rule.required { throw missing(index) }
                } else if let error = schema.firstError(inField: index, value, at: .unknown) {
                    throw error
                }
                continue
            }
            switch (rule.type, record.values[position]) {
            case (_, .null):
                if rule.required { throw missing(index) }
            case (.string?, .text(let bytes)), (.photo?, .text(let bytes)):
                if rule.nonEmpty && bytes.isEmpty { throw empty(index) }
            case (.string?, .bytes), (.photo?, .bytes):
                break
            case (.number?, .integer(let number)), (.integer?, .integer(let number)):
                if rule.minimumZero && number < 0 { throw negative(index) }
            case (.number?, .double(let number)):
                if rule.minimumZero && !(number >= 0) { throw negative(index) }
            case (.integer?, .double(let number)) where SchemaValues.isIntegral(number):
                if rule.minimumZero && number < 0 { throw negative(index) }
            case (.bool?, .bool), (nil, _):
                break
            case (_, .other(let other)):
                let value = record.others[other]
                if case .null = value {
                    if rule.required { throw missing(index) }
                    continue
                }
                do throws(FerryError) {
                    try rule.check(value, name: names[index])
                } catch {
                    throw error.located(SourceLocation(field: names[index]))
                }
            case (let type?, let raw):
                let name = names[index]
                throw .recordWrongType(name, expected: type.rawValue, found: raw.typeName ?? "", at: SourceLocation(field: name))
            }
        }
        for position in others {
            let value = record.value(at: position)
            if case .null = value { continue }
            let name = record.fields.names[position]
            if let error = schema.firstErrorInOtherField(name, value, at: .unknown) { throw error }
        }
    }

    private func missing(_ index: Int) -> FerryError {
        .recordMissingField(names[index], at: SourceLocation(field: names[index]))
    }

    private func empty(_ index: Int) -> FerryError {
        let name = names[index]
        return rules[index].required
            ? .recordEmptyField(name, at: SourceLocation(field: name))
            : .schemaMinLength(name, limit: 1, at: SourceLocation(field: name))
    }

    private func negative(_ index: Int) -> FerryError {
        .recordNegative(names[index], at: SourceLocation(field: names[index]))
    }

    /// Sets `positions` to where each rule's field sits in `fields`, and
    /// `others` to the fields the schema does not name when it has rules
    /// for them. The same list as the record before, the common case, is
    /// known by identity alone and retains nothing.
    private mutating func lookUpPositions(in fields: FieldList) {
        if ObjectIdentifier(fields) == positionsFields { return }
        if let known = recent.first(where: { $0.fields === fields }) {
            positions = known.positions
            others = known.others
        } else {
            positions = names.map { fields.index(of: $0) }
            others =
                checksOtherFields
                ? fields.names.indices.filter { schema.root.property(named: fields.names[$0]) == nil } : []
            if recent.count == 8 { recent.removeFirst() }
            recent.append((fields, positions, others))
        }
        positionsFields = ObjectIdentifier(fields)
    }
}

extension ColumnRule {
    /// Checks one non-null value against the rule, as the schema's full
    /// check would for a rule without other constraints; the caller locates
    /// the error.
    func check(_ value: Value, name: String) throws(FerryError) {
        switch (type, value) {
        case (nil, _):
            return
        case (.string?, .string(let text)), (.photo?, .string(let text)):
            if nonEmpty && text.isEmpty {
                throw required ? .recordEmptyField(name, at: .unknown) : .schemaMinLength(name, limit: 1, at: .unknown)
            }
        case (.string?, .bytes), (.string?, .date), (.photo?, .bytes), (.photo?, .date), (.bool?, .bool):
            return
        case (.number?, .integer(let number)), (.integer?, .integer(let number)):
            if minimumZero && number < 0 { throw .recordNegative(name, at: .unknown) }
        case (.number?, .double(let number)):
            if minimumZero && !(number >= 0) { throw .recordNegative(name, at: .unknown) }
        case (.integer?, .double(let number)) where SchemaValues.isIntegral(number):
            if minimumZero && number < 0 { throw .recordNegative(name, at: .unknown) }
        case (let type?, _):
            throw .recordWrongType(name, expected: type.rawValue, found: value.typeName, at: .unknown)
        }
    }
}
