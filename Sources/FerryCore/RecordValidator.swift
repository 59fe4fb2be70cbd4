/// Checks a stream of records against a schema and throws the first
/// violation, as a conversion does.
///
/// It reads the schema's plan (`Schema.fieldRules`): the simple rules (a
/// type, required, not empty, at least zero) in its own switch, and the
/// schema's full check only for the fields whose rule has other
/// constraints. It looks the plan's fields up once per field list, not once
/// per record. Its errors are the first that `Schema.check` reports.
package struct RecordValidator {
    /// The schema's plan, shared by copies: read on the way to an error or
    /// the full check.
    private let plan: ValidatorPlan
    /// Each rule as the raw path's switch reads it, with whether it is
    /// required: plain values, read per record without a reference count.
    private let checks: [(check: ValidatorPlan.Check, required: Bool)]
    private let checksOtherFields: Bool
    private let checksWholeRecord: Bool
    /// Nothing to check: no rules, no rules for other fields.
    private let checksNothing: Bool
    /// Where each rule's field sits, and which fields the schema does not
    /// name (when it has rules for them), for the field lists seen lately:
    /// records often alternate between a few (with and without a photo).
    private var recent: [(fields: FieldList, positions: [Int?], others: [Int])] = []
    /// The positions in the field list of the last record, and that list's
    /// address (`RawRecord.address(of:)`). The list is the one `recent`
    /// gained or found last, so it is alive there and no other list can
    /// have its address.
    private var positions: [Int?] = []
    private var others: [Int] = []
    private var positionsAddress: UnsafeRawPointer?
    /// For a schema checked as a whole record: the layouts of the field
    /// lists seen lately (each list kept alive here, so no other list can
    /// have its address), and the last one's.
    private var rawLayouts: [(fields: FieldList, layout: RawSchemaCheck.Layout)] = []
    private var rawLayout: RawSchemaCheck.Layout?
    /// The plan's raw check, and whether it judges whole records here
    /// (`passesQuickly`): read per record, without going through `plan`.
    private let raw: RawSchemaCheck
    private let judgesRawRecords: Bool

    /// A validator of the kind's built-in schema.
    package init(kind: RecordKind) {
        self.init(schema: kind.schema)
    }

    package init(schema: Schema) {
        plan = ValidatorPlan(schema)
        checks = plan.rules.map { (ValidatorPlan.Check($0), $0.required) }
        checksOtherFields = schema.otherFieldsRule != nil
        checksWholeRecord = schema.checksWholeRecord
        checksNothing = plan.rules.isEmpty && !checksOtherFields && !checksWholeRecord
        raw = plan.raw
        judgesRawRecords = checksWholeRecord && !checksNothing && plan.raw.judgesRecords
    }

    /// The schema the validator checks against.
    package var schema: Schema { plan.schema }

    /// - Throws: the first rule `record` breaks, located at `location` and
    ///   the field: `record.missingField`, `record.emptyField`,
    ///   `record.wrongType`, `record.negative`, or another keyword's `schema.*` code.
    package mutating func validate(_ record: Record, at location: SourceLocation) throws(FerryError) {
        guard !checksNothing else { return }
        if checksWholeRecord {
            if let error = plan.schema.firstError(in: record, at: location) { throw error }
            return
        }
        lookUpPositions(in: record.fields)
        for index in plan.rules.indices {
            let rule = plan.rules[index]
            let value = positions[index].map { record.values[$0] } ?? .null
            if case .null = value {
                if rule.required {
                    var here = location
                    here.field = plan.names[index]
                    throw .recordMissingField(plan.names[index], at: here)
                }
                continue
            }
            if rule.hasOtherConstraints || (rule.nonBlank && Self.mayBeBlank(value)) {
                if let error = plan.schema.firstError(inField: index, value, at: location) { throw error }
                continue
            }
            do throws(FerryError) {
                try rule.check(value, name: plan.names[index])
            } catch {
                throw error.located(SourceLocation(field: plan.names[index])).located(location)
            }
        }
        guard checksOtherFields else { return }
        for position in others where record.values[position] != .null {
            let name = record.fields.names[position]
            if let error = plan.schema.firstErrorInOtherField(name, record.values[position], at: location) { throw error }
        }
    }

    /// Checks a raw record as `validate(_:at:)` checks a record. The error
    /// names the field; the caller adds where the record is.
    package mutating func validate(_ record: RawRecord) throws(FerryError) {
        guard !checksNothing else { return }
        if checksWholeRecord {
            // Most records pass, decided over the raw cells; the others get
            // the full check's first error, as before (`RawSchemaCheck`).
            if plan.raw.judgesRecords {
                if rawLayout?.fieldsAddress != record.fieldsAddress { lookUpLayout(of: record.fields) }
                if let rawLayout, plan.raw.passes(record, rawLayout) { return }
            }
            if let error = plan.schema.firstError(in: record.record(), at: .unknown) { throw error }
            return
        }
        // The address first: `record.fields` counts a reference.
        if record.fieldsAddress != positionsAddress { lookUpPositions(in: record.fields) }
        // Only the checks are read per record (a byte each); a name only
        // when a check fails.
        for index in checks.indices {
            let (check, required) = checks[index]
            guard let position = positions[index] else {
                if required { throw plan.missing(index) }
                continue
            }
            // The cell's case first (a jump, as readers make text, numbers
            // and bools in place), then its field's check.
            switch record.values[position] {
            case .null:
                if required { throw plan.missing(index) }
            case .text(let bytes):
                switch check {
                case .text, .free: break
                case .nonEmptyText: if bytes.isEmpty { throw plan.empty(index) }
                case .nonBlankText:
                    guard let first = bytes.first else { throw plan.empty(index) }
                    if ColumnRule.mayBeBlank(startingWith: first) { try checkFully(record, index, at: position) }
                case .full: try checkFully(record, index, at: position)
                default: throw plan.wrongType(index, found: "string")
                }
            case .bytes:
                switch check {
                case .text, .nonEmptyText, .free: break
                case .full, .nonBlankText: try checkFully(record, index, at: position)
                default: throw plan.wrongType(index, found: "bytes")
                }
            case .integer(let number):
                switch check {
                case .number, .integer, .free: break
                case .nonNegativeNumber, .nonNegativeInteger: if number < 0 { throw plan.negative(index) }
                case .full: try checkFully(record, index, at: position)
                default: throw plan.wrongType(index, found: "integer")
                }
            case .double(let number):
                switch check {
                case .number, .free: break
                case .nonNegativeNumber: if !(number >= 0) { throw plan.negative(index) }
                case .integer where SchemaValues.isIntegral(number): break
                case .nonNegativeInteger where SchemaValues.isIntegral(number):
                    if number < 0 { throw plan.negative(index) }
                case .full: try checkFully(record, index, at: position)
                default: throw plan.wrongType(index, found: "double")
                }
            case .bool:
                switch check {
                case .bool, .free: break
                case .full: try checkFully(record, index, at: position)
                default: throw plan.wrongType(index, found: "bool")
                }
            case .other, .number:
                // A value the reader could not leave in place, or a number
                // kept as text, checked as a record's is.
                let value = record.value(at: position)
                if case .null = value {
                    if required { throw plan.missing(index) }
                } else if check == .nonBlankText, case .string(let text) = value, let first = text.utf8.first,
                    !ColumnRule.mayBeBlank(startingWith: first)
                {
                    // Passes as text in place does (`.text` above): a string
                    // with escapes (`json.dumps`'s `\u00e9`) took the full
                    // check, 1,270 instructions (115,000 of 2 × 1M spaced
                    // products: 146M).
                } else if check == .full || check == .nonBlankText {
                    if let error = plan.schema.firstError(inField: index, value, at: .unknown) { throw error }
                } else {
                    do throws(FerryError) {
                        try plan.rules[index].check(value, name: plan.names[index])
                    } catch {
                        throw error.located(SourceLocation(field: plan.names[index]))
                    }
                }
            }
        }
        guard checksOtherFields else { return }
        for position in others {
            let value = record.value(at: position)
            if case .null = value { continue }
            let name = record.fields.names[position]
            if let error = plan.schema.firstErrorInOtherField(name, value, at: .unknown) { throw error }
        }
    }

    /// Whether `record` passes, as `validate(_:)` decides, but without the
    /// first error: a record of a schema checked as a whole record that
    /// the raw check does not pass counts as failing, and the caller's full
    /// check says why (or finds that it passes). The first error cost a
    /// full check of its own, 18,000 instructions a product failing
    /// Scripts/bench-schemas/shop.schema.json.
    package mutating func passesQuickly(_ record: RawRecord) -> Bool {
        if judgesRawRecords {
            if rawLayout?.fieldsAddress != record.fieldsAddress { lookUpLayout(of: record.fields) }
            return withExtendedLifetime(rawLayout) { layout in layout.map { raw.passes(record, $0) } ?? false }
        }
        do throws(FerryError) {
            try validate(record)
            return true
        } catch {
            return false
        }
    }

    /// Whether `value` may break a `nonBlank` rule, for the full check to
    /// say: text that starts with a byte that may begin white space, and
    /// any value that is not text.
    private static func mayBeBlank(_ value: Value) -> Bool {
        guard case .string(let text) = value else { return true }
        return text.utf8.first.map(ColumnRule.mayBeBlank(startingWith:)) ?? true
    }

    /// Checks field `index`, at `position` in `record`, against the schema
    /// in full (its rule has other constraints).
    private func checkFully(_ record: RawRecord, _ index: Int, at position: Int) throws(FerryError) {
        if (try? plan.raw.passes(record, cell: position, rootProperty: index)) == true { return }
        if let error = plan.schema.firstError(inField: index, record.value(at: position), at: .unknown) { throw error }
    }

    /// Sets `rawLayout` to the layout of `fields`, from those seen lately
    /// when it is one of them.
    private mutating func lookUpLayout(of fields: FieldList) {
        if let known = rawLayouts.first(where: { $0.fields === fields }) {
            rawLayout = known.layout
            return
        }
        let layout = plan.raw.layout(of: fields)
        if rawLayouts.count == 8 { rawLayouts.removeFirst() }
        rawLayouts.append((fields, layout))
        rawLayout = layout
    }

    /// Sets `positions` to where each rule's field sits in `fields`, and
    /// `others` to the fields the schema does not name when it has rules
    /// for them. The same list as the record before, the common case, is
    /// known by identity alone and retains nothing.
    private mutating func lookUpPositions(in fields: FieldList) {
        if RawRecord.address(of: fields) == positionsAddress { return }
        if let known = recent.first(where: { $0.fields === fields }) {
            positions = known.positions
            others = known.others
        } else {
            positions = plan.names.map { fields.index(of: $0) }
            others =
                checksOtherFields
                ? fields.names.indices.filter { plan.schema.root.property(named: fields.names[$0]) == nil } : []
            if recent.count == 8 { recent.removeFirst() }
            recent.append((fields, positions, others))
        }
        positionsAddress = RawRecord.address(of: fields)
    }
}

