import FerryCore
import Testing

@testable import FerryMarkdown

/// Writes `records` as a Markdown table and returns the text.
func markdown(_ records: [Record]) throws -> String {
    let output = MemoryOutput()
    let writer = try MarkdownTableCodec().makeWriter(output, context: WriteContext())
    for record in records { try writer.write(record) }
    try writer.finish()
    return output.text
}

/// The seed's three products, as `Examples/products.json` holds them.
let seedProducts: [Record] = {
    let fields = FieldList(["name", "price", "photo"])
    return [
        Record(fields: fields, values: [.string("Xbox 360"), .double(299.0), .string("photos/xbox-360.png")]),
        Record(fields: fields, values: [.string("Wii"), .double(269.0), .string("photos/wii.png")]),
        Record(
            fields: fields,
            values: [.string("Wireless Controller"), .double(19.99), .string("photos/wireless-controller.png")]),
    ]
}()

let seedProductsTable = """
    | name | price | photo |
    | --- | --- | --- |
    | Xbox 360 | 299.0 | photos/xbox-360.png |
    | Wii | 269.0 | photos/wii.png |
    | Wireless Controller | 19.99 | photos/wireless-controller.png |

    """

@Suite struct MarkdownTableWriterTests {
    @Test func seedProductsGolden() throws {
        #expect(try markdown(seedProducts) == seedProductsTable)
    }

    @Test func noRecordsWriteNothing() throws {
        #expect(try markdown([]) == "")
    }

    @Test func finishTwiceIsHarmless() throws {
        let output = MemoryOutput()
        let writer = MarkdownTableWriter(output)
        try writer.write(Record([("a", .integer(1))]))
        try writer.finish()
        try writer.finish()
        #expect(output.text == "| a |\n| --- |\n| 1 |\n")
    }

    /// Numbers a text format kept as written show as written.
    @Test func numbersKeptAsWrittenShowAsWritten() throws {
        let record = Record([("price", .number(NumberText(unchecked: "1.10"))), ("list", .array([.number(NumberText(unchecked: "1E2"))]))])
        #expect(try markdown([record]) == "| price | list |\n| --- | --- |\n| 1.10 | [1E2] |\n")
    }

    // MARK: - Escaping

