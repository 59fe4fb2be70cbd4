// MARK: - Design
//
// A schema whose root has applicators (`$ref`, `anyOf`, `if`/`then`,
// `patternProperties`, `dependentRequired`) is checked as a whole record:
// the full check (`SchemaChecker`) made a `Value` of every cell and an
// object of the record, about 3 µs a product. Most records pass. This
// check decides that over the raw record, reading the same `SchemaNode`s
// the full check reads, with no `Value` made for a text, number or bool:
//
//     raw record ──▶ RawSchemaCheck.passes ──yes──▶ valid
//                          │ no, or not sure
//                          ▼
//                    SchemaChecker (as before): the errors, byte for byte
//
// It only ever says "passes" when the full check would find nothing: a
// record it fails, or one it cannot judge, goes through the full check,
// which alone makes diagnostics. A cell that is not in place (`.other`:
// an escaped string, a nested array or object; a number kept as text) is
// handed to a quiet full check of that value.
//
// What depends on the names of a record's fields alone (where each property
// sits, which names a `patternProperties` pattern matches, which fall to
// `additionalProperties`) is worked out once per field list
// (`RawSchemaCheck.Layout`), not per record: a file of a million products
// has a few field lists.
//
// Compiled only when every schema applied in place to the record is one it
// knows: no `const`/`enum` on the record, no `propertyNames`,
// `unevaluated*` or `$dynamicRef`. Else the schema has none, and every
// record goes to the full check as before.
//
// Measured: `ferry validate` of 100,000 products against
// Scripts/bench-schemas/shop.schema.json ran 5,906M instructions with the
// full check per record, 1,051M with this one (and `ScalarPattern`); the
// reports are byte for byte the same.

/// Decides whether a raw record passes a schema, without making `Value`s;
/// see the design note.
final class RawSchemaCheck: Sendable {
    /// A schema applied in place to the record (the root, a `$ref`'s
    /// target, an `allOf` branch, `if`, `then`, …), with its in-place
    /// applicators as indices into `nodes`.
    ///
    /// A class, as `Layout.Part` is: a node is read per record, and a copy
    /// of a struct of arrays counts a reference to each.
    final class RecordNode: Sendable {
        let node: SchemaNode
        let ref: Int?
        let allOf: [Int]
        let anyOf: [Int]
        let oneOf: [Int]
        let not: Int?
        let ifSchema: Int?
        let thenSchema: Int?
        let elseSchema: Int?
        let dependentSchemas: [(name: String, node: Int)]

        init(_ draft: Draft) {
            node = draft.node
            ref = draft.ref
            allOf = draft.allOf
            anyOf = draft.anyOf
            oneOf = draft.oneOf
            not = draft.not
            ifSchema = draft.ifSchema
            thenSchema = draft.thenSchema
            elseSchema = draft.elseSchema
            dependentSchemas = draft.dependentSchemas
        }
    }

    /// A `RecordNode` while it is compiled.
    struct Draft {
        let node: SchemaNode
        var ref: Int?
        var allOf: [Int] = []
        var anyOf: [Int] = []
        var oneOf: [Int] = []
        var not: Int?
        var ifSchema: Int?
        var thenSchema: Int?
        var elseSchema: Int?
        var dependentSchemas: [(name: String, node: Int)] = []
    }

    private let plan: SchemaPlan
    /// `nodes[0]` is the root; empty when a schema applied to the record
    /// has a keyword this check does not judge (then only cells are judged
    /// here, for `RecordValidator`'s fields with constraints).
    private let nodes: [RecordNode]

    /// The most references a cell's check follows before it leaves the
    /// value to the full check; and the most schemas nested in place on
    /// the record that are compiled here (a longer chain, which a hostile
    /// schema can make of `$ref`s, leaves its records to the full check
    /// rather than recurse down the stack).
    private static let maxDepth = 32

    init(root: SchemaNode, plan: SchemaPlan) {
        self.plan = plan
        var compiler = Compiler(plan: plan)
        nodes = !plan.usesDynamicReferences && compiler.add(root) == 0 ? compiler.nodes : []
    }

