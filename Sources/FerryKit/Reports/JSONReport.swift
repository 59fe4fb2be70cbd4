/// The report for programs, in the shape `Formats/report.schema.json`
/// documents. Every entry of `errors` has every key; what is unknown is null.
struct JSONReport {
    /// Bumped when a key changes meaning or goes; new keys do not bump it.
    static let version = 1

    let report: ValidationReport
    let formatter: DiagnosticFormatter
    let tool: (name: String, version: String)

    /// The report as indented JSON with a final line break. The errors are
    /// written one by one, with no `Value` made for each
    /// (`IndentedJSONWriter`: 21,000 instructions an error over a `Value`).
    func render() -> String {
        var writer = IndentedJSONWriter(capacity: 1 << 16)
        defer { writer.release() }
        do throws(FerryError) {
            writer.beginObject()
            writer.key("tool")
            try writer.value(JSONObjectBuilder.tool(tool))
            writer.key("reportVersion")
            writer.integer(Self.version)
            writer.key("valid")
            try writer.value(.bool(report.isValid))
            writer.key("partial")
            try writer.value(.bool(report.isPartial))
            var rules = JSONObjectBuilder()
            rules.set("name", report.rules)
            rules.set("chosenBy", report.rulesChoice.rawValue)
            writer.key("rules")
            try writer.value(rules.value)
            var summary = JSONObjectBuilder()
            summary.set("files", report.files.count)
            Self.setCounts(of: report.total, in: &summary)
            summary.set("maxErrors", report.maxErrors.map { Value.integer(Int64($0)) } ?? .null)
            summary.set("reachedCap", report.reachedCap)
            writer.key("summary")
            try writer.value(summary.value)
            writer.key("files")
            try writer.value(.array(report.files.map(fileValue)))
            writer.key("errors")
            writer.beginArray()
            for diagnostic in report.diagnostics {
                writer.element()
                write(diagnostic, to: &writer)
            }
            writer.endArray()
            if let trace = report.shard {
                writer.key("shard")
                try writer.value(shardValue(trace))
            }
            writer.endObject()
        } catch {
            // Reports hold no infinities; were one to slip in, it shows as null.
            return "null\n"
        }
        return writer.text + "\n"
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

    /// One entry of `errors`: every key, null for what is unknown.
    private func write(_ diagnostic: Diagnostic, to writer: inout IndentedJSONWriter) {
        let location = diagnostic.location
        writer.beginObject()
        writer.member("file", string: location.file)
        writer.member("record", integer: diagnostic.recordNumber)
        writer.member("field", string: location.field)
        writer.member("line", integer: location.line)
        writer.member("column", integer: location.column)
        writer.member("byteOffset", integer: location.byteOffset)
        // A workbook's sheet and cell, only for workbooks.
        if let sheet = location.sheet { writer.member("sheet", string: sheet) }
        if let cell = location.cell { writer.member("cell", string: cell) }
        writer.member("code", string: diagnostic.code.rawValue)
        writer.member("severity", string: diagnostic.severity.rawValue)
        writer.member("value", string: diagnostic.value)
        writer.member("rule", string: diagnostic.rule)
        // Each argument rendered once, for the message and for the list.
        let arguments = formatter.catalog.render(diagnostic.arguments)
        writer.member(
            "message", string: formatter.catalog.message(diagnostic.code, diagnostic.arguments, rendered: arguments))
        writer.key("arguments")
        writer.beginArray()
        for argument in arguments {
            writer.element()
            writer.string(argument)
        }
        writer.endArray()
        writer.endObject()
    }
}
