import Foundation
import FerryTestSupport
import Testing

@testable import FerryKit
@testable import FerryXLSX

/// Workbooks Ferry writes, read back by openpyxl and python-calamine, their
/// zip checked by Python's `zipfile`.
@Suite struct XLSXWriterInteropTests {
    typealias Cell = XLSXWriterPython.Cell

    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]
    static let midnight = Date(timeIntervalSince1970: 1_705_276_800)  // 2024-01-15T00:00:00Z
    static let afternoon = Date(timeIntervalSince1970: 1_705_276_800 + 49_530)  // 13:45:30

    /// Products with XML specials, non-ASCII text, numbers kept as text,
    /// booleans, dates, nulls, a photo's bytes and a field that comes late.
    static var products: [Record] {
        let fields = FieldList(["name", "price", "photo", "inStock", "added", "note"])
        return [
            Record(
                fields: fields,
                values: [
                    .string("Lamp & <Shade> \"Ø\""), .number(NumberText(unchecked: "19.99")), .string("photos/lamp.png"),
                    .bool(true), .date(midnight), .null,
                ], origin: RecordOrigin(index: 1)),
            Record(
                fields: fields,
                values: [
                    .string("Café — 中文 😀"), .number(NumberText(unchecked: "299.00")), .bytes(png), .bool(false),
                    .date(afternoon), .string(" padded "),
                ], origin: RecordOrigin(index: 2)),
            Record(
                [("name", .string("Ctrl\u{1}char\r\nnext")), ("price", .integer(5)), ("tags", .array([.string("a"), .integer(1)]))],
                origin: RecordOrigin(index: 3)),
        ]
    }

    static func write(_ records: [Record], kind: RecordKind?, options: [String: String] = [:], zip64From: UInt64? = nil)
        throws -> (bytes: [UInt8], losses: [String])
    {
        let output = MemoryOutput()
        let context = WriteContext(kind: kind, options: OptionValues(options))
        let writer: any RecordWriter
        if let zip64From {
            writer = try XLSXWriter(output, sheetName: "Products", losses: context.losses, zip64From: zip64From)
        } else {
            writer = try XLSXCodec().makeWriter(output, context: context)
        }
        for record in records { try writer.write(record) }
        try writer.finish()
        return (output.bytes, context.losses.losses.map { "\($0.warning.code.rawValue) \($0.field)" })
    }

    @Test func openpyxlReadsProductsWithTheirTypes() throws {
        let folder = try ScratchFolder()
        let (bytes, losses) = try Self.write(Self.products, kind: .product)
        let report = try XLSXWriterPython.read(try folder.write("products.xlsx", bytes))
        #expect(report.testzip == nil)
        #expect(report.sheets == ["Products"])
        #expect(report.freeze == "A2")
        #expect(report.headerBold == Array(repeating: true, count: 7))
        let header = ["name", "price", "photo", "inStock", "added", "note", "tags"].map { Cell("string", $0) }
        let uri = Photo.dataURI(Self.png)
        let expected: [[Cell?]] = [
            header,
            [
                Cell("string", "Lamp & <Shade> \"Ø\""), Cell("float", "19.99"), Cell("string", "photos/lamp.png"),
                Cell("bool", "true"), Cell("datetime", "2024-01-15T00:00:00"), nil, nil,
            ],
            [
                Cell("string", "Café — 中文 😀"), Cell("float", "299.0"), Cell("string", uri), Cell("bool", "false"),
                Cell("datetime", "2024-01-15T13:45:30"), Cell("string", " padded "), nil,
            ],
            [Cell("string", "Ctrlchar\r\nnext"), Cell("int", "5"), nil, nil, nil, nil, Cell("string", #"["a",1]"#)],
        ]
        #expect(report.rows == expected)
        #expect(report.formats?[0][4] == "yyyy-mm-dd")
        #expect(report.formats?[1][4] == "yyyy-mm-dd hh:mm:ss")
        #expect(report.widths?["A"] ?? 0 >= 20, "the widest name is 18 characters")
        #expect(
            losses == [
                "xlsx.photoAsDataURI photo", "xlsx.characterDropped name", "xlsx.nestedAsJSON tags",
            ])
    }

    @Test func calamineReadsProducts() throws {
        let folder = try ScratchFolder()
        let report = try XLSXWriterPython.read(try folder.write("products.xlsx", try Self.write(Self.products, kind: .product).bytes))
        #expect(report.calamineSheets == ["Products"])
        #expect(report.calamineCount == 4)
        let rows = report.calamine
        #expect(rows[1][0] == Cell("string", "Lamp & <Shade> \"Ø\""))
        #expect(rows[1][1] == Cell("float", "19.99"))
        #expect(rows[1][3] == Cell("bool", "true"))
        #expect(rows[2][0] == Cell("string", "Café — 中文 😀"))
        #expect(rows[2][1].map { Double($0.text) } == 299.0)
        #expect(rows[2][4]?.text.hasPrefix("2024-01-15T13:45:30") == true)
        #expect(rows[3][6] == Cell("string", #"["a",1]"#))
    }

    @Test func theSheetIsNamedByTheOptionElseByTheKind() throws {
        let folder = try ScratchFolder()
        let named = try Self.write(Self.products, kind: .product, options: ["sheet": "Q3 & Q4 <draft>"]).bytes
        #expect(try XLSXWriterPython.read(try folder.write("named.xlsx", named)).sheets == ["Q3 & Q4 <draft>"])
        let books = try Self.write([Record([("title", .string("Dune"))])], kind: .book).bytes
        #expect(try XLSXWriterPython.read(try folder.write("books.xlsx", books)).sheets == ["Books"])
        let other = try Self.write([Record([("x", .integer(1))])], kind: .generic).bytes
        #expect(try XLSXWriterPython.read(try folder.write("other.xlsx", other)).sheets == ["Sheet1"])
    }

    /// Tens of thousands of rows: many drains into the spool, many deflate
    /// blocks, joined to the head written last.
    @Test func aLargeSheetReadsBackWhole() throws {
        var generator = SeededGenerator(seed: 35)
        let fields = FieldList(["name", "price", "inStock", "description"])
        let words = ["lamp", "chair", "Ø", "<b>", "&", "中文", "table", "desk", "😀"]
        let records = (0..<40_000).map { index -> Record in
            let description = (0..<Int.random(in: 3...20, using: &generator)).map { _ in
                words[Int.random(in: 0..<words.count, using: &generator)]
            }.joined(separator: " ")
            return Record(
                fields: fields,
                values: [
                    .string("item \(index)"), .number(NumberText(unchecked: "\(index % 1000).\(index % 100)")),
                    .bool(index % 3 == 0), .string(description),
                ], origin: RecordOrigin(index: index + 1))
        }
        let folder = try ScratchFolder()
        let (bytes, _) = try Self.write(records, kind: .product)
        let report = try XLSXWriterPython.read(try folder.write("large.xlsx", bytes), full: false)
        #expect(report.testzip == nil)
        #expect(report.count == 40_001)
        #expect(report.calamineCount == 40_001)
        #expect(report.rows[1][0] == Cell("string", "item 0"))
        #expect(report.rows[4][0] == Cell("string", "item 39999"))
        #expect(report.rows[4][1] == Cell("float", "999.99"))
        #expect(report.calamine[4][0] == Cell("string", "item 39999"))
    }

    /// Zip64 records, forced from the first byte, read by `zipfile`,
    /// openpyxl and calamine alike.
    @Test func zip64RecordsReadBack() throws {
        let folder = try ScratchFolder()
        let bytes = try Self.write(Self.products, kind: .product, zip64From: 0).bytes
        #expect(bytes.count > 22)
        let report = try XLSXWriterPython.read(try folder.write("zip64.xlsx", bytes))
        #expect(report.testzip == nil)
        #expect(report.rows.count == 4)
        #expect(report.calamineCount == 4)
        #expect(bytes.suffix(22).starts(with: [0x50, 0x4B, 0x05, 0x06]))
        let zip64End: [UInt8] = [0x50, 0x4B, 0x06, 0x06]
        #expect(bytes.indices.contains { bytes[$0...].starts(with: zip64End) })
    }

    /// No records: a workbook with an empty sheet, which readers open.
    @Test func noRecordsMakeAnEmptySheet() throws {
        let folder = try ScratchFolder()
        let report = try XLSXWriterPython.read(try folder.write("empty.xlsx", try Self.write([], kind: nil).bytes))
        #expect(report.testzip == nil)
        #expect(report.sheets == ["Sheet1"])
        #expect(report.rows.isEmpty)
        #expect(report.calamineCount == 0)
    }

    @Test func theSameRecordsGiveTheSameBytes() throws {
        #expect(try Self.write(Self.products, kind: .product).bytes == Self.write(Self.products, kind: .product).bytes)
    }
}
