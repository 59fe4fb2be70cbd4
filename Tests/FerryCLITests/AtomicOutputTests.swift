import Foundation
import Testing

/// A failed conversion leaves an existing output as it was and leaves no
/// temporary file behind; an existing output needs `--force`.
@Suite struct AtomicOutputTests {
    struct BrokenInput: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]
        let code: String
        let line: Int
        let column: Int
        let record: Int

        var testDescription: String { name }
    }

    static let brokenInputs = [
        BrokenInput(
            name: "truncated", bytes: Array(#"[{"name":"a","price":1},{"name":"b""#.utf8),
            code: "json.unexpectedEnd", line: 1, column: 36, record: 2),
        BrokenInput(
            name: "truncated on line 3", bytes: Array("[\n{\"name\":\"a\",\"price\":1},\n{\"name\":\"b\",\"pri".utf8),
            code: "json.unexpectedEnd", line: 3, column: 17, record: 2),
        BrokenInput(
            name: "invalid UTF-8", bytes: Array(#"[{"name":"a","price":1},"#.utf8) + [0x0A] + Array(#"{"name":"é"#.utf8) + [0xFF]
                + Array(#"b","price":2}]"#.utf8),
            code: "json.invalidUTF8", line: 2, column: 11, record: 2),
        BrokenInput(
            name: "invalid UTF-8 first", bytes: [UInt8](#"[{"name":"a"#.utf8) + [0xC3, 0x28] + Array(#""}]"#.utf8),
            code: "json.invalidUTF8", line: 1, column: 12, record: 1),
    ]

    static let original = Array("the existing output\n".utf8)

    @Test(arguments: brokenInputs)
    func failedConversionKeepsTheExistingOutput(_ broken: BrokenInput) throws {
        let folder = try ScratchFolder()
        let input = try folder.write("in.json", broken.bytes)
        let output = try folder.write("out.json", Self.original)
        let result = try Ferry.run(["convert", input, output, "--force"])
        #expect(result.status == 1)
        let diagnostic = try #require(result.diagnostics.first, "\(result.err)")
        #expect(diagnostic.code == broken.code)
        #expect(diagnostic.file == input)
        #expect(diagnostic.line == broken.line)
        #expect(diagnostic.column == broken.column)
        #expect(diagnostic.record == broken.record)
        #expect(try folder.read("out.json") == Self.original)
        #expect(try folder.contents() == ["in.json", "out.json"], "a temporary file was left behind")
    }

    @Test(arguments: brokenInputs)
    func failedConversionCreatesNoOutput(_ broken: BrokenInput) throws {
        let folder = try ScratchFolder()
        let input = try folder.write("in.json", broken.bytes)
        let result = try Ferry.run(["convert", input, folder.path("out.jsonl")])
        #expect(result.status == 1)
        #expect(result.diagnostics.first?.code == broken.code)
        #expect(try folder.contents() == ["in.json"])
    }

    @Test func existingOutputNeedsForce() throws {
        let folder = try ScratchFolder()
        let output = try folder.write("out.json", Self.original)
        let result = try Ferry.run(["convert", TestPaths.example("products.json"), output])
        #expect(result.status == 3)
        let diagnostic = try #require(result.diagnostics.first, "\(result.err)")
        #expect(diagnostic.code == "io.outputExists")
        #expect(diagnostic.file == output)
        #expect(try folder.read("out.json") == Self.original)
        #expect(try folder.contents() == ["out.json"])
    }

    @Test func forceReplacesTheOutput() throws {
        let folder = try ScratchFolder()
        let output = try folder.write("out.jsonl", Self.original)
        let result = try Ferry.run(["convert", TestPaths.example("books.json"), output, "--force"])
        #expect(result.status == 0, "\(result.err)")
        let expected = try Data(contentsOf: TestPaths.examples.appendingPathComponent("books.jsonl"))
        #expect(try folder.read("out.jsonl") == [UInt8](expected))
        #expect(try folder.contents() == ["out.jsonl"])
    }

    @Test func outputThatIsAFolderIsRefused() throws {
        let folder = try ScratchFolder()
        try FileManager.default.createDirectory(atPath: folder.path("out.json"), withIntermediateDirectories: false)
        let result = try Ferry.run(["convert", TestPaths.example("products.json"), folder.path("out.json"), "--force"])
        #expect(result.status == 3)
        #expect(result.diagnostics.first?.code == "io.isDirectory")
        #expect(try folder.contents() == ["out.json"])
    }
}
