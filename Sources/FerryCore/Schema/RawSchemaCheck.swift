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
// What a record's check reads is plain values: each schema is compiled
// into a struct (`RecordRule` on the record, `CellRule` on a cell) whose
// subschemas are indices into the same flat array, and a layout into
// ranges of steps. Reading `SchemaNode`s per record (a class, its arrays
// of classes, its optional classes) counted a reference at nearly every
// load: swift_retain and swift_release were a fifth of a validation.
//
// Measured: `ferry validate` of 100,000 products against
// Scripts/bench-schemas/shop.schema.json ran 5,906M instructions with the
// full check per record, 1,051M with this one (and `ScalarPattern`) over
// `SchemaNode`s, 700M over plain values (with less work on the 2.8% of
// records that fail); the reports are byte for byte the same. This check
// alone: 425M over `SchemaNode`s, 200M over plain values.

/// Decides whether a raw record passes a schema, without making `Value`s;
/// see the design note.
final class RawSchemaCheck: Sendable {
    private let plan: SchemaPlan
    /// `records[0]` is the root; empty when a schema applied to the record
    /// has a keyword this check does not judge (then only cells are judged
    /// here, for `RecordValidator`'s fields with constraints).
    private let records: ContiguousArray<RecordRule>
    private let recordApplicators: ContiguousArray<Applicators>
    private let recordBranches: ContiguousArray<Int>
    /// The schema of each record rule, for the layouts; and the
    /// `dependentSchemas` of each, by name.
    let recordNodes: [SchemaNode]
    let recordDependents: [[(name: String, node: Int)]]
    private let cells: ContiguousArray<CellRule>
    private let cellChoices: ContiguousArray<ChoiceKeywords>
    private let cellNumbers: ContiguousArray<NumberKeywords>
    private let cellTexts: ContiguousArray<TextKeywords>
    private let cellApplicators: ContiguousArray<Applicators>
    private let cellBranches: ContiguousArray<Int>
    /// The schema of each cell rule, for the full check of a value not in place.
    private let cellNodes: [SchemaNode]
    /// Each compiled schema's cell rule.
    let cellIndices: [ObjectIdentifier: Int]
    /// The cell rule of each property of the root, in order.
    private let rootProperties: [Int]
    private let patterns: [SchemaPattern]
    private let choices: ContiguousArray<Choice>
    private let choiceBytes: ContiguousArray<UInt8>
    private let choiceValues: [Value]
    private let usesDynamicReferences: Bool

    /// The most references a cell's check follows before it leaves the
    /// value to the full check; and the most schemas nested in place on
    /// the record that are compiled here (a longer chain, which a hostile
    /// schema can make of `$ref`s, leaves its records to the full check
    /// rather than recurse down the stack).
    static let maxDepth = 32

    init(root: SchemaNode, plan: SchemaPlan) {
        self.plan = plan
        usesDynamicReferences = plan.usesDynamicReferences
        var compiler = Compiler(plan: plan)
        if plan.usesDynamicReferences || compiler.add(root) != 0 {
            compiler.records = []
            compiler.recordNodes = []
            compiler.recordDependents = []
        }
        var cellCompiler = CellCompiler(plan: plan)
        rootProperties = root.properties.map { cellCompiler.add($0.node) }
        for node in compiler.recordNodes {
            for property in node.properties { _ = cellCompiler.add(property.node) }
            for (_, schema) in node.applicators?.patternProperties ?? [] { _ = cellCompiler.add(schema) }
            if let additional = node.additionalProperties { _ = cellCompiler.add(additional) }
        }
        cellCompiler.finish()
        for index in compiler.records.indices {
            if let additional = compiler.recordNodes[index].additionalProperties {
                compiler.records[index].additional = cellCompiler.indices[ObjectIdentifier(additional)] ?? -1
            }
        }
        records = compiler.records
        recordApplicators = compiler.applicators
        recordBranches = compiler.branches
        recordNodes = compiler.recordNodes
        recordDependents = compiler.recordDependents
        cells = cellCompiler.rules
        cellChoices = cellCompiler.choiceKeywords
        cellNumbers = cellCompiler.numberKeywords
        cellTexts = cellCompiler.textKeywords
        cellApplicators = cellCompiler.applicators
        cellBranches = cellCompiler.branches
        cellNodes = cellCompiler.nodes
        cellIndices = cellCompiler.indices
        patterns = cellCompiler.patterns
        choices = cellCompiler.choices
        choiceBytes = cellCompiler.choiceBytes
        choiceValues = cellCompiler.choiceValues
    }

    /// Whether whole records are judged here (`passes(_:_:)`).
    var judgesRecords: Bool { !records.isEmpty }

    // MARK: - Checking

