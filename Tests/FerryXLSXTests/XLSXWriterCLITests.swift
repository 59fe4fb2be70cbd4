import Foundation
import FerryTestSupport
import Testing

/// `ferry convert` into a workbook: the examples read back by openpyxl, and
/// output as atomic as every writer's.
@Suite struct XLSXWriterCLITests {
    typealias Cell = XLSXWriterPython.Cell

    @Test func productsConvertIntoAWorkbook() throws {
        let folder = try ScratchFolder(withTemporaryFolder: true)
        let output = folder.path("products.xlsx")
        let result = try Ferry.run(
            ["convert", TestPaths.example("products.json"), output], environment: folder.environment)
        #expect(result.status == 0, "\(result.err)")
        let report = try XLSXWriterPython.read(output)
        #expect(report.sheets == ["Products"])
        #expect(report.freeze == "A2")
        #expect(report.rows.first == ["name", "price", "photo"].map { Cell("string", $0) })
        #expect(report.rows.dropFirst().map { $0[0] } == ["Xbox 360", "Wii", "Wireless Controller"].map { Cell("string", $0) })
        #expect(report.rows.dropFirst().map { $0[1] } == ["299.0", "269.0", "19.99"].map { Cell("float", $0) })
        #expect(report.rows[3][2] == Cell("string", "photos/wireless-controller.png"))
        #expect(try folder.contents() == ["products.xlsx", "tmp"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("tmp")).isEmpty)
    }

    /// JSON Lines take the raw path (`writeRaw`): the same values.
    @Test func booksFromJSONLinesConvertIntoAWorkbook() throws {
        let folder = try ScratchFolder()
        let output = folder.path("books.xlsx")
        let result = try Ferry.run(["convert", TestPaths.example("books.jsonl"), output])
        #expect(result.status == 0, "\(result.err)")
        let report = try XLSXWriterPython.read(output)
        #expect(report.sheets == ["Books"])
        let header = report.rows[0].map { $0?.text ?? "" }
        #expect(header == ["title", "author", "description", "pages", "readThisBook", "price", "isbn"])
        #expect(report.rows[1][0] == Cell("string", "The Swift Programming Language"))
        #expect(report.rows[1][3] == Cell("int", "1024"))
        #expect(report.rows[1][4] == Cell("bool", "true"))
        #expect(report.rows[1][5] == Cell("float", "0.0"))
        #expect(report.rows[2][1] == Cell("string", "Tjeerd in 't Veen"))
        #expect(report.rows[2][5] == Cell("float", "49.99"))
        #expect(report.calamineCount == report.rows.count)
    }

    /// The summary after a conversion counts the workbook's losses by field,
    /// as it counts CSV's: photos as `data:` URIs, nested values as JSON,
    /// dates as text, text cut to a cell, characters XML cannot hold.
    @Test func theSummaryCountsTheWorkbooksLosses() throws {
        let folder = try ScratchFolder()
        let long = String(repeating: "x", count: 33_000)
        let record = { (date: String) in
            "<dict><key>label</key><string>a</string><key>photo</key><data>iVBORw0KGgo=</data>"
                + "<key>added</key><date>\(date)</date><key>tags</key><array><integer>1</integer></array>"
                + "<key>note</key><string>\(long)</string></dict>"
        }
        let plist = try folder.write(
            "in.plist",
            #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><array>"#
                + record("1850-01-01T00:00:00Z") + record("2024-01-15T00:00:00Z") + "</array></plist>")
        let result = try Ferry.run(["convert", plist, folder.path("out.xlsx")])
        #expect(result.status == 0, "\(result.err)")
        let summary = result.err.split(separator: "\n").filter { !$0.hasSuffix("]") }.map(String.init)
        #expect(
            summary == [
                "2 photos in field 'photo' were written as data: URIs.",
                "1 date in field 'added' was written as text.",
                "2 arrays or objects in field 'tags' were written as JSON text.",
                "2 values in field 'note' were cut to fit a cell.",
            ], "\(result.err)")

        let lines = try folder.write("in.jsonl", "{\"label\":\"a\\u0001b\"}\n")
        let dropped = try Ferry.run(["convert", lines, folder.path("dropped.xlsx")])
        #expect(dropped.status == 0, "\(dropped.err)")
        #expect(dropped.err.split(separator: "\n").last == "1 value in field 'label' lost characters XML cannot hold.")
    }

    @Test func aFailedConversionLeavesNoWorkbook() throws {
        let folder = try ScratchFolder(withTemporaryFolder: true)
        let input = try folder.write("in.json", #"[{"name":"a","price":1},{"name":"b""#)
        let result = try Ferry.run(["convert", input, folder.path("out.xlsx")], environment: folder.environment)
        #expect(result.status == 1)
        #expect(result.diagnostics.first?.code == "json.unexpectedEnd")
        #expect(try folder.contents() == ["in.json", "tmp"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("tmp")).isEmpty)
    }

    @Test func aFailedConversionKeepsTheExistingWorkbook() throws {
        let folder = try ScratchFolder()
        let original = Array("an existing workbook".utf8)
        let output = try folder.write("out.xlsx", original)
        let input = try folder.write("in.json", #"[{"name":"a","price":1e999999999999},{"name":"b""#)
        let result = try Ferry.run(["convert", input, output, "--force"])
        #expect(result.status == 1)
        #expect(try folder.read("out.xlsx") == original)
        #expect(try folder.contents() == ["in.json", "out.xlsx"])
    }

    @Test func aSheetNameExcelRefusesIsAUsageError() throws {
        let folder = try ScratchFolder()
        let result = try Ferry.run(
            ["convert", TestPaths.example("products.json"), folder.path("out.xlsx"), "--sheet", "a/b"])
        #expect(result.status == 2, "\(result.err)")
        #expect(result.diagnosticCodes == ["xlsx.sheetNameInvalid"])
        #expect(try folder.contents().isEmpty)
    }
}
