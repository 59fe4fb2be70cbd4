/// What the records of a stream describe.
///
/// Each kind's fields and their rules come from its built-in JSON Schema
/// (Formats/schemas/<kind>.schema.json, compiled into `EmbeddedSchemas`).
public enum RecordKind: String, Sendable, CaseIterable, Hashable {
    /// The GameStore's `Product`: `name` (required), `price`, `photo`, `sku`.
    case product
    /// The BookStore's `Book`: `title` (required), `author`, `description`,
    /// `pages`, `readThisBook`, `price`, `isbn`.
    case book
    /// Anything else; values keep the types the format gives them.
    case generic

    /// The kind's built-in schema, compiled once; generic's has no rules.
    public var schema: Schema {
        switch self {
        case .product: BuiltInSchemas.product
        case .book: BuiltInSchemas.book
        case .generic: BuiltInSchemas.generic
        }
    }

    /// The rules of the fields the kind knows, from its schema. Records may
    /// carry more; those are kept as they are.
    public var fields: [FieldRule] { schema.fieldRules }

    /// The rule of field `name`, when the kind knows it.
    public func rule(for name: String) -> FieldRule? {
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

/// The built-in kinds' schemas, compiled on first use.
private enum BuiltInSchemas {
    static let product = compile("product")
    static let book = compile("book")
    static let generic = compile("generic")

    /// The embedded schema of `kind`; an empty one (no rules) when there is none.
    private static func compile(_ kind: String) -> Schema {
        let document = EmbeddedSchemas.documents[kind] ?? .object(OrderedObject())
        do {
            return try Schema(document: document, source: kind)
        } catch {
            // The documents are constants of the build, and a test compiles each.
            preconditionFailure("the built-in \(kind) schema does not compile: \(error.code)")
        }
    }
}

// MARK: - Validation

extension RecordKind {
    /// Checks `record` against the kind's schema and throws the first violation.
    ///
    /// - Parameter location: where the record is; the field is added.
    /// - Throws: `record.missingField`, `record.emptyField`, `record.wrongType`,
    ///   `record.negative`, or the `schema.*` code of another keyword.
    public func validate(_ record: Record, at location: SourceLocation) throws(FerryError) {
        var validator = RecordValidator(kind: self)
        try validator.validate(record, at: location)
    }
}
