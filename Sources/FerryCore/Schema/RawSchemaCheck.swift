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
// which alone makes diagnostics. A string the reader could not leave in
// place (escapes) is checked as text in place is, over its UTF-8; any other
// cell not in place (a nested array or object, a number kept as text) is
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
// subschemas are indices into the same flat array. Reading `SchemaNode`s
// per record (a class, its arrays of classes, its optional classes)
// counted a reference at nearly every load: swift_retain and swift_release
// were a fifth of a validation.
//
// Each field list's layout compiles the record rules into flat steps, a
// program per rule: `required` and each property a step that names its
// field's position, `if`/`then`/`else` one step that runs three programs,
// a `$ref` or an `allOf` branch of a few steps copied in place. A cell
// rule's own keywords are one step on the cell in place, a `FieldCheck`
// (a case, limits, a pattern, choices: RawSchemaCheck+FieldCheck.swift),
// taken by the step that finds the cell, as the built-in kinds check
// theirs; an `anyOf` over disjoint cases is folded into it, and its other
// `anyOf`, `oneOf`, `not` and `if` are programs of such steps. A record's
// check is one loop over its root's program:
//
//     shop.schema.json, fields name, price, photo, sku, currency (0…4):
//        0  required 4                     `if`: a currency,
//        1  cell 4 in place: "JPY"               and it is JPY
//        2  cell 1 in place: multipleOf 1  `then`: a whole price
//        3  required 0                     the root: name and sku,
//        4  required 3
//        5  cell 0 in place: text, length 1...200   each property by its rule,
//        6  cell 3 in place: text, pattern 0
//        7  cell 1 in place: number or null, 0...1000000
//        8  cell 4 in place: the enum
//        9  cell 2 in place: null, or text of length 1...  (its `anyOf`, folded)
//       10  dependentRequired 1 → [4]      a price brings a currency,
//       11  conditional 0…2, then 2…3      if, then
//
// A cell not in place (an escaped string, a nested value) and a rule that
// cannot be laid out (a `$dynamicRef`, references nested deeper than
// `LayoutBuilder.cellDepth`) are judged by the cell rule whole
// (`passes(_:rule:depth:)`), reading the same compiled rules.
//
// The tables a record's check reads are `UnsafeTable`s (see
// RawSchemaCheck+UnsafeTable.swift), and the texts of an `enum` are
// compared as words.
//
// Measured: `ferry validate` of 100,000 products against
// Scripts/bench-schemas/shop.schema.json ran 5,906M instructions with the
// full check per record, 1,051M with this one (and `ScalarPattern`) over
// `SchemaNode`s, 700M over plain values (with less work on the 2.8% of
// records that fail); the reports are byte for byte the same. This check
// alone: 425M over `SchemaNode`s, 200M over plain values, 150M over flat
// steps (with escaped strings checked in place: they went through
// `passesFully` at 4,300 instructions each, 16M), 128M with cell rules laid
// out as steps on the cell in place (the whole validation: 606M → 565M,
// with the JSON report written as it goes), 124.7M with a cell's own
// keywords one step and the photo's `anyOf` folded (540.5M → 539.2M).

