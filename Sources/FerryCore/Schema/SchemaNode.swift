/// One compiled schema of a document: the root, or a schema inside it
/// (under `properties`, `items`, `allOf`, …, or a reference's target). Each keyword's
/// value is checked and converted once, at load; a keyword the schema does
/// not have is nil.
final class SchemaNode: Sendable {
    /// Where the schema sits in the document, as a JSON pointer (`""` for
    /// the root, `/properties/price`); a failing keyword's rule is this
    /// followed by `/` and the keyword.
    let path: String
    /// The schema `false`, which nothing passes.
    let rejectsAll: Bool
    let types: JSONTypes?
    let constant: Value?
    let allowed: [Value]?
    let minimum: SchemaNumber?
    let maximum: SchemaNumber?
    let exclusiveMinimum: SchemaNumber?
    let exclusiveMaximum: SchemaNumber?
    let multipleOf: SchemaNumber?
    let minLength: Int?
    let maxLength: Int?
    let pattern: SchemaPattern?
    let format: SchemaFormat?
    let items: SchemaNode?
    let minItems: Int?
    let maxItems: Int?
    let required: [String]
    let properties: [SchemaProperty]
    /// The schema of the fields `properties` does not name; nil when any is allowed.
    let additionalProperties: SchemaNode?
    /// `additionalProperties` is `true` or `{}`: it looks at every other
    /// field (for `unevaluatedProperties`) and refuses none.
    let evaluatesOtherProperties: Bool
    /// Every other keyword; nil when there are none.
    let applicators: SchemaApplicators?
    /// The applicators a value in place meets (`$ref`, `allOf`, `anyOf`,
    /// `oneOf`, `not`, `if`), in a class: `RawSchemaCheck` reads them per
    /// cell, and a copy of `applicators` counts a reference to each of its
    /// arrays.
    let inPlace: InPlaceApplicators?
    /// The index of the schema resource the node belongs to (the document,
    /// or a schema with its own `$id`), for `$dynamicRef`.
    let resource: Int

    init(
        path: String, rejectsAll: Bool = false, types: JSONTypes? = nil, constant: Value? = nil,
        allowed: [Value]? = nil, minimum: SchemaNumber? = nil, maximum: SchemaNumber? = nil,
        exclusiveMinimum: SchemaNumber? = nil, exclusiveMaximum: SchemaNumber? = nil,
        multipleOf: SchemaNumber? = nil, minLength: Int? = nil, maxLength: Int? = nil,
        pattern: SchemaPattern? = nil, format: SchemaFormat? = nil, items: SchemaNode? = nil, minItems: Int? = nil,
        maxItems: Int? = nil, required: [String] = [], properties: [SchemaProperty] = [],
        additionalProperties: SchemaNode? = nil, evaluatesOtherProperties: Bool = false,
        applicators: SchemaApplicators? = nil, resource: Int = 0
    ) {
        self.path = path
        self.rejectsAll = rejectsAll
        self.types = types
        self.constant = constant
        self.allowed = allowed
        self.minimum = minimum
        self.maximum = maximum
        self.exclusiveMinimum = exclusiveMinimum
        self.exclusiveMaximum = exclusiveMaximum
        self.multipleOf = multipleOf
        self.minLength = minLength
        self.maxLength = maxLength
        self.pattern = pattern
        self.format = format
        self.items = items
        self.minItems = minItems
        self.maxItems = maxItems
        self.required = required
        self.properties = properties
        self.additionalProperties = additionalProperties
        self.evaluatesOtherProperties = evaluatesOtherProperties
        self.applicators = applicators.flatMap { $0.isEmpty ? nil : $0 }
        inPlace = self.applicators.map(InPlaceApplicators.init)
        self.resource = resource
    }

    /// The property named `name`, compared by Unicode scalars as JSON does.
    func property(named name: String) -> SchemaProperty? {
        properties.first { SchemaValues.sameName($0.name, name) }
    }

    /// Whether `properties` names `name`: `property(named:) != nil`, with
    /// no property copied out (its name and node counted).
    func hasProperty(named name: String) -> Bool {
        properties.contains { SchemaValues.sameName($0.name, name) }
    }

    /// Whether `required` lists `name`.
    func requires(_ name: String) -> Bool {
        required.contains { SchemaValues.sameName($0, name) }
    }
}

/// A property of an object schema.
struct SchemaProperty: Sendable {
    let name: String
    let node: SchemaNode
    /// Whether the object's `required` lists it.
    let required: Bool
    /// `x-ferry-unique: true` (top-level properties only).
    let unique: Bool
}

/// `SchemaApplicators`' keywords that apply to a value in place, but for
/// `dependentSchemas` (objects only); see `SchemaNode.inPlace`.
final class InPlaceApplicators: Sendable {
    let ref: Int?
    /// A `$dynamicRef`, which `RawSchemaCheck` leaves to the full check.
    let dynamic: Bool
    let allOf: [SchemaNode]
    let anyOf: [SchemaNode]
    let oneOf: [SchemaNode]
    let not: SchemaNode?
    let ifSchema: SchemaNode?
    let thenSchema: SchemaNode?
    let elseSchema: SchemaNode?
    let minProperties: Int?
    let maxProperties: Int?

    init(_ applicators: SchemaApplicators) {
        ref = applicators.ref
        dynamic = applicators.dynamicRef != nil
        allOf = applicators.allOf
        anyOf = applicators.anyOf
        oneOf = applicators.oneOf
        not = applicators.not
        ifSchema = applicators.ifSchema
        thenSchema = applicators.thenSchema
        elseSchema = applicators.elseSchema
        minProperties = applicators.minProperties
        maxProperties = applicators.maxProperties
    }
}
