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
            let checker = SchemaChecker(plan: plan, location: location, report: report)
            checker.everyBranch = reportsEveryBranch
            check(record, with: checker)
        }
    }

    /// Checks one JSON value, a whole document, against the schema as JSON
    /// Schema says: unlike a record's fields, a null is a value like any
    /// other. Diagnostics name the place in the value as `field` (`""` for
    /// the value itself, `tags/0` inside it).
    /// - Parameter report: takes each diagnostic; returning false stops the check.
    /// - Returns: whether the value passes.
    @discardableResult
    public func check(document value: Value, at location: SourceLocation, into report: (Diagnostic) -> Bool) -> Bool {
        var passes = true
        withoutActuallyEscaping(report) { report in
            let checker = SchemaChecker(plan: plan, location: location) { diagnostic in
                passes = false
                return report(diagnostic)
            }
            checker.everyBranch = reportsEveryBranch
            _ = checker.check(value, root, field: nil, required: false)
        }
        return passes
    }

    private func check(_ record: Record, with checker: SchemaChecker) {
        if checksWholeRecord {
            // A null field counts as missing at the top level, as elsewhere.
            var object = OrderedObject()
            object.reserveCapacity(record.values.count)
            for (name, value) in zip(record.fields.names, record.values) where value != .null {
                object.append(key: name, value: value)
            }
            _ = checker.check(Value.object(object), root, field: nil, required: false)
            return
        }
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
        for name in root.required where !root.hasProperty(named: name) {
            if (record[name] ?? .null) == .null {
                guard checker.missing(name, in: root) else { return }
            }
        }
        guard let additional = root.additionalProperties else { return }
        for (name, value) in zip(record.fields.names, record.values) where value != .null {
            guard !root.hasProperty(named: name) else { continue }
            guard checker.checkAdditional(value, additional, field: name) else { return }
        }
    }

    /// The first rule `value` breaks as field `index` of the plan, as an
    /// error; nil when it breaks none. `value` is not null.
    func firstError(inField index: Int, _ value: Value, at location: SourceLocation) -> FerryError? {
        var first: FerryError?
        let checker = SchemaChecker(plan: plan, location: location) { diagnostic in
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
        let checker = SchemaChecker(plan: plan, location: location) { diagnostic in
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