    /// Whether whole records are judged here (`passes(_:_:)`).
    var judgesRecords: Bool { !nodes.isEmpty }

    // MARK: - Compiling

    private struct Compiler {
        let plan: SchemaPlan
        var nodes: [RecordNode] = []
        var indices: [ObjectIdentifier: Int] = [:]
        /// The nodes being compiled: one reached again applies to the
        /// record in place again, a loop the full check reports.
        var open: Set<ObjectIdentifier> = []

        init(plan: SchemaPlan) { self.plan = plan }

        /// The index of `node`; nil when it is not one this check judges.
        mutating func add(_ node: SchemaNode) -> Int? {
            let identity = ObjectIdentifier(node)
            if let index = indices[identity] { return index }
            guard !open.contains(identity), open.count < RawSchemaCheck.maxDepth, !node.rejectsAll,
                node.constant == nil, node.allowed == nil
            else {
                return nil
            }
            open.insert(identity)
            defer { open.remove(identity) }
            let index = nodes.count
            nodes.append(RecordNode(Draft(node: node)))
            var compiled = Draft(node: node)
            if let applicators = node.applicators {
                guard applicators.dynamicRef == nil, applicators.propertyNames == nil,
                    applicators.unevaluatedItems == nil, applicators.unevaluatedProperties == nil
                else { return nil }
                if let ref = applicators.ref {
                    guard plan.targets.indices.contains(ref), let target = add(plan.targets[ref]) else { return nil }
                    compiled.ref = target
                }
                func all(_ branches: [SchemaNode]) -> [Int]? {
                    var found: [Int] = []
                    for branch in branches {
                        guard let index = add(branch) else { return nil }
                        found.append(index)
                    }
                    return found
                }
                func one(_ branch: SchemaNode?) -> Int?? {
                    guard let branch else { return .some(nil) }
                    return add(branch).map { .some($0) }
                }
                guard let allOf = all(applicators.allOf), let anyOf = all(applicators.anyOf),
                    let oneOf = all(applicators.oneOf), let not = one(applicators.not),
                    let ifSchema = one(applicators.ifSchema), let thenSchema = one(applicators.thenSchema),
                    let elseSchema = one(applicators.elseSchema)
                else { return nil }
                compiled.allOf = allOf
                compiled.anyOf = anyOf
                compiled.oneOf = oneOf
                compiled.not = not
                compiled.ifSchema = ifSchema
                compiled.thenSchema = thenSchema
                compiled.elseSchema = elseSchema
                for (name, dependent) in applicators.dependentSchemas {
                    guard let index = add(dependent) else { return nil }
                    compiled.dependentSchemas.append((name, index))
                }
            }
            nodes[index] = RecordNode(compiled)
            indices[identity] = index
            return index
        }
    }

    // MARK: - Field lists

    /// Where each record node's fields sit in one field list, and which
    /// rule each other field falls to.
    struct Layout {
        /// A class of constants, as `RecordNode` is: read per record without
        /// a copy, or a check of exclusive access.
        final class Part {
            let properties: [(position: Int, node: SchemaNode)]
            let required: [Int]
            let missingRequired: Bool
            let patterned: [(position: Int, node: SchemaNode)]
            let additional: [Int]
            let dependentRequired: [(position: Int, required: [Int], lacking: Bool)]
            let dependentSchemas: [(position: Int, node: Int)]

            init(_ draft: Draft) {
                properties = draft.properties
                required = draft.required
                missingRequired = draft.missingRequired
                patterned = draft.patterned
                additional = draft.additional
                dependentRequired = draft.dependentRequired
                dependentSchemas = draft.dependentSchemas
            }
        }

