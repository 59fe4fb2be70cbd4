/// The keywords of a schema beyond those a field's rule can hold: the
/// applicators (`$ref`, `allOf`, `if`, `prefixItems`, `patternProperties`,
/// …), the object and array counts, and `unevaluated*`. A node without any
/// has none (`SchemaNode.applicators` is nil), which is what lets the fast
/// paths check it themselves.
///
/// A class, written by `SchemaCompiler` before the node that holds it is
/// made and only read after (hence unchecked `Sendable`): the full check
/// reads it at every node it passes, and a copy of a struct this size
/// counted a reference to each of its arrays, about 700 instructions a
/// node (11M of 562M validating 100,000 products against
/// Scripts/bench-schemas/shop.schema.json, 2,826 of them invalid).
final class SchemaApplicators: @unchecked Sendable {
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
    private var names: Set<NameKey> = []
    /// Items `0..<items` were looked at.
    var items = 0
    /// The items `contains` matched.
    var matched: Set<Int> = []

    mutating func merge(_ other: Evaluated) {
        names.formUnion(other.names)
        items = max(items, other.items)
        matched.formUnion(other.matched)
    }

    mutating func insert(name: String) { names.insert(NameKey(name)) }
    mutating func insert(names: [String]) { for name in names { insert(name: name) } }

    /// Looked up in a set: an object of many properties is one pass, not
    /// a scan of every name for each.
    func includes(name: String) -> Bool { names.contains(NameKey(name)) }
    func includes(item index: Int) -> Bool { index < items || matched.contains(index) }
}

/// A property name by its Unicode scalars, as JSON compares names (Swift's
/// `String ==` is canonical equivalence: `é` would equal `e` + U+0301).
private struct NameKey: Hashable {
    let scalars: [Unicode.Scalar]

    init(_ name: String) { scalars = Array(name.unicodeScalars) }
}
