/// The keywords of a schema beyond those a field's rule can hold: the
/// applicators (`$ref`, `allOf`, `if`, `prefixItems`, `patternProperties`,
/// …), the object and array counts, and `unevaluated*`. A node without any
/// has none (`SchemaNode.applicators` is nil), which is what lets the fast
/// paths check it themselves.
struct SchemaApplicators: Sendable {
    /// `$ref`: the index of its target in `SchemaPlan.targets`.
    var ref: Int?
    /// `$dynamicRef` (or 2019-09's `$recursiveRef`).
    var dynamicRef: DynamicReference?
    var allOf: [SchemaNode] = []
    var anyOf: [SchemaNode] = []
    var oneOf: [SchemaNode] = []
    var not: SchemaNode?
    var ifSchema: SchemaNode?
    var thenSchema: SchemaNode?
    var elseSchema: SchemaNode?
    var dependentSchemas: [(name: String, node: SchemaNode)] = []
    var dependentRequired: [(name: String, required: [String])] = []
    /// `prefixItems` (draft-07's array form of `items`); `SchemaNode.items`
    /// then holds the schema of the items after them.
    var prefixItems: [SchemaNode] = []
    var contains: SchemaNode?
    var minContains: Int?
    var maxContains: Int?
    var uniqueItems = false
    var patternProperties: [(pattern: SchemaPattern, node: SchemaNode)] = []
    var propertyNames: SchemaNode?
    var minProperties: Int?
    var maxProperties: Int?
    var unevaluatedItems: SchemaNode?
    var unevaluatedProperties: SchemaNode?

    /// Whether the node needs to know which properties and items its
    /// in-place subschemas looked at.
    var tracksEvaluation: Bool { unevaluatedItems != nil || unevaluatedProperties != nil }

    /// Whether any keyword is set.
    var isEmpty: Bool {
        ref == nil && dynamicRef == nil && allOf.isEmpty && anyOf.isEmpty && oneOf.isEmpty && not == nil
            && ifSchema == nil && thenSchema == nil && elseSchema == nil && dependentSchemas.isEmpty
            && dependentRequired.isEmpty && prefixItems.isEmpty && contains == nil && minContains == nil
            && maxContains == nil && !uniqueItems && patternProperties.isEmpty && propertyNames == nil
            && minProperties == nil && maxProperties == nil && unevaluatedItems == nil && unevaluatedProperties == nil
    }
}

/// A `$dynamicRef`: where it points when no outer resource overrides it,
/// and the dynamic anchor an outer resource may override it with (nil when
/// the reference's first target has no such `$dynamicAnchor`: then it is a
/// plain `$ref`).
struct DynamicReference: Sendable {
    let target: Int
    let anchor: String?
}

/// The properties and items that a schema's keywords looked at, for
/// `unevaluatedProperties` and `unevaluatedItems`. Only a schema that has
/// those keywords (or sits in place under one) makes one.
struct Evaluated {
    var names: [String] = []
    /// Items `0..<items` were looked at.
    var items = 0
    /// The items `contains` matched.
    var matched: [Int] = []

    mutating func merge(_ other: Evaluated) {
        names += other.names
        items = max(items, other.items)
        matched += other.matched
    }

    func includes(name: String) -> Bool { names.contains { $0.unicodeScalars.elementsEqual(name.unicodeScalars) } }
    func includes(item index: Int) -> Bool { index < items || matched.contains(index) }
}