        /// A `Part` while it is worked out.
        struct Draft {
            /// The properties the list has: a position and its schema.
            var properties: [(position: Int, node: SchemaNode)] = []
            /// The positions of the required names; `missingRequired` when
            /// the list lacks one.
            var required: [Int] = []
            var missingRequired = false
            /// Each field a `patternProperties` pattern matches, with its schema.
            var patterned: [(position: Int, node: SchemaNode)] = []
            /// The fields `additionalProperties` checks.
            var additional: [Int] = []
            /// `dependentRequired` whose dependency the list has: its
            /// position, the required positions, and whether one is lacking.
            var dependentRequired: [(position: Int, required: [Int], lacking: Bool)] = []
            /// `dependentSchemas` whose dependency the list has.
            var dependentSchemas: [(position: Int, node: Int)] = []
        }

        let fieldsAddress: UnsafeRawPointer
        /// Nil when the list repeats a name: the full check judges those records.
        let parts: [Part]?
    }

    /// The layout of `fields` for this schema.
    func layout(of fields: FieldList) -> Layout {
        let address = RawRecord.address(of: fields)
        let names = fields.utf8Names
        // Names past ASCII go to the full check: it finds a dependency by
        // `String ==`, canonical equivalence, where properties go by bytes.
        guard Set(names).count == names.count, names.allSatisfy({ $0.allSatisfy { $0 < 0x80 } }) else {
            return Layout(fieldsAddress: address, parts: nil)
        }

        func position(_ name: String) -> Int? {
            let bytes = Array(name.utf8)
            return names.firstIndex(of: bytes)
        }
        let parts = nodes.map { compiled -> Layout.Part in
            let node = compiled.node
            var part = Layout.Draft()
            for property in node.properties {
                if let found = position(property.name) { part.properties.append((found, property.node)) }
            }
            for name in node.required {
                if let found = position(name) { part.required.append(found) } else { part.missingRequired = true }
            }
            let applicators = node.applicators
            for (index, name) in fields.names.enumerated() {
                var matched = false
                for (pattern, schema) in applicators?.patternProperties ?? [] where pattern.matches(name) {
                    part.patterned.append((index, schema))
                    matched = true
                }
                if node.additionalProperties != nil && !matched && node.property(named: name) == nil {
                    part.additional.append(index)
                }
            }
            for (dependency, required) in applicators?.dependentRequired ?? [] {
                guard let found = Self.dependency(dependency, fields) else { continue }
                let positions = required.compactMap { Self.dependency($0, fields) }
                part.dependentRequired.append((found, positions, positions.count < required.count))
            }
            for (dependency, index) in compiled.dependentSchemas {
                if let found = Self.dependency(dependency, fields) { part.dependentSchemas.append((found, index)) }
            }
            return Layout.Part(part)
        }
        return Layout(fieldsAddress: address, parts: parts)
    }

    /// A dependency's position as the full check finds it (`keys.contains`, `String ==`).
    private static func dependency(_ name: String, _ fields: FieldList) -> Int? {
        fields.names.firstIndex { $0 == name }
    }

    // MARK: - Checking

    /// Whether `record` passes the schema, its null fields left out as the
    /// full check leaves them; false when it fails or this check cannot
    /// tell. `layout` is `layout(of: record.fields)`.
    func passes(_ record: RawRecord, _ layout: Layout) -> Bool {
        guard let parts = layout.parts, !nodes.isEmpty else { return false }
        do throws(Undecided) {
            return try passes(record, node: 0, parts)
        } catch {
            return false
        }
    }

    /// Thrown when the check cannot tell (a chain of references too long,
    /// a `$dynamicRef`): a `not` or an `if` must not take that for a failure.
    struct Undecided: Error {}

