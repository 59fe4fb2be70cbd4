// The compiled form of the schemas `RawSchemaCheck` reads per record:
// plain values, subschemas as indices into flat arrays (see the design
// note in RawSchemaCheck.swift).

extension RawSchemaCheck {
    /// A schema applied in place to the record (the root, a `$ref`'s
    /// target, an `allOf` branch, `if`, `then`, …): its in-place
    /// applicators an index into `recordApplicators` (-1 for none).
    struct RecordRule: Sendable {
        var types: JSONTypes?
        var applicators = -1
        var minProperties: Int?
        var maxProperties: Int?
        /// `additionalProperties`' rule in `cells`; -1 for none.
        var additional = -1
    }

    /// A schema a cell in place meets: the full check's `checkOwn` and the
    /// in-place applicators. Small, as it is read at every step of a
    /// cell's check: the keywords it has are indices into the compiler's
    /// tables and `cellApplicators` (-1 for none), its own keywords read
    /// at a check from `fieldChecks`. With
    /// every keyword in it (272 bytes), copying it took 70 instructions a
    /// step, 750,000 steps for 100,000 products.
    struct CellRule: Sendable {
        /// The cells whose case the rule's `type` accepts (none for a
        /// schema `false`).
        var accepts = CellTypes.all
        var choices = -1
        var numbers = -1
        var text = -1
        var applicators = -1
    }

    /// The cases of a cell a `type` accepts: `JSONTypes.matches` decided
    /// once per schema rather than per cell.
    struct CellTypes: OptionSet, Sendable {
        let rawValue: UInt8

        static let null = CellTypes(rawValue: 1)
        static let bool = CellTypes(rawValue: 2)
        static let integer = CellTypes(rawValue: 4)
        /// Any double (`number`).
        static let double = CellTypes(rawValue: 8)
        /// A double without a fraction (`integer` without `number`).
        static let integralDouble = CellTypes(rawValue: 16)
        static let text = CellTypes(rawValue: 32)
        static let all: CellTypes = [.null, .bool, .integer, .double, .integralDouble, .text]

        /// The cells `types` accepts; all of them for no `type`.
        init(_ types: JSONTypes?) {
            guard let types else {
                self = .all
                return
            }
            var accepted: CellTypes = []
            if types.contains(.null) { accepted.insert(.null) }
            if types.contains(.boolean) { accepted.insert(.bool) }
            if types.contains(.number) || types.contains(.integer) { accepted.insert(.integer) }
            if types.contains(.number) { accepted.insert(.double) }
            if types.contains(.integer) { accepted.insert(.integralDouble) }
            if types.contains(.string) { accepted.insert(.text) }
            self = accepted
        }

        init(rawValue: UInt8) { self.rawValue = rawValue }
    }

    /// `const` and `enum`: ranges of `choices`.
    struct ChoiceKeywords: Sendable {
        var constant: Range<Int>?
        var allowed: Range<Int>?
    }

    /// The keywords of a number.
    struct NumberKeywords: Sendable {
        var minimum: SchemaNumber?
        var maximum: SchemaNumber?
        var exclusiveMinimum: SchemaNumber?
        var exclusiveMaximum: SchemaNumber?
        var multipleOf: SchemaNumber?
        /// The four limits as doubles, for a double cell, when every limit
        /// given is exactly a double (a double, or an integer of at most 53
        /// bits): then `!(number >= minimum)` is `SchemaValues.isBelow`,
        /// NaN included, without its switch over both numbers' cases.
        var doubles: (minimum: Double?, maximum: Double?, exclusiveMinimum: Double?, exclusiveMaximum: Double?)?

        init(
            minimum: SchemaNumber?, maximum: SchemaNumber?, exclusiveMinimum: SchemaNumber?,
            exclusiveMaximum: SchemaNumber?, multipleOf: SchemaNumber?
        ) {
            self.minimum = minimum
            self.maximum = maximum
            self.exclusiveMinimum = exclusiveMinimum
            self.exclusiveMaximum = exclusiveMaximum
            self.multipleOf = multipleOf
            /// The limit as a double; nil inside when absent, nil outside
            /// when it is no double exactly.
            func exact(_ limit: SchemaNumber?) -> Double?? {
                switch limit {
                case nil: .some(nil)
                case .double(let number)?: .some(number)
                case .integer(let number)? where number.magnitude <= 1 << 53: .some(Double(number))
                case .integer?: nil
                }
            }
            if let low = exact(minimum), let high = exact(maximum), let lowExclusive = exact(exclusiveMinimum),
                let highExclusive = exact(exclusiveMaximum)
            {
                doubles = (low, high, lowExclusive, highExclusive)
            }
        }

