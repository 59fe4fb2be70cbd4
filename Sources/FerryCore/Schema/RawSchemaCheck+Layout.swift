// Where a field list puts the fields each record rule of
// `RawSchemaCheck` looks at, compiled once per list into flat steps.

extension RawSchemaCheck {
    /// A run of steps (`Layout.steps`) or branches (`Layout.branches`):
    /// two halves of a word, where a `Range<Int>` took two.
    struct StepRange: Sendable {
        var start: Int32
        var end: Int32

        init(_ range: Range<Int>) {
            start = Int32(truncatingIfNeeded: range.lowerBound)
            end = Int32(truncatingIfNeeded: range.upperBound)
        }

        var range: Range<Int> { Int(start)..<Int(end) }
        var count: Int { Int(end) - Int(start) }
    }

    /// One step of a record rule compiled for a field list: positions are
    /// the fields' places in the list, programs runs of steps that must all
    /// pass. The record rule's own keywords become steps in a row, its
    /// applicators steps that run other programs.
    enum Step: Sendable {
        /// The rule fails whatever the record holds: its type is no object,
        /// the list lacks a required name.
        case fail
        /// The field must be there (not null).
        case required(Int)
        /// The field, when there, must not be: `dependentRequired` names a
        /// field the list lacks; a property whose schema is not compiled.
        case absent(Int)
        /// The field's cell, when there, passes cell rule `rule`, judged
        /// whole (`passesIfPresent`): a rule whose keywords are not laid
        /// out as steps.
        case cell(Int, rule: Int)
        /// The field's cell, when there, passes cell rule `rule`, whose
        /// keywords are the `skip` steps that follow, on the cell in place:
        /// a null skips them, and a cell not in place (an escaped string, a
        /// nested value, a number kept as text) is judged whole, as by
        /// `.cell`, and skips them too. The steps after it read the cell as
        /// the built-in kinds' check does, a case and a limit.
        /// The cell in place must also pass `checks[check]` (the rule's own
        /// keywords, first of its steps; -1 for none).
        case cellInPlace(Int, rule: Int, skip: Int32, check: Int32)
        /// The cell in place passes `checks[check]`: a cell rule's own
        /// keywords (`type`, limits, `pattern`, `format`, `const`, `enum`)
        /// in one step, with a disjoint `anyOf` of such rules folded in
        /// (see RawSchemaCheck+FieldCheck.swift).
        case field(Int, check: Int32)
        /// When the field is there, so must be the fields at `positions[run]`.
        case dependentRequired(Int, StepRange)
        /// When the field is there, the program must pass (`dependentSchemas`).
        case dependentSchema(Int, StepRange)
        /// Counts the fields there (`minProperties`, `maxProperties`).
        case properties(minimum: Int, maximum: Int)
        /// The program must pass (`$ref`, an `allOf` branch).
        case all(StepRange)
        /// At least one of the programs `branches[run]` must pass.
        case anyOf(StepRange)
        /// Exactly one of the programs `branches[run]` must pass.
        case oneOf(StepRange)
        /// The program must fail.
        case not(StepRange)
        /// `if`, `then`, `else`: an absent `then` or `else` is an empty program.
        case conditional(StepRange, then: StepRange, else: StepRange)
    }

    /// The steps of each record rule for one field list. A class, read per
    /// record without copying or counting what it holds.
    final class Layout {
        let fieldsAddress: UnsafeRawPointer
        /// False when the list repeats a name: the full check judges those records.
        let judged: Bool
        let steps: UnsafeTable<Step>
        /// The program of each branch of an `anyOf` or a `oneOf`.
        let branches: UnsafeTable<StepRange>
        let positions: UnsafeTable<Int>
        /// The root's program.
        let root: StepRange

        init(
            fieldsAddress: UnsafeRawPointer, judged: Bool, steps: [Step] = [], branches: [StepRange] = [],
            positions: [Int] = [], root: StepRange = StepRange(0..<0)
        ) {
            self.fieldsAddress = fieldsAddress
            self.judged = judged
            self.steps = UnsafeTable(steps)
            self.branches = UnsafeTable(branches)
            self.positions = UnsafeTable(positions)
            self.root = root
        }
    }

    /// The layout of `fields` for this schema.
    func layout(of fields: FieldList) -> Layout {
        let address = RawRecord.address(of: fields)
        let names = fields.utf8Names
        // Names past ASCII go to the full check: it finds a dependency by
        // `String ==`, canonical equivalence, where properties go by bytes.
        guard judgesRecords, Set(names).count == names.count, names.allSatisfy({ $0.allSatisfy { $0 < 0x80 } })
        else {
            return Layout(fieldsAddress: address, judged: false)
        }
        var builder = LayoutBuilder(check: self, fields: fields)
        let root = builder.program(0)
        guard builder.steps.count < Int(Int32.max), builder.positions.count < Int(Int32.max) else {
            return Layout(fieldsAddress: address, judged: false)
        }
        return Layout(
            fieldsAddress: address, judged: true, steps: builder.steps, branches: builder.branches,
            positions: builder.positions, root: root)
    }

