import Foundation
import FerryJSON
import FerryKit
import Testing

/// Reading in tiny chunks, with refills inside every kind of token, gives
/// exactly what reading the whole buffer gives: records, and errors with
/// their locations.
@Suite struct StreamingTests {
    static let document: String = {
        var text = "\u{FEFF}[\r\n"
        for index in 0..<60 {
            if index > 0 { text += index % 3 == 0 ? ",\r\n" : " ,\n\t" }
            text += "{\"name\":\"item \(index) café 😀 \\\"q\\\" \\u00e9\\ud83d\\ude00 \\n\",\"price\":\(index).\(index % 10)9,"
            text += "\"count\":\(Int64.max - Int64(index)),\"neg\":-\(index)e-\(index % 9),\"ok\":\(index % 2 == 0),"
            text += "\"nested\":{\"list\":[null,[],{},[\(index),\"\u{2028}\"]],\"empty\":\"\"},\"\\u006Bey\":\(index)}"
        }
        return text + "\r\n]\r\n"
    }()

    static let seeds: [UInt64] = [1, 2, 3, 42, 1_000, 0xDEAD_BEEF, 77_777, 123_456_789]

    static var lines: String {
        let whole = (try? JSONTest.records(document)) ?? []
        return (try? String(decoding: JSONTest.write(whole, style: .lines), as: UTF8.self)) ?? ""
    }

    @Test(arguments: seeds)
    func documentInChunks(seed: UInt64) throws {
        let bytes = Array(Self.document.utf8)
        let whole = try JSONTest.records(MemoryInput(bytes), layout: .document)
        #expect(whole.count == 60)
        let chunked = try JSONTest.records(trickleInput(bytes, seed: seed), layout: .document)
        #expect(chunked == whole)
        #expect(chunked.map(\.origin) == whole.map(\.origin))
    }

    @Test(arguments: seeds)
    func linesInChunks(seed: UInt64) throws {
        let text = "\n\r\n" + Self.lines.replacingOccurrences(of: "}\n{", with: "}\r\n\n  \t{") + "\n\n"
        let bytes = Array(text.utf8)
        let whole = try JSONTest.records(MemoryInput(bytes), layout: .lines)
        #expect(whole.count == 60)
        #expect(try JSONTest.records(trickleInput(bytes, seed: seed), layout: .lines) == whole)
    }

    /// Broken inputs whose errors come after many refills and line ends
    /// (LF, CRLF and lone CR, split across chunks).
    static let broken: [(String, JSONReader.Layout)] = [
        (document.replacingOccurrences(of: "\"price\":59.99", with: "\"price\":59.x9"), .document),
        (document.replacingOccurrences(of: "item 50", with: "item \u{1}50"), .document),
        (document.replacingOccurrences(of: "\"ok\":false,\"nested\":{\"list\":[null,[],{},[55", with: "\"ok\":fals,"), .document),
        (String(document.dropLast(8)), .document),
        (document.replacingOccurrences(of: "\r\n", with: "\r") + "x", .document),
        (lines.replacingOccurrences(of: "}\n{\"name\":\"item 40", with: "}\r\n\r{\"name\":\"item 40\\z"), .lines),
        (lines.replacingOccurrences(of: "}\n{\"name\":\"item 30", with: "} {\"name\":\"item 30"), .lines),
    ]

    @Test(arguments: 0..<broken.count)
    func errorsInChunksMatchWholeBuffer(_ index: Int) throws {
        let (text, layout) = Self.broken[index]
        let bytes = Array(text.utf8)
        let whole = try #require(JSONTest.readError(bytes, layout: layout), "case \(index) read cleanly")
        #expect(whole.location.line != nil && whole.location.column != nil)
        for seed in Self.seeds {
            let chunked = try #require(JSONTest.readError(bytes, layout: layout, chunkSeed: seed))
            #expect(chunked == whole, "case \(index), seed \(seed)")
        }
    }

    @Test func brokenCasesAreWhereExpected() throws {
        let codes = Self.broken.map { JSONTest.readError(Array($0.0.utf8), layout: $0.1)?.code.rawValue }
        let expected: [String?] = [
            "json.invalidNumber", "json.controlCharacter", "json.unexpectedCharacter", "json.unexpectedEnd",
            "json.trailingData", "json.invalidEscape", "json.expectedNewline",
        ]
        #expect(codes == expected)
        let unexpected = try #require(JSONTest.readError(Array(Self.broken[2].0.utf8)))
        #expect(unexpected.location.record == 55)
    }

    @Test func loneCarriageReturnsReadCleanly() throws {
        let text = Self.document.replacingOccurrences(of: "\r\n", with: "\r")
        let whole = try JSONTest.records(text)
        #expect(whole.count == 60)
        #expect(try JSONTest.records(trickleInput(Array(text.utf8), seed: 9), layout: .document) == whole)
    }

    @Test func loneCarriageReturnsEndLines() throws {
        let error = try #require(JSONTest.readError("[\r{\"a\":1},\r\r{\"a\":?}]"))
        #expect(error.place == [4, 6])
        for seed in Self.seeds {
            #expect(JSONTest.readError(Array("[\r{\"a\":1},\r\r{\"a\":?}]".utf8), chunkSeed: seed)?.place == [4, 6])
        }
    }
}
