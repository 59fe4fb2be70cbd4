// MARK: - Checking records

extension Schema {
    /// Checks `record` and reports every rule it breaks, in the schema's
    /// order: each property in turn (missing, or each failing keyword),
    /// then the fields the schema does not name.
    ///
    /// Each diagnostic carries `location` with the field (the top-level
    /// name; `tags/0` for a value inside it), the offending value as text,
    /// and the failing keyword's JSON pointer in the schema as its rule
    /// (`/properties/price/minimum`, `/required`).
    /// - Parameter report: takes each diagnostic; returning false stops the check.
    public func check(_ record: Record, at location: SourceLocation, into report: (Diagnostic) -> Bool) {
        withoutActuallyEscaping(report) { report in
            check(record, with: SchemaChecker(location: location, report: report))
        }
    }

    private func check(_ record: Record, with checker: SchemaChecker) {
        if checksWholeRecord {
            var object = OrderedObject()
            for (name, value) in zip(record.fields.names, record.values) where value != .null {
                object.append(key: name, value: value)
            }
            guard checker.checkOwn(Value.object(object), root, field: nil, required: false) else { return }
        }
        guard !root.rejectsAll else { return }
        for property in root.properties {
            let value = record[property.name] ?? .null
            if case .null = value {
                if property.required {
                    guard checker.missing(property.name, in: root) else { return }
                }
                continue
            }
            guard checker.check(value, property.node, field: property.name, required: property.required) else { return }
        }
        for name in root.required where root.property(named: name) == nil {
            if (record[name] ?? .null) == .null {
                guard checker.missing(name, in: root) else { return }
            }
        }
        guard let additional = root.additionalProperties else { return }
        for (name, value) in zip(record.fields.names, record.values) where value != .null {
            guard root.property(named: name) == nil else { continue }
            guard checker.checkAdditional(value, additional, field: name) else { return }
        }
    }

    /// The first rule `value` breaks as field `index` of the plan, as an
    /// error; nil when it breaks none. `value` is not null.
    func firstError(inField index: Int, _ value: Value, at location: SourceLocation) -> FerryError? {
        var first: FerryError?
        let checker = SchemaChecker(location: location) { diagnostic in
            first = FerryError(diagnostic.code, diagnostic.arguments, at: diagnostic.location)
            return false
        }
        if index < root.properties.count {
            let property = root.properties[index]
            _ = checker.check(value, property.node, field: property.name, required: property.required)
        }
        return first
    }

    /// The first rule `value` breaks as field `name`, which the schema does
    /// not name; nil when it breaks none (or no rule covers such fields).
    func firstErrorInOtherField(_ name: String, _ value: Value, at location: SourceLocation) -> FerryError? {
        guard let additional = root.additionalProperties else { return nil }
        var first: FerryError?
        let checker = SchemaChecker(location: location) { diagnostic in
            first = FerryError(diagnostic.code, diagnostic.arguments, at: diagnostic.location)
            return false
        }
        _ = checker.checkAdditional(value, additional, field: name)
        return first
    }

    /// The first diagnostic of `check(_:at:into:)`, as an error.
    func firstError(in record: Record, at location: SourceLocation) -> FerryError? {
        var first: FerryError?
        check(record, at: location) { diagnostic in
            first = FerryError(diagnostic.code, diagnostic.arguments, at: diagnostic.location)
            return false
        }
        return first
    }
}

/// One check's state: where the record is and where diagnostics go. Each
/// method returns false once `report` has asked to stop.
struct SchemaChecker {
    let location: SourceLocation
    let report: (Diagnostic) -> Bool

    private func emit(_ error: FerryError, _ value: Value?, rule: String) -> Bool {
        report(Diagnostic(error, value: value.map(SchemaValues.display), rule: rule))
    }

    private func here(_ field: String?) -> SourceLocation {
        var here = location
        if let field { here.field = field }
        return here
    }

    /// `field` inside `parent` (nil for the record itself).
    private static func join(_ parent: String?, _ name: String) -> String {
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
        guard checkOwn(value, node, field: field, required: required) else { return false }
        if case .object(let object) = value, !node.rejectsAll {
            return checkObject(object, node, field: field)
        }
        return true
    }

    /// Checks `value` against the keywords of `node` that are not about an
    /// object's properties.
    func checkOwn(_ value: Value, _ node: SchemaNode, field: String?, required: Bool) -> Bool {
        let name = field ?? ""
        let at = here(field)
        if node.rejectsAll { return emit(.schemaFalse(name, at: at), value, rule: node.path) }
        if let types = node.types, !types.matches(value) {
            let error: FerryError
            // The value is not null when null is one of several types: those
            // others are what it should be.
            let names = types == .null ? types.typeNames : types.subtracting(.null).typeNames
            if let expected = FieldType(types: types, format: node.format) {
                error = .recordWrongType(name, expected: expected.rawValue, found: value.typeName, at: at)
            } else if names.count == 1 {
                error = .recordWrongType(name, expected: names[0], found: value.typeName, at: at)
            } else {
                error = .schemaType(name, expected: types.typeNames, found: value.typeName, at: at)
            }
            guard emit(error, value, rule: node.path + "/type") else { return false }
        }
        if let constant = node.constant, !SchemaValues.equal(value, constant) {
            guard emit(.schemaConst(name, expected: SchemaValues.json(constant), at: at), value, rule: node.path + "/const")
            else { return false }
        }
        if let allowed = node.allowed, !allowed.contains(where: { SchemaValues.equal(value, $0) }) {
            let list = allowed.map(SchemaValues.json).joined(separator: ", ")
            guard emit(.schemaEnum(name, allowed: list, at: at), value, rule: node.path + "/enum") else { return false }
        }
        switch value {
        case .integer, .double, .number:
            return checkNumber(value, node, name: name, at: at)
        case .string, .bytes, .date:
            return checkString(value, node, name: name, at: at, required: required)
        case .array(let elements):
            return checkArray(elements, value, node, field: field, at: at)
        default:
            return true
        }
    }

