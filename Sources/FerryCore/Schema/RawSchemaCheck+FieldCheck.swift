// MARK: - A cell rule's own keywords, in one step
//
// A cell rule's own keywords (`type`, `minimum`…`multipleOf`, `minLength`,
// `maxLength`, `pattern`, `format`, `const`, `enum`) are decided on the
// cell in place by one switch over its case, as the built-in kinds decide
// theirs: a `FieldCheck`, read in place (`UnsafeTable.address`). An
// `anyOf` whose branches are such keywords alone and take disjoint cases
// of a cell is folded into the check of the rule that has it: each case
// can pass one branch only, so that branch's keywords for the case are the
// check's. The shop schema's photo is one:
//
//     "photo": {"anyOf": [{"type": "null"}, {"type": "string", "minLength": 1}]}
//          ->  accepts null and text; text: length 1...
//
// Both the laid-out steps (`.cellInPlace`, `.field`) and a cell rule
// judged whole (`passes(_:rule:depth:)`) read these checks: one evaluator
// of a cell's own keywords.
//
// Measured: `ferry validate` of 100,000 products against
// Scripts/bench-schemas/shop.schema.json (Scripts/count-instructions.sh),
// the raw check (`RecordValidator.passesQuickly`, inclusive): 125.7M with
// a step per keyword and the photo's `anyOf` run as two programs; 124.7M
// with a check per cell rule. The check must be inlined into `run`
// (`@_transparent`): as a call, 456,000 of them, it was 130.7M.

extension RawSchemaCheck {
    /// A cell rule's own keywords, decided in one step (see the note above).
    struct FieldCheck: Sendable {
        /// The cases the rule's `type` accepts.
        var accepts = CellTypes.all
        /// `minLength` and `maxLength`, in code points.
        var minLength = 0
        var maxLength = Int.max
        /// An index into `patterns`; -1 for none.
        var pattern: Int32 = -1
        /// An index into `cellNumbers`; -1 for none.
        var numbers: Int32 = -1
        var format: SchemaFormat?
        /// `const` and `enum`: runs of `choices`.
        var constant: StepRange?
        var allowed: StepRange?
        /// Whether the rule's in-place applicators are folded in here (a
        /// disjoint `anyOf`), so that nothing else of the rule is checked.
        var foldsApplicators = false
        /// Whether any keyword but `type` is there: most cells of a valid
        /// record need nothing but their case and this.
        var hasKeywords = false

        /// Whether the check passes every cell.
        var isEmpty: Bool { accepts == .all && isEmptyButType }

        var isEmptyButType: Bool { !hasTextKeywords && numbers < 0 && constant == nil && allowed == nil }

        var hasTextKeywords: Bool { minLength > 0 || maxLength < .max || pattern >= 0 || format != nil }

        /// Whether the check accepts any number cell.
        var acceptsNumbers: Bool { !accepts.intersection([.integer, .double, .integralDouble]).isEmpty }
    }

    /// The checks of cell rules `rules`, one each, with disjoint `anyOf`s folded in.
    static func fieldChecks(
        _ rules: ContiguousArray<CellRule>, texts: ContiguousArray<TextKeywords>,
        choices: ContiguousArray<ChoiceKeywords>, applicators: ContiguousArray<Applicators>,
        branches: ContiguousArray<Int>
    ) -> [FieldCheck] {
        var checks = rules.map { rule in
            var check = FieldCheck(accepts: rule.accepts)
            if rule.text >= 0 {
                let text = texts[rule.text]
                check.minLength = text.minLength ?? 0
                check.maxLength = text.maxLength ?? .max
                check.pattern = Int32(text.pattern)
                check.format = text.format
            }
            check.numbers = Int32(rule.numbers)
            if rule.choices >= 0 {
                check.constant = choices[rule.choices].constant.map(StepRange.init)
                check.allowed = choices[rule.choices].allowed.map(StepRange.init)
            }
            return check
        }
        for index in rules.indices where rules[index].applicators >= 0 {
            let applied = applicators[rules[index].applicators]
            guard !applied.undecided, applied.ref < 0, applied.allOf.isEmpty, applied.oneOf.isEmpty, applied.not < 0,
                applied.ifSchema < 0, applied.thenSchema < 0, applied.elseSchema < 0, !applied.anyOf.isEmpty
            else { continue }
            let alternatives = applied.anyOf.map { branches[$0] }
            if let folded = folded(checks[index], alternatives.map { (rules[$0], checks[$0]) }) {
                checks[index] = folded
            }
        }
        for index in checks.indices { checks[index].hasKeywords = !checks[index].isEmptyButType }
        return checks
    }

