/// The forms of a merge report (`--report-format`): text for people, in
/// their language, and JSON in the shape `Formats/merge-report.schema.json`
/// documents.
///
///     b.csv:3: key 'A-2' differs from a.json:2 (kept: a.json:2)
///       field 'price': 279 / 289
///     5 records read from 2 files, 3 written (key: sku): 1 identical duplicate merged, 1 conflict resolved by keep-first, …
public enum MergeReportFormat: String, Sendable, CaseIterable {
    case text, json

    /// The whole report in this form.
    public func render(_ report: MergeReport, catalog: MessageCatalog, tool: (name: String, version: String)) -> String {
        switch self {
        case .text:
            let text = MergeTextReport(report: report, catalog: catalog)
            return (text.conflictLines + [text.summary]).joined(separator: "\n") + "\n"
        case .json: return MergeJSONReport(report: report, tool: tool).value.prettyJSON
        }
    }
}

/// The text report: a paragraph per conflict, then the summary.
public struct MergeTextReport {
    public let report: MergeReport
    public let catalog: MessageCatalog

    public init(report: MergeReport, catalog: MessageCatalog) {
        self.report = report
        self.catalog = catalog
    }

    /// Each conflict's line, then a line per differing field.
    public var conflictLines: [String] { conflictLines(shown: nil) }

    /// The lines of the first `limit` conflicts (of every one when nil),
    /// then one line that counts the others: a price feed can bring a
    /// hundred thousand, and a terminal wants the first few and the count.
    /// Only the conflicts shown are formatted.
    public func conflictLines(shown limit: Int?) -> [String] {
        let shown = limit.map { min(max($0, 0), report.conflicts.count) } ?? report.conflicts.count
        var lines = report.conflicts.prefix(shown).flatMap(lines(of:))
        let hidden = report.conflictsResolved - shown
        if hidden > 0 { lines.append(plural(.mergeConflictsNotShown, hidden)) }
        return lines
    }

    private func lines(of conflict: MergeReport.Conflict) -> [String] {
        let kept = conflict.keptSecond ? conflict.second : conflict.first
        let head = catalog.message(
            .mergeConflict,
            [.string(place(conflict.second)), .string(key(conflict.key)), .string(place(conflict.first)),
             .string(place(kept))])
        return [head]
            + conflict.differences.map { difference in
                catalog.message(
                    .mergeDifference,
                    [.string(difference.field), .string(shown(difference.first)), .string(shown(difference.second))])
            }
    }

    /// The counts in one line; they add up (see `MergeReport`).
    public var summary: String {
        let read = plural(.validateCountRecords, report.recordsIn)
        let files = plural(.validateCountFiles, report.sources.count)
        // Inputs with no record have no kind, so no key.
        let fields = report.keyFields.isEmpty ? catalog.message(.mergeKeyNone) : report.keyFields.joined(separator: ", ")
        let identical = plural(.mergeCountIdentical, report.identicalDuplicates)
        guard report.written else {
            return catalog.message(.mergeSummaryNotWritten, [.string(read), .string(files), .string(fields), .string(identical)])
        }
        let resolved = catalog.message(
            .mergeCountResolved, count: report.conflictsResolved,
            [.count(report.conflictsResolved), .string(report.policy.rawValue)])
        return catalog.message(
            .mergeSummary,
            [.string(read), .string(files), .string(plural(.validateCountRecords, report.recordsOut)), .string(fields),
             .string(identical), .string(resolved), .string(plural(.mergeCountWithoutKey, report.recordsWithoutKey))])
    }

    /// `file:line`, or `file (record N)` where the format has no lines.
    func place(_ place: MergeReport.Place) -> String {
        if let line = place.line { return "\(place.file):\(line)" }
        return catalog.message(.mergePlaceRecord, [.path(place.file), .ungrouped(place.record + 1)])
    }

    private func key(_ parts: [String?]) -> String {
        parts.map { $0.map { "'\($0)'" } ?? catalog.message(.mergeMissing) }.joined(separator: ", ")
    }

    /// A value as compact JSON (so text `"269"` and the number `269` look
    /// apart), cut as diagnostics cut values (a photo's bytes run to
    /// kilobytes; the JSON report has them whole); a missing field says so.
    private func shown(_ value: Value?) -> String {
        value.map { Diagnostic.truncated($0.jsonText(indentLevel: nil)) } ?? catalog.message(.mergeMissing)
    }

    private func plural(_ key: PluralKey, _ count: Int) -> String {
        catalog.message(key, count: count, [.count(count)])
    }
}

/// The JSON report (`Formats/merge-report.schema.json`).
struct MergeJSONReport {
    /// Bumped when a key changes meaning or goes; new keys do not bump it.
    static let version = 1

    let report: MergeReport
    let tool: (name: String, version: String)

    var value: Value {
        var root = JSONObjectBuilder()
        root.set("tool", JSONObjectBuilder.tool(tool))
        root.set("reportVersion", Self.version)
        root.set("output", report.output)
        root.set("outputFormat", report.written ? .string(report.outputFormat) : .null)
        root.set("written", report.written)
        root.set("kind", report.kind.rawValue)
        root.set("key", .array(report.keyFields.map(Value.string)))
        root.set("keyChosenBy", report.keyChoice.rawValue)
        root.set("policy", report.policy.rawValue)
        root.set("spilled", report.spilled)
        var counts = JSONObjectBuilder()
        counts.set("recordsIn", report.recordsIn)
        counts.set("recordsOut", report.recordsOut)
        counts.set("identicalDuplicates", report.identicalDuplicates)
        counts.set("conflictsResolved", report.conflictsResolved)
        counts.set("recordsWithoutKey", report.recordsWithoutKey)
        root.set("counts", counts.value)
        root.set("sources", .array(report.sources.map(sourceValue)))
        root.set("conflicts", .array(report.conflicts.map(conflictValue)))
        return root.value
    }

    private func sourceValue(_ source: MergeReport.Source) -> Value {
        var object = JSONObjectBuilder()
        object.set("file", source.path)
        object.set("format", source.format)
        object.set("kind", source.kind.map { Value.string($0.rawValue) } ?? .null)
        object.set("records", source.records)
        return object.value
    }

    private func conflictValue(_ conflict: MergeReport.Conflict) -> Value {
        var object = JSONObjectBuilder()
        object.set("key", .array(conflict.key.map { $0.map(Value.string) ?? .null }))
        object.set("first", placeValue(conflict.first))
        object.set("second", placeValue(conflict.second))
        object.set("kept", conflict.keptSecond ? "second" : "first")
        object.set(
            "differences",
            .array(
                conflict.differences.map { difference in
                    // A side the record lacks is left out; null is a value.
                    var entry = JSONObjectBuilder()
                    entry.set("field", difference.field)
                    entry.set("first", difference.first)
                    entry.set("second", difference.second)
                    return entry.value
                }))
        return object.value
    }

    private func placeValue(_ place: MergeReport.Place) -> Value {
        var object = JSONObjectBuilder()
        object.set("file", place.file)
        object.set("line", place.line.map { Value.integer(Int64($0)) } ?? .null)
        object.set("record", place.record + 1)
        object.set("byteOffset", place.byteOffset)
        return object.value
    }
}
