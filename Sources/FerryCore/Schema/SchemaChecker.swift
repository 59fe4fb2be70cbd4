/// One check's state: where the record is and where diagnostics go. Each
/// method returns false once `report` has asked to stop.
///
/// A quiet checker only decides: it makes no diagnostic, and each method's
/// result is then whether the value passes (as its first failure stops it).
/// `anyOf`, `not`, `if` and `contains` ask quietly (`quietly(_:)`).
///
/// A class, one for a whole check: what changes on the way down (quiet, the
/// references followed, the dynamic scope) is set and set back around each
/// step, where a struct was copied at each reference and each quiet step
/// (its location's strings, its arrays and its closure counted each time:
/// 9,000 copies for the 2,826 invalid records of 100,000 products against
/// Scripts/bench-schemas/shop.schema.json).
final class SchemaChecker {
    let plan: SchemaPlan
    let location: SourceLocation
    let report: (Diagnostic) -> Bool
    private(set) var quiet = false
    /// The resources the check went through, outermost first, for
    /// `$dynamicRef`; kept only when the schema has one.
    var scope: [Int] = []
    /// How many references the check followed, against a schema that
    /// refers to itself without looking deeper into the value.
    var depth = 0
    /// The references followed on the way here, each with the place in the
    /// value it was followed at: the same reference again at the same place
    /// is a loop that looks no deeper (`{"anyOf": [{"$ref": "#"}, …]}`),
    /// which would otherwise branch until `maxDepth`, 2²⁵⁶ ways.
    var following: [(target: ObjectIdentifier, field: String?)] = []

    /// Whether an `anyOf`/`oneOf` that no branch passes reports every
    /// branch's errors (`Schema.reportsEveryBranch`).
    var everyBranch = false

    /// The most references a check follows in a row.
    static let maxDepth = 256
    /// The most errors one `anyOf` or `oneOf` reports for all its branches
    /// together, under `everyBranch`: a schema with many branches and a
    /// deep value could otherwise fill the report from one field.
    static let maxBranchDiagnostics = 100

    init(plan: SchemaPlan, location: SourceLocation, report: @escaping (Diagnostic) -> Bool) {
        self.plan = plan
        self.location = location
        self.report = report
    }

    /// What `body` returns, checked quietly.
    @inline(__always)
    func quietly<Result>(_ body: () -> Result) -> Result {
        let was = quiet
        quiet = true
        defer { quiet = was }
        return body()
    }

    func emit(_ error: @autoclosure () -> FerryError, _ value: Value?, rule: @autoclosure () -> String) -> Bool {
        if quiet { return false }
        return report(Diagnostic(error(), value: value.map(SchemaValues.display), rule: rule()))
    }

    func here(_ field: String?) -> SourceLocation {
        var here = location
        if let field { here.field = field }
        return here
    }

    /// `field` inside `parent` (nil for the record itself).
    static func join(_ parent: String?, _ name: String) -> String {
        guard let parent else { return name }
        return parent + "/" + SchemaCompiler.escape(name)
    }

    func missing(_ field: String, in node: SchemaNode) -> Bool {
        emit(.recordMissingField(field, at: here(field)), nil, rule: node.path + "/required")
    }

    /// Checks a field the schema's `properties` does not name against `additionalProperties`.
    func checkAdditional(_ value: Value, _ node: SchemaNode, field: String) -> Bool {
        if node.rejectsAll {
            return emit(.schemaAdditionalProperties(field, at: here(field)), value, rule: node.path)
        }
        return check(value, node, field: field, required: false)
    }

    /// Checks `value` against every keyword of `node`.
    /// - Parameter required: whether the object holding the value requires it.
    func check(_ value: Value, _ node: SchemaNode, field: String?, required: Bool) -> Bool {
        // A field's rule alone (the fast paths' fallback, as for a name
        // that starts beyond ASCII): no applicators, nothing to collect.
        guard node.applicators == nil, !node.rejectsAll, !plan.usesDynamicReferences else {
            var seen: Evaluated?
            return check(value, node, field: field, required: required, seen: &seen)
        }
        guard checkOwn(value, node, field: field, required: required) else { return false }
        var none: Evaluated?
        switch value {
        case .array(let elements): return checkArray(elements, value, node, field: field, seen: &none)
        case .object(let object): return checkObject(object, node, field: field, seen: &none)
        default: return true
        }
    }

