import FerryTestSupport
import Foundation
import Testing

/// `ferry` on workbooks: errors placed at the sheet and cell in every
/// report format, and a conversion end to end.
@Suite struct XLSXCommandTests {
    /// A product catalog whose row 12 has a negative price and row 13 a
    /// price that is no number.
    static func catalog(in folder: ScratchFolder) throws -> String {
        let script = """
            import openpyxl, sys
            book = openpyxl.Workbook()
            sheet = book.active
            sheet.title = "Sheet1"
            sheet.append(["name", "price", "sku"])
            for i in range(10):
                sheet.append(["P%d" % i, 1.5 + i, "S%d" % i])
            sheet.append(["Bad", -5, "S10"])
            sheet.append(["Text", "abc", "S11"])
            book.save(sys.argv[1])
            """
        let path = folder.path("catalog.xlsx")
        let result = try Subprocess.run(try PythonEnvironment.python(), ["-c", script, path])
        guard result.status == 0 else { throw ScriptFailure(description: result.err) }
        return path
    }

    @Test(arguments: [
        ("text", "catalog.xlsx[Sheet1]!B12: error: "), ("json", #""cell" : "B12""#),
        ("sarif", #""fullyQualifiedName" : "Sheet1!B12""#), ("junit", "catalog.xlsx[Sheet1]!B12: error: "),
        ("github", "(Sheet1!B12, record 11, field 'price')"),
    ])
    func validatePlacesAnErrorAtItsCell(format: String, expected: String) throws {
        let folder = try ScratchFolder()
        _ = try Self.catalog(in: folder)
        let result = try Ferry.run(
            ["validate", "catalog.xlsx", "--kind", "product", "--report-format", format], in: folder.url)
        #expect(result.status == 1)
        // JSON's spacing aside.
        let output = (result.out + result.err).replacingOccurrences(of: "\": ", with: "\" : ")
        #expect(output.contains(expected), "\(output)")
    }

    @Test func aCellOfTheWrongTypeIsPlacedToo() throws {
        let folder = try ScratchFolder()
        _ = try Self.catalog(in: folder)
        let result = try Ferry.run(["validate", "catalog.xlsx", "--kind", "product"], in: folder.url)
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("catalog.xlsx[Sheet1]!B12: error: ") && $0.hasSuffix("[record.negative]") })
        #expect(lines.contains { $0.hasPrefix("catalog.xlsx[Sheet1]!B13: error: ") && $0.hasSuffix("[xlsx.invalidNumber]") })
    }

    @Test func convertToJSONLines() throws {
        let folder = try Workbooks.folder()
        let result = try Ferry.run(["convert", folder.path("xlsxwriter.xlsx"), "--sheet", "Second", "--to", "jsonl", "-"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == "{\"title\":\"Dune\",\"pages\":412}\n")
    }

    /// `inspect` lists the sheets with their ranges, which one was read and
    /// which are hidden, the hidden rows read all the same, and the number
    /// formats the cells read use.
    @Test func inspectListsSheetsAndNumberFormats() throws {
        let folder = try Workbooks.folder()
        let text = try Ferry.run(["inspect", folder.path("openpyxl.xlsx")])
        #expect(text.status == 0, "\(text.err)")
        #expect(text.out.contains("  sheets: Products (A1:E7, read, hidden rows: 1), Books (A1:B2, hidden)"), "\(text.out)")
        #expect(text.out.contains("  number formats: General, yyyy-mm-dd, yyyy-mm-dd hh:mm:ss, hh:mm"), "\(text.out)")
        let json = try Ferry.run(["inspect", folder.path("xlsxwriter.xlsx"), "--sheet", "Second", "--report-format", "json"])
        #expect(
            json.out.contains(
                #""sheets":[{"name":"First","dimension":"A1:F5","state":"visible","read":false},"#
                    + #"{"name":"Second","dimension":"A1:B2","state":"visible","read":true,"hiddenRows":0}]"#),
            "\(json.out)")
    }

    @Test func anUnknownSheetIsACodedError() throws {
        let folder = try Workbooks.folder()
        let result = try Ferry.run(["convert", folder.path("xlsxwriter.xlsx"), "--sheet", "Nope", "--to", "jsonl", "-"])
        #expect(result.status == 1)
        #expect(result.diagnosticCodes == ["xlsx.noSuchSheet"])
    }
}
