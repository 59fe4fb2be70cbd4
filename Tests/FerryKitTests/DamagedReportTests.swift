import FerryTestSupport
import Foundation
import Testing

@testable import FerryKit

/// Every report of a damaged file adds up: in each file and in the total,
/// records = valid + invalid + unchecked, none below zero, in every form
/// (text, JSON, SARIF, JUnit, GitHub), and every JSON report passes
/// `Formats/report.schema.json`.
///
/// The files are products in CSV, JSON and JSON Lines, plain and gzip'd,
/// cut at a random offset, with a byte flipped, or both, from a seeded
/// generator; each is checked in one pass and in halves, with and without
/// a cap on errors.
@Suite struct DamagedReportTests {
    let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder() }

    @Test func everyCountAddsUpAndEveryJSONReportPassesItsSchema() throws {
        var random = SeededGenerator(seed: 31)
        let formatter = DiagnosticFormatter(catalog: Messages.catalog(locale: "en"))
        var jsonReports: [String] = []
        for (name, bytes) in try Self.datasets() {
            for trial in 0..<6 {
                var damaged = bytes
                let damage = trial % 3
                if damage != 1 { damaged.removeSubrange(Int.random(in: 1..<damaged.count, using: &random)...) }
                if damage != 0 {
                    let at = Int.random(in: 0..<damaged.count, using: &random)
                    damaged[at] ^= UInt8.random(in: 1...255, using: &random)
                }
                let path = try scratch.write("\(trial)-\(name)", damaged)
                for (threshold, cap) in [(Int.max, nil), (0, 3 as Int?), (Int.max, 1)] {
                    var options = ValidationOptions()
                    options.partsThreshold = threshold
                    options.maxErrors = cap
                    let report = Validator().validate([path], options: options)
                    let what = "\(trial)-\(name), cap \(String(describing: cap)), halves \(threshold == 0)"
                    try expectCountsAddUp(report, formatter: formatter, what)
                    let json = ReportFormat.json.render(report, formatter: formatter, tool: ("ferry", "0"))
                    jsonReports.append(try scratch.write("report-\(jsonReports.count).json", json))
                }
            }
        }
        let schema = TestPaths.packageRoot.appendingPathComponent("Formats/report.schema.json").path
        let python = try PythonEnvironment.python()
        let result = try Subprocess.run(python, ["-c", Self.schemaCheck, schema] + jsonReports)
        #expect(result.status == 0 && result.out.isEmpty, "\(result.out)\(result.err)")
    }

    /// The cases issue 31 names: an unterminated CSV quote in the first
    /// record ("-1 record valid"), and a JSON array broken in record 51
    /// ("49 records valid"): the record the reading broke in counts, as
    /// the invalid one.
    @Test func theRecordTheReadingBrokeInCountsAsInvalid() throws {
        let formatter = DiagnosticFormatter(catalog: Messages.catalog(locale: "en"))
        let csv = try scratch.write("u.csv", "sku,name,price\nA-1,\"Widget,10\nA-2,x,3\n")
        var objects = (0..<100).map { "{\"sku\": \"A-\($0)\", \"name\": \"W\", \"price\": 1}" }
        objects[50] = "{\"sku\": #}"
        let json = try scratch.write("b.json", "[" + objects.joined(separator: ", ") + "]")
        for (path, records) in [(csv, 1), (json, 51)] {
            let report = Validator().validate([path], options: ValidationOptions())
            #expect(report.records == records && report.invalidRecords == 1 && report.validRecords == records - 1)
            #expect(report.diagnostics.map(\.recordNumber) == [records])
            try expectCountsAddUp(report, formatter: formatter, path)
        }
    }

    /// The counts of `report`, as it holds them and as each form shows them.
    private func expectCountsAddUp(
        _ report: ValidationReport, formatter: DiagnosticFormatter, _ what: String
    ) throws {
        for file in report.files + [report.total] {
            #expect(file.records >= 0 && file.invalidRecords >= 0 && file.uncheckedRecords >= 0, "\(what)")
            #expect(file.validRecords >= 0, "\(what): \(file.validRecords) valid of \(file.records)")
            #expect(file.records == file.validRecords + file.invalidRecords + file.uncheckedRecords, "\(what)")
        }
        // Valid records are those left when the invalid are taken away:
        // every record an error names is one counted.
        for file in report.files {
            let last = report.diagnostics(of: file.path).compactMap(\.recordNumber).max() ?? 0
            #expect(last <= file.records, "\(what): an error at record \(last) of \(file.records)")
        }
        let json = ReportFormat.json.render(report, formatter: formatter, tool: ("ferry", "0"))
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let files = try #require(root["files"] as? [[String: Any]])
        for counts in files + [try #require(root["summary"] as? [String: Any])] {
            let (records, valid, invalid, unchecked) = (
                counts["records"] as? Int, counts["validRecords"] as? Int, counts["invalidRecords"] as? Int,
                counts["uncheckedRecords"] as? Int
            )
            #expect(records == (valid ?? -1) + (invalid ?? -1) + (unchecked ?? -1), "\(what): \(counts)")
        }
        let sarif = ReportFormat.sarif.render(report, formatter: formatter, tool: ("ferry", "0"))
        let sarifRoot = try #require(try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
        let run = try #require((sarifRoot["runs"] as? [[String: Any]])?.first)
        let properties = try #require(run["properties"] as? [String: Any])
        #expect(properties["records"] as? Int == report.records, "\(what)")
        #expect(properties["validRecords"] as? Int == report.validRecords, "\(what)")
        // JUnit: a failing case per invalid record, and a passing one named
        // with the valid records' count.
        let junit = ReportFormat.junit.render(report, formatter: formatter, tool: ("ferry", "0"))
        let failingRecords = junit.components(separatedBy: "<testcase ").filter {
            $0.contains(" name=\"record ") && $0.contains("<failure")
        }.count
        #expect(failingRecords == report.invalidRecords, "\(what)\n\(junit)")
        if report.validRecords > 0 {
            #expect(junit.contains("name=\"\(report.validRecords) record"), "\(what)\n\(junit)")
        }
        // Text and GitHub: the summary's count, and a file read in part
        // never said to be unread.
        let text = ReportFormat.text.render(report, formatter: formatter, tool: ("ferry", "0"))
        let valid = formatter.catalog.message(.validateCountValidRecords, count: report.validRecords, [.count(report.validRecords)])
        #expect(text.hasSuffix(valid) || text.contains(valid + "\n"), "\(what)\n\(text)")
        let github = ReportFormat.github.render(report, formatter: formatter, tool: ("ferry", "0"))
        for file in report.files where file.records > 0 && !file.complete {
            let unread = formatter.catalog.message(.validateUnreadable, [.path(file.path)])
            #expect(!text.contains(unread) && !github.contains(GitHubReport.data(unread)), "\(what)\n\(text)")
        }
    }

    /// Products with a few errors of the rules (a negative price, an empty
    /// name, a repeated sku), in every format, plain and gzip'd.
    static func datasets() throws -> [(String, [UInt8])] {
        var records: [[(String, String)]] = []
        for index in 0..<120 {
            let price = index % 17 == 5 ? "-\(index)" : "\(index).5"
            let name = index % 23 == 7 ? "" : "Item \(index), \"fine\""
            records.append([("sku", "S-\(index % 110)"), ("name", name), ("price", price)])
        }
        func quoted(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
        let objects = records.map { record in
            "{" + record.map { quoted($0.0) + ": " + ($0.0 == "price" ? $0.1 : quoted($0.1)) }.joined(separator: ", ") + "}"
        }
        let csv =
            "sku,name,price\n"
            + records.map { record in
                record.map { "\"" + $0.1.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: ",")
            }.joined(separator: "\n") + "\n"
        let plain: [(String, [UInt8])] = [
            ("p.csv", Array(csv.utf8)),
            ("p.json", Array(("[\n" + objects.joined(separator: ",\n") + "\n]\n").utf8)),
            ("p.jsonl", Array((objects.joined(separator: "\n") + "\n").utf8)),
        ]
        return try plain + plain.map { name, bytes in
            let output = MemoryOutput()
            let gzip = try GzipOutput(output, level: 6)
            try gzip.write(bytes)
            try gzip.finish()
            return (name + ".gz", output.bytes)
        }
    }

    /// Validates each report against the schema; prints each failure.
    static let schemaCheck = #"""
        import json, sys, jsonschema
        schema = json.load(open(sys.argv[1]))
        validator = jsonschema.validators.validator_for(schema)(schema)
        for path in sys.argv[2:]:
            for error in validator.iter_errors(json.load(open(path))):
                print(f"{path}: {error.json_path}: {error.message}")
        """#
}
