import Foundation
import Ferry
import FerryMarkdown
import Testing

/// The registry a plugin builds: Ferry's codecs plus this one.
let pluginRegistry = CodecRegistry.standard.registering(MarkdownTableCodec())

/// `Examples/` in the Ferry checkout this package sits in.
let examplesDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // FerryMarkdownTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // PluginCodec
    .deletingLastPathComponent()  // Examples
    .path

/// A fresh folder for one test's files, removed by `remove()`.
struct TemporaryFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-md-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }

    func read(_ name: String) throws -> String {
        try String(contentsOfFile: path + "/" + name, encoding: .utf8)
    }
}

@Suite struct MarkdownRegistrationTests {
    @Test func registryKnowsTheCodec() throws {
        let codec = try #require(pluginRegistry.codec(id: "markdown"))
        #expect(codec.extensions == ["md", "markdown"])
        #expect(codec.capabilities == .write)
        #expect(pluginRegistry.codec(forPath: "out/products.md")?.id == "markdown")
        #expect(pluginRegistry.codec(forPath: "README.MARKDOWN")?.id == "markdown")
        // Ferry's own codecs are still there.
        #expect(pluginRegistry.codec(id: "json") != nil)
        #expect(pluginRegistry.codec(id: "jsonl") != nil)
        #expect(CodecRegistry.standard.codec(id: "markdown") == nil)
    }

    @Test func neverClaimsAnInput() {
        for prefix in ["| a |\n| --- |\n", "# Title\n", "[{\"a\":1}]", ""] {
            #expect(MarkdownTableCodec().sniff(Array(prefix.utf8)) == .no)
        }
        #expect(pluginRegistry.sniff(Array("| a |\n".utf8)) == nil)
    }

    @Test func cannotRead() {
        let error = #expect(throws: FerryError.self) {
            _ = try MarkdownTableCodec().makeReader(MemoryInput("| a |"), context: ReadContext())
        }
        #expect(error?.code == .formatCannotRead)
        #expect(error?.arguments == [.string("markdown")])
    }

    /// Ferry's catalogs do not know the codec's codes; the codec brings their text.
    @Test func catalogKnowsTheCodecsMessages() {
        #expect(Messages.builtInTables["en"]?[FerryError.Code.markdownNoColumns.rawValue] == nil)
        let catalog = Messages.catalog(locale: "en", registry: pluginRegistry)
        for key in MarkdownTableCodec().messages.keys {
            #expect(catalog.template(key) != nil, "no template for \(key)")
        }
        #expect(MarkdownTableCodec().messages.keys.contains(FerryError.Code.markdownNoColumns.rawValue))
        // Once the codec is in a registry, its errors describe themselves in
        // every language, in its English where it brings no translation.
        #expect(FerryError.markdownNoColumns(record: 0).description(language: "de").contains("a Markdown table needs"))
    }
}

@Suite struct MarkdownConversionTests {
    @Test func convertsTheSeedProductsIntoAFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let summary = try Converter(registry: pluginRegistry)
            .convert(examplesDirectory + "/products.json", to: folder.path + "/products.md", options: ConversionOptions())
        #expect(summary.inputFormat == "json")
        #expect(summary.outputFormat == "markdown")
        #expect(summary.kind == .product)
        #expect(summary.records == 3)
        #expect(try folder.read("products.md") == seedProductsTable)
    }

    @Test func toMarkdownOverridesTheExtension() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var options = ConversionOptions()
        options.to = "markdown"
        let summary = try Converter(registry: pluginRegistry)
            .convert(examplesDirectory + "/books.jsonl", to: folder.path + "/books.txt", options: options)
        #expect(summary.outputFormat == "markdown")
        let lines = try folder.read("books.txt").split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "| title | author | description | pages | readThisBook | price | isbn |")
        #expect(lines[1] == "| --- | --- | --- | --- | --- | --- | --- |")
        #expect(lines.count == summary.records + 3)  // header, separator, rows, final empty piece
        #expect(lines.last == "")
    }

    @Test func inlinePhotosBecomeByteCountsWhenEmbedded() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var options = ConversionOptions()
        options.embedPhotos = true
        _ = try Converter(registry: pluginRegistry)
            .convert(examplesDirectory + "/products.json", to: folder.path + "/products.md", options: options)
        let rows = try folder.read("products.md").split(separator: "\n").dropFirst(2)
        #expect(rows.count == 3)
        for row in rows {
            #expect(row.wholeMatch(of: /\| [^|]+ \| [0-9.]+ \| \([0-9]+ bytes\) \|/) != nil, "\(row)")
        }
    }

    @Test func failedConversionLeavesNoFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try "[{}]".write(toFile: folder.path + "/empty.json", atomically: false, encoding: .utf8)
        let error = #expect(throws: FerryError.self) {
            _ = try Converter(registry: pluginRegistry)
                .convert(folder.path + "/empty.json", to: folder.path + "/out.md", options: ConversionOptions())
        }
        #expect(error?.code == .markdownNoColumns)
        #expect(error?.location.record == 0)
        #expect(error?.location.file == folder.path + "/empty.json")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["empty.json"])
    }
}

// MARK: - The ferry-md binary

/// Runs the `ferry-md` built next to this test binary.
func runFerryMD(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let process = Process()
    process.executableURL = ferryMDExecutable
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: examplesDirectory)
    process.environment = ["LANG": "C"]
    let out = URL(fileURLWithPath: folder.path + "/out")
    let err = URL(fileURLWithPath: folder.path + "/err")
    try Data().write(to: out)
    try Data().write(to: err)
    process.standardOutput = try FileHandle(forWritingTo: out)
    process.standardError = try FileHandle(forWritingTo: err)
    try process.run()
    process.waitUntilExit()
    return (process.terminationStatus, try folder.read("out"), try folder.read("err"))
}

/// The products of this package are built into the folder of the test binary.
let ferryMDExecutable: URL = {
    let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    return testBinary.deletingLastPathComponent().appendingPathComponent("ferry-md")
}()

@Suite struct FerryMDCommandTests {
    @Test func binaryIsBuilt() {
        #expect(FileManager.default.isExecutableFile(atPath: ferryMDExecutable.path), "\(ferryMDExecutable.path)")
    }

    @Test func formatsListsMarkdown() throws {
        let result = try runFerryMD(["formats"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let rows = result.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        #expect(rows.contains(["markdown", ".md", ".markdown", "no", "yes"]))
        #expect(rows.contains { $0.first == "json" })
    }

    @Test func convertsToStandardOutput() throws {
        let result = try runFerryMD(["convert", "products.json", "-", "--to", "markdown"])
        #expect(result.status == 0)
        #expect(result.stdout == seedProductsTable)
        #expect(result.stderr == "")
    }

    @Test func cannotLintMarkdown() throws {
        let result = try runFerryMD(["lint", "products.json", "--from", "markdown"])
        #expect(result.status == 2)
        // lint reports on standard output, as validate does.
        #expect(result.stdout.contains("[format.cannotRead]"))
    }

    @Test func reportsTheCodecsOwnError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try "[{}]".write(toFile: folder.path + "/empty.json", atomically: false, encoding: .utf8)
        let result = try runFerryMD(["convert", folder.path + "/empty.json", "--to", "markdown"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix(folder.path + "/empty.json:"))
        #expect(result.stderr.hasSuffix("(record 1) [markdown.noColumns]\n"))
        // The message came from the codec's template, not the bare code.
        #expect(!result.stderr.contains("error: markdown.noColumns"))
    }
}