        var isEmpty: Bool {
            minimum == nil && maximum == nil && exclusiveMinimum == nil && exclusiveMaximum == nil
                && multipleOf == nil
        }
    }

    /// The keywords of a text.
    struct TextKeywords: Sendable {
        var minLength: Int?
        var maxLength: Int?
        /// An index into `patterns`; -1 for none.
        var pattern = -1
        var format: SchemaFormat?
    }

    /// The in-place applicators of a record rule or a cell rule: subschemas
    /// as indices into the same rules (`records` or `cells`; -1 for none)
    /// and ranges of their branches (`recordBranches`, `cellBranches`).
    struct Applicators: Sendable {
        /// A `$dynamicRef`, or a `$ref` without a target: left to the full
        /// check (cells only: a record rule with one is not compiled).
        var undecided = false
        var ref = -1
        var allOf = 0..<0
        var anyOf = 0..<0
        var oneOf = 0..<0
        var not = -1
        var ifSchema = -1
        var thenSchema = -1
        var elseSchema = -1

        /// Whether `$ref` is the only one.
        var isReferenceAlone: Bool {
            !undecided && ref >= 0 && allOf.isEmpty && anyOf.isEmpty && oneOf.isEmpty && not < 0 && ifSchema < 0
                && thenSchema < 0 && elseSchema < 0
        }
    }

    /// A value of `const` or `enum`: the UTF-8 of its text, as a string
    /// cell compares with it (a range of `choiceBytes`; nil when it is no
    /// text), and the value itself in `choiceValues`.
    struct Choice: Sendable {
        let text: Range<Int>?
        let value: Int
        /// A text of at most 8 bytes, packed as `RawSchemaCheck.word(of:)`
        /// packs a cell's: one comparison instead of a loop over bytes.
        let word: UInt64?
        /// The text's count of bytes; -1 for no text.
        let length: Int
    }

    /// Compiles the schemas applied in place to the record.
    struct Compiler {
        let plan: SchemaPlan
        var records: ContiguousArray<RecordRule> = []
        var applicators: ContiguousArray<Applicators> = []
        var branches: ContiguousArray<Int> = []
        var recordNodes: [SchemaNode] = []
        var recordDependents: [[(name: String, node: Int)]] = []
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
            let index = records.count
            records.append(RecordRule())
            recordNodes.append(node)
            recordDependents.append([])
            var compiled = RecordRule()
            compiled.types = node.types
            if let applicators = node.applicators {
                guard applicators.dynamicRef == nil, applicators.propertyNames == nil,
                    applicators.unevaluatedItems == nil, applicators.unevaluatedProperties == nil
                else { return nil }
                var applied = Applicators()
                if let ref = applicators.ref {
                    guard plan.targets.indices.contains(ref), let target = add(plan.targets[ref]) else { return nil }
                    applied.ref = target
                }
                guard let allOf = all(applicators.allOf), let anyOf = all(applicators.anyOf),
                    let oneOf = all(applicators.oneOf), let not = one(applicators.not),
                    let ifSchema = one(applicators.ifSchema), let thenSchema = one(applicators.thenSchema),
                    let elseSchema = one(applicators.elseSchema)
                else { return nil }
                applied.allOf = range(allOf)
                applied.anyOf = range(anyOf)
                applied.oneOf = range(oneOf)
                applied.not = not
                applied.ifSchema = ifSchema
                applied.thenSchema = thenSchema
                applied.elseSchema = elseSchema
                compiled.applicators = self.applicators.count
                self.applicators.append(applied)
                compiled.minProperties = applicators.minProperties
                compiled.maxProperties = applicators.maxProperties
                var dependents: [(name: String, node: Int)] = []
                for (name, dependent) in applicators.dependentSchemas {
                    guard let index = add(dependent) else { return nil }
                    dependents.append((name, index))
                }
                recordDependents[index] = dependents
            }
            records[index] = compiled
            indices[identity] = index
            return index
        }

        private mutating func all(_ branches: [SchemaNode]) -> [Int]? {
            var found: [Int] = []
            for branch in branches {
                guard let index = add(branch) else { return nil }
                found.append(index)
            }
            return found
        }

        /// -1 for no branch; nil when the branch is not one this check judges.
        private mutating func one(_ branch: SchemaNode?) -> Int? {
            guard let branch else { return -1 }
            return add(branch)
        }

