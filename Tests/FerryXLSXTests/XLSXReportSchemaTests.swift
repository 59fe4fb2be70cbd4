import FerryTestSupport
import Foundation
import Testing

/// A workbook's JSON report keeps to Formats/report.schema.json, its
/// `sheet` and `cell` keys included, checked by Python's jsonschema.
@Suite struct XLSXReportSchemaTests {
    @Test func aWorkbooksJSONReportFollowsTheReportSchema() throws {
        let folder = try ScratchFolder()
        _ = try XLSXCommandTests.catalog(in: folder)
        let report = folder.path("report.json")
        let result = try Ferry.run(
            ["validate", "catalog.xlsx", "--kind", "product", "--report-format", "json", "-o", report], in: folder.url)
        #expect(result.status == 1, "\(result.err)")
        let schema = TestPaths.packageRoot.appendingPathComponent("Formats/report.schema.json").path
        let script = """
            import json, sys, jsonschema
            report = json.load(open(sys.argv[1]))
            schema = json.load(open(sys.argv[2]))
            jsonschema.validate(report, schema, format_checker=jsonschema.FormatChecker())
            cells = [e["cell"] for e in report["errors"] if "cell" in e]
            # A key the schema does not name would pass unnoticed: every key must be one it names.
            names = set(schema["properties"]["errors"]["items"]["properties"])
            extra = sorted({k for e in report["errors"] for k in e} - names)
            print(",".join(cells), extra)
            """
        let check = try Subprocess.run(try PythonEnvironment.python(), ["-c", script, report, schema])
        #expect(check.status == 0, "\(check.err)")
        #expect(check.out.trimmingCharacters(in: .whitespacesAndNewlines) == "B12,B13 []", "\(check.out)")
    }
}
