/// The report for people: one compiler-style line per diagnostic, then what
/// was checked against which rules, and a summary with counts in the
/// reader's language.
///
///     p.csv:11:7: error: field 'price' must not be negative (record 10, field 'price') [record.negative]
///     p.csv:31:1: error: sku 'A-5' repeats the value of record 5 (record 30, field 'sku') [record.duplicateKey]
///     rules: the built-in product schema, inferred from the records
///     2 errors in 1 file; 98 records valid
package struct TextReport {
    let report: ValidationReport
    let formatter: DiagnosticFormatter
    private var catalog: MessageCatalog { formatter.catalog }

    func render() -> String {
        var lines = report.diagnostics.map(formatter.render)
        if report.rulesChoice == .wellFormedness {
            for file in report.files where file.errors == 0 && file.complete {
                lines.append(catalog.message(.lintOK, [.path(file.path), .string(file.format ?? "")]))
            }
        }
        lines += incompleteFiles.map(\.note)
        if !report.rules.isEmpty && report.rulesChoice != .wellFormedness {
            let key: MessageKey =
                switch report.rulesChoice {
                case .schema: .validateRulesSchema
                case .kind: .validateRulesKind
                case .inferred, .wellFormedness: .validateRulesInferred
                }
            lines.append(catalog.message(key, [.string(report.rules)]))
        }
        lines.append(summary)
        if let partial = capNote { lines.append(partial) }
        return lines.joined(separator: "\n")
    }

    /// The files that could not be read to their end, each with the note
    /// that says so (at which line, when known).
    var incompleteFiles: [(path: String, note: String)] {
        report.files.filter { !$0.complete }.map { file in
            let fatal = report.diagnostics(of: file.path).last { $0.severity == .error }
            let note =
                if let line = fatal?.location.line {
                    catalog.message(.validateIncomplete, [.path(file.path), .ungrouped(line)])
                } else if file.records > 0 {
                    // A gzip stream cut short has no line, but the records
                    // before the cut were checked.
                    catalog.message(.validateIncompleteAfterRecord, [.path(file.path), .integer(file.records)])
                } else {
                    catalog.message(.validateUnreadable, [.path(file.path)])
                }
            return (file.path, note)
        }
    }

    /// The note that the cap on errors left records unchecked, if it did.
    var capNote: String? {
        guard report.reachedCap && report.uncheckedRecords > 0 else { return nil }
        return catalog.message(
            .validatePartial, count: report.uncheckedRecords,
            [
                .string(plural(.validateCountErrors, report.errorCount)),
                .string(plural(.validateCountRecords, report.uncheckedRecords)),
            ])
    }

    /// The summary line alone, for a command that wrote the report elsewhere.
    package static func summaryLine(of report: ValidationReport, catalog: MessageCatalog) -> String {
        TextReport(report: report, formatter: DiagnosticFormatter(catalog: catalog)).summary
    }

    /// "3 errors in 2 files; 998 records valid", or "no errors in 2 files; …".
    private var summary: String {
        let files = plural(.validateCountFiles, report.files.count)
        let valid = plural(.validateCountValidRecords, report.validRecords)
        var text: String
        if report.rulesChoice == .wellFormedness {
            text =
                report.errorCount == 0
                ? catalog.message(.lintSummaryValid, [.string(files)])
                : catalog.message(
                    .lintSummaryInvalid, [.string(plural(.validateCountErrors, report.errorCount)), .string(files)])
        } else if report.errorCount == 0 {
            text = catalog.message(.validateSummaryValid, [.string(files), .string(valid)])
        } else {
            text = catalog.message(
                .validateSummaryInvalid,
                [.string(plural(.validateCountErrors, report.errorCount)), .string(files), .string(valid)])
        }
        if report.warningCount > 0 {
            text = catalog.message(
                .validateSummaryWithWarnings, [.string(text), .string(plural(.validateCountWarnings, report.warningCount))])
        }
        return text
    }

    /// A count with its noun, in the form the language gives `count`.
    private func plural(_ key: PluralKey, _ count: Int) -> String {
        catalog.message(key, count: count, [.count(count)])
    }
}