        private mutating func range(_ found: [Int]) -> Range<Int> {
            let start = branches.count
            branches.append(contentsOf: found)
            return start..<branches.count
        }
    }

    /// Compiles the schemas cells meet, and every schema they apply in
    /// place, one at a time (no recursion: references may loop).
    struct CellCompiler {
        let plan: SchemaPlan
        var rules: ContiguousArray<CellRule> = []
        var branches: ContiguousArray<Int> = []
        var nodes: [SchemaNode] = []
        var indices: [ObjectIdentifier: Int] = [:]
        var choiceKeywords: ContiguousArray<ChoiceKeywords> = []
        var numberKeywords: ContiguousArray<NumberKeywords> = []
        var textKeywords: ContiguousArray<TextKeywords> = []
        var applicators: ContiguousArray<Applicators> = []
        var patterns: [SchemaPattern] = []
        var choices: ContiguousArray<Choice> = []
        var choiceBytes: ContiguousArray<UInt8> = []
        var choiceValues: [Value] = []
        /// Rules added and not yet compiled.
        var pending: [Int] = []

        init(plan: SchemaPlan) { self.plan = plan }

        /// The index of `node`'s rule, compiled by `finish()`.
        mutating func add(_ node: SchemaNode) -> Int {
            let identity = ObjectIdentifier(node)
            if let index = indices[identity] { return index }
            let index = rules.count
            rules.append(CellRule())
            nodes.append(node)
            indices[identity] = index
            pending.append(index)
            return index
        }

        mutating func finish() {
            while let index = pending.popLast() { rules[index] = compile(nodes[index]) }
            // A rule that is a `$ref` and nothing else checks what its
            // target checks: it takes the target's rule, a step less per
            // cell (`"name": {"$ref": "#/$defs/label"}`: 300 instructions a
            // cell). Only the count of references followed, a bound against
            // stack depth, changes; a loop of references stays one.
            for index in rules.indices {
                let rule = rules[index]
                guard rule.accepts == .all, rule.choices < 0, rule.numbers < 0, rule.text < 0,
                    rule.applicators >= 0, applicators[rule.applicators].isReferenceAlone
                else { continue }
                rules[index] = rules[applicators[rule.applicators].ref]
            }
        }

        private mutating func compile(_ node: SchemaNode) -> CellRule {
            var rule = CellRule()
            rule.accepts = node.rejectsAll ? [] : CellTypes(node.types)
            if node.constant != nil || node.allowed != nil {
                rule.choices = choiceKeywords.count
                choiceKeywords.append(
                    ChoiceKeywords(
                        constant: node.constant.map { choose([$0]) }, allowed: node.allowed.map { choose($0) }))
            }
            let numbers = NumberKeywords(
                minimum: node.minimum, maximum: node.maximum, exclusiveMinimum: node.exclusiveMinimum,
                exclusiveMaximum: node.exclusiveMaximum, multipleOf: node.multipleOf)
            if !numbers.isEmpty {
                rule.numbers = numberKeywords.count
                numberKeywords.append(numbers)
            }
            if node.minLength != nil || node.maxLength != nil || node.pattern != nil || node.format != nil {
                var text = TextKeywords(minLength: node.minLength, maxLength: node.maxLength, format: node.format)
                if let pattern = node.pattern {
                    text.pattern = patterns.count
                    patterns.append(pattern)
                }
                rule.text = textKeywords.count
                textKeywords.append(text)
            }
            guard let applicators = node.inPlace else { return rule }
            var compiled = Applicators()
            compiled.undecided = applicators.dynamic
            if let ref = applicators.ref {
                if plan.targets.indices.contains(ref) {
                    compiled.ref = add(plan.targets[ref])
                } else {
                    compiled.undecided = true
                }
            }
            compiled.allOf = range(applicators.allOf)
            compiled.anyOf = range(applicators.anyOf)
            compiled.oneOf = range(applicators.oneOf)
            compiled.not = applicators.not.map { add($0) } ?? -1
            compiled.ifSchema = applicators.ifSchema.map { add($0) } ?? -1
            compiled.thenSchema = applicators.thenSchema.map { add($0) } ?? -1
            compiled.elseSchema = applicators.elseSchema.map { add($0) } ?? -1
            rule.applicators = self.applicators.count
            self.applicators.append(compiled)
            return rule
        }

        private mutating func range(_ found: [SchemaNode]) -> Range<Int> {
            let indices = found.map { add($0) }
            let start = branches.count
            branches.append(contentsOf: indices)
            return start..<branches.count
        }

        private mutating func choose(_ values: [Value]) -> Range<Int> {
            let start = choices.count
            for value in values {
                var text: Range<Int>?
                var word: UInt64?
                if let found = SchemaValues.text(of: value) {
                    let first = choiceBytes.count
                    choiceBytes.append(contentsOf: found.utf8)
                    text = first..<choiceBytes.count
                    word = Array(found.utf8).withUnsafeBufferPointer(RawSchemaCheck.word(of:))
                }
                choices.append(Choice(text: text, value: choiceValues.count, word: word, length: text?.count ?? -1))
                choiceValues.append(value)
            }
            return start..<choices.count
        }
    }
}
