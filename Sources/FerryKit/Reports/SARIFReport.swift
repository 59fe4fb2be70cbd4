/// SARIF 2.1.0 (OASIS), which code-scanning services read: one run, a rule
/// per error code (its message template with SARIF's `{0}` placeholders),
/// and a result per diagnostic with its file, line and column, and the
/// record, field, value and failing schema rule as properties.
struct SARIFReport {
    static let schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"

    let report: ValidationReport
    let formatter: DiagnosticFormatter
    let tool: (name: String, version: String)

    func render() -> String {
        var codes: [FerryError.Code] = []
        for diagnostic in report.diagnostics where !codes.contains(diagnostic.code) { codes.append(diagnostic.code) }

        var driver = JSONObjectBuilder()
        driver.set("name", tool.name)
        driver.set("version", tool.version)
        driver.set("semanticVersion", tool.version)
        driver.set("rules", .array(codes.map(rule)))
        var toolObject = JSONObjectBuilder()
        toolObject.set("driver", driver.value)

        var invocation = JSONObjectBuilder()
        invocation.set("executionSuccessful", report.worstCategory != .io)

        var properties = JSONObjectBuilder()
        properties.set("partial", report.isPartial)
        properties.set("records", report.records)
        properties.set("validRecords", report.validRecords)
        properties.set("uncheckedRecords", report.uncheckedRecords)
        properties.set("rules", report.rules)
        properties.set("rulesChosenBy", report.rulesChoice.rawValue)

        var run = JSONObjectBuilder()
        run.set("tool", toolObject.value)
        run.set("invocations", .array([invocation.value]))
        run.set("results", .array(report.diagnostics.map { result($0, ruleIndex: codes.firstIndex(of: $0.code) ?? 0) }))
        run.set("columnKind", "unicodeCodePoints")
        run.set("properties", properties.value)

        var root = JSONObjectBuilder()
        root.set("$schema", Self.schemaURI)
        root.set("version", "2.1.0")
        root.set("runs", .array([run.value]))
        return root.value.prettyJSON
    }

    private func rule(_ code: FerryError.Code) -> Value {
        let template = Self.sarifTemplate(
            formatter.catalog.template(code.rawValue) ?? formatter.catalog.template(code.rawValue + "#other") ?? code.rawValue)
        var text = JSONObjectBuilder()
        text.set("text", template)
        var strings = JSONObjectBuilder()
        strings.set("default", text.value)
        var configuration = JSONObjectBuilder()
        configuration.set("level", "error")
        var rule = JSONObjectBuilder()
        rule.set("id", code.rawValue)
        rule.set("shortDescription", text.value)
        rule.set("messageStrings", strings.value)
        rule.set("defaultConfiguration", configuration.value)
        return rule.value
    }

    private func result(_ diagnostic: Diagnostic, ruleIndex: Int) -> Value {
        var message = JSONObjectBuilder()
        // Each argument rendered once, for the text and for the list.
        let arguments = formatter.catalog.render(diagnostic.arguments)
        message.set("text", formatter.catalog.message(diagnostic.code, diagnostic.arguments, rendered: arguments))
        message.set("id", "default")
        message.set("arguments", .array(arguments.map(Value.string)))

        var result = JSONObjectBuilder()
        result.set("ruleId", diagnostic.code.rawValue)
        result.set("ruleIndex", ruleIndex)
        result.set("level", diagnostic.severity == .error ? "error" : "warning")
        result.set("message", message.value)
        if let file = diagnostic.location.file {
            var artifact = JSONObjectBuilder()
            artifact.set("uri", Self.uriReference(file))
            var physical = JSONObjectBuilder()
            physical.set("artifactLocation", artifact.value)
            if diagnostic.location.line != nil || diagnostic.location.byteOffset != nil {
                var region = JSONObjectBuilder()
                region.set("startLine", diagnostic.location.line)
                region.set("startColumn", diagnostic.location.line == nil ? nil : diagnostic.location.column)
                if diagnostic.location.line == nil { region.set("byteOffset", diagnostic.location.byteOffset) }
                physical.set("region", region.value)
            }
            var location = JSONObjectBuilder()
            location.set("physicalLocation", physical.value)
            var logicals: [Value] = []
            if let place = diagnostic.location.sheetAndCell {
                // A workbook's cell: no line, so the sheet and cell name it.
                var logical = JSONObjectBuilder()
                logical.set("fullyQualifiedName", place)
                logical.set("kind", "element")
                logicals.append(logical.value)
            }
            if let field = diagnostic.location.field {
                var logical = JSONObjectBuilder()
                logical.set("name", field)
                logical.set("kind", "member")
                logicals.append(logical.value)
            }
            if !logicals.isEmpty { location.set("logicalLocations", .array(logicals)) }
            result.set("locations", .array([location.value]))
        }
        if let related = schemaLocation(of: diagnostic) { result.set("relatedLocations", .array([related])) }
        var properties = JSONObjectBuilder()
        properties.set("record", diagnostic.recordNumber)
        properties.set("field", diagnostic.location.field)
        properties.set("sheet", diagnostic.location.sheet)
        properties.set("cell", diagnostic.location.cell)
        properties.set("value", diagnostic.value)
        properties.set("rule", diagnostic.rule)
        if !properties.isEmpty { result.set("properties", properties.value) }
        return result.value
    }

    /// Where in the user's schema the failed rule sits, as a related
    /// location: the schema file (or the URI of another schema it refers
    /// to) and the keyword's JSON pointer as a logical location.
    private func schemaLocation(of diagnostic: Diagnostic) -> Value? {
        guard formatter.showsSchemaLocations, let pointer = diagnostic.schemaLocation else { return nil }
        let document = pointer.hasPrefix("#") ? report.rules : String(pointer.prefix { $0 != "#" })
        var artifact = JSONObjectBuilder()
        artifact.set("uri", document.contains("://") ? document : Self.uriReference(document))
        var physical = JSONObjectBuilder()
        physical.set("artifactLocation", artifact.value)
        var logical = JSONObjectBuilder()
        logical.set("fullyQualifiedName", pointer)
        logical.set("kind", "element")
        var message = JSONObjectBuilder()
        message.set("text", formatter.catalog.message(.diagnosticSchemaRule, [.string(pointer)]))
        var location = JSONObjectBuilder()
        location.set("id", 1)
        location.set("physicalLocation", physical.value)
        location.set("logicalLocations", .array([logical.value]))
        location.set("message", message.value)
        return location.value
    }

    /// A catalog template with SARIF's placeholders: `%1$@` becomes `{0}`.
    static func sarifTemplate(_ template: String) -> String {
        var result = ""
        var rest = template[...]
        while let percent = rest.firstIndex(of: "%") {
            result += rest[..<percent]
            let after = rest[rest.index(after: percent)...]
            let digits = after.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, after.dropFirst(digits.count).hasPrefix("$@"), let number = Int(digits), number > 0 {
                result += "{\(number - 1)}"
                rest = after.dropFirst(digits.count + 2)
            } else if after.hasPrefix("%") {
                result += "%"
                rest = after.dropFirst()
            } else {
                result += "%"
                rest = after
            }
        }
        return result + rest
    }

    /// A path as a relative URI reference: bytes outside the unreserved and
    /// path characters are percent-encoded.
    static func uriReference(_ path: String) -> String {
        var result = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return result
    }
}
