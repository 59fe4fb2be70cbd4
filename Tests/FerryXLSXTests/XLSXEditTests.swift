import FerryCore
import FerryKit
import FerryTestSupport
import Foundation
import Testing

@testable import FerryXLSX

/// `ferry edit`, `add` and `remove` on workbooks that openpyxl and
/// XlsxWriter wrote: the record's cells change, and every other zip entry
/// keeps its local header, compressed bytes and CRC, as Python's `zipfile`
/// reads them; openpyxl reads the edited values and the rest as before.
@Suite struct XLSXEditTests {
    /// A copy of a workbook of `Scripts/make-workbooks.py` in a new folder,
    /// and the original's path.
    static func copy(_ name: String, into folder: ScratchFolder) throws -> (copy: String, original: String) {
        let original = try Workbooks.folder().path(name)
        let copy = try folder.write(name, [UInt8](try Data(contentsOf: URL(fileURLWithPath: original))))
        return (copy, original)
    }

    static func change(_ assignments: String...) throws -> RecordChange {
        var change = RecordChange()
        try change.assign(assignments)
        return change
    }

    /// Python's reading of `edited` against `original`, checked: the zip
    /// is whole, with the same entries, and only `part` changed; the sheet
    /// `unchanged` reads the same.
    static func judged(
        _ original: String, _ edited: String, part: String = "xl/worksheets/sheet1.xml", unchanged: String
    ) throws -> XLSXEditPython.Report {
        let report = try XLSXEditPython.compare(original, edited)
        #expect(report.sameNames && report.testzip == nil)
        #expect(report.changed == [part])
        #expect(report.after[unchanged] != nil && report.after[unchanged] == report.before[unchanged])
        return report
    }

    // MARK: - Edit, add, remove

    @Test func editChangesOnlyTheRecordsCells() throws {
        let folder = try ScratchFolder()
        let (path, original) = try Self.copy("openpyxl.xlsx", into: folder)
        let file = try EditedFile(path: path)
        var change = try Self.change("price=24.50", "note=new & <note>")
        change.removed = ["in_stock"]
        try file.edit("1", change: change)
        try file.save()

        let report = try Self.judged(original, path, unchanged: "Books")
        let before = try #require(report.before["Products"])
        let after = try #require(report.after["Products"])
        var expected = before.rows
        expected[1][1] = "24.5"
        expected[1][3] = nil
        expected[1][4] = "'new & <note>'"
        #expect(after.rows == expected)
        #expect(after.merged == ["A7:B7"] && after.merged == before.merged)
        #expect(after.dimension == before.dimension)

        let reading = try FerryReading(path, sheet: "Products")
        #expect(reading.rows.count == 5)
        #expect(reading.rows[0][1] == .number(NumberText(unchecked: "24.50")))
        #expect(reading.rows[0][4] == .string("new & <note>"))
    }