    /// Whether `record` passes the schema, its null fields left out as the
    /// full check leaves them; false when it fails or this check cannot
    /// tell. `layout` is `layout(of: record.fields)`.
    func passes(_ record: RawRecord, _ layout: Layout) -> Bool {
        guard layout.judged, !records.isEmpty else { return false }
        do throws(Undecided) {
            return try passes(record, node: 0, layout)
        } catch {
            return false
        }
    }

    /// Thrown when the check cannot tell (a chain of references too long,
    /// a `$dynamicRef`): a `not` or an `if` must not take that for a failure.
    struct Undecided: Error {}

    private func passes(_ record: RawRecord, node index: Int, _ layout: Layout) throws(Undecided) -> Bool {
        let rule = records[index]
        if let types = rule.types, !types.contains(.object) { return false }
        if rule.applicators >= 0 {
            let passed = try Self.passes(recordApplicators[rule.applicators], recordBranches) {
                (branch) throws(Undecided) -> Bool in try passes(record, node: branch, layout)
            }
            guard passed else { return false }
        }
        let part = layout.parts[index]
        let steps = layout.steps
        for step in part.dependentSchemas {
            let (position, dependent) = (steps[step].position, steps[step].rule)
            if isPresent(record, position) { guard try passes(record, node: dependent, layout) else { return false } }
        }
        // The object's own keywords.
        if part.missingRequired { return false }
        for step in part.required where !isPresent(record, steps[step].position) { return false }
        for step in part.cells {
            let (position, cell) = (steps[step].position, steps[step].rule)
            if isPresent(record, position) {
                guard try passes(record, cell: position, rule: cell) else { return false }
            }
        }
        if rule.minProperties != nil || rule.maxProperties != nil {
            let count = record.values.indices.reduce(0) { isPresent(record, $1) ? $0 + 1 : $0 }
            if let limit = rule.minProperties, count < limit { return false }
            if let limit = rule.maxProperties, count > limit { return false }
        }
        for step in part.dependentRequired where isPresent(record, steps[step].position) {
            if steps[step].lacking { return false }
            for needed in steps[step].required where !isPresent(record, layout.positions[needed]) { return false }
        }
        if rule.additional >= 0 {
            for step in part.additional {
                let position = steps[step].position
                if isPresent(record, position) {
                    guard try passes(record, cell: position, rule: rule.additional) else { return false }
                }
            }
        }
        return true
    }

    /// Whether field `position` counts: the full check leaves null fields out.
    @inline(__always)
    private func isPresent(_ record: RawRecord, _ position: Int) -> Bool {
        switch record.values[position] {
        case .null: false
        case .other(let other): record.others[other] != .null
        default: true
        }
    }

    /// Whether the cell at `position` (not null) passes the schema of
    /// property `property` of the root.
    func passes(_ record: RawRecord, cell position: Int, rootProperty property: Int) throws(Undecided) -> Bool {
        guard rootProperties.indices.contains(property) else { return false }
        return try passes(record, cell: position, rule: rootProperties[property])
    }

    /// Whether the cell at `position` (not null) passes cell rule `rule`.
    private func passes(_ record: RawRecord, cell position: Int, rule: Int) throws(Undecided) -> Bool {
        guard rule >= 0 else { return false }
        switch record.values[position] {
        case .null: return try passes(.null, rule: rule)
        case .bool(let flag): return try passes(.bool(flag), rule: rule)
        case .integer(let number): return try passes(.integer(number), rule: rule)
        case .double(let number): return try passes(.double(number), rule: rule)
        case .text(let bytes): return try passes(.text(bytes), rule: rule)
        case .number, .bytes, .other: return passesFully(record.value(at: position), cellNodes[rule])
        }
    }

