import Foundation
import FerryTestSupport
import Testing

@testable import FerryKit
@testable import FerryXLSX

/// The writer's rules, checked in memory: sheet names, column letters, text
/// escaping, limits and errors.
@Suite struct XLSXWriterTests {
    @Test(arguments: ["Sheet1", "Q3 & Q4", "Données 2024", String(repeating: "x", count: 31), "it's"])
    func excelTakesTheseSheetNames(_ name: String) {
        #expect(XLSXWriter.isValidSheetName(name))
    }

    @Test(arguments: [
        "", String(repeating: "x", count: 32), "a/b", "a\\b", "a:b", "a*b", "a?b", "[a]", "'quoted'", "History",
        "tab\there",
    ])
    func excelRefusesTheseSheetNames(_ name: String) throws {
        #expect(!XLSXWriter.isValidSheetName(name))
        let error = #expect(throws: FerryError.self) {
            _ = try XLSXCodec().makeWriter(MemoryOutput(), context: WriteContext(options: OptionValues(["sheet": name])))
        }
        #expect(error?.code == .xlsxSheetNameInvalid)
        #expect(error?.arguments == [.string(name)])
    }

    @Test func columnLettersRunFromAToXFD() {
        let letters = [0, 1, 25, 26, 27, 51, 52, 701, 702, 16_383].map { String(decoding: XLSXWriter.columnLetters($0), as: UTF8.self) }
        #expect(letters == ["A", "B", "Z", "AA", "AB", "AZ", "BA", "ZZ", "AAA", "XFD"])
    }

    /// Escapes `text`, returning the XML, the width and whether a character was dropped.
    private func escaped(_ text: String) -> (String, Int, Bool) {
        var buffer = WriteBuffer()
        defer { buffer.release() }
        var text = text
        let (width, dropped) = text.withUTF8 { XLSXWriter.appendEscaped($0, to: &buffer) }
        return (String(decoding: buffer.bytes, as: UTF8.self), width, dropped)
    }

    @Test func textIsEscapedForXML() {
        #expect(escaped("plain") == ("plain", 5, false))
        #expect(escaped("a & b < c > d") == ("a &amp; b &lt; c &gt; d", 13, false))
        #expect(escaped("Café 中文") == ("Café 中文", 7, false))
        #expect(escaped("line\r\nnext\ttab") == ("line&#13;\nnext\ttab", 14, false))
        // Eight bytes at a time, then the rest: a special byte in any place.
        let clean = "abcdefghijklmnopq"
        let specials = ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\u{1}": "", "é": "é"]
        for offset in 0..<clean.count {
            for (special, written) in specials {
                var text = Array(clean).map(String.init)
                text[offset] = special
                var expected = text
                expected[offset] = written
                let result = escaped(text.joined())
                #expect(result.0 == expected.joined(), "\(text.joined())")
                #expect(result.1 == (written.isEmpty ? 16 : 17))
                #expect(result.2 == written.isEmpty)
            }
        }
        #expect(escaped(clean) == (clean, 17, false))
    }

    @Test func charactersXMLForbidsAreDropped() {
        #expect(escaped("a\u{0}b\u{1F}c") == ("abc", 3, true))
        #expect(escaped("x\u{FFFE}y\u{FFFF}z\u{FFFD}") == ("xyz\u{FFFD}", 4, true))
        #expect(escaped("\u{FEFF}keep") == ("\u{FEFF}keep", 5, false))
    }

    @Test func textPastACellsLimitIsCut() throws {
        let long = String(repeating: "é", count: 40_000)
        var bytes = Array(long.utf8)
        let cut = bytes.withUnsafeMutableBufferPointer { XLSXWriter.truncated(UnsafeBufferPointer($0), toUTF16: 32_767) }
        #expect(cut?.count == 32_767)
        let emoji = String(repeating: "😀", count: 20_000)
        bytes = Array(emoji.utf8)
        let cutEmoji = bytes.withUnsafeMutableBufferPointer { XLSXWriter.truncated(UnsafeBufferPointer($0), toUTF16: 32_767) }
        #expect(cutEmoji?.utf16.count == 32_766, "a surrogate pair is never split")

        let output = MemoryOutput()
        let context = WriteContext()
        let writer = try XLSXCodec().makeWriter(output, context: context)
        try writer.write(Record([("text", .string(long))], origin: RecordOrigin(index: 1)))
        try writer.finish()
        #expect(context.losses.losses.map(\.warning.code) == [.xlsxTextTruncated])
    }

    @Test func anInfiniteNumberIsALocatedError() throws {
        let writer = try XLSXCodec().makeWriter(MemoryOutput(), context: WriteContext())
        let error = #expect(throws: FerryError.self) {
            try writer.write(Record([("name", .string("a")), ("price", .double(.infinity))], origin: RecordOrigin(index: 7)))
        }
        #expect(error?.code == .xlsxNonFiniteNumber)
        #expect(error?.location.record == 7)
        #expect(error?.location.field == "price")
    }

    @Test func moreColumnsThanASheetHoldsIsAnError() throws {
        let writer = try XLSXCodec().makeWriter(MemoryOutput(), context: WriteContext())
        let names = (0...XLSXWriter.maxColumns).map { "f\($0)" }
        let record = Record(fields: FieldList(names), values: names.map { _ in .null }, origin: RecordOrigin(index: 1))
        let error = #expect(throws: FerryError.self) { try writer.write(record) }
        #expect(error?.code == .xlsxTooManyColumns)
        #expect(error?.location.field == "f16384")
    }

    @Test func moreRowsThanASheetHoldsIsAnError() throws {
        let writer = try XLSXWriter(MemoryOutput(), sheetName: "Sheet1", losses: LossTally(), maxRows: 3)
        try writer.write(Record([("n", .integer(1))], origin: RecordOrigin(index: 1)))
        try writer.write(Record([("n", .integer(2))], origin: RecordOrigin(index: 2)))
        let error = #expect(throws: FerryError.self) {
            try writer.write(Record([("n", .integer(3))], origin: RecordOrigin(index: 3)))
        }
        #expect(error?.code == .xlsxTooManyRows)
        #expect(error?.arguments == [.count(XLSXWriter.maxRows)])
        #expect(error?.location.record == 3)
    }

    @Test func datesOutsideExcelsRangeAreText() throws {
        let output = MemoryOutput()
        let context = WriteContext()
        let writer = try XLSXCodec().makeWriter(output, context: context)
        // 1899-12-31 and 1900-02-28 (serial 59, before Excel's false 1900-02-29).
        try writer.write(Record([("d", .date(Date(timeIntervalSince1970: -2_209_075_200)))], origin: RecordOrigin(index: 1)))
        try writer.write(Record([("d", .date(Date(timeIntervalSince1970: -2_203_977_600)))], origin: RecordOrigin(index: 2)))
        try writer.finish()
        #expect(context.losses.losses.map(\.warning.code) == [.xlsxDateAsText])
        #expect(context.losses.losses.first?.count == 1)
    }

    @Test func numbersWithAnExponentOrManyDigitsAreStoredAsCellsHoldThem() throws {
        let output = MemoryOutput()
        let context = WriteContext()
        let writer = try XLSXCodec().makeWriter(output, context: context)
        for (index, text) in ["1e400", "1.5e3", "0.1000000000000000055511151231257827"].enumerated() {
            try writer.write(Record([("n", .number(NumberText(unchecked: text)))], origin: RecordOrigin(index: index + 1)))
        }
        try writer.finish()
        #expect(context.losses.losses.map(\.warning.code) == [.convertNumberRounded])
        #expect(context.losses.losses.first?.count == 2)
    }

    /// A number's text goes into its cell as Excel writes numbers: Excel
    /// 2013 called a workbook corrupt for `<v>+41…</v>` (xlsx.js issue 30),
    /// so a `+`, leading zeros, a bare point are written away; the value is
    /// the same, and text already in that form (`299.00`) stays as it is.
    @Test(arguments: [
        ("+3", "3"), ("00012", "12"), (".5", "0.5"), ("-.5", "-0.5"), ("1.", "1"), ("+001.50", "1.50"), ("000", "0"),
        ("-0", "-0"), ("299.00", "299.00"), ("0.25", "0.25"), ("-12", "-12"),
    ])
    func numberTextIsWrittenAsExcelWritesNumbers(_ written: String, _ stored: String) throws {
        let output = MemoryOutput()
        let context = WriteContext()
        let writer = try XLSXCodec().makeWriter(output, context: context)
        try writer.write(Record([("n", .number(NumberText(unchecked: written)))], origin: RecordOrigin(index: 1)))
        try writer.finish()
        let reading = try FerryReading(bytes: output.bytes)
        // The reader keeps a cell's number text; plain ones come as integers and doubles.
        let text: String? =
            switch reading.rows.first?.first {
            case .number(let number)?: number.text
            case .integer(let integer)?: String(integer)
            case .double(let double)?: String(double)
            default: nil
            }
        #expect(text == stored)
        #expect(context.losses.losses.isEmpty)
    }
}
