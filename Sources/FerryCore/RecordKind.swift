/// What the records of a stream describe.
public enum RecordKind: String, Sendable, CaseIterable, Hashable {
    /// The GameStore's `Product`: `name` (required), `price`, `photo`.
    case product
    /// The BookStore's `Book`: `title` (required), `author`, `description`,
    /// `pages`, `readThisBook`, `price`, `isbn`.
    case book
    /// Anything else; values keep the types the format gives them.
    case generic

    /// The fields the kind knows. Records may carry more; those are kept as they are.
    public var fields: [FieldSpec] {
        switch self {
        case .product:
            [
                FieldSpec("name", .string, required: true),
                FieldSpec("price", .number),
                FieldSpec("photo", .photo),
            ]
        case .book:
            [
                FieldSpec("title", .string, required: true),
                FieldSpec("author", .string),
                FieldSpec("description", .string),
                FieldSpec("pages", .integer),
                FieldSpec("readThisBook", .bool),
                FieldSpec("price", .number),
                FieldSpec("isbn", .string),
            ]
        case .generic:
            []
        }
    }

    /// The spec of field `name`, when the kind knows it.
    public func spec(for name: String) -> FieldSpec? {
        fields.first { $0.name == name }
    }

    /// The kind that the field names point to, when they point to one only.
    ///
    /// A product has `name` and `price` or `photo`; a book has `title` and one
    /// of `author`, `pages`, `readThisBook`, `isbn`. Fields of both, or of
    /// neither, give `generic`.
    public static func infer(from fields: FieldList) -> RecordKind {
        let product = fields.contains("name") && (fields.contains("price") || fields.contains("photo"))
        let book =
            fields.contains("title")
            && ["author", "pages", "readThisBook", "isbn"].contains(where: fields.contains)
        switch (product, book) {
        case (true, false): return .product
        case (false, true): return .book
        default: return .generic
        }
    }
}

/// A field a kind knows, with its type.
public struct FieldSpec: Sendable, Hashable {
    public let name: String
    public let type: FieldType
    /// Required fields must be present and, for strings, non-empty.
    public let required: Bool

    public init(_ name: String, _ type: FieldType, required: Bool = false) {
        self.name = name
        self.type = type
        self.required = required
    }
}

/// The types kinds use. Numbers, integers and prices must not be negative.
public enum FieldType: String, Sendable, Hashable {
    case string
    /// An integer or a double, at least 0.
    case number
    /// An integer, at least 0.
    case integer
    case bool
    /// Inline bytes, a `data:` URI or a relative reference.
    case photo
}

// MARK: - Validation

extension RecordKind {
    /// Checks `record` against the kind's fields.
    ///
    /// - Parameter location: where the record is; the field is added.
    /// - Throws: `record.missingField`, `record.emptyField`, `record.wrongType`,
    ///   `record.negative`.
    public func validate(_ record: Record, at location: SourceLocation) throws(FerryError) {
        var validator = RecordValidator(kind: self)
        try validator.validate(record, at: location)
    }
}

/// Checks a stream of records against a kind. It looks the kind's fields up
/// once per field list, not once per record.
public struct RecordValidator {
    public let kind: RecordKind
    private let specs: [FieldSpec]
    /// Each spec's type and whether it is required, which copy without a
    /// reference count (the raw path checks every record with them).
    private let rules: [(type: FieldType, required: Bool)]
    /// Where each spec's field sits, for the field lists seen lately:
    /// records often alternate between a few (with and without a photo).
    private var recent: [(fields: FieldList, positions: [Int?])] = []
    /// The positions in the field list of the last record, and that list's
    /// identity. The list is the one `recent` gained or found last, so it is
    /// alive there and no other list can have its address.
    private var positions: [Int?] = []
    private var positionsFields: ObjectIdentifier?

    public init(kind: RecordKind) {
        self.kind = kind
        specs = kind.fields
        rules = specs.map { ($0.type, $0.required) }
    }

