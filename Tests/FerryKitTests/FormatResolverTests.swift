import Testing

@testable import FerryKit

@Suite struct FormatResolverTests {
    let resolver = FormatResolver(registry: .standard)

    func input(_ path: String, _ text: String, from: String? = nil) throws(FerryError) -> String {
        try resolver.inputCodec(path: path, prefix: Array(text.utf8), from: from).id
    }

    @Test func contentComesFirst() throws {
        #expect(try input("data.jsonl", "[{\"a\":1}]") == "json")
        #expect(try input("data.json", "{\"a\":1}\n{\"a\":2}\n") == "jsonl")
        #expect(try input("-", "\u{FEFF}  [") == "json")
    }

    @Test func theExtensionSettlesAmbiguousContent() throws {
        #expect(try input("one.jsonl", "{\"a\":1}") == "jsonl")
        #expect(try input("one.json", "{\"a\":1}") == "json")
        #expect(try input("one.ndjson", "{\"a\":1}") == "jsonl")
    }

    @Test func fromOverridesEverything() throws {
        #expect(try input("x.json", "[1]", from: "jsonl") == "jsonl")
    }

    @Test func undetectableAndUnknownFormatsAreUsageErrors() {
        #expect(throws: FerryError.self) { try input("notes.txt", "hello") }
        do {
            _ = try input("notes.txt", "hello")
        } catch {
            #expect(error.code == .formatUndetected)
            #expect(error.code.category == .usage)
        }
        do {
            _ = try input("x", "[", from: "yaml")
        } catch {
            #expect(error.code == .formatUnknown)
        }
    }

    @Test func outputFormatFromToThenExtensionThenInput() throws {
        let json = try #require(CodecRegistry.standard.codec(id: "json"))
        #expect(try resolver.outputCodec(path: "o.ndjson", to: nil, inputCodec: json).id == "jsonl")
        #expect(try resolver.outputCodec(path: "o.ndjson", to: "json", inputCodec: json).id == "json")
        #expect(try resolver.outputCodec(path: nil, to: nil, inputCodec: json).id == "json")
        #expect(try resolver.outputCodec(path: "-", to: nil, inputCodec: json).id == "json")
        #expect(try resolver.outputCodec(path: "o.csv.gz", to: nil, inputCodec: json).id == "csv")
    }

    /// A name that says no format Ferry knows is refused; it used to get
    /// the input's format. `--to` still names any format.
    @Test(arguments: ["out.xml", "out.txt", "out", "dir.json/out", "out.txt.gz"])
    func unknownOutputExtensionIsRefused(_ path: String) throws {
        let json = try #require(CodecRegistry.standard.codec(id: "json"))
        #expect(throws: FerryError.outputUnknownExtension(path, formats: resolver.writableFormats)) {
            _ = try resolver.outputCodec(path: path, to: nil, inputCodec: json)
        }
        let error = FerryError.outputUnknownExtension(path, formats: ["json", "csv"])
        #expect(error.code == .outputUnknownExtension)
        #expect(error.arguments == [.path(path), .string("json, csv")])
        #expect(resolver.writableFormats.starts(with: ["json", "jsonl", "csv", "tsv"]))
        #expect(try resolver.outputCodec(path: path, to: "jsonl", inputCodec: json).id == "jsonl")
    }

    /// Format names ignore case; plutil's `xml1` and `binary1` are aliases.
    @Test(arguments: [("JSON", "json"), ("Plist-XML", "plist-xml"), ("xml1", "plist-xml"), ("BINARY1", "plist")])
    func formatNamesIgnoreCaseAndTakeAliases(_ name: String, id: String) throws {
        let json = try #require(CodecRegistry.standard.codec(id: "json"))
        #expect(CodecRegistry.standard.codec(id: name)?.id == id)
        #expect(try resolver.outputCodec(path: "o.json", to: name, inputCodec: json).id == id)
        #expect(try input("a.json", "[]", from: name) == id)
    }

    @Test func longestExtensionWins() {
        struct Fake: Codec {
            let id: String
            let extensions: [String]
            let capabilities = CodecCapabilities.write
            func sniff(_ prefix: [UInt8]) -> SniffResult { .no }
        }
        let registry = CodecRegistry([Fake(id: "tgz", extensions: ["tgz"]), Fake(id: "bundle", extensions: ["ferry.tgz"])])
        #expect(registry.codec(forPath: "dir/x.ferry.tgz")?.id == "bundle")
        #expect(registry.codec(forPath: "dir/x.TGZ")?.id == "tgz")
        #expect(registry.codec(forPath: "dir/x.gz") == nil)
    }
}
