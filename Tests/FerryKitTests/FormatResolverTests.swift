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
