// MARK: - Design
//
// The keywords that apply other schemas to the same value (`$ref`, `allOf`,
// `anyOf`, `oneOf`, `not`, `if`, `dependentSchemas`), then those about an
// array's items or an object's names, then `unevaluated*`, which must know
// what all the others looked at. Only a node with `unevaluated*` (or one
// in place under such a node) makes an `Evaluated`; any other check
// allocates nothing for it.
//
// `anyOf` and `oneOf` ask a quiet checker which branches pass. When none
// does, the report gets the errors of the branch that came closest, as
// Python jsonschema's `best_match` does: a branch whose value has the wrong
// type at the top is the weakest; of the others, the one with fewest errors.

extension SchemaChecker {
    /// Checks `value` against a node that has applicators.
    func checkApplied(
        _ value: Value, _ node: SchemaNode, _ applicators: SchemaApplicators, field: String?, required: Bool,
        seen: inout Evaluated?
    ) -> Bool {
        var local: Evaluated? = applicators.tracksEvaluation || seen != nil ? Evaluated() : nil
        defer { if let local { seen?.merge(local) } }
        func inPlace(_ node: SchemaNode) -> Bool { check(value, node, field: field, required: required, seen: &local) }
        if let ref = applicators.ref {
            guard follow(value, plan.targets[ref], node, field: field, required: required, seen: &local) else { return false }
        }
        if let reference = applicators.dynamicRef {
            guard follow(value, dynamicTarget(reference), node, field: field, required: required, seen: &local)
            else { return false }
        }
        for branch in applicators.allOf where !inPlace(branch) { return false }
        if !applicators.anyOf.isEmpty {
            guard someOf(applicators.anyOf, "anyOf", value, node, field: field, required: required, seen: &local) else {
                return false
            }
        }
        if !applicators.oneOf.isEmpty {
            guard someOf(applicators.oneOf, "oneOf", value, node, field: field, required: required, seen: &local) else {
                return false
            }
        }
        if let not = applicators.not {
            var ignored: Evaluated?
            if quietly({ check(value, not, field: field, required: required, seen: &ignored) }) {
                guard emit(.schemaNot(field ?? "", at: here(field)), value, rule: node.path + "/not") else { return false }
            }
        }
        if let condition = applicators.ifSchema {
            var found: Evaluated? = local == nil ? nil : Evaluated()
            if quietly({ check(value, condition, field: field, required: required, seen: &found) }) {
                if let found { local?.merge(found) }
                if let then = applicators.thenSchema, !inPlace(then) { return false }
            } else if let otherwise = applicators.elseSchema, !inPlace(otherwise) {
                return false
            }
        }
        if case .object(let object) = value {
            for (name, dependent) in applicators.dependentSchemas where object.keys.contains(name) {
                guard inPlace(dependent) else { return false }
            }
        }
        switch value {
        case .array(let elements):
            guard checkArray(elements, value, node, field: field, seen: &local) else { return false }
            guard let unevaluated = applicators.unevaluatedItems else { return true }
            for index in elements.indices where local?.includes(item: index) != true {
                let path = Self.join(field, String(index))
                if unevaluated.rejectsAll {
                    guard emit(.schemaUnevaluatedItems(path, at: here(path)), elements[index], rule: unevaluated.path)
                    else { return false }
                } else {
                    guard check(elements[index], unevaluated, field: path, required: false) else { return false }
                }
            }
            local?.items = elements.count
        case .object(let object):
            guard checkObject(object, node, field: field, seen: &local) else { return false }
            guard let unevaluated = applicators.unevaluatedProperties else { return true }
            for (name, element) in zip(object.keys, object.values) where local?.includes(name: name) != true {
                let path = Self.join(field, name)
                if unevaluated.rejectsAll {
                    guard emit(.schemaUnevaluatedProperties(path, at: here(path)), element, rule: unevaluated.path)
                    else { return false }
                } else {
                    guard check(element, unevaluated, field: path, required: false) else { return false }
                }
            }
            local?.insert(names: object.keys)
        default:
            break
        }
        return true
    }

