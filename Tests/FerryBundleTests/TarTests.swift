import Testing

@testable import FerryBundle
@testable import FerryKit

/// A tar archive of `entries`, made by Ferry's builder, uncompressed.
func makeTar(_ entries: [(String, [UInt8])]) throws(FerryError) -> [UInt8] {
    let output = MemoryOutput()
    var tar = TarBuilder(output, modified: 1_714_564_800)
    for (name, bytes) in entries { try tar.addFile(name, bytes: bytes) }
    try tar.finish()
    return output.bytes
}

/// Every entry of `archive` with its content, scanned by Ferry.
func scanTar(_ archive: [UInt8], limits: ReadLimits = ReadLimits()) throws(FerryError) -> [(TarScanner.Entry, [UInt8])] {
    let scanner = TarScanner(MemoryInput(archive, name: "test.tar", readSizes: { 700 }), archiveName: "test.tar", limits: limits)
    var entries: [(TarScanner.Entry, [UInt8])] = []
    while let entry = try scanner.next() {
        var content: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 333)
        while true {
            let count = try chunk.withUnsafeMutableBytes { raw in
                Result { () throws(FerryError) in try scanner.read(into: raw) }
            }.get()
            if count == 0 { break }
            content += chunk[0..<count]
        }
        entries.append((entry, content))
    }
    return entries
}

/// The error `body` throws, or nil.
func error(_ body: () throws(FerryError) -> Void) -> FerryError? {
    do throws(FerryError) {
        try body()
        return nil
    } catch {
        return error
    }
}

/// Replaces `bytes` at `offset` in a header block and fixes its checksum.
func patchHeader(_ archive: inout [UInt8], header: Int, at offset: Int, with bytes: [UInt8], fixChecksum: Bool = true) {
    archive.replaceSubrange((header + offset)..<(header + offset + bytes.count), with: bytes)
    guard fixChecksum else { return }
    archive.replaceSubrange((header + 148)..<(header + 156), with: Array(repeating: 0x20, count: 8))
    let sum = archive[header..<(header + 512)].reduce(0) { $0 + Int($1) }
    let digits = String(sum, radix: 8)
    let field = Array((String(repeating: "0", count: 6 - digits.count) + digits).utf8) + [0, 0x20]
    archive.replaceSubrange((header + 148)..<(header + 156), with: field)
}

@Suite struct TarTests {
    @Test(arguments: [
        ("0000644\0", 0o644 as Int?), ("   12 \0", 0o12), ("\0\0\0\0\0\0\0\0", 0), ("        ", 0),
        ("00000000634\0", 412), ("12x\0", nil), ("-1\0", nil), ("0000008\0", nil), ("1 2\0", nil),
    ])
    func octalFields(_ text: String, _ value: Int?) {
        #expect(TarHeader.number(Array(text.utf8)[...]) == value)
    }

    @Test func base256Fields() {
        #expect(TarHeader.number([0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0][...]) == 256)
        #expect(TarHeader.number([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF][...]) == nil)
        #expect(TarHeader.number([0x80] + Array(repeating: 0xFF, count: 11)[...]) == nil, "overflows Int")
    }

    @Test(arguments: [1, 80, 84, 85, 86, 94, 95, 96, 990, 995, 996, 1000])
    func paxRecordLengthCountsItself(_ valueLength: Int) throws {
        let value = String(repeating: "a", count: valueLength)
        let record = PaxRecords.record("path", value)
        let length = try #require(Int(String(decoding: record.prefix { $0 != 0x20 }, as: UTF8.self)))
        #expect(length == record.count)
        #expect(PaxRecords.parse(record)?.path == value)
    }

    @Test(arguments: ["", "5 a=b\n", "3 path=x\n", "10 path=x", "x path=y\n", "11 size=-1\n", "99999999999999999999 a\n"])
    func malformedPaxRecords(_ text: String) {
        #expect(text.isEmpty ? PaxRecords.parse([]) != nil : PaxRecords.parse(Array(text.utf8)) == nil)
    }