/// What a `RecordValidator` reads of its schema, made once: one reference
/// to copy, whatever the schema holds.
private final class ValidatorPlan: Sendable {
    let schema: Schema
    let names: [String]
    let rules: [ColumnRule]
    let raw: RawSchemaCheck

    /// A `ColumnRule` folded into one byte: the type and its limit, or the
    /// full check.
    enum Check: UInt8 {
        case free
        case text, nonEmptyText
        /// Not empty, and with a character other than white space (`ColumnRule.nonBlank`).
        case nonBlankText
        case number, nonNegativeNumber
        case integer, nonNegativeInteger
        case bool
        /// Other constraints: the schema's full check.
        case full

        init(_ rule: ColumnRule) {
            guard !rule.hasOtherConstraints else {
                self = .full
                return
            }
            switch rule.type {
            case nil: self = .free
            case .string?, .photo?:
                // A pattern `\S` without a minimum length: the full check.
                self = rule.nonBlank ? (rule.nonEmpty ? .nonBlankText : .full) : rule.nonEmpty ? .nonEmptyText : .text
            case .number?: self = rule.minimumZero ? .nonNegativeNumber : .number
            case .integer?: self = rule.minimumZero ? .nonNegativeInteger : .integer
            case .bool?: self = .bool
            }
        }
    }

    init(_ schema: Schema) {
        self.schema = schema
        raw = schema.rawCheck
        names = schema.fieldRules.map(\.name)
        rules = schema.fieldRules.map(\.column)
    }

    func missing(_ index: Int) -> FerryError {
        .recordMissingField(names[index], at: SourceLocation(field: names[index]))
    }

    func empty(_ index: Int) -> FerryError {
        let name = names[index]
        return rules[index].required
            ? .recordEmptyField(name, at: SourceLocation(field: name))
            : .schemaMinLength(name, limit: 1, at: SourceLocation(field: name))
    }

    func negative(_ index: Int) -> FerryError {
        .recordNegative(names[index], at: SourceLocation(field: names[index]))
    }

    /// Field `index` holds a value of type `found` (`Value.typeName`'s names).
    func wrongType(_ index: Int, found: String) -> FerryError {
        let name = names[index]
        return .recordWrongType(
            name, expected: rules[index].type?.rawValue ?? "", found: found, at: SourceLocation(field: name))
    }
}

extension ColumnRule {
    /// Checks one non-null value against the rule, as the schema's full
    /// check would for a rule without other constraints; the caller locates
    /// the error.
    func check(_ value: Value, name: String) throws(FerryError) {
        switch (type, value.numeric) {
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