    /// Checks `value` against a reference's target.
    private func follow(
        _ value: Value, _ target: SchemaNode, _ node: SchemaNode, field: String?, required: Bool, seen: inout Evaluated?
    ) -> Bool {
        let identity = ObjectIdentifier(target)
        let loops = following.contains { $0.target == identity && $0.field == field }
        guard depth < Self.maxDepth, !loops else {
            return emit(.schemaReferenceDepth(field ?? "", at: here(field)), value, rule: node.path + "/$ref")
        }
        depth += 1
        following.append((identity, field))
        defer {
            depth -= 1
            following.removeLast()
        }
        return check(value, target, field: field, required: required, seen: &seen)
    }

    /// Where a `$dynamicRef` leads: the outermost resource in the dynamic
    /// scope with its anchor, else its own target.
    private func dynamicTarget(_ reference: DynamicReference) -> SchemaNode {
        if let anchor = reference.anchor {
            for resource in scope {
                if let target = plan.dynamicTargets[resource]?[anchor] { return plan.targets[target] }
            }
        }
        return plan.targets[reference.target]
    }

    /// `anyOf` (at least one branch passes) or `oneOf` (exactly one does).
    private func someOf(
        _ branches: [SchemaNode], _ keyword: String, _ value: Value, _ node: SchemaNode, field: String?,
        required: Bool, seen: inout Evaluated?
    ) -> Bool {
        var passed = 0
        for branch in branches {
            var found: Evaluated? = seen == nil ? nil : Evaluated()
            guard quietly({ check(value, branch, field: field, required: required, seen: &found) }) else { continue }
            passed += 1
            if let found { seen?.merge(found) }
            // `anyOf` needs no more unless it is collecting; `oneOf` stops at a second.
            if keyword == "anyOf" ? seen == nil : passed > 1 { break }
        }
        if keyword == "oneOf" && passed > 1 {
            return emit(.schemaOneOf(field ?? "", passing: passed, at: here(field)), value, rule: node.path + "/oneOf")
        }
        if passed > 0 { return true }
        if quiet { return false }
        return reportBestBranch(branches, keyword, value, node, field: field, required: required)
    }

    /// Reports the errors of the branch that came closest to passing, or,
    /// under `everyBranch`, of every branch in turn.
    private func reportBestBranch(
        _ branches: [SchemaNode], _ keyword: String, _ value: Value, _ node: SchemaNode, field: String?, required: Bool
    ) -> Bool {
        var best: [Diagnostic] = []
        var bestScore = (weak: true, count: Int.max)
        var every: [Diagnostic] = []
        for branch in branches {
            var found: [Diagnostic] = []
            withoutActuallyEscaping({ (diagnostic: Diagnostic) -> Bool in
                found.append(diagnostic)
                return true
            }) { collect in
                let collecting = SchemaChecker(plan: plan, location: location, report: collect)
                collecting.scope = scope
                collecting.depth = depth
                collecting.following = following
                collecting.everyBranch = everyBranch
                _ = collecting.check(value, branch, field: field, required: required)
            }
            if everyBranch {
                every += found.prefix(Self.maxBranchDiagnostics - every.count)
                // The branches after the cap would add nothing to the report.
                if every.count == Self.maxBranchDiagnostics { break }
                continue
            }
            let weak =
                found.first.map {
                    ($0.code == .recordWrongType || $0.code == .schemaType || $0.code == .schemaFalse)
                        && $0.location.field == here(field).field
                } ?? true
            let score = (weak: weak, count: found.count)
            if !found.isEmpty && (!score.weak && bestScore.weak || score.weak == bestScore.weak && score.count < bestScore.count) {
                best = found
                bestScore = score
            }
        }
        if everyBranch { best = every }
        guard !best.isEmpty else {
            let error: FerryError =
                keyword == "anyOf"
                ? .schemaAnyOf(field ?? "", at: here(field)) : .schemaOneOf(field ?? "", passing: 0, at: here(field))
            return emit(error, value, rule: node.path + "/" + keyword)
        }
        for diagnostic in best where !report(diagnostic) { return false }
        return true
    }

