// The reports CI systems read: JUnit XML and GitHub workflow commands.

// MARK: - JUnit

/// JUnit XML: a test suite per file, a failing test case per record with
/// errors (its failures one per error), and one passing case per file for
/// its valid records, so that a valid file is not an empty suite.
///
///     <testsuites name="ferry validate" tests="2" failures="1" errors="0">
///       <testsuite name="p.csv" tests="2" failures="1" errors="0" skipped="0">
///         <testcase classname="p.csv" name="record 10" file="p.csv" line="11">
///           <failure type="record.negative" message="…">p.csv:11:7: error: …</failure>
///         </testcase>
///         <testcase classname="p.csv" name="97 records valid"/>
///       </testsuite>
///     </testsuites>
///
/// A file that could not be read to its end has an `<error>` case.
struct JUnitReport {
    let report: ValidationReport
    let formatter: DiagnosticFormatter

    func render() -> String {
        var suites: [String] = []
        var totalTests = 0
        var totalFailures = 0
        var totalErrors = 0
        for file in report.files {
            let (cases, failures, errors) = testCases(for: file)
            totalTests += cases.count
            totalFailures += failures
            totalErrors += errors
            suites.append(
                "  <testsuite name=\"\(Self.escaped(file.path))\" tests=\"\(cases.count)\" failures=\"\(failures)\" "
                    + "errors=\"\(errors)\" skipped=\"0\">\n" + properties(of: file) + cases.joined() + "  </testsuite>\n")
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"ferry validate\" tests=\"\(totalTests)\" failures=\"\(totalFailures)\" errors=\"\(totalErrors)\">\n"
            + suites.joined() + "</testsuites>\n"
    }

    /// What the suite's cases cannot say: the rules, and whether the report
    /// is partial (the cap reached, or the file not read to its end), with
    /// the note that says so in the reader's language.
    private func properties(of file: ValidationReport.File) -> String {
        let text = TextReport(report: report, formatter: formatter)
        var pairs: [(String, String)] = [
            ("ferry.rules", report.rules), ("ferry.rulesChosenBy", report.rulesChoice.rawValue),
            ("ferry.partial", String(report.isPartial)),
        ]
        if file.countsRecords { pairs.append(("ferry.uncheckedRecords", String(file.uncheckedRecords))) }
        if let note = text.incompleteFiles.first(where: { $0.path == file.path })?.note { pairs.append(("ferry.note", note)) }
        if let note = text.capNote { pairs.append(("ferry.partialNote", note)) }
        return "    <properties>\n"
            + pairs.map { "      <property name=\"\($0.0)\" value=\"\(Self.escaped($0.1))\"/>\n" }.joined()
            + "    </properties>\n"
    }

    /// The test cases of one file, with how many fail and how many are errors.
    private func testCases(for file: ValidationReport.File) -> (cases: [String], failures: Int, errors: Int) {
        let path = Self.escaped(file.path)
        var cases: [String] = []
        var failures = 0
        var errors = 0
        // Errors grouped by record, in order; those outside any record apart.
        var groups: [(record: Int?, diagnostics: [Diagnostic])] = []
        for diagnostic in report.diagnostics(of: file.path) where diagnostic.severity == .error {
            let record = diagnostic.recordNumber
            if record != nil, let last = groups.last, last.record == record {
                groups[groups.count - 1].diagnostics.append(diagnostic)
            } else {
                groups.append((record, [diagnostic]))
            }
        }
        for group in groups {
            let first = group.diagnostics[0]
            let name =
                group.record.map { formatter.catalog.message(.diagnosticRecord, [.ungrouped($0)]) }
                ?? formatter.catalog.message(.validateJunitFile)
            var attributes = "classname=\"\(path)\" name=\"\(Self.escaped(name))\" file=\"\(path)\""
            if let line = first.location.line { attributes += " line=\"\(line)\"" }
            var body = ""
            // An error outside any record stopped the reading: a JUnit error.
            let isError = group.record == nil && !file.complete
            for diagnostic in group.diagnostics {
                let element = isError ? "error" : "failure"
                body +=
                    "      <\(element) type=\"\(Self.escaped(diagnostic.code.rawValue))\" "
                    + "message=\"\(Self.escaped(formatter.message(diagnostic)))\">"
                    + Self.escaped(formatter.render(diagnostic)) + "</\(element)>\n"
            }
            if isError { errors += 1 } else { failures += 1 }
            cases.append("    <testcase \(attributes)>\n\(body)    </testcase>\n")
        }
        if file.validRecords > 0 || cases.isEmpty {
            let name =
                file.countsRecords
                ? formatter.catalog.message(.validateCountValidRecords, count: file.validRecords, [.count(file.validRecords)])
                : formatter.catalog.message(.lintJunitWellFormed)
            cases.append("    <testcase classname=\"\(path)\" name=\"\(Self.escaped(name))\"/>\n")
        }
        return (cases, failures, errors)
    }

    /// `text` escaped for an XML attribute or text; characters XML 1.0
    /// cannot hold become U+FFFD.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\n": result += "&#10;"
            case "\r": result += "&#13;"
            case "\t": result += "&#9;"
            default:
                let value = scalar.value
                let allowed = value >= 0x20 && !(0xFFFE...0xFFFF).contains(value)
                result.unicodeScalars.append(allowed ? scalar : "\u{FFFD}")
            }
        }
        return result
    }
}

// MARK: - GitHub

/// GitHub Actions workflow commands, one line per diagnostic, which the
/// runner shows as annotations on the file:
///
///     ::error file=p.csv,line=11,col=7,title=record.negative::field 'price' must not be negative
struct GitHubReport {
    let report: ValidationReport
    let formatter: DiagnosticFormatter

    func render() -> String {
        var lines: [String] = []
        for diagnostic in report.diagnostics {
            var properties: [String] = []
            if let file = diagnostic.location.file { properties.append("file=" + Self.property(file)) }
            if let line = diagnostic.location.line { properties.append("line=\(line)") }
            if let column = diagnostic.location.column { properties.append("col=\(column)") }
            properties.append("title=" + Self.property(diagnostic.code.rawValue))
            var message = formatter.message(diagnostic)
            // A workbook's cell has no line: the message says where it is.
            let context = formatter.context(of: diagnostic, namingCell: true)
            if !context.isEmpty { message += " (" + context + ")" }
            lines.append(
                "::\(diagnostic.severity.rawValue) " + properties.joined(separator: ",") + "::" + Self.data(message))
        }
        // A partial report says so, as a warning the run's summary shows.
        let text = TextReport(report: report, formatter: formatter)
        for (path, note) in text.incompleteFiles {
            lines.append("::warning file=\(Self.property(path)),title=ferry::" + Self.data(note))
        }
        if let note = text.capNote { lines.append("::warning title=ferry::" + Self.data(note)) }
        return lines.joined(separator: "\n")
    }

    /// A command's message, escaped as the runner unescapes it.
    static func data(_ text: String) -> String {
        text.replacing("%", with: "%25").replacing("\r", with: "%0D").replacing("\n", with: "%0A")
    }

    /// A property's value, which also may not hold `:` or `,`.
    static func property(_ text: String) -> String {
        data(text).replacing(":", with: "%3A").replacing(",", with: "%2C")
    }
}
