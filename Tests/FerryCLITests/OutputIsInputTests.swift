import Foundation
import Testing

/// An output that is one of the inputs (the same file by device and inode,
/// through a symbolic or a hard link too) is refused in every subcommand
/// that writes one, before anything is read or written: `validate a.json
/// -o a.json --force` replaced the data with its report.
@Suite struct OutputIsInputTests {
    static let data = "[{\"sku\": \"A-1\", \"name\": \"Widget\", \"price\": 1}]\n"

    /// Each command line, with `{}` for the input's other name: the file
    /// itself, a symbolic link to it, or a hard link.
    static let commands: [[String]] = [
        ["validate", "a.json", "-o", "{}", "--force"],
        ["validate", "a.json", "--report-file", "{}", "--force", "--report-format", "json"],
        ["lint", "a.json", "-o", "{}", "--force"],
        ["merge", "a.json", "b.json", "-o", "{}", "--force"],
        ["merge", "b.json", "a.json", "-o", "m.json", "--report-file", "{}", "--force"],
        ["convert", "a.json", "{}", "--force", "--to", "json"],
    ]

    @Test(arguments: commands, ["a.json", "link.json", "hard.json"])
    func anOutputThatIsAnInputIsRefused(_ command: [String], name: String) throws {
        let folder = try ScratchFolder()
        try folder.write("a.json", Self.data)
        try folder.write("b.json", Self.data)
        try FileManager.default.createSymbolicLink(atPath: folder.path("link.json"), withDestinationPath: "a.json")
        try FileManager.default.linkItem(atPath: folder.path("a.json"), toPath: folder.path("hard.json"))
        let arguments = command.map { $0 == "{}" ? name : $0 }
        let result = try Ferry.run(arguments, in: folder.url, environment: ["LANG": "C"])
        #expect(result.status == 2, "\(result.err)")
        let diagnostic = try #require(result.diagnostics.first, "\(result.err)")
        #expect(diagnostic.code == "output.isInput")
        #expect(diagnostic.file == name)
        #expect(try folder.contents() == ["a.json", "b.json", "hard.json", "link.json"])
        #expect(try folder.read("a.json") == Array(Self.data.utf8))
    }

    /// A file an option reads (a schema) is an input too.
    @Test func aReportOverTheSchemaIsRefused() throws {
        let folder = try ScratchFolder()
        try folder.write("a.json", Self.data)
        let schema = "{\"type\": \"object\", \"required\": [\"sku\"]}\n"
        try folder.write("s.json", schema)
        let result = try Ferry.run(["validate", "a.json", "--schema", "s.json", "-o", "s.json", "--force"], in: folder.url)
        #expect(result.status == 2, "\(result.err)")
        #expect(result.diagnostics.first?.code == "output.isInput", "\(result.err)")
        #expect(try folder.read("s.json") == Array(schema.utf8))
    }

    /// Another file, and standard output, are written as before.
    @Test func otherOutputsAreWritten() throws {
        let folder = try ScratchFolder()
        try folder.write("a.json", Self.data)
        let report = try Ferry.run(["validate", "a.json", "-o", "r.txt"], in: folder.url)
        #expect(report.status == 0, "\(report.err)")
        let converted = try Ferry.run(["convert", "a.json", "-", "--to", "jsonl"], in: folder.url)
        #expect(converted.status == 0, "\(converted.err)")
    }
}
