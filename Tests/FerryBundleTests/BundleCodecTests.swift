import FerryTestSupport
import Testing

@testable import FerryBundle
@testable import FerryKit

let codec = BundleCodec(records: JSONLinesCodec())
let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]
let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 9, 9]

/// `records` written as a bundle by Ferry.
func bundle(_ records: [Record], kind: RecordKind? = .product) throws(FerryError) -> [UInt8] {
    let output = MemoryOutput(name: "test.ferry.tgz")
    let writer = try codec.makeWriter(output, context: WriteContext(kind: kind))
    for record in records { try writer.write(record) }
    try writer.finish()
    return output.bytes
}

/// The records of a bundle, read by Ferry, `step` bytes at a time.
func records(_ bytes: [UInt8], limits: ReadLimits = ReadLimits(), step: Int? = nil) throws(FerryError) -> [Record] {
    let input = MemoryInput(bytes, name: "test.ferry.tgz", readSizes: step.map { size in { size } })
    let reader = try codec.makeReader(input, context: ReadContext(limits: limits))
    var result: [Record] = []
    while let record = try reader.next() { result.append(record) }
    return result
}

/// `bytes` gzip-compressed by Ferry.
func gzip(_ bytes: [UInt8]) throws(FerryError) -> [UInt8] {
    let output = MemoryOutput()
    let gzip = try GzipOutput(output, level: 1)
    try gzip.write(bytes)
    try gzip.finish()
    return output.bytes
}

/// `bytes` inflated by Ferry.
func gunzip(_ bytes: [UInt8]) throws(FerryError) -> [UInt8] {
    try GzipInput(MemoryInput(bytes)).readAll(limit: 1 << 30)
}

/// A bundle built from raw parts, to test what readers refuse.
func handmade(manifest: String, _ entries: [(String, [UInt8])]) throws(FerryError) -> [UInt8] {
    try gzip(try makeTar([("manifest.json", Array(manifest.utf8))] + entries))
}

@Suite struct BundleCodecTests {
    static let products = [
        Record([("name", .string("Xbox 360")), ("price", .double(299)), ("photo", .bytes(png))]),
        Record([("name", .string("Xbox 360")), ("price", .double(199)), ("photo", .bytes(jpeg))]),
        Record([("name", .string("日本")), ("price", .integer(5)), ("photo", .bytes([1, 2, 3]))]),
        Record([("name", .string("No photo")), ("price", .integer(1)), ("photo", .null)]),
    ]

    @Test(arguments: [nil, 1, 7, 512, 4096])
    func recordsRoundTrip(step: Int?) throws {
        let read = try records(try bundle(Self.products), step: step)
        #expect(read == Self.products)
    }