/// Decides whether a raw record passes a schema, without making `Value`s;
/// see the design note.
final class RawSchemaCheck: Sendable {
    private let plan: SchemaPlan
    /// `records[0]` is the root; empty when a schema applied to the record
    /// has a keyword this check does not judge (then only cells are judged
    /// here, for `RecordValidator`'s fields with constraints). Read when a
    /// field list's layout is compiled, not per record.
    let records: ContiguousArray<RecordRule>
    let recordApplicators: ContiguousArray<Applicators>
    let recordBranches: ContiguousArray<Int>
    /// The schema of each record rule, for the layouts; and the
    /// `dependentSchemas` of each, by name.
    let recordNodes: [SchemaNode]
    let recordDependents: [[(name: String, node: Int)]]
    // What a cell's check reads, per record (`UnsafeTable`); and what a
    // layout compiles its cell steps from.
    let cells: UnsafeTable<CellRule>
    /// Each cell rule's own keywords (RawSchemaCheck+FieldCheck.swift).
    let fieldChecks: UnsafeTable<FieldCheck>
    let cellNumbers: UnsafeTable<NumberKeywords>
    let cellApplicators: UnsafeTable<Applicators>
    let cellBranches: UnsafeTable<Int>
    /// The schema of each cell rule, for the full check of a value not in place.
    private let cellNodes: [SchemaNode]
    /// Each compiled schema's cell rule.
    let cellIndices: [ObjectIdentifier: Int]
    /// The cell rule of each property of the root, in order.
    private let rootProperties: [Int]
    let patterns: [SchemaPattern]
    private let choices: UnsafeTable<Choice>
    private let choiceBytes: UnsafeTable<UInt8>
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
        cells = UnsafeTable(cellCompiler.rules)
        fieldChecks = UnsafeTable(
            Self.fieldChecks(
                cellCompiler.rules, texts: cellCompiler.textKeywords, choices: cellCompiler.choiceKeywords,
                applicators: cellCompiler.applicators, branches: cellCompiler.branches))
        cellNumbers = UnsafeTable(cellCompiler.numberKeywords)
        cellApplicators = UnsafeTable(cellCompiler.applicators)
        cellBranches = UnsafeTable(cellCompiler.branches)
        cellNodes = cellCompiler.nodes
        cellIndices = cellCompiler.indices
        patterns = cellCompiler.patterns
        choices = UnsafeTable(cellCompiler.choices)
        choiceBytes = UnsafeTable(cellCompiler.choiceBytes)
        choiceValues = cellCompiler.choiceValues
    }

    /// Whether whole records are judged here (`passes(_:_:)`).
    var judgesRecords: Bool { !records.isEmpty }

    // MARK: - Checking

    /// Whether `record` passes the schema, its null fields left out as the
    /// full check leaves them; false when it fails or this check cannot
    /// tell. `layout` is `layout(of: record.fields)`.
    func passes(_ record: RawRecord, _ layout: Layout) -> Bool {
        guard layout.judged else { return false }
        do throws(Undecided) {
            return try run(layout.root, record, layout)
        } catch {
            return false
        }
    }

    /// Thrown when the check cannot tell (a chain of references too long,
    /// a `$dynamicRef`): a `not` or an `if` must not take that for a failure.
    struct Undecided: Error {}

    /// Whether every step of `program` passes.
    private func run(_ program: StepRange, _ record: RawRecord, _ layout: Layout) throws(Undecided) -> Bool {
        var index = Int(program.start)
        let end = Int(program.end)
        while index < end {
            switch layout.steps[index] {
            case .fail:
                return false
            case .required(let position):
                if !isPresent(record, position) { return false }
            case .absent(let position):
                if isPresent(record, position) { return false }
            case .cell(let position, let rule):
                guard try passesIfPresent(record, position, rule: rule) else { return false }
            case .cellInPlace(let position, let rule, let skip, let check):
                let value = record.values[position]
                switch value {
                case .bool, .integer, .double, .text:
                    if check >= 0, !passesOwn(value, fieldChecks.address(Int(check))) {
                        return false
                    }
                case .null: index += Int(skip)
                case .other, .number, .bytes:
                    guard try passesIfPresent(record, position, rule: rule) else { return false }
                    index += Int(skip)
                }
            case .field(let position, let check):
                // After a `.cellInPlace` of the same cell: in place, not null.
                guard passesOwn(record.values[position], fieldChecks.address(Int(check))) else { return false }
            case .dependentRequired(let position, let needed):
                if isPresent(record, position) {
                    for index in needed.range where !isPresent(record, layout.positions[index]) { return false }
                }
            case .dependentSchema(let position, let dependent):
                if isPresent(record, position) { guard try run(dependent, record, layout) else { return false } }
            case .properties(let minimum, let maximum):
                let count = record.values.indices.reduce(0) { isPresent(record, $1) ? $0 + 1 : $0 }
                if count < minimum || count > maximum { return false }
            case .all(let applied):
                guard try run(applied, record, layout) else { return false }
            case .anyOf(let alternatives):
                var passed = false
                for branch in alternatives.range where !passed {
                    passed = try run(layout.branches[branch], record, layout)
                }
                if !passed { return false }
            case .oneOf(let alternatives):
                var passed = 0
                for branch in alternatives.range {
                    passed += try run(layout.branches[branch], record, layout) ? 1 : 0
                }
                if passed != 1 { return false }
            case .not(let negated):
                if try run(negated, record, layout) { return false }
            case .conditional(let condition, let then, let otherwise):
                guard try run(try run(condition, record, layout) ? then : otherwise, record, layout) else {
                    return false
                }
            }
            index += 1
        }
        return true
    }

    /// Whether field `position` counts: the full check leaves null fields out.
    @inline(__always)
    private func isPresent(_ record: RawRecord, _ position: Int) -> Bool {
        switch record.values[position] {
        case .null: false
        case .other(let other): !Self.isNull(record.others[other])
        default: true
        }
    }

    @inline(__always)
    private static func isNull(_ value: Value) -> Bool {
        if case .null = value { true } else { false }
    }

    /// Whether the cell at `position` passes cell rule `rule`, or is null
    /// (left out, as the full check leaves it).
    @inline(__always)
    private func passesIfPresent(_ record: RawRecord, _ position: Int, rule: Int) throws(Undecided) -> Bool {
        switch record.values[position] {
        case .null: return true
        case .bool(let flag): return try passes(.bool(flag), rule: rule)
        case .integer(let number): return try passes(.integer(number), rule: rule)
        case .double(let number): return try passes(.double(number), rule: rule)
        case .text(let bytes): return try passes(.text(bytes), rule: rule)
        case .other(let other):
            switch record.others[other] {
            case .null: return true
            case .string(var text):
                // A string the reader could not leave in place (escapes):
                // checked as text in place is, over its UTF-8 (the full
                // check took 4,300 instructions: 16M of 100,000 products).
                let outcome = text.withUTF8 { bytes in
                    Result { () throws(Undecided) -> Bool in try passes(.text(bytes), rule: rule) }
                }
                return try outcome.get()
            case let value: return passesFully(value, cellNodes[rule])
            }
        case .number(let text): return try passes(Cell(number: text), rule: rule)
        case .bytes: return passesFully(record.value(at: position), cellNodes[rule])
        }
    }

    /// Whether the cell at `position` (not null) passes the schema of
    /// property `property` of the root.
    func passes(_ record: RawRecord, cell position: Int, rootProperty property: Int) throws(Undecided) -> Bool {
        guard rootProperties.indices.contains(property) else { return false }
        let rule = rootProperties[property]
        switch record.values[position] {
        case .null: return try passes(.null, rule: rule)
        case .bool(let flag): return try passes(.bool(flag), rule: rule)
        case .integer(let number): return try passes(.integer(number), rule: rule)
        case .double(let number): return try passes(.double(number), rule: rule)
        case .text(let bytes): return try passes(.text(bytes), rule: rule)
        case .number(let text): return try passes(Cell(number: text), rule: rule)
        case .bytes, .other: return passesFully(record.value(at: position), cellNodes[rule])
        }
    }

    /// A cell in place: what `passes(_:rule:depth:)` reads.
    enum Cell {
        case null
        case bool(Bool)
        case integer(Int64)
        case double(Double)
        case text(UnsafeBufferPointer<UInt8>)

        /// A cell in place of a raw record; nil for one that is not (`.other`, `.number`, `.bytes`).
        @inline(__always)
        init?(inPlace value: RawValue) {
            switch value {
            case .null: self = .null
            case .bool(let flag): self = .bool(flag)
            case .integer(let number): self = .integer(number)
            case .double(let number): self = .double(number)
            case .text(let bytes): self = .text(bytes)
            case .other, .number, .bytes: return nil
            }
        }

        /// A number kept as its text (`.number`), as the full check reads
        /// it (`NumberText.value`): judged in place, where the full check
        /// of its value took 3,800 instructions (967 of 100,000 products).
        @inline(__always)
        init(number text: UnsafeBufferPointer<UInt8>) {
            switch DecimalText.value(text) {
            case .integer(let number)?: self = .integer(number)
            case .double(let number)?: self = .double(number)
            default: self = .double(.nan)
            }
        }

        /// The cell as a raw cell in place.
        @inline(__always)
        var inPlace: RawValue {
            switch self {
            case .null: .null
            case .bool(let flag): .bool(flag)
            case .integer(let number): .integer(number)
            case .double(let number): .double(number)
            case .text(let bytes): .text(bytes)
            }
        }

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
        return checker.quietly { checker.check(value, node, field: nil, required: false) }
    }

    /// Whether a cell passes cell rule `index`: the full check's `checkOwn`
    /// and the in-place applicators (those about arrays and objects do
    /// nothing to a cell in place).
    private func passes(_ cell: Cell, rule index: Int, depth: Int = 0) throws(Undecided) -> Bool {
        let rule = cells[index]
        guard !usesDynamicReferences else { throw Undecided() }
        let own = fieldChecks.address(index)
        guard passesOwn(cell, own) else { return false }
        guard rule.applicators >= 0, !own.pointee.foldsApplicators else { return true }
        let applicators = cellApplicators[rule.applicators]
        guard depth < Self.maxDepth, !applicators.undecided else { throw Undecided() }
        return try Self.passes(applicators, cellBranches) { (branch) throws(Undecided) -> Bool in
            try passes(cell, rule: branch, depth: depth + 1)
        }
    }

    /// Whether a value passes in-place applicators, `passes` judging it
    /// against each subschema (an index into the same rules as the
    /// applicators').
    @inline(__always)
    private static func passes(
        _ applicators: Applicators, _ branches: UnsafeTable<Int>, _ passes: (Int) throws(Undecided) -> Bool
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

    /// Up to 8 bytes in a word, the first in the lowest byte; nil for more.
    /// Two texts of the same length are equal exactly when their words are.
    @inline(__always)
    static func word(of bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard bytes.count <= 8 else { return nil }
        var word: UInt64 = 0
        for index in 0..<bytes.count { word |= UInt64(bytes[index]) << UInt64(index * 8) }
        return word
    }

    /// Whether the cell equals one of `range` of `choices`, as
    /// `SchemaValues.equal` decides: text by its bytes (UTF-8 bytes are
    /// equal exactly when the scalars are), the rest by its value.
    func isChoice(_ value: RawValue, _ range: Range<Int>) -> Bool {
        guard case .text(let bytes) = value else {
            guard let value = Cell(inPlace: value)?.scalarValue else { return false }
            return range.contains { SchemaValues.equal(value, choiceValues[choices[$0].value]) }
        }
        if let word = Self.word(of: bytes) {
            // Texts of the same length are equal when their words are; a
            // choice of another length or no text has another word or none.
            for index in range {
                let choice = choices.address(index)
                if choice.pointee.length == bytes.count, choice.pointee.word == word { return true }
            }
            return false
        }
        for index in range {
            let choice = choices[index]
            guard let text = choice.text, text.count == bytes.count else { continue }
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
    static func passesNumber(_ number: SchemaNumber, _ rule: NumberKeywords) -> Bool {
        if let limit = rule.minimum, SchemaValues.isBelow(number, minimum: limit) { return false }
        if let limit = rule.maximum, SchemaValues.isAbove(number, maximum: limit) { return false }
        if let limit = rule.exclusiveMinimum, SchemaValues.isAtOrBelow(number, exclusiveMinimum: limit) { return false }
        if let limit = rule.exclusiveMaximum, SchemaValues.isAtOrAbove(number, exclusiveMaximum: limit) { return false }
        if let divisor = rule.multipleOf, !SchemaValues.isMultiple(number, of: divisor) { return false }
        return true
    }

    /// `passesNumber` of a double: against the limits as doubles when they
    /// are doubles exactly (NaN fails each test, as it breaks each limit).
    /// The keywords are read in place (`UnsafeTable.address`): a copy of
    /// them all was a call to `memcpy` a cell.
    @inline(__always)
    static func passesNumber(_ number: Double, _ rule: UnsafePointer<NumberKeywords>) -> Bool {
        guard let limits = rule.pointee.doubles else { return passesNumber(SchemaNumber.double(number), rule.pointee) }
        if let limit = limits.minimum, !(number >= limit) { return false }
        if let limit = limits.maximum, !(number <= limit) { return false }
        if let limit = limits.exclusiveMinimum, !(number > limit) { return false }
        if let limit = limits.exclusiveMaximum, !(number < limit) { return false }
        if let divisor = rule.pointee.multipleOf, !SchemaValues.isMultiple(SchemaNumber.double(number), of: divisor) {
            return false
        }
        return true
    }

    /// Whether a text's length in code points is within `minimum...maximum`
    /// (`minLength`, `maxLength`).
    @inline(__always)
    static func hasLength(_ bytes: UnsafeBufferPointer<UInt8>, _ minimum: Int, _ maximum: Int) -> Bool {
        // Code points: between a quarter of the bytes and all of them. Most
        // texts are within the limits either way, and need no count.
        if (bytes.count + 3) / 4 >= minimum && bytes.count <= maximum { return true }
        // Every byte that does not continue a code point starts one.
        var length = 0
        for byte in bytes where byte & 0xC0 != 0x80 { length += 1 }
        return length >= minimum && length <= maximum
    }

}