    @Test func headersRoundTrip() throws {
        let archive = try makeTar([("manifest.json", Array("{}".utf8)), ("media/a.png", [1, 2, 3])])
        #expect(archive.count == 10240, "padded to a 10 KiB record, as tar does")
        let entries = try scanTar(archive)
        #expect(entries.map(\.0.name) == ["manifest.json", "media/a.png"])
        #expect(entries.map(\.0.offset) == [0, 1024])
        #expect(entries.map(\.1) == [Array("{}".utf8), [1, 2, 3]])
        #expect(entries.allSatisfy { $0.0.type == UInt8(ascii: "0") })
    }

    @Test func longNamesGoThroughPax() throws {
        let name = "media/" + String(repeating: "long-name-", count: 15) + ".png"
        let entries = try scanTar(try makeTar([(name, [9])]))
        #expect(entries.map(\.0.name) == [name])
        #expect(entries.first?.0.offset == 0, "the entry starts at its pax header")
    }

    @Test func hugeSizesGoThroughPax() throws {
        let output = MemoryOutput()
        var tar = TarBuilder(output, modified: 0)
        try tar.beginFile("records.jsonl", size: 1 << 34)
        let header = try #require(try TarHeader.parse(Array(output.bytes[0..<512]), at: .unknown))
        #expect(header.type == UInt8(ascii: "x"))
        #expect(PaxRecords.parse(Array(output.bytes[512..<(512 + header.size)]))?.size == 1 << 34)
    }

    @Test func badChecksumNamesTheEntryAndItsOffset() throws {
        var archive = try makeTar([("manifest.json", Array("{}".utf8)), ("records.jsonl", [])])
        patchHeader(&archive, header: 1024, at: 0, with: Array("R".utf8), fixChecksum: false)
        let failure = try #require(error { () throws(FerryError) in _ = try scanTar(archive) })
        #expect(failure.code == .tarBadChecksum)
        #expect(failure.arguments == [.path("Records.jsonl")])
        #expect(failure.location == FerryCore.SourceLocation(file: "test.tar", byteOffset: 1024))
    }

    @Test func nonOctalSizeIsRefused() throws {
        var archive = try makeTar([("manifest.json", Array("{}".utf8)), ("records.jsonl", [])])
        patchHeader(&archive, header: 1024, at: 124, with: Array("0000000z150\0".utf8))
        let failure = try #require(error { () throws(FerryError) in _ = try scanTar(archive) })
        #expect(failure.code == .tarInvalidNumber)
        #expect(failure.arguments == [.string("size"), .path("records.jsonl")])
        #expect(failure.location.byteOffset == 1024)
    }

    @Test(arguments: [1024 + 100, 1024 + 512 + 5, 1024 + 512 + 600, 1024])
    func truncatedArchivesAreRefused(_ length: Int) throws {
        let archive = try makeTar([("manifest.json", Array("{}".utf8)), ("records.jsonl", Array(repeating: 65, count: 700))])
        let cut = Array(archive[0..<length])
        if length == 1024 {
            // Cut between entries: the archive simply ends, as GNU tar allows.
            #expect(try scanTar(cut).count == 1)
            return
        }
        let failure = try #require(error { () throws(FerryError) in _ = try scanTar(cut) })
        #expect(failure.code == .tarTruncated)
        #expect(failure.location.byteOffset == length)
        #expect(failure.arguments == [.path(length < 1024 + 512 ? "" : "records.jsonl")])
    }

    @Test func limitsAreEnforcedFromTheHeader() throws {
        let archive = try makeTar([("a", [1]), ("b", Array(repeating: 2, count: 600)), ("c", [3])])
        var limits = ReadLimits()
        limits.maxEntries = 2
        #expect(error { () throws(FerryError) in _ = try scanTar(archive, limits: limits) }?.code == .tooManyEntries)
        limits = ReadLimits()
        limits.maxEntryBytes = 599
        let failure = try #require(error { () throws(FerryError) in _ = try scanTar(archive, limits: limits) })
        #expect(failure.code == .entryTooLarge)
        #expect(failure.arguments == [.path("b"), .count(599)])
        #expect(failure.location.byteOffset == 1024)
    }
}