    @Test func photosBecomeUniqueMediaFiles() throws {
        let archive = try gunzip(try bundle(Self.products))
        let entries = try scanTar(archive)
        #expect(
            entries.map(\.0.name) == [
                // A name's letters are kept in every script (once `photo.bin`).
                "manifest.json", "records.jsonl", "media/xbox-360.png", "media/xbox-360.jpg", "media/日本.bin",
            ])
        let lines = String(decoding: entries[1].1, as: UTF8.self).split(separator: "\n")
        #expect(lines[0] == #"{"name":"Xbox 360","price":299.0,"photo":"media/xbox-360.png"}"#)
        #expect(lines[3] == #"{"name":"No photo","price":1,"photo":null}"#)
        #expect(entries[2].1 == png && entries[3].1 == jpeg)
    }

    @Test func sameNamesGetSuffixes() {
        var names = MediaNames()
        #expect(names.path(for: "Wii", type: .png) == "media/wii.png")
        #expect(names.path(for: "WII!", type: .png) == "media/wii-2.png")
        #expect(names.path(for: "wii", type: .jpeg) == "media/wii.jpg")
        #expect(names.path(for: "Wii", type: .png) == "media/wii-3.png")
    }

    @Test func imagesInOtherFieldsBecomeMediaButOtherBytesStayInline() throws {
        let book = Record([
            ("title", .string("Dune")), ("author", .string("Frank Herbert")), ("cover", .bytes(png)),
            ("blob", .bytes([0, 1, 2])),
        ])
        let read = try records(try bundle([book], kind: .book))
        #expect(read.first?["cover"] == .bytes(png))
        #expect(read.first?["blob"] == .string(Photo.dataURI([0, 1, 2])), "non-image bytes stay a data: URI")
        let names = try scanTar(try gunzip(try bundle([book], kind: .book))).map(\.0.name)
        #expect(names == ["manifest.json", "records.jsonl", "media/dune-cover.png"])
    }

    @Test func manifestDescribesTheContent() throws {
        let entries = try scanTar(try gunzip(try bundle(Self.products)))
        let text = String(decoding: entries[0].1, as: UTF8.self)
        let oneLine = entries[0].1.map { $0 == 0x0A ? 0x20 : $0 }
        let reader = try JSONLinesCodec().makeReader(MemoryInput(oneLine), context: ReadContext())
        let manifest = try BundleManifest(try #require(try reader.next()), at: .unknown)
        #expect(manifest.kind == "product" && manifest.count == 4 && manifest.records == "records.jsonl")
        #expect(manifest.media.map(\.bytes) == [png.count, jpeg.count, 3])
        #expect(manifest.media.map(\.crc32) == [Self.crc(png), Self.crc(jpeg), Self.crc([1, 2, 3])])
        #expect(manifest.created?.hasSuffix("Z") == true)
        #expect(text.hasPrefix("{\n  \"format\": \"ferry-bundle\",\n  \"version\": 1,\n"))
    }

    /// A bundle is gzip already: `--gzip` (once ignored) and a `.gz` suffix
    /// are refused rather than compressing it twice; without them it is
    /// gzip'd once.
    @Test func aBundleIsNotCompressedTwice() throws {
        let scratch = try ScratchFolder()
        var options = ConversionOptions()
        options.compressOutput = true
        let output = scratch.path("products.ferry.tgz")
        #expect {
            _ = try Converter().convert(TestPaths.example("products.json"), to: output, options: options)
        } throws: { error in
            (error as? FerryError)?.code == .outputAlreadyCompressed
                && (error as? FerryError)?.arguments == [.string("bundle")]
        }
        #expect {
            _ = try Converter().convert(
                TestPaths.example("products.json"), to: output + ".gz", options: ConversionOptions())
        } throws: { error in
            (error as? FerryError)?.code == .outputAlreadyCompressed
        }
        #expect(try scratch.contents().isEmpty)
        _ = try Converter().convert(TestPaths.example("products.json"), to: output, options: ConversionOptions())
        let tar = try gunzip(try scratch.read("products.ferry.tgz"))
        #expect(Array(tar[257..<262]) == Array("ustar".utf8))
        #expect(try records(try scratch.read("products.ferry.tgz")).count == 3)
    }

    @Test func emptyBundlesRoundTrip() throws {
        #expect(try records(try bundle([], kind: nil)).isEmpty)
    }

    @Test func uncompressedTarIsReadToo() throws {
        #expect(try records(try gunzip(try bundle(Self.products))) == Self.products)
    }

    @Test func sniffing() throws {
        let bytes = try bundle(Self.products)
        #expect(codec.sniff(Array(bytes.prefix(4096))) == .certain)
        #expect(codec.sniff(Array(try gunzip(bytes).prefix(4096))) == .certain)
        #expect(codec.sniff(Array("[{\"name\":\"x\"}]".utf8)) == .no)
        #expect(codec.sniff(try gzip(Array("[{\"name\":\"x\"}]".utf8))) == .no)
        #expect(CodecRegistry.standard.sniff(Array(try gunzip(bytes).prefix(4096)))?.codec.id == "bundle")
    }

    @Test func extensionBeatsPlainGzip() {
        #expect(CodecRegistry.standard.codec(forPath: "dir/Products.FERRY.TGZ")?.id == "bundle")
        #expect(CodecRegistry.standard.codec(forPath: "products.tgz") == nil)
        #expect(codec.embedsMedia)
    }

    // MARK: - What readers refuse

    static let goodManifest = """
        {"format": "ferry-bundle", "version": 1, "records": "records.jsonl", "count": 1,
         "media": [{"path": "media/a.png", "bytes": 11, "crc32": \(crc(png))}]}
        """
    static let goodRecords = Array("{\"name\":\"a\",\"photo\":\"media/a.png\"}\n".utf8)

    static func crc(_ bytes: [UInt8]) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }

    @Test func handmadeBundleIsRead() throws {
        let read = try records(try handmade(manifest: Self.goodManifest, [("records.jsonl", Self.goodRecords), ("media/a.png", png)]))
        #expect(read == [Record([("name", .string("a")), ("photo", .bytes(png))])])
    }

    @Test(arguments: [
        (#"{"format": "zip", "version": 1}"#, FerryError.Code.bundleNotBundle, [MessageArgument.string("zip")]),
        (#"{"format": "ferry-bundle", "version": 2}"#, .bundleUnsupportedVersion, [.ungrouped(2)]),
        (#"{"format": "ferry-bundle", "version": 1, "records": "../r", "count": 1}"#, .bundleInvalidManifest,
         [.string("records"), .message(.bundleExpectedRecordsPath)]),
        (#"{"format": "ferry-bundle", "version": 1, "records": "records.jsonl", "count": -1}"#, .bundleInvalidManifest,
         [.string("count"), .message(.bundleExpectedCount)]),
        (#"{"format": "ferry-bundle", "version": 1, "records": "r", "count": 1, "media": [{"path": "x.png", "bytes": 1, "crc32": 1}]}"#,
         .bundleInvalidManifest, [.string("media[0].path"), .message(.bundleExpectedMediaPath)]),
        (#"{"format": "ferry-bundle", "version": 1, "records": "r", "count": 1, "media": [{"path": "media/x.png", "bytes": 1, "crc32": 4294967296}]}"#,
         .bundleInvalidManifest, [.string("media[0].crc32"), .message(.bundleExpectedCRC32)]),
        ("[1]", .formatNotRecords, [.message(.typeArray)]),
    ])
    func invalidManifests(_ manifest: String, _ code: FerryError.Code, _ arguments: [MessageArgument]) throws {
        let bytes = try handmade(manifest: manifest, [("records.jsonl", Self.goodRecords)])
        let failure = try #require(error { () throws(FerryError) in _ = try records(bytes) })
        #expect(failure.code == code)
        #expect(failure.arguments == arguments)
        #expect(failure.location.file == "test.ferry.tgz/manifest.json")
    }

    @Test func recordsErrorsAreLocatedInTheRecordsEntry() throws {
        let bytes = try handmade(
            manifest: Self.goodManifest, [("records.jsonl", Array("{\"name\":\"a\"}\n{\"name\" 1}\n".utf8)), ("media/a.png", png)])
        let failure = try #require(error { () throws(FerryError) in _ = try records(bytes) })
        #expect(failure.code.rawValue.hasPrefix("json."))
        #expect(failure.location.file == "test.ferry.tgz/records.jsonl")
        #expect(failure.location.line == 2)
    }

    @Test func missingMediaNamesTheRecordAndField() throws {
        let manifest = #"{"format": "ferry-bundle", "version": 1, "records": "records.jsonl", "count": 2}"#
        let lines = "{\"name\":\"a\",\"note\":\"media/none.txt\"}\n{\"name\":\"b\",\"photo\":\"media/none.png\"}\n"
        let failure = try #require(error { () throws(FerryError) in _ = try records(try handmade(manifest: manifest, [("records.jsonl", Array(lines.utf8))])) })
        #expect(failure.code == .bundleMissingMedia)
        #expect(failure.arguments == [.path("media/none.png")])
        #expect(failure.location.record == 1 && failure.location.field == "photo" && failure.location.line == 2)
    }

    @Test func countIsCheckedBothWays() throws {
        for (count, lines) in [(2, "{\"a\":1}\n"), (1, "{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n")] {
            let manifest = #"{"format": "ferry-bundle", "version": 1, "records": "records.jsonl", "count": \#(count)}"#
            let failure = try #require(error { () throws(FerryError) in _ = try records(try handmade(manifest: manifest, [("records.jsonl", Array(lines.utf8))])) })
            #expect(failure.code == .bundleCountMismatch)
            #expect(failure.arguments == [.count(count), .integer(lines.split(separator: "\n").count)])
        }
    }

    @Test func failuresAreSticky() throws {
        let bytes = try handmade(manifest: #"{"format": "zip", "version": 1}"#, [])
        let reader = try codec.makeReader(MemoryInput(bytes), context: ReadContext())
        let first = error { () throws(FerryError) in _ = try reader.next() }
        let second = error { () throws(FerryError) in _ = try reader.next() }
        #expect(first != nil && first == second)
    }

    @Test func manifestMustComeFirst() throws {
        let tar = try makeTar([("records.jsonl", Self.goodRecords), ("manifest.json", Array(Self.goodManifest.utf8))])
        let failure = try #require(error { () throws(FerryError) in _ = try records(tar) })
        #expect(failure.code == .bundleMissingManifest)
        #expect(failure.arguments == [.path("records.jsonl")])
        #expect(failure.location == FerryCore.SourceLocation(file: "test.ferry.tgz", byteOffset: 0))
    }
}