    /// A cell in place: what `passes(_:rule:depth:)` reads.
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
        let checker = SchemaChecker(plan: plan, location: .unknown) { _ in false }
        return checker.quieted.check(value, node, field: nil, required: false)
    }

    /// Whether a cell passes cell rule `index`: the full check's `checkOwn`
    /// and the in-place applicators (those about arrays and objects do
    /// nothing to a cell in place).
    private func passes(_ cell: Cell, rule index: Int, depth: Int = 0) throws(Undecided) -> Bool {
        let rule = cells[index]
        if rule.rejectsAll { return false }
        guard !usesDynamicReferences else { throw Undecided() }
        if let types = rule.types, !Self.matches(cell, types) { return false }
        if rule.choices >= 0 {
            if let constant = cellChoices[rule.choices].constant, !isChoice(cell, constant) { return false }
            if let allowed = cellChoices[rule.choices].allowed, !isChoice(cell, allowed) { return false }
        }
        switch cell {
        case .integer(let number):
            if rule.numbers >= 0, !Self.passesNumber(.integer(number), cellNumbers[rule.numbers]) { return false }
        case .double(let number):
            if rule.numbers >= 0, !Self.passesNumber(.double(number), cellNumbers[rule.numbers]) { return false }
        case .text(let bytes):
            if rule.text >= 0, !passesText(bytes, cellTexts[rule.text]) { return false }
        default:
            break
        }
        guard rule.applicators >= 0 else { return true }
        let applicators = cellApplicators[rule.applicators]
        guard depth < Self.maxDepth, !applicators.undecided else { throw Undecided() }
        return try Self.passes(applicators, cellBranches) { (branch) throws(Undecided) -> Bool in
            try passes(cell, rule: branch, depth: depth + 1)
        }
    }

    /// Whether a value passes in-place applicators, `passes` judging it
    /// against each subschema (an index into the same rules as the
    /// applicators', records or cells).
    @inline(__always)
    private static func passes(
        _ applicators: Applicators, _ branches: ContiguousArray<Int>, _ passes: (Int) throws(Undecided) -> Bool
    ) throws(Undecided) -> Bool {
        if applicators.ref >= 0, !(try passes(applicators.ref)) { return false }
        for branch in applicators.allOf { guard try passes(branches[branch]) else { return false } }
        if !applicators.anyOf.isEmpty {
            var passed = false
            for branch in applicators.anyOf where !passed { passed = try passes(branches[branch]) }
            if !passed { return false }
        }
        if !applicators.oneOf.isEmpty {
            var passed = 0
            for branch in applicators.oneOf { passed += try passes(branches[branch]) ? 1 : 0 }
            if passed != 1 { return false }
        }
        if applicators.not >= 0, try passes(applicators.not) { return false }
        if applicators.ifSchema >= 0 {
            if try passes(applicators.ifSchema) {
                if applicators.thenSchema >= 0, !(try passes(applicators.thenSchema)) { return false }
            } else if applicators.elseSchema >= 0, !(try passes(applicators.elseSchema)) {
                return false
            }
        }
        return true
    }

    /// `JSONTypes.matches` for a cell.
    @inline(__always)
    private static func matches(_ cell: Cell, _ types: JSONTypes) -> Bool {
        switch cell {
        case .null: types.contains(.null)
        case .bool: types.contains(.boolean)
        case .integer: types.contains(.number) || types.contains(.integer)
        case .double(let number):
            types.contains(.number) || (types.contains(.integer) && SchemaValues.isIntegral(number))
        case .text: types.contains(.string)
        }
    }

    /// Whether the cell equals one of `range` of `choices`, as
    /// `SchemaValues.equal` decides: text by its bytes (UTF-8 bytes are
    /// equal exactly when the scalars are), the rest by its value.
    private func isChoice(_ cell: Cell, _ range: Range<Int>) -> Bool {
        guard case .text(let bytes) = cell else {
            guard let value = cell.scalarValue else { return false }
            return range.contains { SchemaValues.equal(value, choiceValues[choices[$0].value]) }
        }
        for choice in range {
            guard let text = choices[choice].text, text.count == bytes.count else { continue }
            var equal = true
            for offset in 0..<text.count where choiceBytes[text.lowerBound + offset] != bytes[offset] {
                equal = false
                break
            }
            if equal { return true }
        }
        return false
    }

    /// The full check's `checkNumber`, as pass or fail.
    private static func passesNumber(_ number: SchemaNumber, _ rule: NumberKeywords) -> Bool {
        if let limit = rule.minimum, SchemaValues.isBelow(number, minimum: limit) { return false }
        if let limit = rule.maximum, SchemaValues.isAbove(number, maximum: limit) { return false }
        if let limit = rule.exclusiveMinimum, SchemaValues.isAtOrBelow(number, exclusiveMinimum: limit) { return false }
        if let limit = rule.exclusiveMaximum, SchemaValues.isAtOrAbove(number, exclusiveMaximum: limit) { return false }
        if let divisor = rule.multipleOf, !SchemaValues.isMultiple(number, of: divisor) { return false }
        return true
    }

    /// The full check's `checkString`, as pass or fail, over the text's UTF-8.
    private func passesText(_ bytes: UnsafeBufferPointer<UInt8>, _ rule: TextKeywords) -> Bool {
        // Code points: between a quarter of the bytes and all of them. Most
        // texts are within the limits either way, and need no count.
        let surely =
            (rule.minLength.map { (bytes.count + 3) / 4 >= $0 } ?? true)
            && (rule.maxLength.map { bytes.count <= $0 } ?? true)
        if !surely {
            // Every byte that does not continue a code point starts one.
            var length = 0
            for byte in bytes where byte & 0xC0 != 0x80 { length += 1 }
            if let limit = rule.minLength, length < limit { return false }
            if let limit = rule.maxLength, length > limit { return false }
        }
        if rule.pattern >= 0, !patterns[rule.pattern].matches(utf8: bytes) { return false }
        if let format = rule.format, !format.accepts(String(decoding: bytes, as: UTF8.self)) { return false }
        return true
    }
}