    /// Checks `value` against every keyword of `node`, adding what it looked
    /// at to `seen` when there is one.
    func check(_ value: Value, _ node: SchemaNode, field: String?, required: Bool, seen: inout Evaluated?) -> Bool {
        if plan.usesDynamicReferences && scope.last != node.resource {
            scope.append(node.resource)
            defer { scope.removeLast() }
            return check(value, node, field: field, required: required, seen: &seen)
        }
        guard checkOwn(value, node, field: field, required: required) else { return false }
        if node.rejectsAll { return true }
        if let applicators = node.applicators {
            return checkApplied(value, node, applicators, field: field, required: required, seen: &seen)
        }
        switch value {
        case .array(let elements): return checkArray(elements, value, node, field: field, seen: &seen)
        case .object(let object): return checkObject(object, node, field: field, seen: &seen)
        default: return true
        }
    }

    /// Checks `value` against the keywords of `node` that are not about an
    /// object's properties.
    func checkOwn(_ value: Value, _ node: SchemaNode, field: String?, required: Bool) -> Bool {
        // Made only for an error (a copy of `location`, its strings counted).
        func at() -> SourceLocation { here(field) }
        let name = field ?? ""
        if node.rejectsAll { return emit(.schemaFalse(name, at: at()), value, rule: node.path) }
        if let types = node.types, !types.matches(value) {
            // The error is made inside `emit`, which a quiet check makes
            // none in (`anyOf`'s branches of other types, `null` beside a
            // photo's text).
            func error() -> FerryError {
                // The value is not null when null is one of several types:
                // those others are what it should be.
                let names = types == .null ? types.typeNames : types.subtracting(.null).typeNames
                if let expected = FieldType(types: types, format: node.format) {
                    return .recordWrongType(name, expected: expected.rawValue, found: value.typeName, at: at())
                } else if names.count == 1 {
                    return .recordWrongType(name, expected: names[0], found: value.typeName, at: at())
                }
                return .schemaType(name, expected: types.typeNames, found: value.typeName, at: at())
            }
            guard emit(error(), value, rule: node.path + "/type") else { return false }
        }
        if let constant = node.constant, !SchemaValues.equal(value, constant) {
            guard emit(.schemaConst(name, expected: SchemaValues.json(constant), at: at()), value, rule: node.path + "/const")
            else { return false }
        }
        if let allowed = node.allowed, !allowed.contains(where: { SchemaValues.equal(value, $0) }) {
            guard
                emit(
                    .schemaEnum(name, allowed: allowed.map(SchemaValues.json).joined(separator: ", "), at: at()),
                    value, rule: node.path + "/enum")
            else { return false }
        }
        switch value {
        case .integer, .double, .number:
            return checkNumber(value, node, name: name, field: field)
        case .string, .bytes, .date:
            return checkString(value, node, name: name, field: field, required: required)
        default:
            return true
        }
    }

    private func checkNumber(_ value: Value, _ node: SchemaNode, name: String, field: String?) -> Bool {
        // Made only for an error (a copy of `location`, its strings counted).
        func at() -> SourceLocation { here(field) }
        if let limit = node.minimum, SchemaValues.isBelow(value, minimum: limit) {
            guard
                emit(
                    limit.isZero ? .recordNegative(name, at: at()) : .schemaMinimum(name, limit: limit.argument, at: at()),
                    value, rule: node.path + "/minimum")
            else { return false }
        }
        if let limit = node.maximum, SchemaValues.isAbove(value, maximum: limit) {
            guard emit(.schemaMaximum(name, limit: limit.argument, at: at()), value, rule: node.path + "/maximum")
            else { return false }
        }
        if let limit = node.exclusiveMinimum, SchemaValues.isAtOrBelow(value, exclusiveMinimum: limit) {
            guard
                emit(
                    .schemaExclusiveMinimum(name, limit: limit.argument, at: at()), value,
                    rule: node.path + "/exclusiveMinimum")
            else { return false }
        }
        if let limit = node.exclusiveMaximum, SchemaValues.isAtOrAbove(value, exclusiveMaximum: limit) {
            guard
                emit(
                    .schemaExclusiveMaximum(name, limit: limit.argument, at: at()), value,
                    rule: node.path + "/exclusiveMaximum")
            else { return false }
        }
        if let divisor = node.multipleOf, !SchemaValues.isMultiple(value, of: divisor) {
            guard emit(.schemaMultipleOf(name, divisor: divisor.argument, at: at()), value, rule: node.path + "/multipleOf")
            else { return false }
        }
        return true
    }