    private func passes(_ record: RawRecord, node index: Int, _ parts: [Layout.Part]) throws(Undecided) -> Bool {
        let compiled = nodes[index]
        let node = compiled.node
        if let types = node.types, !types.contains(.object) { return false }
        if let ref = compiled.ref, !(try passes(record, node: ref, parts)) { return false }
        for branch in compiled.allOf { guard try passes(record, node: branch, parts) else { return false } }
        if !compiled.anyOf.isEmpty {
            var passed = false
            for branch in compiled.anyOf where !passed { passed = try passes(record, node: branch, parts) }
            if !passed { return false }
        }
        if !compiled.oneOf.isEmpty {
            var passed = 0
            for branch in compiled.oneOf { passed += try passes(record, node: branch, parts) ? 1 : 0 }
            if passed != 1 { return false }
        }
        if let not = compiled.not, try passes(record, node: not, parts) { return false }
        if let condition = compiled.ifSchema {
            if try passes(record, node: condition, parts) {
                if let then = compiled.thenSchema, !(try passes(record, node: then, parts)) { return false }
            } else if let otherwise = compiled.elseSchema, !(try passes(record, node: otherwise, parts)) {
                return false
            }
        }
        let part = parts[index]
        for (position, dependent) in part.dependentSchemas where isPresent(record, position) {
            guard try passes(record, node: dependent, parts) else { return false }
        }
        // The object's own keywords.
        if part.missingRequired { return false }
        for position in part.required where !isPresent(record, position) { return false }
        for (position, schema) in part.properties where isPresent(record, position) {
            guard try passes(record, cell: position, schema) else { return false }
        }
        for (position, schema) in part.patterned where isPresent(record, position) {
            guard try passes(record, cell: position, schema) else { return false }
        }
        if let applicators = node.inPlace, applicators.minProperties != nil || applicators.maxProperties != nil {
            let count = record.values.indices.reduce(0) { isPresent(record, $1) ? $0 + 1 : $0 }
            if let limit = applicators.minProperties, count < limit { return false }
            if let limit = applicators.maxProperties, count > limit { return false }
        }
        for (position, required, lacking) in part.dependentRequired where isPresent(record, position) {
            if lacking { return false }
            for needed in required where !isPresent(record, needed) { return false }
        }
        if let additional = node.additionalProperties {
            for position in part.additional where isPresent(record, position) {
                guard !additional.rejectsAll, try passes(record, cell: position, additional) else { return false }
            }
        }
        return true
    }

    /// Whether field `position` counts: the full check leaves null fields out.
    private func isPresent(_ record: RawRecord, _ position: Int) -> Bool {
        switch record.values[position] {
        case .null: false
        case .other(let other): record.others[other] != .null
        default: true
        }
    }

    /// Whether the cell at `position` (not null) passes `node`.
    func passes(_ record: RawRecord, cell position: Int, _ node: SchemaNode) throws(Undecided) -> Bool {
        switch record.values[position] {
        case .null: return try passes(.null, node)
        case .bool(let flag): return try passes(.bool(flag), node)
        case .integer(let number): return try passes(.integer(number), node)
        case .double(let number): return try passes(.double(number), node)
        case .text(let bytes): return try passes(.text(bytes), node)
        case .number, .bytes, .other: return passesFully(record.value(at: position), node)
        }
    }

    /// A cell in place: what `passes(_:_:depth:)` reads.
    enum Cell {
        case null
        case bool(Bool)
        case integer(Int64)
        case double(Double)
        case text(UnsafeBufferPointer<UInt8>)

        /// The value of a cell that is not text (made without allocating).
        var scalarValue: Value? {
            switch self {
            case .null: .null
            case .bool(let flag): .bool(flag)
            case .integer(let number): .integer(number)
            case .double(let number): .double(number)
            case .text: nil
            }
        }
    }

    /// Whether `value` passes `node`, by the full check, quietly.
    private func passesFully(_ value: Value, _ node: SchemaNode) -> Bool {
        SchemaChecker(plan: plan, location: .unknown) { _ in false }.quieted.check(value, node, field: nil, required: false)
    }

