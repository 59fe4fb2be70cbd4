import FerryCore
import Testing

@testable import FerryXLSX

/// The pieces: date serials, number formats, the XML scanner, references.
@Suite struct XLSXPartsTests {
    @Test(arguments: [
        (1.0, NumberFormatKind.date, false, "1900-01-01"), (59.0, .date, false, "1900-02-28"),
        (60.0, .date, false, "1900-02-29"), (61.0, .date, false, "1900-03-01"),
        (45306.5, .dateTime, false, "2024-01-15T12:00:00"), (45306.5, .date, false, "2024-01-15T12:00:00"),
        (0.75, .time, false, "18:00:00"), (0.0, .date, true, "1904-01-01"), (1.25, .dateTime, true, "1904-01-02T06:00:00"),
        (0.5, .time, true, "12:00:00"), (43831.0000115741, .dateTime, false, "2020-01-01T00:00:01"),
        (1.0000005, .dateTime, false, "1900-01-01T00:00:00.043"),
    ])
    func serialsAreISO(serial: Double, kind: NumberFormatKind, uses1904: Bool, expected: String) {
        #expect(ExcelDate.text(serial, kind: kind, uses1904: uses1904) == expected)
    }

    @Test func serialsOutOfRangeAreNotDates() {
        #expect(ExcelDate.text(-1, kind: .date, uses1904: false) == nil)
        #expect(ExcelDate.text(3_000_000, kind: .date, uses1904: false) == nil)
    }

    @Test(arguments: [
        ("yyyy-mm-dd", NumberFormatKind.date), ("d/m/yy h:mm", .dateTime), ("hh:mm:ss", .time), ("mm:ss", .time),
        ("[h]:mm", .time), ("0.00", .number), ("#,##0 \"days\"", .number), ("[Red]0.0", .number),
        ("[$-409]mmm-yy", .date), ("0\\d", .number), ("General", .number), ("mmm", .date), ("_(* #,##0_)", .number),
    ])
    func customCodesAreClassified(code: String, kind: NumberFormatKind) {
        #expect(CellStyles.kind(ofCode: code) == kind)
    }

    @Test func builtInDateFormats() {
        #expect((14...22).allSatisfy { CellStyles.kind(ofBuiltIn: $0) != .number })
        #expect((45...47).allSatisfy { CellStyles.kind(ofBuiltIn: $0) == .time })
        #expect([0, 1, 2, 9, 13, 23, 44, 48, 49].allSatisfy { CellStyles.kind(ofBuiltIn: $0) == .number })
    }

    @Test func references() throws {
        for (text, column, row) in [("A1", 0, 1), ("B12", 1, 12), ("Z3", 25, 3), ("AA10", 26, 10), ("XFD1048576", 16383, 1_048_576)] {
            let reference = try #require(Array(text.utf8).withUnsafeBufferPointer { CellReference($0) })
            #expect(reference.column == column && reference.row == row)
            #expect(CellReference.name(column: column, row: row) == text)
        }
        for bad in ["1", "A", "ABCD1", "A-1", ""] {
            #expect(Array(bad.utf8).withUnsafeBufferPointer { CellReference($0) } == nil)
        }
    }

    /// The scanner's tokens, with entities undone, whatever the read sizes.
    @Test(arguments: [1, 3, 7, 1 << 16])
    func theScannerTokenizes(readSize: Int) throws {
        let xml = #"<?xml version="1.0"?><!-- c --><x:a b='1 > 0' c="&lt;&amp;&#65;&#x42;&quot;"><t>a&gt;b</t><![CDATA[<&>]]><e/></x:a>"#
        let scanner = XMLPullScanner(
            MemoryInput(xml, readSizes: { readSize }), part: "p.xml", file: "f.xlsx", maxTokenBytes: 1 << 20)
        var seen: [String] = []
        while true {
            let token = try scanner.next()
            if token == .endOfDocument { break }
            let name = String(decoding: scanner.bytes(scanner.nameStart..<scanner.nameEnd), as: UTF8.self)
            switch token {
            case .start:
                var text: [UInt8] = []
                for attribute in scanner.attributes {
                    text += scanner.bytes(attribute.name) + Array("=".utf8)
                    try scanner.appendText(attribute.value, to: &text)
                    text += Array(";".utf8)
                }
                seen.append("<\(name) \(String(decoding: text, as: UTF8.self))")
            case .end: seen.append("</\(name)")
            case .text:
                var text: [UInt8] = []
                try scanner.appendText(scanner.textRange, cdata: scanner.isCDATA, to: &text)
                seen.append(String(decoding: text, as: UTF8.self))
            case .endOfDocument: break
            }
        }
        #expect(seen == ["<a b=1 > 0;c=<&AB\";", "<t ", "a>b", "</t", "<&>", "<e ", "</e", "</a"])
    }

