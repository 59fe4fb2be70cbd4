import Foundation
import FerryTestSupport
import Testing

@testable import FerryKit
@testable import FerryXLSX

/// Every XML part of the workbooks Ferry writes, validated against the
/// ECMA-376 transitional schemas (Tests/Corpora/ecma-376-transitional) by
/// `Scripts/validate-xlsx-schema.py`, which runs `xmllint --schema`: the
/// nearest check to Excel's repair prompt that runs without Excel. The
/// script also checks that each part has a content type and that each
/// relationship's target is a part.
@Suite struct XLSXSchemaTests {
    /// What the script found: the parts it validated, and every problem.
    struct Report: Decodable {
        var parts: [String]
        var errors: [String]
    }

    static func validate(_ paths: [String]) throws -> Report {
        let script = TestPaths.packageRoot.appendingPathComponent("Scripts/validate-xlsx-schema.py").path
        let result = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script] + paths, timeout: 120)
        try #require(
            result.status == 0 || result.status == 1,
            "validate-xlsx-schema.py exited \(result.status) (is xmllint installed? apt-get install libxml2-utils): \(result.err)")
        return try JSONDecoder().decode(Report.self, from: Data(result.stdout))
    }

    /// The six parts of each workbook, as the script names them.
    static func parts(of file: String) -> [String] {
        [
            "[Content_Types].xml", "_rels/.rels", "xl/workbook.xml", "xl/_rels/workbook.xml.rels", "xl/styles.xml",
            "xl/worksheets/sheet1.xml",
        ].map { "\(file):\($0)" }
    }

    /// Records that reach every kind of cell: text with edge spaces
    /// (`xml:space`), XML specials and control characters, numbers kept as
    /// text, bools, both date styles, a date outside Excel's range, nested
    /// values, a photo's bytes, text past a cell's limit, nulls, a late field.
    static var records: [Record] {
        var records = XLSXWriterInteropTests.products
        records.append(
            Record(
                [
                    ("name", .string(String(repeating: "é", count: 40_000))),
                    ("added", .date(Date(timeIntervalSince1970: -2_300_000_000))), ("late", .integer(-7)),
                ], origin: RecordOrigin(index: 4)))
        return records
    }

    @Test func everyPartOfTheWorkbooksFerryWritesIsValid() throws {
        let folder = try ScratchFolder()
        var files: [String] = []
        let written: [(String, [Record], [String: String])] = [
            ("products.xlsx", Self.records, [:]),
            ("sheet-name.xlsx", Self.records, ["sheet": #"A & "B" <C>"#]),
            ("empty.xlsx", [], [:]),
            (
                "wide.xlsx",
                (1...2).map { row in
                    Record((0..<800).map { ("c\($0)", Value.integer(Int64(row * $0))) }, origin: RecordOrigin(index: row))
                }, [:]
            ),
        ]
        for (name, records, options) in written {
            let (bytes, _) = try XLSXWriterInteropTests.write(records, kind: nil, options: options)
            files.append(try folder.write(name, bytes))
        }
        // The command line's raw path (CSV in, no records made), with numbers
        // written as Excel would not write them.
        let raw = folder.url.appendingPathComponent("books.xlsx").path
        let converted = try Ferry.run(["convert", TestPaths.example("books.csv"), raw, "--quiet"])
        try #require(converted.status == 0, "\(converted.err)")
        files.append(raw)
        let prices = try folder.write("prices.csv", "name,price\na,+3\nb,.5\nc,1.\nd,00012\ne,-0\n")
        let numbers = folder.url.appendingPathComponent("numbers.xlsx").path
        let typed = try Ferry.run(["convert", prices, numbers, "--kind", "product", "--quiet"])
        try #require(typed.status == 0, "\(typed.err)")
        files.append(numbers)

        let report = try Self.validate(files)
        #expect(report.errors == [])
        #expect(report.parts == files.flatMap { Self.parts(of: URL(fileURLWithPath: $0).lastPathComponent) })
    }

    /// The check fails on parts that break the schema (a cell type that
    /// does not exist, `<cols>` after `<sheetData>`), on Excel's rules that
    /// the schema cannot say (cells out of order, a number that is not one,
    /// a bool of 2, a dimension short of the cells, a style count that is
    /// not its list's length), on a part without a content type, and on a
    /// relationship or content type for a part that is not there.
    @Test func theCheckFindsWhatExcelWouldRepair() throws {
        func replacing(_ bytes: [UInt8], _ old: String, _ new: String) throws -> [UInt8] {
            let text = String(decoding: bytes, as: UTF8.self)
            try #require(text.contains(old))
            return Array(text.replacingOccurrences(of: old, with: new).utf8)
        }
        let folder = try ScratchFolder()
        let output = MemoryOutput()
        let zip = ZipWriter(output)
        let missing = "/xl/sharedStrings.xml"
        try zip.addDeflated(
            "[Content_Types].xml",
            try replacing(XLSXParts.contentTypes, "</Types>", #"<Override PartName="\#(missing)" ContentType="application/xml"/></Types>"#))
        try zip.addDeflated("_rels/.rels", XLSXParts.packageRelationships)
        try zip.addDeflated("xl/workbook.xml", XLSXParts.workbook(sheetName: "Sheet1"))
        try zip.addDeflated(
            "xl/_rels/workbook.xml.rels",
            try replacing(
                XLSXParts.workbookRelationships, "</Relationships>",
                #"<Relationship Id="rId3" Type="t" Target="sharedStrings.xml"/></Relationships>"#))
        try zip.addDeflated("xl/styles.xml", try replacing(XLSXParts.styles, #"<cellXfs count="4">"#, #"<cellXfs count="5">"#))
        let row = #"<row r="1"><c r="A1" t="x"><v>1</v></c><c r="C1"><v>INF</v></c><c r="B1" t="b"><v>2</v></c></row>"#
        let sheet = XLSXParts.sheetHead(lastCell: nil, widths: []) + Array(row.utf8)
            + Array(#"</sheetData><cols><col min="1" max="1" width="9"/></cols></worksheet>"#.utf8)
        try zip.addDeflated(XLSXParts.sheetPath, sheet)
        try zip.addDeflated("xl/extra.bin", [1, 2, 3])
        try zip.finish()
        let path = try folder.write("broken.xlsx", output.bytes)

        let report = try Self.validate([path])
        let sheetPart = "broken.xlsx: xl/worksheets/sheet1.xml"
        #expect(report.errors.contains { $0.hasPrefix("broken.xlsx:xl/worksheets/sheet1.xml:") && $0.contains("'x'") })
        for error in [
            "\(sheetPart): cell C1: number 'INF' is not written as Excel writes numbers",
            "\(sheetPart): cell B1 out of order or past XFD",
            "\(sheetPart): cell B1: bool '2'",
            "\(sheetPart): dimension A1 does not cover the cells used",
            #"broken.xlsx: xl/styles.xml: <cellXfs count="5"> has 4 items"#,
            "broken.xlsx: xl/extra.bin: no content type",
            "broken.xlsx: xl/extra.bin: no schema for this part",
            "broken.xlsx: xl/_rels/workbook.xml.rels: rId3 points to xl/sharedStrings.xml, which is not in the package",
            "broken.xlsx: [Content_Types].xml: Override names \(missing), which is not in the package",
        ] {
            #expect(report.errors.contains(error), "\(error)")
        }
    }
}
