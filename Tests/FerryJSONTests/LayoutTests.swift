import FerryJSON
import FerryKit
import Testing

/// What holds records: an array of objects, one object, or JSON Lines; and
/// values that are well formed but are not records.
@Suite struct LayoutTests {
    @Test(arguments: ["[1,2]", "[{\"a\":1}, 2]", "\"text\"", "42", "null", "[[{\"a\":1}]]", "true"])
    func notRecordsForConversionButLintPasses(_ text: String) throws {
        let reader = try JSONCodec().makeReader(MemoryInput(text), context: ReadContext())
        let error = try #require(throws: FerryError.self) { while try reader.next() != nil {} }
        #expect(error.code == .formatNotRecords)
        #expect(error.location.line == 1 && error.location.column != nil)
        #expect(JSONTest.lintError(text) == nil)
    }

    @Test func notRecordsNamesTheValue() throws {
        let error = try #require(JSONTest.readError("[{\"a\":1},\n  [2]]"))
        #expect(error.code == .formatNotRecords)
        #expect(error.arguments == [.message(.typeArray)])
        #expect(error.place == [2, 3])
        #expect(error.location.record == 1)
    }

    @Test func oneObjectIsOneRecord() throws {
        let records = try JSONTest.records("  {\"name\":\"Wii\",\"price\":269}  \n")
        #expect(records == [Record([("name", .string("Wii")), ("price", .integer(269))])])
    }

    @Test func emptyArrayHasNoRecords() throws {
        #expect(try JSONTest.records(" [ \n ] ").isEmpty)
    }

    @Test func byteOrderMarkIsSkipped() throws {
        #expect(try JSONTest.records("\u{FEFF}[{\"a\":1}]") == [Record([("a", .integer(1))])])
        #expect(try JSONTest.records("\u{FEFF}{\"a\":1}\n", layout: .lines) == [Record([("a", .integer(1))])])
    }

    @Test func linesSkipBlankLines() throws {
        let text = "\n\n{\"a\":1}\r\n   \n\t\n{\"a\":2}   \n\n\n{\"b\":3}"
        let records = try JSONTest.records(text, layout: .lines)
        #expect(records == [Record([("a", .integer(1))]), Record([("a", .integer(2))]), Record([("b", .integer(3))])])
        #expect(records.map(\.origin.index) == [0, 1, 2])
    }

    @Test func emptyLinesInputHasNoRecords() throws {
        #expect(try JSONTest.records("", layout: .lines).isEmpty)
        #expect(try JSONTest.records("\n \n", layout: .lines).isEmpty)
    }

    @Test(arguments: [
        ("{\"a\":1} {\"b\":2}", 1, 9),
        ("{\"a\":1}\n{\"b\":2}{\"c\":3}\n", 2, 8),
        ("{\"a\":1}\n[1]]\n", 2, 4),
    ])
    func linesNeedALineBreakBetweenValues(_ text: String, line: Int, column: Int) throws {
        let error = try #require(JSONTest.readError(text, layout: .lines))
        #expect(error.code == .jsonExpectedNewline || error.code == .formatNotRecords)
        if text.contains("[") {
            #expect(error.code == .formatNotRecords)
        } else {
            #expect(error.code == .jsonExpectedNewline)
            #expect(error.place == [line, column])
        }
        #expect(JSONTest.lintError(text, codec: JSONLinesCodec())?.code == .jsonExpectedNewline)
    }

    @Test func linesLintAcceptsAnyValues() throws {
        #expect(JSONTest.lintError("1\n\"two\"\n[3]\nnull\n{\"a\":5}\n", codec: JSONLinesCodec()) == nil)
        let reader = try JSONLinesCodec().makeReader(MemoryInput("{\"a\":1}\n2\n"), context: ReadContext())
        #expect(try reader.next() != nil)
        let error = try #require(throws: FerryError.self) { try reader.next() }
        #expect(error.code == .formatNotRecords)
        #expect(error.place == [2, 1])
        #expect(error.location.record == 1)
    }

    @Test func documentCodecDoesNotReadLines() throws {
        let error = try #require(JSONTest.readError("{\"a\":1}\n{\"a\":2}\n"))
        #expect(error.code == .jsonTrailingData)
        #expect(error.place == [2, 1])
    }

    @Test func sniffing() {
        #expect(JSONCodec().sniff(Array("  [".utf8)) == .likely)
        #expect(JSONCodec().sniff(Array("{".utf8)) == .possible)
        #expect(JSONLinesCodec().sniff(Array("{\"a\":1}\n{\"a\":2}".utf8)) == .likely)
        #expect(JSONLinesCodec().sniff(Array("{\"a\":1}".utf8)) == .possible)
        #expect(JSONLinesCodec().sniff(Array("[".utf8)) == .no)
        #expect(JSONCodec().sniff(Array("name,price".utf8)) == .no)
    }

    @Test func standardRegistryKnowsBoth() {
        let registry = CodecRegistry.standard
        #expect(registry.codec(id: "json")?.id == "json")
        #expect(registry.codec(forPath: "a/b.ndjson")?.id == "jsonl")
        #expect(registry.codec(forPath: "b.JSONL")?.id == "jsonl")
        #expect(registry.codec(forPath: "b.json")?.id == "json")
    }
}
