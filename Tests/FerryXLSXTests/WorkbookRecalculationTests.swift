import FerryCore
import FerryKit
import FerryTestSupport
import Foundation
import Testing

@testable import FerryXLSX

/// An edit of a workbook with formulas asks for them to be calculated again
/// on opening (`fullCalcOnLoad`), so that a total over an edited price is
/// not shown stale; a workbook without formulas keeps its workbook part.
@Suite struct WorkbookRecalculationTests {
    static func requested(_ xml: String) throws -> String? {
        try WorkbookRecalculation.requested(
            in: Array(xml.utf8), part: "xl/workbook.xml", file: "t.xlsx", limits: ReadLimits()
        ).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func theFlagGoesOnCalcPrOrInItsPlace() throws {
        let main = #"xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main""#
        // As Excel writes it: a calcPr without the flag.
        #expect(
            try Self.requested(#"<workbook \#(main)><sheets/><calcPr calcId="191029"/></workbook>"#)
                == #"<workbook \#(main)><sheets/><calcPr fullCalcOnLoad="1" calcId="191029"/></workbook>"#)
        #expect(
            try Self.requested(#"<workbook \#(main)><sheets/><calcPr fullCalcOnLoad="0"/></workbook>"#)
                == #"<workbook \#(main)><sheets/><calcPr fullCalcOnLoad="1"/></workbook>"#)
        #expect(try Self.requested(#"<workbook \#(main)><sheets/><calcPr fullCalcOnLoad="true"/></workbook>"#) == nil)
        // None: after definedNames, before extLst, with the root's prefix.
        #expect(
            try Self.requested(#"<x:workbook xmlns:x="m"><x:sheets><x:sheet/></x:sheets><x:definedNames/><x:extLst/></x:workbook>"#)
                == #"<x:workbook xmlns:x="m"><x:sheets><x:sheet/></x:sheets><x:definedNames/><x:calcPr fullCalcOnLoad="1"/><x:extLst/></x:workbook>"#)
        #expect(
            try Self.requested(#"<workbook \#(main)><sheets><sheet name="a"/></sheets></workbook>"#)
                == #"<workbook \#(main)><sheets><sheet name="a"/></sheets><calcPr fullCalcOnLoad="1"/></workbook>"#)
        // A calcPr deeper down is not the workbook's.
        #expect(
            try Self.requested(#"<workbook \#(main)><extLst><calcPr/></extLst></workbook>"#)
                == #"<workbook \#(main)><calcPr fullCalcOnLoad="1"/><extLst><calcPr/></extLst></workbook>"#)
        #expect(throws: FerryError.self) { try Self.requested("<workbook><sheets>") }
    }

    /// Workbooks as Excel leaves them: `fullCalcOnLoad` taken off the
    /// workbook part (openpyxl and XlsxWriter both set it).
    static func workbook(in folder: ScratchFolder, formulaOnOtherSheet: Bool) throws -> String {
        let path = folder.path(formulaOnOtherSheet ? "totals.xlsx" : "plain.xlsx")
        let script = """
            import openpyxl, sys, zipfile, shutil
            book = openpyxl.Workbook()
            sheet = book.active
            sheet.title = "Products"
            sheet.append(["name", "price"])
            sheet.append(["Wii", 269])
            sheet.append(["Xbox 360", 299])
            if sys.argv[2] == "1":
                totals = book.create_sheet("Totals")
                totals.append(["total", "=SUM(Products!B2:B3)"])
            book.save(sys.argv[1] + ".tmp")
            with zipfile.ZipFile(sys.argv[1] + ".tmp") as source, zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as target:
                for info in source.infolist():
                    data = source.read(info.filename)
                    if info.filename == "xl/workbook.xml":
                        data = data.replace(b' fullCalcOnLoad="1"', b"")
                    target.writestr(info, data)
            """
        let made = try Subprocess.run(try PythonEnvironment.python(), ["-c", script, path, formulaOnOtherSheet ? "1" : "0"])
        guard made.status == 0 else { throw ScriptFailure(description: made.err) }
        return path
    }

    @Test func anEditAsksForRecalculationWhenAnotherSheetHasAFormula() throws {
        let folder = try ScratchFolder()
        let path = try Self.workbook(in: folder, formulaOnOtherSheet: true)
        let original = try folder.read("totals.xlsx")
        #expect(try Self.workbookXML(original).contains("fullCalcOnLoad") == false)
        let file = try EditedFile(path: path)
        try file.edit("1", change: { var change = RecordChange(); try change.assign(["price=199"]); return change }())
        try file.save()
        let edited = try Self.workbookXML(try folder.read("totals.xlsx"))
        #expect(edited.contains(#"<calcPr fullCalcOnLoad="1" calcId="124519""#))
        // The workbook part is valid SpreadsheetML (openpyxl's formula
        // cell on the other sheet, copied as it was, has an empty value
        // that the script's number check flags).
        let report = try XLSXSchemaTests.validate([path])
        #expect(report.parts.contains("totals.xlsx:xl/workbook.xml"))
        #expect(report.errors.filter { $0.contains("xl/workbook.xml") } == [])
    }

    @Test func aWorkbookWithoutFormulasKeepsItsWorkbookPart() throws {
        let folder = try ScratchFolder()
        let path = try Self.workbook(in: folder, formulaOnOtherSheet: false)
        let before = try Self.workbookXML(try folder.read("plain.xlsx"))
        let file = try EditedFile(path: path)
        try file.edit("2", change: { var change = RecordChange(); try change.assign(["price=199"]); return change }())
        try file.save()
        #expect(try Self.workbookXML(try folder.read("plain.xlsx")) == before)
    }

    /// The workbook part of the package `bytes`, inflated.
    static func workbookXML(_ bytes: [UInt8]) throws -> String {
        let archive = try ZipArchive(ZipSource(MemoryInput(bytes, name: "t.xlsx"), limit: 1 << 30), limits: ReadLimits())
        let entry = try #require(archive.entry("xl/workbook.xml"))
        let xml = try ZipEntryInput(archive, entry: entry, limits: ReadLimits()).readAll(limit: 1 << 30)
        return String(decoding: xml, as: UTF8.self)
    }
}
