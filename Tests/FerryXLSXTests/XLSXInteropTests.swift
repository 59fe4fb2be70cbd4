import FerryCore
import FerryKit
import FerryTestSupport
import Foundation
import Testing

@testable import FerryXLSX

/// Ferry reads the values openpyxl reads, from workbooks openpyxl and
/// XlsxWriter write: shared and inline strings, rich text, numbers, dates
/// in both systems, booleans, formulas' cached values, error, empty and
/// sparse cells, a merged range, hidden rows and sheets, two sheets.
@Suite struct XLSXInteropTests {
    @Test(arguments: [
        ("openpyxl.xlsx", "Products"), ("openpyxl.xlsx", "Books"), ("xlsxwriter.xlsx", "First"),
        ("xlsxwriter.xlsx", "Second"), ("inline.xlsx", "Sheet1"),
    ])
    func ferryReadsWhatOpenpyxlReads(file: String, sheet: String) throws {
        let folder = try Workbooks.folder()
        let path = folder.path(file)
        let expected = try Workbooks.openpyxlRows(path, sheet: sheet)
        let reading = try FerryReading(path, sheet: sheet, kind: .generic)
        #expect(reading.header == expected.first?.map { cell in
            if case .string(let text) = cell { return text }
            return ""
        })
        #expect(reading.rows.map { $0.map(Cell.init) } == Array(expected.dropFirst()))
    }

    @Test func numbersKeepTheirTextAndDatesAreISO() throws {
        let folder = try Workbooks.folder()
        let reading = try FerryReading(folder.path("openpyxl.xlsx"), kind: .generic)
        #expect(reading.rows[0][1] == .double(19.99))
        #expect(reading.rows[0][2] == .string("2024-01-15"))
        #expect(reading.rows[1][2] == .string("2024-02-29T13:45:30"))
        // The merged range's value is in its first cell; the next is null.
        #expect(reading.rows[4][0] == .string("Merged") && reading.rows[4][1] == .null)
    }

    @Test func theFirstSheetIsReadUnlessSheetNamesAnother() throws {
        let folder = try Workbooks.folder()
        let path = folder.path("xlsxwriter.xlsx")
        #expect(try FerryReading(path, kind: .generic).header.first == "name")
        #expect(try FerryReading(path, sheet: "2").header == ["title", "pages"])
        #expect(try FerryReading(path, sheet: "second").header == ["title", "pages"])
        let error = ferryError { _ = try FerryReading(path, sheet: "Third") }
        #expect(error?.code == .xlsxNoSuchSheet)
        #expect(error?.arguments == [.string("Third"), .string("First, Second")])
    }

    @Test func anErrorCellIsNullWithALocatedWarning() throws {
        let folder = try Workbooks.folder()
        let reading = try FerryReading(folder.path("openpyxl.xlsx"), kind: .generic)
        #expect(reading.rows[2][4] == .null)
        let warning = try #require(reading.warnings.first { $0.code == .xlsxErrorCell })
        #expect(warning.arguments == [.string("#N/A")])
        #expect(warning.location.sheet == "Products")
        #expect(warning.location.cell == "E4")
        #expect(warning.location.field == "note")
    }

    @Test func aProductSheetIsTypedByTheKind() throws {
        let folder = try Workbooks.folder()
        let reading = try FerryReading(folder.path("inline.xlsx"), kind: .product)
        // sku is a string for products; price a number.
        #expect(reading.rows[0] == [.string("Wii & <co>"), .double(19.99), .string("wii.jpg"), .string("A-1")])
        #expect(reading.rows[1][1] == .double(-3.5))
    }
}
