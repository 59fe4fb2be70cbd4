// MARK: - Design
//
// A JSON Schema (2020-12) document, compiled once into `SchemaNode`s, and
// the plan every path reads: one `FieldRule` per top-level property.
//
//     {"required": ["name"],                    FieldRule name   string  required nonEmpty
//      "properties": {
//        "name":  {"type": "string", "minLength": 1},
//        "price": {"type": "number", "minimum": 0},      price  number  minimumZero
//        "isbn":  {"type": "string", "format": "isbn"}}} isbn   string  hasOtherConstraints
//
// What a rule holds without `hasOtherConstraints` (a type the CSV reader
// types by, required, not empty, at least zero) the fast paths check
// themselves: `RecordValidator`'s switch, `CellTyping`, `PlainRowPlan`. A
// field with anything more (a format, a pattern, a limit other than those)
// goes to `check` on every path, so one schema decides what every path
// accepts. At the top level of a record a null field counts as missing, as
// CSV's empty cells are null; below it null is a JSON value like any other.

/// A JSON Schema (draft 2020-12, 2019-09 or draft-07) compiled for checking records.
///
/// FerryCore has no JSON parser: the document arrives as a `Value` (FerryKit
/// reads files with `Schema(contentsOf:)`). See Formats/schema.md for the
/// keywords, formats and codes.
public struct Schema: Sendable {
    /// Where the schema came from (a path, or `product` for a built-in one), for messages.
    public let source: String
    /// The document as given.
    public let document: Value
    let root: SchemaNode
    /// The plan: the rule of each top-level property, in the document's
    /// order, then of each required name no property describes.
    public let fieldRules: [FieldRule]
    /// The top-level properties marked `x-ferry-unique: true`, whose values
    /// must differ from record to record.
    public let uniqueFields: [String]
    /// The rule of the fields the schema does not name, from
    /// `additionalProperties`; nil when any such field passes.
    let otherFieldsRule: ColumnRule?
    /// Whether the root has rules about the record as a whole (`type`
    /// without `object`, `enum`, `const`, `false`, or any keyword beyond
    /// `properties`, `required` and `additionalProperties`: `$ref`, `anyOf`,
    /// `patternProperties`, …), which only the full check applies: fast
    /// paths then stand aside.
    public let checksWholeRecord: Bool

    /// The targets of the schema's references, and its dynamic anchors.
    let plan: SchemaPlan
    /// Whether an `anyOf` or `oneOf` that no branch passes reports the
    /// errors of every branch (at most `SchemaChecker.maxBranchDiagnostics`),
    /// rather than those of the branch that came closest (`--verbose`).
    public var reportsEveryBranch = false
    /// The check of raw records that passes most of them without a `Value`.
    let rawCheck: RawSchemaCheck

    /// Compiles `document`, a schema that refers to no other file.
    /// - Parameters:
    ///   - document: the schema, an object (or `true`/`false`).
    ///   - source: where it came from, for the errors' location.
    ///   - formats: whether `format` is checked (`assert`) or only
    ///     describes (`annotate`, Ferry's own `photo` aside: it names a type).
    /// - Throws: `schema.unsupportedKeyword`, `schema.invalidKeyword`,
    ///   `schema.invalidPattern`, `schema.unknownFormat`, `schema.unresolvedReference`.
    public init(document: Value, source: String, formats: SchemaFormatMode = .assert) throws(FerryError) {
        try self.init(document: document, source: source, baseURI: nil, formats: formats) { _ throws(FerryError) in nil }
    }

    /// Compiles `document`, whose references to other resources `retrieve` finds.
    /// - Parameters:
    ///   - baseURI: the document's own URI (`file:///…/product.json`), which
    ///     relative references resolve against; nil for none.
    ///   - retrieve: the schema document at an absolute URI (without a
    ///     fragment), or nil when there is none. Called at load only.
    /// - Throws: as `init(document:source:)`.
    public init(
        document: Value, source: String, baseURI: String?, formats: SchemaFormatMode = .assert,
        retrieve: @escaping (String) throws(FerryError) -> Value?
    ) throws(FerryError) {
        try self.init(
            document: document, source: source, baseURI: baseURI, ignoresUnknownKeywords: false, assertsFormats: true,
            formats: formats, retrieve: retrieve)
    }

