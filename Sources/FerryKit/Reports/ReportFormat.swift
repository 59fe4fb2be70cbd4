/// The forms a validation report takes: one for people, four for machines.
///
/// - `text`: compiler-style lines (`p.csv:11:7: error: … [record.negative]`)
///   and a summary, in the reader's language.
/// - `json`: the shape `Formats/report.schema.json` documents.
/// - `junit`: JUnit XML, one test suite per file and one test case per
///   failing record, as Jenkins, GitLab and GitHub's test reporters read it.
/// - `github`: GitHub Actions workflow commands (`::error file=…::…`).
/// - `sarif`: SARIF 2.1.0, with a rule per error code.
public enum ReportFormat: String, Sendable, CaseIterable {
    case text, json, junit, github, sarif

    /// The report as text in this form.
    /// - Parameters:
    ///   - report: what validation found.
    ///   - formatter: renders messages in the reader's language.
    ///   - tool: the tool's name and version, for the machine forms.
    public func render(
        _ report: ValidationReport, formatter: DiagnosticFormatter, tool: (name: String, version: String)
    ) -> String {
        // The rules of a user's schema are the user's to fix: each error says where in the schema it failed.
        var formatter = formatter
        formatter.showsSchemaLocations = formatter.showsSchemaLocations || report.rulesChoice == .schema
        switch self {
        case .text: return TextReport(report: report, formatter: formatter).render()
        case .json: return JSONReport(report: report, formatter: formatter, tool: tool).render()
        case .junit: return JUnitReport(report: report, formatter: formatter).render()
        case .github: return GitHubReport(report: report, formatter: formatter).render()
        case .sarif: return SARIFReport(report: report, formatter: formatter, tool: tool).render()
        }
    }
}

// MARK: - Shared pieces

extension Diagnostic {
    /// The record number people read: 1-based.
    var recordNumber: Int? { location.record.map { $0 + 1 } }
}

extension ValidationReport {
    /// The diagnostics of each file, in the files' order.
    func diagnostics(of path: String) -> [Diagnostic] {
        diagnostics.filter { $0.location.file == path }
    }
}

/// Builds JSON objects with their keys in order, for the machine reports.
struct JSONObjectBuilder {
    // The object itself, appended to: a list of pairs, grown one by one
    // and then split, took 6,000 instructions an error of a json report.
    private var object = OrderedObject()

    init() {}

    /// A builder with room for `capacity` members.
    init(capacity: Int) { object.reserveCapacity(capacity) }

    var isEmpty: Bool { object.count == 0 }

    mutating func set(_ key: String, _ value: Value?) {
        guard let value else { return }
        object.append(key: key, value: value)
    }

    mutating func set(_ key: String, _ text: String?) { set(key, text.map(Value.string)) }
    mutating func set(_ key: String, _ number: Int?) { set(key, number.map { Value.integer(Int64($0)) }) }
    mutating func set(_ key: String, _ flag: Bool) { set(key, Value.bool(flag)) }

    var value: Value { .object(object) }

    /// The `tool` object of the machine reports: its name and version.
    static func tool(_ tool: (name: String, version: String)) -> Value {
        var object = JSONObjectBuilder()
        object.set("name", tool.name)
        object.set("version", tool.version)
        return object.value
    }
}

extension Value {
    /// This value as indented JSON text with a final line break.
    var prettyJSON: String { jsonText(indentLevel: 0) + "\n" }

    /// This value as JSON text, indented from `indentLevel`, or on one line
    /// for nil.
    func jsonText(indentLevel: Int?) -> String {
        var buffer = WriteBuffer(capacity: 4096)
        defer { buffer.release() }
        // Reports hold no infinities; were one to slip in, it shows as null.
        if (try? JSONText.appendValue(self, to: &buffer, indentLevel: indentLevel)) == nil { return "null" }
        return String(decoding: buffer.bytes, as: UTF8.self)
    }
}
