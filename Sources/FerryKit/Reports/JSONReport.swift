/// The report for programs, in the shape `Formats/report.schema.json`
/// documents. Every entry of `errors` has every key; what is unknown is null.
struct JSONReport {
    /// Bumped when a key changes meaning or goes; new keys do not bump it.
    static let version = 1

    let report: ValidationReport
    let formatter: DiagnosticFormatter
    let tool: (name: String, version: String)

    func render() -> String { value.prettyJSON }

    var value: Value {
        var root = JSONObjectBuilder()
        root.set("tool", JSONObjectBuilder.tool(tool))
        root.set("reportVersion", Self.version)
        root.set("valid", report.isValid)
        root.set("partial", report.isPartial)
        var rules = JSONObjectBuilder()
        rules.set("name", report.rules)
        rules.set("chosenBy", report.rulesChoice.rawValue)
        root.set("rules", rules.value)
        var summary = JSONObjectBuilder()
        summary.set("files", report.files.count)
        Self.setCounts(of: report.total, in: &summary)
        summary.set("maxErrors", report.maxErrors.map { Value.integer(Int64($0)) } ?? .null)
        summary.set("reachedCap", report.reachedCap)
        root.set("summary", summary.value)
        root.set("files", .array(report.files.map(fileValue)))
        root.set("errors", .array(report.diagnostics.map(diagnosticValue)))
        if let trace = report.shard { root.set("shard", shardValue(trace)) }
        return root.value
    }

    private func fileValue(_ file: ValidationReport.File) -> Value {
        var object = JSONObjectBuilder()
        object.set("file", file.path)
        object.set("format", file.format.map(Value.string) ?? .null)
        object.set("kind", file.kind.map { Value.string($0.rawValue) } ?? .null)
        Self.setCounts(of: file, in: &object)
        object.set("complete", file.complete)
        return object.value
    }

    /// The counts of a file, or of all (`ValidationReport.total`): the
    /// records' are null when they were not counted (`lint`).
    private static func setCounts(of file: ValidationReport.File, in object: inout JSONObjectBuilder) {
        func count(_ number: Int) -> Value { file.countsRecords ? .integer(Int64(number)) : .null }
        object.set("records", count(file.records))
        object.set("validRecords", count(file.validRecords))
        object.set("invalidRecords", count(file.invalidRecords))
        object.set("uncheckedRecords", count(file.uncheckedRecords))
        object.set("errors", file.errors)
        object.set("warnings", file.warnings)
    }

    private func diagnosticValue(_ diagnostic: Diagnostic) -> Value {
        func optional(_ number: Int?) -> Value { number.map { .integer(Int64($0)) } ?? .null }
        func optional(_ text: String?) -> Value { text.map(Value.string) ?? .null }
        let location = diagnostic.location
        var object = JSONObjectBuilder(capacity: 16)
        object.set("file", optional(location.file))
        object.set("record", optional(diagnostic.recordNumber))
        object.set("field", optional(location.field))
        object.set("line", optional(location.line))
        object.set("column", optional(location.column))
        object.set("byteOffset", optional(location.byteOffset))
        // A workbook's sheet and cell, only for workbooks.
        if let sheet = location.sheet { object.set("sheet", .string(sheet)) }
        if let cell = location.cell { object.set("cell", .string(cell)) }
        object.set("code", diagnostic.code.rawValue)
        object.set("severity", diagnostic.severity.rawValue)
        object.set("value", optional(diagnostic.value))
        object.set("rule", optional(diagnostic.rule))
        object.set("message", formatter.message(diagnostic))
        object.set("arguments", .array(diagnostic.arguments.map { .string(formatter.catalog.render($0)) }))
        return object.value
    }
}
