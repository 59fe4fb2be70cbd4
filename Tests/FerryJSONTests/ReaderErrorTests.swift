import FerryJSON
import FerryKit
import Testing

/// Malformed documents: the code, the line and column, the record; and a
/// reader that has failed stays failed.
@Suite struct ReaderErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let text: String
        let code: String
        let line: Int
        let column: Int
        /// The record index; not checked for data after the last record.
        let record: Int?
        var layout: JSONReader.Layout = .document

        var checksRecord: Bool { code != "json.trailingData" }

        var testDescription: String { text.debugDescription }
    }

    static let cases = [
        Case(text: "[{\"a\":1}\n,{\"a\":tru}]", code: "json.unexpectedCharacter", line: 2, column: 10, record: 1),
        Case(text: "[{\"a\":1}\n,{\"a\":tru", code: "json.unexpectedEnd", line: 2, column: 10, record: 1),
        Case(text: "[{\"a\":1} {\"a\":2}]", code: "json.unexpectedCharacter", line: 1, column: 10, record: 1),
        Case(text: "[{\"a\":1},]", code: "json.unexpectedCharacter", line: 1, column: 10, record: 1),
        Case(text: "[{\"a\" 1}]", code: "json.unexpectedCharacter", line: 1, column: 7, record: 0),
        Case(text: "[{a:1}]", code: "json.unexpectedCharacter", line: 1, column: 3, record: 0),
        Case(text: "[{\"a\":1,}]", code: "json.unexpectedCharacter", line: 1, column: 9, record: 0),
        Case(text: "[{\"a\":[1,2}]", code: "json.unexpectedCharacter", line: 1, column: 11, record: 0),
        Case(text: "[{\"a\":'x'}]", code: "json.unexpectedCharacter", line: 1, column: 7, record: 0),
        Case(text: "{\"a\":1}\n{\"b\":2}", code: "json.trailingData", line: 2, column: 1, record: nil),
        Case(text: "[{\"a\":1}]\n\n  ]", code: "json.trailingData", line: 3, column: 3, record: nil),
        Case(text: "", code: "json.empty", line: 1, column: 1, record: nil),
        Case(text: " \n\t\r\n ", code: "json.empty", line: 3, column: 2, record: nil),
        Case(text: "[", code: "json.unexpectedEnd", line: 1, column: 2, record: 0),
        Case(text: "\u{FEFF}[{\"é\":1}, x]", code: "json.unexpectedCharacter", line: 1, column: 11, record: 1),
        Case(text: "[{\"a\":1}]\r\n[{\"b\":\n2}]", code: "json.trailingData", line: 2, column: 1, record: nil),
        Case(text: "{\"a\":1}\n{\"a\":nul}\n", code: "json.unexpectedCharacter", line: 2, column: 9, record: 1, layout: .lines),
        Case(text: "{\"a\":1}\n\n\n{\"a\":1", code: "json.unexpectedEnd", line: 4, column: 7, record: 1, layout: .lines),
    ]

    @Test(arguments: cases)
    func malformed(_ check: Case) throws {
        let error = try #require(JSONTest.readError(Array(check.text.utf8), layout: check.layout))
        #expect(error.code.rawValue == check.code)
        #expect(error.location.line == check.line)
        #expect(error.location.column == check.column)
        if check.checksRecord { #expect(error.location.record == check.record) }
        #expect(error.location.file == "-")
        #expect(error.location.byteOffset != nil)
    }

    @Test(arguments: cases)
    func lintFindsTheSameProblem(_ check: Case) throws {
        let codec: any Codec = check.layout == .lines ? JSONLinesCodec() : JSONCodec()
        let error = try #require(JSONTest.lintError(check.text, codec: codec))
        #expect(error.code.rawValue == check.code)
        #expect(error.place == [check.line, check.column])
    }

    @Test func errorIsSticky() throws {
        let reader = JSONReader(MemoryInput("[{\"a\":1}\n,{\"a\":tru},{\"a\":3}]", name: "in.json"), layout: .document)
        #expect(try reader.next()?["a"] == .integer(1))
        let first = try #require(throws: FerryError.self) { try reader.next() }
        #expect(first.code == .jsonUnexpectedCharacter)
        #expect(first.location.file == "in.json")
        #expect(first.place == [2, 10])
        for _ in 0..<3 {
            let again = try #require(throws: FerryError.self) { try reader.next() }
            #expect(again == first)
        }
    }

    @Test func stickyAfterChunkedFailure() throws {
        let bytes = Array("{\"a\":1}\n{\"a\":2} {\"a\":3}\n{\"a\":4}\n".utf8)
        let reader = JSONReader(trickleInput(bytes, seed: 5), layout: .lines)
        #expect(try reader.next()?["a"] == .integer(1))
        let first = try #require(throws: FerryError.self) {
            while try reader.next() != nil {}
        }
        #expect(first.code == .jsonExpectedNewline)
        #expect(first.place == [2, 9])
        #expect(throws: first) { try reader.next() }
    }

    @Test func endStaysEnded() throws {
        let reader = JSONReader(MemoryInput("[{\"a\":1}]"), layout: .document)
        #expect(try reader.next() != nil)
        #expect(try reader.next() == nil)
        #expect(try reader.next() == nil)
    }

    @Test func recordOriginsPointAtTheirBraces() throws {
        let records = try JSONTest.records("[\n  {\"a\":1},\n  {\"a\":2}\n]")
        #expect(records.map(\.origin.index) == [0, 1])
        #expect(records.map(\.origin.byteOffset) == [4, 15])
        let reader = JSONReader(MemoryInput("[\n  {\"a\":1},\n  {\"a\":2}\n]"), layout: .document)
        _ = try reader.next()
        let second = try #require(try reader.next())
        let location = reader.location(ofByteOffset: second.origin.byteOffset)
        #expect([location.line, location.column] == [3, 3])
    }
}