    /// Whether a cell passes `node`: the full check's `checkOwn` and the
    /// in-place applicators (those about arrays and objects do nothing to
    /// a cell in place).
    func passes(_ cell: Cell, _ node: SchemaNode, depth: Int = 0) throws(Undecided) -> Bool {
        if node.rejectsAll { return false }
        guard !plan.usesDynamicReferences else { throw Undecided() }
        let value = cell.scalarValue
        if let types = node.types {
            let matches: Bool
            switch cell {
            case .text: matches = types.contains(.string)
            default: matches = value.map(types.matches) ?? false
            }
            guard matches else { return false }
        }
        if let constant = node.constant, !Self.equal(cell, value, constant) { return false }
        if let allowed = node.allowed, !allowed.contains(where: { Self.equal(cell, value, $0) }) { return false }
        switch cell {
        case .integer, .double:
            if let value, !passesNumber(value, node) { return false }
        case .text(let bytes):
            if !passesText(bytes, node) { return false }
        default:
            break
        }
        guard let applicators = node.inPlace else { return true }
        guard depth < Self.maxDepth, !applicators.dynamic else { throw Undecided() }
        if let ref = applicators.ref {
            guard plan.targets.indices.contains(ref) else { throw Undecided() }
            guard try passes(cell, plan.targets[ref], depth: depth + 1) else { return false }
        }
        for branch in applicators.allOf { guard try passes(cell, branch, depth: depth + 1) else { return false } }
        if !applicators.anyOf.isEmpty {
            var passed = false
            for branch in applicators.anyOf where !passed { passed = try passes(cell, branch, depth: depth + 1) }
            if !passed { return false }
        }
        if !applicators.oneOf.isEmpty {
            var passed = 0
            for branch in applicators.oneOf { passed += try passes(cell, branch, depth: depth + 1) ? 1 : 0 }
            if passed != 1 { return false }
        }
        if let not = applicators.not, try passes(cell, not, depth: depth + 1) { return false }
        if let condition = applicators.ifSchema {
            if try passes(cell, condition, depth: depth + 1) {
                if let then = applicators.thenSchema, !(try passes(cell, then, depth: depth + 1)) { return false }
            } else if let otherwise = applicators.elseSchema, !(try passes(cell, otherwise, depth: depth + 1)) {
                return false
            }
        }
        return true
    }

    /// `SchemaValues.equal` for a cell: text by its bytes (UTF-8 bytes are
    /// equal exactly when the scalars are), the rest by its value.
    private static func equal(_ cell: Cell, _ value: Value?, _ other: Value) -> Bool {
        if let value { return SchemaValues.equal(value, other) }
        guard case .text(let bytes) = cell, case .string(var text) = other else {
            guard case .text(let bytes) = cell, let text = SchemaValues.text(of: other) else { return false }
            return text.utf8.elementsEqual(bytes)
        }
        return text.withUTF8 { $0.count == bytes.count && $0.elementsEqual(bytes) }
    }

    /// The full check's `checkNumber`, as pass or fail.
    private func passesNumber(_ value: Value, _ node: SchemaNode) -> Bool {
        if let limit = node.minimum, SchemaValues.isBelow(value, minimum: limit) { return false }
        if let limit = node.maximum, SchemaValues.isAbove(value, maximum: limit) { return false }
        if let limit = node.exclusiveMinimum, SchemaValues.isAtOrBelow(value, exclusiveMinimum: limit) { return false }
        if let limit = node.exclusiveMaximum, SchemaValues.isAtOrAbove(value, exclusiveMaximum: limit) { return false }
        if let divisor = node.multipleOf, !SchemaValues.isMultiple(value, of: divisor) { return false }
        return true
    }

    /// The full check's `checkString`, as pass or fail, over the text's UTF-8.
    private func passesText(_ bytes: UnsafeBufferPointer<UInt8>, _ node: SchemaNode) -> Bool {
        if node.minLength != nil || node.maxLength != nil {
            // Code points: every byte that does not continue one.
            var length = 0
            for byte in bytes where byte & 0xC0 != 0x80 { length += 1 }
            if let limit = node.minLength, length < limit { return false }
            if let limit = node.maxLength, length > limit { return false }
        }
        if let pattern = node.pattern, !pattern.matches(utf8: bytes) { return false }
        if let format = node.format, !format.accepts(String(decoding: bytes, as: UTF8.self)) { return false }
        return true
    }
}