    /// Compiles the record rules for one field list, each once.
    private struct LayoutBuilder {
        let check: RawSchemaCheck
        let fields: FieldList
        let names: [[UInt8]]
        var steps: [Step] = []
        var branches: [StepRange] = []
        var positions: [Int] = []
        var programs: [Int: StepRange] = [:]

        /// A program of at most this many steps is copied into the one that
        /// runs it (`$ref`, `allOf`) rather than run as a step of its own.
        static let inlined = 4

        init(check: RawSchemaCheck, fields: FieldList) {
            self.check = check
            self.fields = fields
            names = fields.utf8Names
        }

        func position(_ name: String) -> Int? {
            let bytes = Array(name.utf8)
            return names.firstIndex(of: bytes)
        }

        func cell(_ node: SchemaNode) -> Int { check.cellIndices[ObjectIdentifier(node)] ?? -1 }

        /// The program of record rule `index`: its programs first, then its
        /// own steps in a row. Record rules do not loop (`Compiler`), so
        /// this ends.
        mutating func program(_ index: Int) -> StepRange {
            if let known = programs[index] { return known }
            var own: [Step] = []
            let rule = check.records[index]
            if let types = rule.types, !types.contains(.object) {
                own = [.fail]
            } else {
                own = ownSteps(index, rule)
                if rule.applicators >= 0 { own += applicatorSteps(check.recordApplicators[rule.applicators]) }
                for (dependency, rule) in check.recordDependents[index] {
                    guard let found = RawSchemaCheck.dependency(dependency, fields) else { continue }
                    own.append(.dependentSchema(found, program(rule)))
                }
            }
            let start = steps.count
            steps += own
            let range = StepRange(start..<steps.count)
            programs[index] = range
            return range
        }

        /// The steps of a record rule's own keywords, the cheap ones first.
        private mutating func ownSteps(_ index: Int, _ rule: RecordRule) -> [Step] {
            let node = check.recordNodes[index]
            let applicators = node.applicators
            var own: [Step] = []
            for name in node.required {
                if let found = position(name) {
                    own.append(.required(found))
                } else {
                    return [.fail]
                }
            }
            for property in node.properties {
                guard let found = position(property.name) else { continue }
                own += cellSteps(found, cell(property.node))
            }
            for (position, name) in fields.names.enumerated() {
                for (pattern, schema) in applicators?.patternProperties ?? [] where pattern.matches(name) {
                    own += cellSteps(position, cell(schema))
                }
            }
            if rule.minProperties != nil || rule.maxProperties != nil {
                own.append(.properties(minimum: rule.minProperties ?? 0, maximum: rule.maxProperties ?? .max))
            }
            for (dependency, required) in applicators?.dependentRequired ?? [] {
                guard let found = RawSchemaCheck.dependency(dependency, fields) else { continue }
                let present = required.compactMap { RawSchemaCheck.dependency($0, fields) }
                if present.count < required.count {
                    own.append(.absent(found))
                } else {
                    let start = positions.count
                    positions += present
                    own.append(.dependentRequired(found, StepRange(start..<positions.count)))
                }
            }
            if node.additionalProperties != nil {
                for (position, name) in fields.names.enumerated() {
                    let matched = applicators?.patternProperties.contains { $0.pattern.matches(name) } ?? false
                    guard !matched && node.property(named: name) == nil else { continue }
                    own += cellSteps(position, rule.additional)
                }
            }
            return own
        }

        /// The most references a cell rule's steps follow in place, and the
        /// most steps a layout lays out cell rules in: past either, a cell
        /// rule is judged whole (`.cell`), as a hostile schema's long
        /// chains of `$ref`s or `allOf`s are.
        static let cellDepth = 8
        static let maxSteps = 1 << 16

        /// The steps that check the field at `position` against cell rule
        /// `rule`: its keywords on the cell in place, after a step that
        /// skips them for a null and judges a cell not in place whole; the
        /// rule judged whole (`.cell`) when it cannot be laid out so.
        private mutating func cellSteps(_ position: Int, _ rule: Int) -> [Step] {
            guard rule >= 0 else { return [.absent(position)] }
            guard var body = cellBody(position, rule, depth: 0), body.count < Int(Int32.max) else {
                return [.cell(position, rule: rule)]
            }
            // The own keywords are checked by the step that finds the cell
            // in place, a step less for most fields.
            var check: Int32 = -1
            if case .field(_, let own)? = body.first {
                check = own
                body.removeFirst()
            }
            return [.cellInPlace(position, rule: rule, skip: Int32(body.count), check: check)] + body
        }