    /// - Parameters:
    ///   - ignoresUnknownKeywords: treat a keyword no dialect has as an
    ///     annotation, as the specification does (for the official test
    ///     suite; Ferry refuses them so a misspelt keyword is not skipped).
    ///   - assertsFormats: read `format` at all (Ferry's default), or skip
    ///     it as the specification's default does, unknown names included
    ///     (for the official test suite).
    ///   - formats: when read, whether a known format is checked (`assert`)
    ///     or only describes (`annotate`); an unknown one is an error either way.
    init(
        document: Value, source: String, baseURI: String?, ignoresUnknownKeywords: Bool, assertsFormats: Bool,
        formats: SchemaFormatMode = .assert, retrieve: @escaping (String) throws(FerryError) -> Value?
    ) throws(FerryError) {
        self.source = source
        self.document = document
        let loader = SchemaLoader(
            source: source, ignoresUnknownKeywords: ignoresUnknownKeywords, assertsFormats: assertsFormats,
            formats: formats, retrieve: retrieve)
        let compiler = SchemaCompiler(loader: loader)
        let index = try loader.register(
            document, uri: baseURI ?? "ferry:schema", dialect: .draft2020, path: "")
        let resource = loader.resources[index]
        root = try compiler.compile(
            document, in: SchemaContext(resource: index, base: resource.uri, dialect: resource.dialect), at: "")
        try loader.compilePending(with: compiler)
        plan = SchemaPlan(loader)
        rawCheck = RawSchemaCheck(root: root, plan: plan)
        let targets = plan.targets
        // A root that is only a reference (draft-07's `{"$ref":
        // "#/definitions/Product"}`) has its target's fields: the plan types
        // CSV columns by them, while the whole record goes to the full check.
        var planned = root
        for _ in 0..<16 {
            guard planned.properties.isEmpty, planned.required.isEmpty, let ref = planned.applicators?.ref,
                targets.indices.contains(ref)
            else { break }
            planned = targets[ref]
        }
        var rules = planned.properties.map { property in
            var column = ColumnRule(property.node, required: property.required)
            if column.type == nil { column.type = Self.referredType(property.node, targets) }
            return FieldRule(name: property.name, column: column)
        }
        for name in planned.required where planned.property(named: name) == nil {
            rules.append(FieldRule(name: name, column: ColumnRule(type: nil, required: true)))
        }
        fieldRules = rules
        uniqueFields = planned.properties.filter(\.unique).map(\.name)
        otherFieldsRule = planned.additionalProperties.map { ColumnRule($0, required: false) }
        checksWholeRecord =
            root.rejectsAll || root.constant != nil || root.allowed != nil || root.applicators != nil
            || (root.types.map { !$0.contains(.object) } ?? false)
    }

    /// The type a property's schema gives through a `$ref`, or through an
    /// `anyOf`/`oneOf` whose branches agree on it but for null (the nullable
    /// field), for CSV cells to be typed by; the full check still decides.
    private static func referredType(_ node: SchemaNode, _ targets: [SchemaNode], depth: Int = 0) -> FieldType? {
        guard depth < 16 else { return nil }
        if let types = node.types { return FieldType(types: types, format: node.format) }
        guard let applicators = node.applicators else { return nil }
        if let ref = applicators.ref, targets.indices.contains(ref) {
            return referredType(targets[ref], targets, depth: depth + 1)
        }
        var found: FieldType?
        for branch in applicators.anyOf.isEmpty ? applicators.oneOf : applicators.anyOf where branch.types != .null {
            guard let type = referredType(branch, targets, depth: depth + 1), found == nil || found == type else {
                return nil
            }
            found = type
        }
        return found
    }

    /// The rule of field `name`: its property's, else (for a name only
    /// `required` lists) a required field of any type, else the rule of the
    /// fields the schema does not name; nil when the field is free.
    public func rule(for name: String) -> ColumnRule? {
        if let rule = fieldRules.first(where: { $0.name.unicodeScalars.elementsEqual(name.unicodeScalars) }) {
            return rule.column
        }
        return otherFieldsRule
    }
}

/// What a schema asks of one top-level field, in the plan every path reads.
public struct FieldRule: Sendable, Hashable {
    public let name: String
    public let column: ColumnRule

    public init(name: String, column: ColumnRule) {
        self.name = name
        self.column = column
    }

    public var type: FieldType? { column.type }
    public var required: Bool { column.required }
}