    /// `own` with an `anyOf` of `alternatives` folded in; nil when a
    /// branch has applicators or choices, two branches accept a case
    /// alike, or `own` and a branch both have keywords of one kind.
    private static func folded(_ own: FieldCheck, _ alternatives: [(CellRule, FieldCheck)]) -> FieldCheck? {
        var check = own
        var union: CellTypes = []
        for (rule, alternative) in alternatives {
            guard rule.applicators < 0, alternative.constant == nil, alternative.allowed == nil,
                union.intersection(alternative.accepts).isEmpty
            else { return nil }
            union.formUnion(alternative.accepts)
            // A branch's keywords of a kind apply only to the cases it accepts.
            if alternative.accepts.contains(.text) && alternative.hasTextKeywords {
                guard !own.hasTextKeywords else { return nil }
                check.minLength = alternative.minLength
                check.maxLength = alternative.maxLength
                check.pattern = alternative.pattern
                check.format = alternative.format
            }
            if alternative.acceptsNumbers && alternative.numbers >= 0 {
                guard own.numbers < 0 else { return nil }
                check.numbers = alternative.numbers
            }
        }
        check.accepts = own.accepts.intersection(union)
        check.foldsApplicators = true
        return check
    }

    // MARK: - Checking

    /// Whether a cell passes `check`: the full check's `checkOwn`, as pass or fail.
    @inline(__always)
    func passesOwn(_ cell: Cell, _ check: UnsafePointer<FieldCheck>) -> Bool {
        passesOwn(cell.inPlace, check)
    }

    /// `passesOwn` of a raw cell in place (never `.other`, `.number` or
    /// `.bytes`, which fail here: `.cellInPlace` judges those whole).
    /// Transparent: `run`, a large function, got it as a call otherwise
    /// (`@inline(__always)` is not enough there), 20 instructions a cell.
    @_transparent
    func passesOwn(_ value: RawValue, _ check: UnsafePointer<FieldCheck>) -> Bool {
        let accepts = check.pointee.accepts
        switch value {
        case .null:
            guard accepts.contains(.null) else { return false }
        case .bool:
            guard accepts.contains(.bool) else { return false }
        case .integer(let number):
            guard accepts.contains(.integer) else { return false }
            let numbers = Int(check.pointee.numbers)
            if numbers >= 0, !Self.passesNumber(.integer(number), cellNumbers[numbers]) { return false }
        case .double(let number):
            guard accepts.contains(.double) || (accepts.contains(.integralDouble) && SchemaValues.isIntegral(number))
            else { return false }
            let numbers = Int(check.pointee.numbers)
            if numbers >= 0, !Self.passesNumber(number, cellNumbers.address(numbers)) { return false }
        case .text(let bytes):
            guard accepts.contains(.text) else { return false }
            guard check.pointee.hasKeywords else { return true }
            guard Self.hasLength(bytes, check.pointee.minLength, check.pointee.maxLength) else { return false }
            let pattern = Int(check.pointee.pattern)
            if pattern >= 0, !patterns[pattern].matches(utf8: bytes) { return false }
            if let format = check.pointee.format, !format.accepts(String(decoding: bytes, as: UTF8.self)) {
                return false
            }
        case .other, .number, .bytes:
            return false
        }
        guard check.pointee.hasKeywords else { return true }
        if let constant = check.pointee.constant, !isChoice(value, constant.range) { return false }
        if let allowed = check.pointee.allowed, !isChoice(value, allowed.range) { return false }
        return true
    }
}