    /// openpyxl writes every string inline: XlsxWriter makes the workbook
    /// with shared strings (used by both sheets), a bold number style and a
    /// merged range.
    @Test func editKeepsSharedStringsAndTheCellsStyle() throws {
        let folder = try ScratchFolder()
        let path = folder.path("shared.xlsx")
        let script = """
            import sys, xlsxwriter
            book = xlsxwriter.Workbook(sys.argv[1])
            money = book.add_format({"bold": True, "num_format": "0.00"})
            sheet = book.add_worksheet("Products")
            sheet.write_row(0, 0, ["name", "price", "sku"])
            sheet.write_string(1, 0, "Wii")
            sheet.write_number(1, 1, 19.99, money)
            sheet.write_string(1, 2, "W-1")
            sheet.write_string(2, 0, "PS5")
            sheet.write_number(2, 1, 499, money)
            sheet.merge_range("A4:C4", "Totals")
            notes = book.add_worksheet("Notes")
            notes.write_column(0, 0, ["name", "Wii", "PS5"])
            book.close()
            """
        let made = try Subprocess.run(try PythonEnvironment.python(), ["-c", script, path])
        guard made.status == 0 else { throw ScriptFailure(description: made.err) }
        let original = try folder.write("original.xlsx", try folder.read("shared.xlsx"))
        let file = try EditedFile(path: path)
        try file.edit("1", change: try Self.change("price=24.50", "sku=W-2"))
        try file.edit("2", change: try Self.change("sku=P-5"))
        try file.save()

        let report = try Self.judged(original, path, unchanged: "Notes")
        let before = try #require(report.before["Products"])
        let after = try #require(report.after["Products"])
        #expect(after.rows == [
            ["'name'", "'price'", "'sku'"], ["'Wii'", "24.5", "'W-2'"], ["'PS5'", "499", "'P-5'"],
            ["'Totals'", nil, nil],
        ])
        // The price keeps its bold 0.00 style; the new cell C3 has none.
        #expect(after.formats[1][1] == "0.00 bold")
        #expect(after.formats == before.formats)
        #expect(after.merged == ["A4:C4"])
    }

    @Test func addPutsARowAfterTheLastRecord() throws {
        let folder = try ScratchFolder()
        let (path, original) = try Self.copy("openpyxl.xlsx", into: folder)
        let file = try EditedFile(path: path)
        try file.add(try Self.change("name=Lamp", "price=5", "note= spaced "))
        try file.save()

        let report = try Self.judged(original, path, unchanged: "Books")
        let before = try #require(report.before["Products"])
        let after = try #require(report.after["Products"])
        #expect(before.dimension == "A1:E7" && after.dimension == "A1:E8")
        #expect(after.rows == before.rows + [["'Lamp'", "5", nil, nil, "' spaced '"]])
        #expect(after.merged == before.merged)
        #expect(try FerryReading(path, sheet: "Products").rows.count == 6)
    }

    /// An empty sheet gets a header of the record's fields; a row element
    /// with no value (a height) where the record goes takes its cells.
    @Test func addToASheetWithoutRecords() throws {
        let folder = try ScratchFolder()
        let script = """
            import openpyxl, sys
            book = openpyxl.Workbook()
            book.save(sys.argv[1] + "/empty.xlsx")
            sheet = book.active
            sheet.append(["name", "price"])
            sheet.row_dimensions[2].height = 30
            book.save(sys.argv[1] + "/header.xlsx")
            """
        let made = try Subprocess.run(try PythonEnvironment.python(), ["-c", script, folder.url.path])
        guard made.status == 0 else { throw ScriptFailure(description: made.err) }
        for name in ["empty.xlsx", "header.xlsx"] {
            let original = try folder.write("original-" + name, try folder.read(name))
            let file = try EditedFile(path: folder.path(name))
            try file.add(try Self.change("name=Lamp", "price=2"))
            try file.add(try Self.change("name=Desk", "price=3.5"))
            try file.save()
            let report = try XLSXEditPython.compare(original, folder.path(name))
            #expect(report.changed == ["xl/worksheets/sheet1.xml"])
            let after = try #require(report.after["Sheet"])
            #expect(after.rows == [["'name'", "'price'"], ["'Lamp'", "2"], ["'Desk'", "3.5"]])
            #expect(after.dimension == "A1:B3")
        }
        let sheet = try Self.sheetXML(folder.path("header.xlsx"))
        #expect(sheet.contains(#"<row r="2" ht="30" customHeight="1"><c r="A2" t="inlineStr">"#))
    }

    /// The XML of the first sheet part, as Python's `zipfile` inflates it.
    static func sheetXML(_ path: String) throws -> String {
        let script = "import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read('xl/worksheets/sheet1.xml').decode())"
        let result = try Subprocess.run(try PythonEnvironment.python(), ["-c", script, path])
        guard result.status == 0 else { throw ScriptFailure(description: result.err) }
        return result.out
    }

    @Test func removeCutsTheRowAndKeepsLaterRowNumbers() throws {
        let folder = try ScratchFolder()
        let (path, original) = try Self.copy("openpyxl.xlsx", into: folder)
        let file = try EditedFile(path: path)
        try file.remove("2")
        try file.save()

        let report = try Self.judged(original, path, unchanged: "Books")
        let before = try #require(report.before["Products"])
        let after = try #require(report.after["Products"])
        var expected = before.rows
        expected[2] = [String?](repeating: nil, count: 5)
        #expect(after.rows == expected)
        #expect(after.merged == ["A7:B7"])
        let reading = try FerryReading(path, sheet: "Products")
        #expect(reading.rows.map { $0[0] } == ["Wii", "Early", "Sparse", "Merged"].map(Value.string))
    }

    @Test func sheetOptionChoosesTheSheetEdited() throws {
        let folder = try ScratchFolder()
        let (path, original) = try Self.copy("openpyxl.xlsx", into: folder)
        let file = try EditedFile(path: path, options: OptionValues([XLSXCodec.sheetOption: "Books"]))
        try file.edit("1", change: try Self.change("pages=500"))
        try file.save()
        let report = try Self.judged(original, path, part: "xl/worksheets/sheet2.xml", unchanged: "Products")
        #expect(report.after["Books"]?.rows == [["'title'", "'pages'"], ["'Dune'", "500"]])
    }

    /// Python's `zipfile` writing to a pipe gives every entry a data
    /// descriptor; the edited workbook is written with zip64 offsets.
    @Test func dataDescriptorsAndZip64OffsetsAreKept() throws {
        let folder = try ScratchFolder()
        let path = folder.path("piped.xlsx")
        let script = """
            import io, sys, zipfile
            class Pipe(io.RawIOBase):
                def __init__(self, file): self.file = file
                def writable(self): return True
                def write(self, data): return self.file.write(data)
            source = zipfile.ZipFile(sys.argv[1])
            with open(sys.argv[2], "wb") as out, zipfile.ZipFile(Pipe(out), "w", zipfile.ZIP_DEFLATED) as copy:
                for info in source.infolist():
                    copy.writestr(info.filename, source.read(info.filename))
            """
        let made = try Subprocess.run(
            try PythonEnvironment.python(), ["-c", script, try Workbooks.folder().path("openpyxl.xlsx"), path])
        guard made.status == 0 else { throw ScriptFailure(description: made.err) }
        let bytes = try folder.read("piped.xlsx")
        let context = ReadContext(kind: .product)
        context.mismatchedCells = .keepText
        let reader = try XLSXReader(MemoryInput(bytes), context: context)
        var records: [Record] = []
        while let record = try reader.next() { records.append(record) }
        let editor = try XLSXFileEditor(bytes, records: records, context: context, format: "xlsx")
        editor.zip64From = 0
        try editor.replace(at: 0, with: try Self.change("price=1").applied(to: records[0], schema: RecordKind.product.schema))
        let edited = try folder.write("edited.xlsx", try editor.encoded())

        let report = try Self.judged(path, edited, unchanged: "Books")
        // openpyxl.xlsx has ten entries.
        #expect(report.described.count == 9 && !report.described.contains("xl/worksheets/sheet1.xml"))
        #expect(report.after["Products"]?.rows[1][1] == "1")
        #expect(try FerryReading(edited, sheet: "Products").rows[0][1] == .number(NumberText(unchecked: "1")))
    }

    /// A date keeps its cell's date style, else takes the workbook's first
    /// date style; a value that is no date loses a date style.
    @Test func datesTakeADateStyle() throws {
        let folder = try ScratchFolder()
        let (path, original) = try Self.copy("openpyxl.xlsx", into: folder)
        let bytes = try folder.read("openpyxl.xlsx")
        let context = ReadContext()
        context.mismatchedCells = .keepText
        let reader = try XLSXReader(MemoryInput(bytes), context: context)
        var records: [Record] = []
        while let record = try reader.next() { records.append(record) }
        let editor = try XLSXFileEditor(bytes, records: records, context: context, format: "xlsx")
        // 2025-03-01, midnight UTC.
        let day = Value.date(Date(timeIntervalSince1970: 1_740_787_200))
        func with(_ record: Record, _ field: String, _ value: Value) -> Record {
            Record(fields: record.fields, values: record.fields.names.map { $0 == field ? value : record[$0] ?? .null })
        }
        try editor.replace(at: 0, with: with(records[0], "added", day))
        try editor.replace(at: 4, with: with(records[4], "added", day))
        try editor.replace(at: 1, with: with(records[1], "added", .string("soon")))
        _ = try folder.write("openpyxl.xlsx", try editor.encoded())

        let report = try Self.judged(original, path, unchanged: "Books")
        let after = try #require(report.after["Products"])
        #expect(after.rows[1][2] == "datetime.datetime(2025, 3, 1, 0, 0)")
        #expect(after.formats[1][2] == "yyyy-mm-dd")
        // C7 had a time style: the date takes the first date style.
        #expect(after.rows[6][2] == "datetime.datetime(2025, 3, 1, 0, 0)")
        #expect(after.formats[6][2] == "yyyy-mm-dd")
        #expect(after.rows[2][2] == "'soon'" && after.formats[2][2] == "General")
    }

    @Test func theCommandLineEditsAWorkbook() throws {
        let folder = try ScratchFolder()
        let (_, original) = try Self.copy("openpyxl.xlsx", into: folder)
        let edit = try Ferry.run(["edit", "openpyxl.xlsx", "1", "--set", "price=24.50"], in: folder.url)
        #expect(edit.status == 0 && edit.err == "openpyxl.xlsx: record 1 was changed\n")
        let add = try Ferry.run(["add", "openpyxl.xlsx", "--set", "name=Lamp", "--set", "price=3"], in: folder.url)
        #expect(add.status == 0)
        let report = try Self.judged(original, folder.path("openpyxl.xlsx"), unchanged: "Books")
        #expect(report.after["Products"]?.rows[1][1] == "24.5" && report.after["Products"]?.rows[7][0] == "'Lamp'")

        let formula = try Self.copy("xlsxwriter.xlsx", into: folder)
        let bytes = try folder.read("xlsxwriter.xlsx")
        let refused = try Ferry.run(["edit", "xlsxwriter.xlsx", "1", "--set", "total=3"], in: folder.url)
        #expect(refused.status == 2)
        #expect(refused.err.hasPrefix("xlsxwriter.xlsx[First]!E2: error: ") && refused.err.contains("[xlsx.editFormulaCell]"))
        #expect(try folder.read("xlsxwriter.xlsx") == bytes && formula.copy == folder.path("xlsxwriter.xlsx"))
        #expect(try folder.contents().sorted() == ["openpyxl.xlsx", "xlsxwriter.xlsx"])
    }

    /// The edited sheets are valid SpreadsheetML: `Scripts/validate-xlsx-schema.py`
    /// (ECMA-376 schemas, through xmllint) finds no problem in any part it
    /// has a schema for (it has none for docProps and themes).
    @Test func editedSheetsAreValidAgainstTheSchema() throws {
        let folder = try ScratchFolder()
        let (products, _) = try Self.copy("openpyxl.xlsx", into: folder)
        var file = try EditedFile(path: products)
        var change = try Self.change("price=24.50", "note= new & <note>")
        change.removed = ["in_stock"]
        try file.edit("1", change: change)
        try file.remove("2")
        try file.add(try Self.change("name=Lamp", "price=3", "in_stock=true"))
        try file.save()
        let (formulas, _) = try Self.copy("xlsxwriter.xlsx", into: folder)
        file = try EditedFile(path: formulas)
        try file.edit("2", change: try Self.change("price=1", "label=x"))
        try file.add(try Self.change("name=Lamp"))
        try file.save()
        let report = try XLSXSchemaTests.validate([products, formulas])
        #expect(report.parts.contains("openpyxl.xlsx:xl/worksheets/sheet1.xml"))
        #expect(report.parts.contains("xlsxwriter.xlsx:xl/worksheets/sheet1.xml"))
        #expect(report.errors.filter { !$0.hasSuffix("no schema for this part") } == [])
    }

    // MARK: - Refusals

    @Test func recordPastTheEndIsTheErrorOtherFormatsGive() throws {
        let folder = try ScratchFolder()
        let (path, _) = try Self.copy("openpyxl.xlsx", into: folder)
        let csv = try folder.write("p.csv", "name,price\nA,1\nB,2\nC,3\nD,4\nE,5\n")
        let workbook = try #require(throws: FerryError.self) {
            try EditedFile(path: path).edit("6", change: try Self.change("price=1"))
        }
        let text = try #require(throws: FerryError.self) {
            try EditedFile(path: csv).edit("6", change: try Self.change("price=1"))
        }
        #expect(workbook.code == .editIndexOutOfRange && workbook.code == text.code)
        #expect(workbook.arguments == text.arguments)
        #expect(workbook.location.file == path)
        let file = try EditedFile(path: path)
        #expect(throws: FerryError.self) { try file.remove("6") }
        // The workbook's own editor, which splices, refused it.
        #expect(file.editor.keepsLayout)
    }

    @Test func aRecordWithoutValuesOrANewColumnIsRefused() throws {
        let folder = try ScratchFolder()
        let (path, _) = try Self.copy("openpyxl.xlsx", into: folder)
        let bytes = try folder.read("openpyxl.xlsx")
        let file = try EditedFile(path: path, kind: .generic)
        let add = try #require(throws: FerryError.self) { try file.add(try Self.change("note=")) }
        #expect(add.code == .xlsxEditEmptyRow && add.arguments == [.string("Products")] && add.location.record == 5)
        var change = RecordChange()
        change.removed = ["name", "price", "added", "in_stock", "note"]
        let edit = try #require(throws: FerryError.self) { try file.edit("4", change: change) }
        #expect(edit.code == .xlsxEditEmptyRow && edit.location.record == 3)
        // A field the header has no column for, as in CSV.
        let column = try #require(throws: FerryError.self) { try file.edit("1", change: try Self.change("sku=X")) }
        #expect(column.code == .editNewColumn && column.location.field == "sku" && column.location.record == 0)
        try file.save()
        #expect(try folder.read("openpyxl.xlsx") == bytes)
        #expect(file.records.count == 5)
    }

    @Test func formulaCellsAreNotChanged() throws {
        let folder = try ScratchFolder()
        let (path, original) = try Self.copy("xlsxwriter.xlsx", into: folder)
        let bytes = try folder.read("xlsxwriter.xlsx")
        let file = try EditedFile(path: path)
        let edit = try #require(throws: FerryError.self) { try file.edit("1", change: try Self.change("total=5")) }
        #expect(edit.code == .xlsxEditFormulaCell)
        #expect(edit.arguments == [.string("E2")])
        #expect(edit.location.sheet == "First" && edit.location.cell == "E2" && edit.location.record == 0)
        let remove = try #require(throws: FerryError.self) { try file.remove("1") }
        #expect(remove.code == .xlsxEditFormulaCell)
        try file.save()
        #expect(try folder.read("xlsxwriter.xlsx") == bytes)

        // A value beside a formula is edited; the formula stays.
        let again = try EditedFile(path: path)
        try again.edit("1", change: try Self.change("price=20"))
        try again.save()
        let report = try Self.judged(original, path, unchanged: "Second")
        let after = try #require(report.after["First"]?.rows)
        #expect(after[1][1] == "20" && after[1][4] == "'=B2*2'")
    }

    @Test func cellsOfAnArrayFormulaAreNotChanged() throws {
        let folder = try ScratchFolder()
        let path = folder.path("array.xlsx")
        let script = """
            import sys, xlsxwriter
            book = xlsxwriter.Workbook(sys.argv[1])
            sheet = book.add_worksheet("Sheet1")
            sheet.write_row(0, 0, ["name", "price", "double"])
            sheet.write_row(1, 0, ["Wii", 1])
            sheet.write_row(2, 0, ["PS5", 2])
            sheet.write_row(3, 0, ["Lamp", 3, 6])
            sheet.write_array_formula("C2:C3", "{=B2:B3*2}", None, 2)
            book.close()
            """
        let made = try Subprocess.run(try PythonEnvironment.python(), ["-c", script, path])
        guard made.status == 0 else { throw ScriptFailure(description: made.err) }
        let bytes = try folder.read("array.xlsx")
        let file = try EditedFile(path: path)
        let edit = try #require(throws: FerryError.self) { try file.edit("2", change: try Self.change("double=5")) }
        #expect(edit.code == .xlsxEditFormulaCell && edit.arguments == [.string("C3")])
        let remove = try #require(throws: FerryError.self) { try file.remove("2") }
        #expect(remove.code == .xlsxEditFormulaCell && remove.arguments == [.string("C3")])
        try file.save()
        #expect(try folder.read("array.xlsx") == bytes)
        // Outside the range, a row is removed and a cell edited.
        let again = try EditedFile(path: path)
        try again.remove("3")
        try again.edit("2", change: try Self.change("price=7"))
        try again.save()
        #expect(try FerryReading(path).rows.map { $0.map(Cell.init) } == [
            [.string("Wii"), .number(1), .number(2)], [.string("PS5"), .number(7), .number(0)],
        ])
    }

    @Test func addAndRemoveAreRefusedUnderATable() throws {
        let folder = try ScratchFolder()
        let path = folder.path("table.xlsx")
        let script = """
            import openpyxl, sys
            from openpyxl.worksheet.table import Table
            book = openpyxl.Workbook()
            sheet = book.active
            sheet.append(["name", "price"])
            sheet.append(["Wii", 1])
            sheet.append(["PS5", 2])
            sheet.add_table(Table(displayName="Products", ref="A1:B3"))
            book.save(sys.argv[1])
            """
        let made = try Subprocess.run(try PythonEnvironment.python(), ["-c", script, path])
        guard made.status == 0 else { throw ScriptFailure(description: made.err) }
        let bytes = try folder.read("table.xlsx")
        let file = try EditedFile(path: path)
        let add = try #require(throws: FerryError.self) { try file.add(try Self.change("name=Lamp")) }
        #expect(add.code == .xlsxEditRangeWouldBreak)
        #expect(add.arguments == [.string("tableParts"), .string("Sheet")])
        let remove = try #require(throws: FerryError.self) { try file.remove("1") }
        #expect(remove.code == .xlsxEditRangeWouldBreak)
        try file.save()
        #expect(try folder.read("table.xlsx") == bytes)
        // An edit inside the table leaves its range right.
        let again = try EditedFile(path: path)
        try again.edit("2", change: try Self.change("price=3"))
        try again.save()
        #expect(try FerryReading(path).rows.map { $0[1] }.map(Cell.init) == [.number(1), .number(3)])
    }
}
