import FerryKit
import Foundation
import Testing

/// Hostile nesting and oversized records end in a located `limit.*` error,
/// never a crash.
@Suite struct LimitTests {
    static let depth = 100_000

    @Test func deepArraysFailLint() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("deep.json", String(repeating: "[", count: Self.depth))
        let result = try Ferry.run(["lint", input])
        try #require(!result.signaled && !result.timedOut, "ferry crashed or hung: \(result.err)")
        #expect(result.status == 1)
        let diagnostic = try #require(result.diagnostics.first, "\(result.err)")
        #expect(diagnostic.code == "limit.nestingTooDeep")
        // The 513th bracket is one too deep for the default limit of 512.
        #expect(diagnostic.line == 1)
        #expect(diagnostic.column == 513)
    }

    @Test func deepArraysFailConversion() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("deep.json", String(repeating: "[", count: Self.depth))
        let result = try Ferry.run(["convert", input, folder.path("out.json")])
        try #require(!result.signaled && !result.timedOut, "ferry crashed or hung: \(result.err)")
        #expect(result.status == 1)
        // The first element is an array, not a record: that is found before the depth.
        let diagnostic = try #require(result.diagnostics.first, "\(result.err)")
        #expect(["format.notRecords", "limit.nestingTooDeep"].contains(diagnostic.code))
        #expect(diagnostic.line == 1 && diagnostic.column != nil)
        #expect(try folder.contents() == ["deep.json"])
    }

    @Test(arguments: ["json", "jsonl"])
    func deepObjectsInsideARecord(_ format: String) throws {
        let folder = try ScratchFolder()
        let prefix = #"{"name":"x","price":1,"deep":"#
        var text = format == "json" ? "[" + prefix : prefix
        text += String(repeating: #"{"a":"#, count: Self.depth)
        let input = try folder.write("deep.\(format)", text)
        let result = try Ferry.run(["convert", input, folder.path("out.json")])
        try #require(!result.signaled && !result.timedOut, "ferry crashed or hung: \(result.err)")
        #expect(result.status == 1)
        let diagnostic = try #require(result.diagnostics.first, "\(result.err)")
        #expect(diagnostic.code == "limit.nestingTooDeep")
        #expect(diagnostic.line == 1 && diagnostic.column != nil)
        #expect(diagnostic.record == 1)
        #expect(try folder.contents() == ["deep.\(format)"])
    }

    @Test func deepNestingAfterManyLines() throws {
        let folder = try ScratchFolder()
        var text = String(repeating: "{\"name\":\"ok\",\"price\":1}\n", count: 3)
        text += "{\"name\":\"deep\",\"price\":1,\"x\":" + String(repeating: "[", count: Self.depth)
        let input = try folder.write("deep.jsonl", text)
        let result = try Ferry.run(["lint", input])
        try #require(!result.signaled && !result.timedOut, "ferry crashed or hung: \(result.err)")
        #expect(result.status == 1)
        let diagnostic = try #require(result.diagnostics.first, "\(result.err)")
        #expect(diagnostic.code == "limit.nestingTooDeep")
        #expect(diagnostic.line == 4)
        #expect(diagnostic.record == 4)
    }

    @Test func maxDepthOption() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("three.json", "[[[1]]]")
        #expect(try Ferry.run(["lint", "--max-depth", "3", input]).status == 0)
        let result = try Ferry.run(["lint", "--max-depth", "2", input])
        #expect(result.status == 1)
        let diagnostic = try #require(result.diagnostics.first, "\(result.err)")
        #expect(diagnostic.code == "limit.nestingTooDeep")
        #expect(diagnostic.line == 1 && diagnostic.column == 3)
        #expect(try Ferry.run(["lint", "--max-depth", "0", input]).status == 2)
    }

    // MARK: - Record size

    static func bigRecords(blob: Int) -> String {
        "[{\"name\":\"a\",\"price\":1},\n {\"name\":\"b\",\"price\":1,\"blob\":\"" + String(repeating: "x", count: blob) + "\"}]"
    }

    @Test func recordOverTheSizeLimit() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("big.json", Self.bigRecords(blob: 3_000_000))
        for command in ["lint", "convert"] {
            let result = try Ferry.run([command, "--max-record-bytes", "2000000", input])
            #expect(result.status == 1)
            let diagnostic = try #require(result.diagnostics.first, "\(result.err)")
            #expect(diagnostic.code == "limit.recordTooLarge")
            // Between the first record's end and the big one's brace.
            let place = [diagnostic.line, diagnostic.column]
            #expect([[1, 24], [2, 1], [2, 2]].contains(place), "at \(place)")
        }
        let larger = try Ferry.run(["convert", "--max-record-bytes", "4000000", "--compact", input])
        #expect(larger.status == 0, "\(larger.err)")
        #expect(larger.stdout.count > 3_000_000)
    }

    @Test
    func smallRecordSizeLimitIsHonoured() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("big.json", Self.bigRecords(blob: 10_000))
        let result = try Ferry.run(["lint", "--max-record-bytes", "1000", input])
        #expect(result.status == 1)
        #expect(result.diagnostics.first?.code == "limit.recordTooLarge")
    }

    @Test func invalidLimitIsAUsageError() throws {
        for value in ["0", "-5", "ten"] {
            let result = try Ferry.run(["lint", "--max-record-bytes", value, TestPaths.example("books.json")])
            #expect(result.status == 2, "--max-record-bytes \(value)")
            #expect(result.diagnostics.first?.code == "usage.invalidValue")
        }
    }

    /// 100 MB of NULs gzip'd (about 100 KB) as JSON Lines: refused at its
    /// first byte, in every command that reads records, never buffered.
    @Test(arguments: ["convert", "validate", "lint"])
    func gzipOfNULsIsRefusedAtTheFirstByte(_ command: String) throws {
        let folder = try ScratchFolder()
        let compressed = MemoryOutput()
        let gzip = try GzipOutput(compressed, level: 1)
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        for _ in 0..<100 { try zeros.withUnsafeBytes { try gzip.write($0) } }
        try gzip.finish()
        let input = try folder.write("zeros.jsonl.gz", compressed.bytes)
        var arguments = [command, input]
        if command == "convert" { arguments.append(folder.path("out.json")) }
        let result = try Ferry.run(arguments)
        try #require(!result.signaled && !result.timedOut, "ferry crashed or hung: \(result.err)")
        #expect(result.status == 1)
        let diagnostic = try #require(result.diagnostics.first, "\(result.err)")
        #expect(diagnostic.code == "json.nullByte")
        #expect(diagnostic.file == input)
        #expect([diagnostic.line, diagnostic.column] == [1, 1])
    }
}