    @Test(arguments: [
        ("a|b", #"a\|b"#),
        ("||", #"\|\|"#),
        ("line 1\nline 2", "line 1<br>line 2"),
        ("crlf\r\nend", "crlf<br>end"),
        ("lone\rcr", "lone<br>cr"),
        ("two\n\nbreaks", "two<br><br>breaks"),
        ("\r\r\n", "<br><br>"),
        ("pipe|and\nbreak", #"pipe\|and<br>break"#),
        ("naïve — ok", "naïve — ok"),
    ])
    func escapesCells(text: String, cell: String) throws {
        let table = try markdown([Record([("x|y", .string(text))])])
        #expect(table == "| x\\|y |\n| --- |\n| \(cell) |\n")
    }

    @Test func escapesInsideNestedValues() throws {
        let nested = Value.array([.string("a|b"), .string("c\nd")])
        let table = try markdown([Record([("tags", nested)])])
        // JSON already escapes the line break; only the pipe needs Markdown's escape.
        #expect(table == "| tags |\n| --- |\n| [\"a\\|b\",\"c\\nd\"] |\n")
    }

    // MARK: - Values

    @Test(arguments: [
        (Value.null, ""),
        (.bool(true), "true"),
        (.bool(false), "false"),
        (.integer(-42), "-42"),
        (.integer(Int64.max), "9223372036854775807"),
        (.double(19.99), "19.99"),
        (.double(67.0), "67.0"),
        (.double(1e300), "1e+300"),
        (.double(.nan), "NaN"),
        (.double(-.infinity), "-Infinity"),
        (.string("Wii"), "Wii"),
        (.string(""), ""),
        (.bytes([0x89, 0x50, 0x4E, 0x47]), "(4 bytes)"),
        (.bytes([]), "(0 bytes)"),
        (.array([]), "[]"),
        (.array([.integer(1), .double(2.5), .null, .bool(true)]), "[1,2.5,null,true]"),
        (.object(OrderedObject([("w", .integer(32)), ("h", .integer(32))])), #"{"w":32,"h":32}"#),
        (.object(OrderedObject([("q", .string("say \"hi\"\t\\")), ("c", .string("\u{1}"))])),
         #"{"q":"say \"hi\"\t\\","c":"\u0001"}"#),
        (.array([.bytes([0x47, 0x49, 0x46, 0x38, 0x39, 0x61])]), #"["data:image/gif;base64,R0lGODlh"]"#),
    ])
    func showsValues(value: Value, cell: String) throws {
        let table = try markdown([Record([("v", value)])])
        let row = cell.isEmpty ? "| |\n" : "| \(cell) |\n"
        #expect(table == "| v |\n| --- |\n" + row)
    }

    @Test func showsDatesAsISO8601() throws {
        let date = Value.date(.init(timeIntervalSince1970: 1_507_379_400))
        #expect(try markdown([Record([("at", date)])]) == "| at |\n| --- |\n| 2017-10-07T12:30:00Z |\n")
    }

    // MARK: - Differing fields

    @Test func matchesLaterRecordsByName() throws {
        let table = try markdown([
            Record([("name", .string("Wii")), ("price", .integer(269))]),
            Record([("price", .double(19.99)), ("name", .string("Wireless Controller"))]),
            Record([("name", .string("Xbox 360")), ("sku", .string("X-360"))]),
            Record([("photo", .string("photos/wii.png"))]),
        ])
        #expect(
            table == """
                | name | price |
                | --- | --- |
                | Wii | 269 |
                | Wireless Controller | 19.99 |
                | Xbox 360 | |
                | | |

                """)
    }

    @Test func repeatedFieldNamesKeepTheirOwnValues() throws {
        let table = try markdown([
            Record(fields: FieldList(["a", "a"]), values: [.integer(1), .integer(2)]),
            Record(fields: FieldList(["a", "a"]), values: [.integer(3), .integer(4)]),
        ])
        #expect(table == "| a | a |\n| --- | --- |\n| 1 | 2 |\n| 3 | 4 |\n")
    }

    // MARK: - Errors

    @Test func firstRecordWithoutFieldsIsAnError() throws {
        let empty = Record(fields: FieldList([]), values: [], origin: RecordOrigin(index: 4, byteOffset: 10))
        let error = #expect(throws: FerryError.self) { try markdown([empty]) }
        #expect(error?.code == .markdownNoColumns)
        #expect(error?.code.category == .data)
        #expect(error?.arguments == [])
        #expect(error?.location.record == 4)
    }

    @Test func laterRecordWithoutFieldsIsAnEmptyRow() throws {
        let table = try markdown([Record([("a", .integer(1))]), Record(fields: FieldList([]), values: [])])
        #expect(table == "| a |\n| --- |\n| 1 |\n| |\n")
    }

    // MARK: - Streaming

    @Test func streamsLargeTablesInChunks() throws {
        let output = CountingOutput()
        let writer = MarkdownTableWriter(output)
        let fields = FieldList(["name", "price"])
        for index in 0..<50_000 {
            try writer.write(Record(fields: fields, values: [.string("product \(index)"), .integer(Int64(index))]))
        }
        #expect(output.writes > 1, "rows are handed on as they fill the buffer, not held until finish")
        try writer.finish()
        #expect(output.lastBytes.suffix(17) == Array("| product 49999 | 49999 |\n".utf8.suffix(17)))
    }
}

/// Counts writes and keeps only the last chunk.
final class CountingOutput: ByteOutput {
    let name = "-"
    private(set) var writes = 0
    private(set) var lastBytes: [UInt8] = []

    func write(_ bytes: UnsafeRawBufferPointer) throws(FerryError) {
        writes += 1
        lastBytes = Array(bytes)
    }
}