    private func checkNumber(_ value: Value, _ node: SchemaNode, name: String, at: SourceLocation) -> Bool {
        if let limit = node.minimum, (SchemaValues.compare(value, with: limit) ?? -1) < 0 {
            let error: FerryError =
                limit.isZero ? .recordNegative(name, at: at) : .schemaMinimum(name, limit: limit.argument, at: at)
            guard emit(error, value, rule: node.path + "/minimum") else { return false }
        }
        if let limit = node.maximum, (SchemaValues.compare(value, with: limit) ?? 1) > 0 {
            guard emit(.schemaMaximum(name, limit: limit.argument, at: at), value, rule: node.path + "/maximum")
            else { return false }
        }
        if let limit = node.exclusiveMinimum, (SchemaValues.compare(value, with: limit) ?? 0) <= 0 {
            guard
                emit(
                    .schemaExclusiveMinimum(name, limit: limit.argument, at: at), value,
                    rule: node.path + "/exclusiveMinimum")
            else { return false }
        }
        if let limit = node.exclusiveMaximum, (SchemaValues.compare(value, with: limit) ?? 0) >= 0 {
            guard
                emit(
                    .schemaExclusiveMaximum(name, limit: limit.argument, at: at), value,
                    rule: node.path + "/exclusiveMaximum")
            else { return false }
        }
        if let divisor = node.multipleOf, !SchemaValues.isMultiple(value, of: divisor) {
            guard emit(.schemaMultipleOf(name, divisor: divisor.argument, at: at), value, rule: node.path + "/multipleOf")
            else { return false }
        }
        return true
    }

    private func checkString(
        _ value: Value, _ node: SchemaNode, name: String, at: SourceLocation, required: Bool
    ) -> Bool {
        guard node.minLength != nil || node.maxLength != nil || node.pattern != nil || node.format != nil,
            let text = SchemaValues.text(of: value)
        else { return true }
        if node.minLength != nil || node.maxLength != nil {
            // JSON Schema counts code points: Unicode scalars.
            let length = text.unicodeScalars.count
            if let limit = node.minLength, length < limit {
                let error: FerryError =
                    required && length == 0
                    ? .recordEmptyField(name, at: at) : .schemaMinLength(name, limit: limit, at: at)
                guard emit(error, value, rule: node.path + "/minLength") else { return false }
            }
            if let limit = node.maxLength, length > limit {
                guard emit(.schemaMaxLength(name, limit: limit, at: at), value, rule: node.path + "/maxLength")
                else { return false }
            }
        }
        // An empty value a minimum length refused is not refused again by
        // `\S` (the kinds' "a character other than white space"), which
        // says no more: an empty name is one error, as it was.
        if let pattern = node.pattern, !pattern.matches(text),
            !(text.isEmpty && (node.minLength ?? 0) > 0 && pattern.source == ColumnRule.nonBlankPattern)
        {
            guard emit(.schemaPattern(name, pattern: pattern.source, at: at), value, rule: node.path + "/pattern")
            else { return false }
        }
        if let format = node.format, !format.accepts(text) {
            guard emit(.schemaFormat(name, format: format.rawValue, at: at), value, rule: node.path + "/format")
            else { return false }
        }
        return true
    }

    private func checkArray(
        _ elements: [Value], _ value: Value, _ node: SchemaNode, field: String?, at: SourceLocation
    ) -> Bool {
        let name = field ?? ""
        if let limit = node.minItems, elements.count < limit {
            guard emit(.schemaMinItems(name, limit: limit, at: at), value, rule: node.path + "/minItems") else {
                return false
            }
        }
        if let limit = node.maxItems, elements.count > limit {
            guard emit(.schemaMaxItems(name, limit: limit, at: at), value, rule: node.path + "/maxItems") else {
                return false
            }
        }
        if let items = node.items {
            for (index, element) in elements.enumerated() {
                guard check(element, items, field: Self.join(field, String(index)), required: false) else {
                    return false
                }
            }
        }
        return true
    }

    private func checkObject(_ object: OrderedObject, _ node: SchemaNode, field: String?) -> Bool {
        func value(_ name: String) -> Value? {
            object.keys.firstIndex { $0.unicodeScalars.elementsEqual(name.unicodeScalars) }.map { object.values[$0] }
        }
        for property in node.properties {
            let path = Self.join(field, property.name)
            if let found = value(property.name) {
                guard check(found, property.node, field: path, required: property.required) else { return false }
            } else if property.required {
                guard missing(path, in: node) else { return false }
            }
        }
        for name in node.required where node.property(named: name) == nil && value(name) == nil {
            guard missing(Self.join(field, name), in: node) else { return false }
        }
        if let additional = node.additionalProperties {
            for index in 0..<object.count where node.property(named: object.keys[index]) == nil {
                guard checkAdditional(object.values[index], additional, field: Self.join(field, object.keys[index]))
                else { return false }
            }
        }
        return true
    }
}