    /// - Throws: as `RecordKind.validate(_:at:)`.
    public mutating func validate(_ record: Record, at location: SourceLocation) throws(FerryError) {
        guard !specs.isEmpty else { return }
        lookUpPositions(in: record.fields)
        for (spec, position) in zip(specs, positions) {
            let value = position.map { record.values[$0] } ?? .null
            if case .null = value {
                if spec.required {
                    var here = location
                    here.field = spec.name
                    throw .recordMissingField(spec.name, at: here)
                }
                continue
            }
            do throws(FerryError) {
                try spec.check(value)
            } catch {
                throw error.located(SourceLocation(field: spec.name)).located(location)
            }
        }
    }

    /// Checks a raw record as `validate(_:at:)` checks a record. The error
    /// names the field; the caller adds where the record is.
    public mutating func validate(_ record: RawRecord) throws(FerryError) {
        guard !specs.isEmpty else { return }
        lookUpPositions(in: record.fields)
        // Only the rules are read per record; a spec (and its name) only
        // when a check fails.
        for index in rules.indices {
            let rule = rules[index]
            guard let position = positions[index] else {
                if rule.required { throw missing(index) }
                continue
            }
            switch (rule.type, record.values[position]) {
            case (_, .null):
                if rule.required { throw missing(index) }
            case (.string, .text(let bytes)):
                if rule.required && bytes.isEmpty {
                    throw .recordEmptyField(specs[index].name, at: SourceLocation(field: specs[index].name))
                }
            case (.photo, .text), (.photo, .bytes):
                break
            case (.number, .integer(let number)), (.integer, .integer(let number)):
                if number < 0 { throw .recordNegative(specs[index].name, at: SourceLocation(field: specs[index].name)) }
            case (.number, .double(let number)):
                if !(number >= 0) { throw .recordNegative(specs[index].name, at: SourceLocation(field: specs[index].name)) }
            case (.bool, .bool):
                break
            case (_, .other(let other)):
                let value = record.others[other]
                if case .null = value {
                    if rule.required { throw missing(index) }
                    continue
                }
                do throws(FerryError) {
                    try specs[index].check(value)
                } catch {
                    throw error.located(SourceLocation(field: specs[index].name))
                }
            case (_, let raw):
                let name = specs[index].name
                throw .recordWrongType(name, expected: rule.type.rawValue, found: raw.typeName ?? "", at: SourceLocation(field: name))
            }
        }
    }

    private func missing(_ index: Int) -> FerryError {
        .recordMissingField(specs[index].name, at: SourceLocation(field: specs[index].name))
    }

    /// Sets `positions` to where each of the kind's fields sits in
    /// `fields`. The same list as the record before, the common case, is
    /// known by identity alone and retains nothing.
    private mutating func lookUpPositions(in fields: FieldList) {
        if ObjectIdentifier(fields) == positionsFields { return }
        if let known = recent.first(where: { $0.fields === fields }) {
            positions = known.positions
        } else {
            positions = specs.map { fields.index(of: $0.name) }
            if recent.count == 8 { recent.removeFirst() }
            recent.append((fields, positions))
        }
        positionsFields = ObjectIdentifier(fields)
    }
}

extension FieldSpec {
    /// Checks one non-null value against the spec; the caller locates the error.
    func check(_ value: Value) throws(FerryError) {
        switch (type, value) {
        case (.string, .string(let text)):
            if required && text.isEmpty { throw .recordEmptyField(name, at: .unknown) }
        case (.number, .integer(let number)), (.integer, .integer(let number)):
            if number < 0 { throw .recordNegative(name, at: .unknown) }
        case (.number, .double(let number)):
            if !(number >= 0) { throw .recordNegative(name, at: .unknown) }
        case (.bool, .bool), (.photo, .bytes), (.photo, .string):
            break
        default:
            throw .recordWrongType(name, expected: type.rawValue, found: value.typeName, at: .unknown)
        }
    }
}
