import FerryKit
import Foundation
import Testing

/// One rule for empty inputs, over every codec that reads: a 0-byte input
/// holds zero records; `convert` writes an empty dataset and exits 0, and
/// every command warns `format.emptyInput` at the file.
@Suite struct EmptyInputTests {
    static let readable = CodecRegistry.standard.codecs.filter { $0.capabilities.contains(.read) }.map(\.id)

    /// The name of an empty file of format `id`, by its extension when it
    /// has one, else with `--from`.
    static func emptyFile(_ id: String, in folder: ScratchFolder, gzip: Bool = false) throws -> (String, [String]) {
        let codec = try #require(CodecRegistry.standard.codec(id: id))
        let name = "empty" + (codec.extensions.first.map { "." + $0 } ?? "") + (gzip ? ".gz" : "")
        return (try folder.write(name, [UInt8]()), codec.extensions.isEmpty ? ["--from", id] : [])
    }

    @Test func everyStandardFormatIsCovered() {
        #expect(Set(Self.readable) == ["json", "jsonl", "csv", "tsv", "plist", "plist-xml", "archive", "bundle", "xlsx"])
    }

    @Test(arguments: readable, [false, true])
    func convertWritesAnEmptyDataset(_ id: String, gzip: Bool) throws {
        let folder = try ScratchFolder()
        let (input, from) = try Self.emptyFile(id, in: folder, gzip: gzip)
        let result = try Ferry.run(["convert", input, folder.path("out.json")] + from)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.diagnostics.map(\.code) == ["format.emptyInput"], "\(result.err)")
        #expect(result.diagnostics.first?.severity == "warning")
        #expect(result.diagnostics.first?.file == input)
        let output = try String(contentsOfFile: folder.path("out.json"), encoding: .utf8)
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    /// A gzip stream whose content is empty is the same as an empty file.
    @Test func gzipOfNothingIsEmpty() throws {
        let folder = try ScratchFolder()
        let compressed = MemoryOutput()
        let gzip = try GzipOutput(compressed, level: 6)
        try gzip.finish()
        let input = try folder.write("empty.json.gz", compressed.bytes)
        let result = try Ferry.run(["convert", input, folder.path("out.jsonl")])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.diagnostics.map(\.code) == ["format.emptyInput"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path("out.jsonl"))).isEmpty)
    }

    @Test(arguments: readable, ["validate", "lint", "inspect"])
    func readingCommandsWarnAndSucceed(_ id: String, command: String) throws {
        let folder = try ScratchFolder()
        let (input, from) = try Self.emptyFile(id, in: folder)
        let result = try Ferry.run([command, input] + from)
        #expect(result.status == 0, "\(result.out)\(result.err)")
        #expect(result.diagnostics.map(\.code) == ["format.emptyInput"], "\(result.out)\(result.err)")
        #expect(result.diagnostics.first?.file == input)
    }

    @Test func mergeTakesNothingFromAnEmptyInput() throws {
        let folder = try ScratchFolder()
        let empty = try folder.write("empty.csv", [UInt8]())
        let full = try folder.write("one.jsonl", "{\"name\":\"Wii\",\"price\":269}\n")
        let result = try Ferry.run(["merge", empty, full, "-o", folder.path("out.jsonl")])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.diagnostics.map(\.code) == ["format.emptyInput"], "\(result.err)")
        let output = try String(contentsOfFile: folder.path("out.jsonl"), encoding: .utf8)
        #expect(output == "{\"name\":\"Wii\",\"price\":269}\n")
    }

    /// `add` to an empty file writes the file anew in its format.
    @Test func addToAnEmptyJSONFile() throws {
        let folder = try ScratchFolder()
        let empty = try folder.write("products.json", [UInt8]())
        let listed = try Ferry.run(["list", empty])
        #expect(listed.status == 0, "\(listed.err)")
        let added = try Ferry.run(["add", empty, "--set", "name=Wii", "--set", "price=269"])
        #expect(added.status == 0, "\(added.err)")
        let converted = try Ferry.run(["convert", empty, "--to", "jsonl", "-"])
        #expect(converted.out == "{\"name\":\"Wii\",\"price\":269}\n", "\(converted.err)")
    }
}