        /// The keywords of cell rule `index` as steps on the cell at
        /// `position` (in place, not null), in the order its own check reads
        /// them; the programs of its `anyOf`, `oneOf`, `not` and `if` go
        /// into `steps` as they are made. Nil for a rule left to be judged
        /// whole: one with a `$dynamicRef` or a `$ref` without a target,
        /// references nested past `cellDepth`.
        private mutating func cellBody(_ position: Int, _ index: Int, depth: Int) -> [Step]? {
            guard depth < Self.cellDepth, steps.count < Self.maxSteps else { return nil }
            let rule = check.cells[index]
            var body: [Step] = []
            let own = check.fieldChecks[index]
            if !own.isEmpty { body.append(.field(position, check: Int32(index))) }
            guard rule.applicators >= 0, !own.foldsApplicators else { return body }
            let applicators = check.cellApplicators[rule.applicators]
            guard !applicators.undecided else { return nil }
            /// A subschema's steps, made a program of their own.
            func program(_ rule: Int) -> StepRange? {
                guard rule >= 0 else { return StepRange(0..<0) }
                guard let inner = cellBody(position, rule, depth: depth + 1) else { return nil }
                let start = steps.count
                steps += inner
                return StepRange(start..<steps.count)
            }
            /// A subschema that must pass (`$ref`, an `allOf` branch): its steps in this body.
            func inPlace(_ rule: Int) -> Bool {
                guard let inner = cellBody(position, rule, depth: depth + 1) else { return false }
                body += inner
                return true
            }
            func alternatives(_ run: Range<Int>) -> StepRange? {
                var found: [StepRange] = []
                for branch in run {
                    guard let alternative = program(check.cellBranches[branch]) else { return nil }
                    found.append(alternative)
                }
                let start = branches.count
                branches += found
                return StepRange(start..<branches.count)
            }
            if applicators.ref >= 0 && !inPlace(applicators.ref) { return nil }
            for branch in applicators.allOf {
                guard inPlace(check.cellBranches[branch]) else { return nil }
            }
            if !applicators.anyOf.isEmpty {
                guard let run = alternatives(applicators.anyOf) else { return nil }
                body.append(.anyOf(run))
            }
            if !applicators.oneOf.isEmpty {
                guard let run = alternatives(applicators.oneOf) else { return nil }
                body.append(.oneOf(run))
            }
            if applicators.not >= 0 {
                guard let negated = program(applicators.not) else { return nil }
                body.append(.not(negated))
            }
            if applicators.ifSchema >= 0 {
                guard let condition = program(applicators.ifSchema), let then = program(applicators.thenSchema),
                    let otherwise = program(applicators.elseSchema)
                else { return nil }
                body.append(.conditional(condition, then: then, else: otherwise))
            }
            return body
        }

        /// The steps of a record rule's in-place applicators.
        private mutating func applicatorSteps(_ applicators: Applicators) -> [Step] {
            var own: [Step] = []
            let branchRules = check.recordBranches
            /// A program that must pass: its steps, when it has few.
            func all(_ program: StepRange) {
                if program.count <= Self.inlined {
                    own += steps[program.range]
                } else {
                    own.append(.all(program))
                }
            }
            func alternatives(_ run: Range<Int>) -> StepRange {
                let found = run.map { program(branchRules[$0]) }
                let start = branches.count
                branches += found
                return StepRange(start..<branches.count)
            }
            func optional(_ rule: Int) -> StepRange { rule >= 0 ? program(rule) : StepRange(0..<0) }
            if applicators.ref >= 0 { all(program(applicators.ref)) }
            for branch in applicators.allOf { all(program(branchRules[branch])) }
            if !applicators.anyOf.isEmpty { own.append(.anyOf(alternatives(applicators.anyOf))) }
            if !applicators.oneOf.isEmpty { own.append(.oneOf(alternatives(applicators.oneOf))) }
            if applicators.not >= 0 { own.append(.not(program(applicators.not))) }
            if applicators.ifSchema >= 0 {
                let condition = program(applicators.ifSchema)
                let then = optional(applicators.thenSchema)
                let otherwise = optional(applicators.elseSchema)
                own.append(.conditional(condition, then: then, else: otherwise))
            }
            return own
        }
    }

    /// A dependency's position as the full check finds it (`keys.contains`, `String ==`).
    static func dependency(_ name: String, _ fields: FieldList) -> Int? {
        fields.names.firstIndex { $0 == name }
    }
}
