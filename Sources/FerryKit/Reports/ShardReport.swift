/// The json report of one shard's validation, read back for `--combine`:
/// its diagnostics, typed again, its counts and its `ShardTrace`.
struct ShardReport {
    let path: String
    let trace: ShardTrace
    let diagnostics: [Diagnostic]
    let records: Int
    let uncheckedRecords: Int
    let complete: Bool
    let kind: RecordKind?
    let rules: String
    let rulesChoice: ValidationReport.RulesChoice
    let errorCategories: Set<FerryError.Category>

    /// Reads the report at `path`.
    /// - Throws: `shard.badReport` for anything but a shard's json report; `io.*`.
    init(path: String) throws(FerryError) {
        guard let value = try Value.jsonFile(path), case .object(let root) = value, case .object(let shard)? = root["shard"],
            case .array(let files)? = root["files"], files.count == 1, case .object(let counts) = files[0],
            case .array(let errors)? = root["errors"], case .array(let typed)? = shard["diagnostics"],
            typed.count == errors.count, case .array(let keys)? = shard["keys"],
            case .array(let fields)? = shard["uniqueFields"], case .object(let options)? = shard["options"],
            case .object(let rules)? = root["rules"]
        else { throw .shardBadReport(path) }
        func int(_ object: OrderedObject, _ key: String) throws(FerryError) -> Int {
            guard let number = object[key]?.intValue else { throw .shardBadReport(path) }
            return number
        }
        guard let input = shard["input"]?.stringValue, let format = shard["format"]?.stringValue else {
            throw .shardBadReport(path)
        }
        let range = ShardRange(
            start: try int(shard, "start"), end: try int(shard, "end"), firstRecord: try int(shard, "firstRecord"),
            firstLine: try int(shard, "firstLine"))
        var codecOptions = OptionValues()
        for (key, option) in zip(options.keys, options.values) { codecOptions.values[key] = option.stringValue }
        var trace = ShardTrace(
            input: input, size: try int(shard, "size"), format: format, range: range, codecOptions: codecOptions)
        trace.uniqueFields = fields.compactMap(\.stringValue)
        // One packed string a unique field; the keys go in the records'
        // order, and the fields' within a record, as the shard saw them.
        guard keys.count == trace.uniqueFields.count else { throw .shardBadReport(path) }
        for (field, packed) in keys.enumerated() {
            guard let text = packed.stringValue, let unpacked = ShardTrace.Key.unpacked(text, field: field),
                unpacked.allSatisfy({ $0.byteOffset <= trace.size })
            else {
                throw .shardBadReport(path)
            }
            trace.keys += unpacked
        }
        if keys.count > 1 { trace.keys.sort { ($0.record, $0.field) < ($1.record, $1.field) } }
        self.trace = trace
        var diagnostics: [Diagnostic] = []
        for (error, types) in zip(errors, typed) {
            guard let diagnostic = Self.diagnostic(error, types) else { throw .shardBadReport(path) }
            diagnostics.append(diagnostic)
        }
        self.diagnostics = diagnostics
        self.path = path
        records = try int(counts, "records")
        uncheckedRecords = try int(counts, "uncheckedRecords")
        guard records >= 0, uncheckedRecords >= 0 else { throw .shardBadReport(path) }
        guard case .bool(let complete)? = counts["complete"] else { throw .shardBadReport(path) }
        self.complete = complete
        kind = counts["kind"]?.stringValue.flatMap(RecordKind.init(rawValue:))
        self.rules = rules["name"]?.stringValue ?? ""
        rulesChoice = rules["chosenBy"]?.stringValue.flatMap(ValidationReport.RulesChoice.init(rawValue:)) ?? .inferred
        var categories: Set<FerryError.Category> = []
        if case .array(let names)? = shard["errorCategories"] {
            for name in names { if let category = name.stringValue.flatMap(FerryError.Category.init(name:)) { categories.insert(category) } }
        }
        errorCategories = categories
    }

    /// One entry of `errors` and its typed twin of `shard.diagnostics`.
    private static func diagnostic(_ error: Value, _ typed: Value) -> Diagnostic? {
        guard case .object(let entry) = error, case .object(let types) = typed,
            let code = entry["code"]?.stringValue,
            let category = types["category"]?.stringValue.flatMap(FerryError.Category.init(name:)),
            let severity = entry["severity"]?.stringValue.flatMap(Diagnostic.Severity.init(rawValue:)),
            case .array(let argumentValues)? = types["arguments"]
        else { return nil }
        // Record numbers are 1-based: a smaller one is no shard's (and
        // taking 1 from Int.min would trap).
        let record = entry["record"]?.intValue
        if let record, record < 1 { return nil }
        var arguments: [MessageArgument] = []
        for value in argumentValues {
            guard let argument = MessageArgument(json: value) else { return nil }
            arguments.append(argument)
        }
        let location = SourceLocation(
            file: entry["file"]?.stringValue, byteOffset: entry["byteOffset"]?.intValue, line: entry["line"]?.intValue,
            column: entry["column"]?.intValue, record: record.map { $0 - 1 },
            field: entry["field"]?.stringValue)
        return Diagnostic(
            severity, FerryError.Code(code, category), arguments, at: location, value: entry["value"]?.stringValue,
            rule: entry["rule"]?.stringValue)
    }
}