    @Test func unknownEntitiesAreCoded() {
        let scanner = XMLPullScanner(MemoryInput("<t>&nbsp;</t>"), part: "p.xml", file: "f.xlsx", maxTokenBytes: 1 << 20)
        var text: [UInt8] = []
        let error = ferryError {
            while try scanner.next() != .text {}
            try scanner.appendText(scanner.textRange, to: &text)
        }
        #expect(error?.code == .xlsxUnknownEntity)
        #expect(error?.arguments == [.string("nbsp"), .path("p.xml")])
        #expect(error?.location.column == 4)
    }

    @Test func aTokenPastTheLimitIsCoded() {
        let xml = "<t>" + String(repeating: "x", count: 200_000) + "</t>"
        let scanner = XMLPullScanner(MemoryInput(xml), part: "p.xml", file: "f.xlsx", maxTokenBytes: 100_000)
        let error = ferryError { while try scanner.next() != .endOfDocument {} }
        #expect(error?.code == .recordTooLarge)
    }

    @Test func relationshipTargetsResolve() {
        #expect(WorkbookParts.resolve("worksheets/sheet1.xml", against: "xl") == "xl/worksheets/sheet1.xml")
        #expect(WorkbookParts.resolve("/xl/worksheets/sheet1.xml", against: "xl") == "xl/worksheets/sheet1.xml")
        #expect(WorkbookParts.resolve("../media/a.png", against: "xl/drawings") == "xl/media/a.png")
    }
}

extension XLSXPartsTests {
    /// Columns count scalars, also over the bytes the window has let go.
    @Test(arguments: [7, 1 << 16])
    func columnsCountScalarsPastTheWindow(readSize: Int) {
        let xml = "<a>\n<a>" + String(repeating: "<b>é</b>", count: 1000) + "<t>&bad;</t></a></a>"
        let scanner = XMLPullScanner(
            MemoryInput(xml, readSizes: { readSize }), part: "p.xml", file: "f.xlsx", maxTokenBytes: 1 << 20)
        var text: [UInt8] = []
        let error = ferryError {
            while true {
                let token = try scanner.next()
                if token == .endOfDocument { break }
                if token == .text { try scanner.appendText(scanner.textRange, to: &text) }
            }
        }
        #expect(error?.code == .xlsxUnknownEntity)
        #expect(error?.location.line == 2)
        #expect(error?.location.column == 8007)
    }
}

extension XLSXPartsTests {
    /// A zip64 end record whose entry count is just under `Int.max / 2`,
    /// read with the entry limit raised as far as `--max-entries` goes: the
    /// count is checked against the directory's size without overflowing.
    @Test func aHugeZip64EntryCountIsCodedNotATrap() {
        var bytes: [UInt8] = []
        func append<Number: FixedWidthInteger>(_ value: Number) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        // zip64 end of central directory at 0: the count, a size and offset of 0.
        append(UInt32(0x0606_4B50))
        append(UInt64(44))
        append(UInt16(45))
        append(UInt16(45))
        append(UInt32(0))
        append(UInt32(0))
        append(UInt64(Int.max / 2))
        append(UInt64(Int.max / 2))
        append(UInt64(0))
        append(UInt64(0))
        // Its locator, then the end record, which defers to it.
        append(UInt32(0x0706_4B50))
        append(UInt32(0))
        append(UInt64(0))
        append(UInt32(1))
        append(UInt32(0x0605_4B50))
        append(UInt32(0))
        append(UInt16.max)
        append(UInt16.max)
        append(UInt32.max)
        append(UInt32.max)
        append(UInt16(0))
        var limits = ReadLimits()
        limits.maxEntries = .max
        let error = ferryError {
            _ = try ZipArchive(ZipSource(MemoryInput(bytes, name: "huge.xlsx"), limit: 1 << 20), limits: limits)
        }
        #expect(error?.code == .xlsxTruncated)
    }
}

extension XLSXPartsTests {
    /// A bracket is an elapsed time only when it repeats h, m or s alone: a
    /// colour (`[White]`) or a currency (`[$CHF]`) with an h or s in it
    /// leaves a number a number.
    @Test(arguments: [
        ("[White]0.00", NumberFormatKind.number), ("#,##0.00 [$CHF]", .number), ("[$USD-409]#,##0.00", .number),
        ("[Magenta]0", .number), ("[]0", .number), ("[mm]:ss", .time), ("[ss]", .time), ("[hh]", .time),
        ("[mm]", .time), ("[h]:mm:ss", .time), ("[White]yyyy-mm-dd", .date),
    ])
    func bracketsAreElapsedTimeOnlyWhenTheyAre(code: String, kind: NumberFormatKind) {
        #expect(CellStyles.kind(ofCode: code) == kind)
    }
}

