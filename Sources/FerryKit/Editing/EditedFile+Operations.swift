// MARK: - Add, edit, remove

extension EditedFile {
    /// The records as they are now.
    public var records: [Record] { editor.records }

    /// Which record a selector names, by number or by key (see `RecordSelector`).
    /// - Parameter key: `--key`'s fields, or nil for the kind's default key.
    package func selector(key: [String]?) -> RecordSelector {
        RecordSelector(records: records, key: key, schema: schema, kind: kind)
    }

    /// Adds a record made by `change`, checked against the file's rules.
    /// - Returns: the new record's index.
    /// - Throws: `edit.valueType`, the rules' `record.*`/`schema.*` codes,
    ///   the editor's codes; nothing is changed then.
    @discardableResult
    public func add(_ change: RecordChange) throws(FerryError) -> Int {
        let index = records.count
        if records.isEmpty && kindInferred {
            let fields = change.assignments.map(\.field) + (change.photo == nil ? [] : [RecordChange.photoField])
            kind = RecordKind.infer(from: FieldList(fields))
            schema = kind.schema
        }
        try located(index) { () throws(FerryError) in
            let record = try change.applied(to: nil, schema: schema, order: records.first?.fields.names ?? [])
            try check(record, index: index)
            try editor.append(record)
        }
        return index
    }

    /// Changes the record `selector` names.
    /// - Returns: its index.
    /// - Throws: as `add`, and the selector's `edit.*` codes.
    @discardableResult
    public func edit(_ selector: String, key: [String]? = nil, change: RecordChange) throws(FerryError) -> Int {
        let index = try self.selector(key: key).index(of: selector, count: records.count, in: path)
        try located(index) { () throws(FerryError) in
            let record = try change.applied(to: records[index], schema: schema)
            try check(record, index: index)
            try editor.replace(at: index, with: record)
        }
        return index
    }

    /// Removes the record `selector` names.
    /// - Returns: its index.
    @discardableResult
    public func remove(_ selector: String, key: [String]? = nil) throws(FerryError) -> Int {
        let index = try self.selector(key: key).index(of: selector, count: records.count, in: path)
        try located(index) { () throws(FerryError) in try editor.remove(at: index) }
        return index
    }

    /// Runs `body`, its errors located at the file and record `index`.
    private func located(_ index: Int, _ body: () throws(FerryError) -> Void) throws(FerryError) {
        do throws(FerryError) {
            try body()
        } catch {
            throw error.located(SourceLocation(file: path, record: index))
        }
    }

    /// Checks `record` against the file's rules, as a conversion would.
    private func check(_ record: Record, index: Int) throws(FerryError) {
        var validator = RecordValidator(schema: schema)
        try validator.validate(record, at: SourceLocation(file: path, record: index))
    }
}