    // MARK: - Arrays

    /// `prefixItems`, `contains` and `uniqueItems`; `SchemaNode.items` then
    /// checks the items after the prefix.
    func checkApplied(
        _ elements: [Value], _ value: Value, _ node: SchemaNode, _ applicators: SchemaApplicators, field: String?,
        seen: inout Evaluated?
    ) -> Bool {
        for (index, prefix) in zip(elements.indices, applicators.prefixItems) {
            guard check(elements[index], prefix, field: Self.join(field, String(index)), required: false) else {
                return false
            }
        }
        if let before = seen?.items { seen?.items = max(before, min(applicators.prefixItems.count, elements.count)) }
        let name = field ?? ""
        if let contains = applicators.contains {
            var matches = 0
            for (index, element) in elements.enumerated() {
                var ignored: Evaluated?
                guard
                    quietly({
                        check(element, contains, field: Self.join(field, String(index)), required: false, seen: &ignored)
                    })
                else { continue }
                matches += 1
                seen?.matched.insert(index)
            }
            let least = applicators.minContains ?? 1
            if matches < least {
                guard emit(.schemaContains(name, least: least, at: here(field)), value, rule: node.path + "/contains")
                else { return false }
            }
            if let most = applicators.maxContains, matches > most {
                guard emit(.schemaMaxContains(name, most: most, at: here(field)), value, rule: node.path + "/maxContains")
                else { return false }
            }
        }
        if applicators.uniqueItems, SchemaValues.firstRepeat(in: elements) != nil {
            guard emit(.schemaUniqueItems(name, at: here(field)), value, rule: node.path + "/uniqueItems") else {
                return false
            }
        }
        return true
    }

    // MARK: - Objects

    /// `patternProperties`, `propertyNames`, `minProperties`,
    /// `maxProperties` and `dependentRequired`.
    func checkApplied(
        _ object: OrderedObject, _ node: SchemaNode, _ applicators: SchemaApplicators, field: String?,
        seen: inout Evaluated?
    ) -> Bool {
        let name = field ?? ""
        let value = Value.object(object)
        for (key, element) in zip(object.keys, object.values) {
            for (pattern, schema) in applicators.patternProperties where pattern.matches(key) {
                guard check(element, schema, field: Self.join(field, key), required: false) else { return false }
                seen?.insert(name: key)
            }
            if let names = applicators.propertyNames {
                var ignored: Evaluated?
                if !quietly({ check(.string(key), names, field: Self.join(field, key), required: false, seen: &ignored) }) {
                    let path = Self.join(field, key)
                    guard emit(.schemaPropertyNames(path, at: here(path)), .string(key), rule: names.path) else {
                        return false
                    }
                }
            }
        }
        if let limit = applicators.minProperties, object.count < limit {
            guard emit(.schemaMinProperties(name, limit: limit, at: here(field)), value, rule: node.path + "/minProperties")
            else { return false }
        }
        if let limit = applicators.maxProperties, object.count > limit {
            guard emit(.schemaMaxProperties(name, limit: limit, at: here(field)), value, rule: node.path + "/maxProperties")
            else { return false }
        }
        for (dependency, names) in applicators.dependentRequired where object.keys.contains(dependency) {
            for missing in names where !object.keys.contains(missing) {
                let path = Self.join(field, missing)
                guard
                    emit(
                        .schemaDependentRequired(path, dependency: dependency, at: here(path)), nil,
                        rule: node.path + "/dependentRequired")
                else { return false }
            }
        }
        return true
    }
}