extension XLSXPartsTests {
    /// A repeated header name takes the first `_N` not taken, whatever
    /// order the names come in: `x_3` and `x_2` in the header stay theirs.
    @Test func repeatedHeaderNamesTakeTheFirstFreeSuffix() throws {
        let header = ["x", "x_3", "x", "x", "x_2", "", "x"]
        let cells = header.enumerated().map { column, name in
            #"<c r="\#(CellReference.name(column: column, row: 1))" t="inlineStr"><is><t>\#(name)</t></is></c>"#
        }.joined()
        let sheet = #"<row r="1">\#(cells)</row><row r="2"><c r="A2"><v>1</v></c></row>"#
        let reading = try FerryReading(bytes: try Self.workbook(rows: sheet))
        #expect(reading.header == ["x", "x_3", "x_2", "x_4", "x_2_2", "column6", "x_5"])
    }

    /// Each shared string's offset counts against the limit as its text
    /// does: 1,000 empty `<si/>` hold no text but 8,000 bytes of offsets.
    @Test func sharedStringOffsetsCountAgainstTheLimit() throws {
        let bytes = try Self.workbook(
            rows: #"<row r="1"><c r="A1" t="inlineStr"><is><t>name</t></is></c></row>"#
                + #"<row r="2"><c r="A2"><v>1</v></c></row>"#,
            sharedStrings: "<sst>" + String(repeating: "<si/>", count: 1000) + "</sst>")
        #expect(bytes.count < 4096)
        var limits = ReadLimits()
        limits.maxInputBytes = 4096
        let error = ferryError { _ = try FerryReading(bytes: bytes, limits: limits) }
        #expect(error?.code == .xlsxSharedStringsTooLarge)
        #expect(error?.arguments == [.integer(4096)])
        #expect(try FerryReading(bytes: bytes).header == ["name"])
    }

    /// The styles part is held under the same limit: 2,000 `<xf/>` in a
    /// part of a few hundred deflated bytes hold 50,000 bytes (a part of a
    /// few megabytes could hold a billion of them).
    @Test func stylesCountAgainstTheLimit() throws {
        let rows = #"<row r="1"><c r="A1" t="inlineStr"><is><t>name</t></is></c></row><row r="2"><c r="A2"><v>1</v></c></row>"#
        let many = "<styleSheet><cellXfs>" + String(repeating: "<xf/>", count: 2000) + "</cellXfs></styleSheet>"
        let bytes = try Self.workbook(rows: rows, styles: many)
        #expect(bytes.count < 4096)
        var limits = ReadLimits()
        limits.maxInputBytes = 40_000
        let error = ferryError { _ = try FerryReading(bytes: bytes, limits: limits) }
        #expect(error?.code == .xlsxStylesTooLarge)
        #expect(error?.arguments == [.integer(40_000)])
        #expect(error?.location.line == 1)
        // Long format codes count by their text.
        let code = String(repeating: "0", count: 30_000)
        let formats = #"<styleSheet><numFmts><numFmt numFmtId="164" formatCode="\#(code)"/><numFmt numFmtId="165" formatCode="\#(code)"/></numFmts></styleSheet>"#
        let error2 = ferryError { _ = try FerryReading(bytes: try Self.workbook(rows: rows, styles: formats), limits: limits) }
        #expect(error2?.code == .xlsxStylesTooLarge)
        #expect(try FerryReading(bytes: bytes).header == ["name"])
    }

    /// A workbook of one sheet holding `rows`, with `sharedStrings` as its
    /// shared strings part and `styles` as its styles part when given.
    static func workbook(rows: String, sharedStrings: String? = nil, styles: String? = nil) throws -> [UInt8] {
        let output = MemoryOutput()
        let zip = ZipWriter(output)
        try zip.addDeflated(
            "xl/workbook.xml", Array(#"<workbook><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>"#.utf8))
        var relationships = #"<Relationships><Relationship Id="rId1" Type="x/worksheet" Target="worksheets/sheet1.xml"/>"#
        if let sharedStrings {
            relationships += #"<Relationship Id="rId2" Type="x/sharedStrings" Target="sharedStrings.xml"/>"#
            try zip.addDeflated("xl/sharedStrings.xml", Array(sharedStrings.utf8))
        }
        if let styles {
            relationships += #"<Relationship Id="rId3" Type="x/styles" Target="styles.xml"/>"#
            try zip.addDeflated("xl/styles.xml", Array(styles.utf8))
        }
        try zip.addDeflated("xl/_rels/workbook.xml.rels", Array((relationships + "</Relationships>").utf8))
        try zip.addDeflated(
            "xl/worksheets/sheet1.xml", Array(("<worksheet><sheetData>" + rows + "</sheetData></worksheet>").utf8))
        try zip.finish()
        return output.bytes
    }
}