/// A field's rule without its name: a plain value that copies without
/// reference counting, for the loops that check every record or cell.
public struct ColumnRule: Sendable, Hashable {
    /// The type CSV cells are typed by and the fast paths check; nil when
    /// the schema gives none (any value, unless `hasOtherConstraints`).
    public var type: FieldType?
    /// Present and not null.
    public var required: Bool
    /// A string (or photo) of at least one character: `minLength: 1`.
    public var nonEmpty: Bool
    /// A string (or photo) with a character other than white space:
    /// `pattern: "\\S"`, as the kinds' `name` and `title` have it. The fast
    /// paths take a value whose first byte is no white space and starts no
    /// character that may be (`mayBeBlank`); they leave the others to the
    /// schema's full check.
    public var nonBlank = false
    /// A number of at least zero: `minimum: 0`.
    public var minimumZero: Bool
    /// Anything else (a format, pattern, other limit, enum, array or object
    /// type, several types): the fast paths leave the field to `Schema`'s
    /// full check, and the CSV reader never lays it out itself.
    public var hasOtherConstraints: Bool

    public init(
        type: FieldType?, required: Bool = false, nonEmpty: Bool = false, nonBlank: Bool = false,
        minimumZero: Bool = false, hasOtherConstraints: Bool = false
    ) {
        self.type = type
        self.required = required
        self.nonEmpty = nonEmpty
        self.nonBlank = nonBlank
        self.minimumZero = minimumZero
        self.hasOtherConstraints = hasOtherConstraints
    }

    /// The pattern of `nonBlank`.
    public static let nonBlankPattern = "\\S"

    /// Whether text that starts with `first` may be only white space: an
    /// ASCII control, a space, or the first byte of a character beyond
    /// ASCII (U+00A0, U+2003, U+3000 are white space). Text that starts
    /// with any other byte is not.
    @inline(__always)
    public static func mayBeBlank(startingWith first: UInt8) -> Bool { first <= 0x20 || first >= 0x7F }

    /// The rule `node` gives a property (`required` when its object requires it).
    init(_ node: SchemaNode, required: Bool) {
        self.required = required
        var other = node.rejectsAll
        if let types = node.types {
            type = FieldType(types: types, format: node.format)
            if type == nil { other = true }
        }
        let text = type == .string || type == .photo
        let numeric = type == .number || type == .integer
        nonEmpty = text && node.minLength == 1
        nonBlank = text && node.pattern?.source == Self.nonBlankPattern
        minimumZero = numeric && node.minimum?.isZero == true
        if let minLength = node.minLength, minLength > 0 && !nonEmpty { other = true }
        if node.minimum != nil && !minimumZero { other = true }
        // `photo` passes every string; it names the type, it does not restrict it.
        if let format = node.format, format != .photo { other = true }
        if node.constant != nil || node.allowed != nil || node.maximum != nil || node.exclusiveMinimum != nil
            || node.exclusiveMaximum != nil || node.multipleOf != nil || node.maxLength != nil
            || (node.pattern != nil && !nonBlank)
            || node.items != nil || node.minItems != nil || node.maxItems != nil || !node.required.isEmpty
            || !node.properties.isEmpty || node.additionalProperties != nil || node.applicators != nil
        {
            other = true
        }
        hasOtherConstraints = other
    }
}

/// The types of the fields a plan can check without the full schema, as
/// CSV cells are typed.
public enum FieldType: String, Sendable, Hashable {
    case string
    /// An integer or a double.
    case number
    /// An integer, or a double with no fraction.
    case integer
    case bool
    /// A string (`format: "photo"`: a path or a `data:` URI) or inline bytes.
    case photo

    /// The type JSON Schema `types` (null aside) and `format` make; nil
    /// for arrays, objects, null alone or several types.
    init?(types: JSONTypes, format: SchemaFormat?) {
        switch types.subtracting(.null) {
        case .string: self = format == .photo ? .photo : .string
        case .number, [.number, .integer]: self = .number
        case .integer: self = .integer
        case .boolean: self = .bool
        default: return nil
        }
    }
}

/// What the checks of a schema share besides its root: the targets of its
/// references, compiled once at load.
final class SchemaPlan: Sendable {
    let targets: [SchemaNode]
    /// Per resource, the target of each of its dynamic anchors.
    let dynamicTargets: [Int: [String: Int]]
    /// Whether any `$dynamicRef` may look at the dynamic scope: only then
    /// does a check keep one.
    let usesDynamicReferences: Bool

    init(_ loader: SchemaLoader) {
        targets = loader.targets.map { $0 ?? SchemaNode(path: "", rejectsAll: true) }
        dynamicTargets = loader.dynamicTargets
        usesDynamicReferences = loader.usesDynamicReferences
    }
}