    private func checkString(
        _ value: Value, _ node: SchemaNode, name: String, field: String?, required: Bool
    ) -> Bool {
        // Made only for an error (a copy of `location`, its strings counted).
        func at() -> SourceLocation { here(field) }
        guard node.minLength != nil || node.maxLength != nil || node.pattern != nil || node.format != nil,
            let text = SchemaValues.text(of: value)
        else { return true }
        // A text of n bytes has between n / 4 and n scalars: when both
        // limits hold either way, the scalars are not counted.
        let bytes = text.utf8.count
        if (node.minLength.map { $0 > (bytes + 3) / 4 } ?? false) || (node.maxLength.map { $0 < bytes } ?? false) {
            // JSON Schema counts code points: Unicode scalars.
            let length = text.unicodeScalars.count
            if let limit = node.minLength, length < limit {
                guard
                    emit(
                        required && length == 0
                            ? .recordEmptyField(name, at: at()) : .schemaMinLength(name, limit: limit, at: at()),
                        value, rule: node.path + "/minLength")
                else { return false }
            }
            if let limit = node.maxLength, length > limit {
                guard emit(.schemaMaxLength(name, limit: limit, at: at()), value, rule: node.path + "/maxLength")
                else { return false }
            }
        }
        // An empty value a minimum length refused is not refused again by
        // `\S` (the kinds' "a character other than white space"), which
        // says no more: an empty name is one error, as it was.
        if let pattern = node.pattern, !pattern.matches(text),
            !(text.isEmpty && (node.minLength ?? 0) > 0 && pattern.source == ColumnRule.nonBlankPattern)
        {
            guard emit(.schemaPattern(name, pattern: pattern.source, at: at()), value, rule: node.path + "/pattern")
            else { return false }
        }
        if let format = node.format, !format.accepts(text) {
            guard emit(.schemaFormat(name, format: format.rawValue, at: at()), value, rule: node.path + "/format")
            else { return false }
        }
        return true
    }

    func checkArray(
        _ elements: [Value], _ value: Value, _ node: SchemaNode, field: String?, seen: inout Evaluated?
    ) -> Bool {
        // Made only for an error (a copy of `location`, its strings counted).
        func at() -> SourceLocation { here(field) }
        let name = field ?? ""
        if let limit = node.minItems, elements.count < limit {
            guard emit(.schemaMinItems(name, limit: limit, at: at()), value, rule: node.path + "/minItems") else {
                return false
            }
        }
        if let limit = node.maxItems, elements.count > limit {
            guard emit(.schemaMaxItems(name, limit: limit, at: at()), value, rule: node.path + "/maxItems") else {
                return false
            }
        }
        var first = 0
        if let applicators = node.applicators {
            guard checkApplied(elements, value, node, applicators, field: field, seen: &seen) else { return false }
            first = min(applicators.prefixItems.count, elements.count)
        }
        if let items = node.items {
            for index in first..<elements.count {
                guard check(elements[index], items, field: Self.join(field, String(index)), required: false) else {
                    return false
                }
            }
            seen?.items = elements.count
        }
        return true
    }

    func checkObject(_ object: OrderedObject, _ node: SchemaNode, field: String?, seen: inout Evaluated?) -> Bool {
        func value(_ name: String) -> Value? {
            object.keys.firstIndex { SchemaValues.sameName($0, name) }.map { object.values[$0] }
        }
        for property in node.properties {
            let path = Self.join(field, property.name)
            if let found = value(property.name) {
                guard check(found, property.node, field: path, required: property.required) else { return false }
                seen?.insert(name: property.name)
            } else if property.required {
                guard missing(path, in: node) else { return false }
            }
        }
        for name in node.required where !node.hasProperty(named: name) && value(name) == nil {
            guard missing(Self.join(field, name), in: node) else { return false }
        }
        if let applicators = node.applicators {
            guard checkApplied(object, node, applicators, field: field, seen: &seen) else { return false }
        }
        if let additional = node.additionalProperties {
            for index in 0..<object.count where !node.hasProperty(named: object.keys[index]) {
                let name = object.keys[index]
                if let applicators = node.applicators, applicators.patternProperties.contains(where: { $0.pattern.matches(name) }) {
                    continue
                }
                guard checkAdditional(object.values[index], additional, field: Self.join(field, name))
                else { return false }
                seen?.insert(name: name)
            }
        } else if node.evaluatesOtherProperties, seen != nil {
            seen?.insert(names: object.keys)
        }
        return true
    }
}
