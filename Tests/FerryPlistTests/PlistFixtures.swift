import Foundation
import Testing

@testable import FerryKit
@testable import FerryPlist

/// Files and helpers the binary plist and keyed-archive tests share.
enum PlistFixtures {
    /// The package root, found from this file.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A file of the vendored corpora (Tests/Corpora); tests fail, never skip, when it is missing.
    static func corpus(_ path: String) throws -> URL {
        let url = packageRoot.appendingPathComponent("Tests/Corpora/\(path)").standardized
        guard FileManager.default.fileExists(atPath: url.path) else { throw Missing(path: url.path) }
        return url
    }

    /// Every file in a corpus folder.
    static func corpusFiles(_ folder: String) throws -> [URL] {
        let url = try corpus(folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
        return names.filter { !$0.hasSuffix(".md") }.map { url.appendingPathComponent($0) }
    }

    static func bytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

    struct Missing: Error, CustomStringConvertible {
        let path: String
        var description: String { "\(path) is missing (Tests/Corpora)" }
    }

    /// Every record `codec` reads from `bytes`, or the error that stopped it.
    static func read(
        _ bytes: [UInt8], codec: any Codec, options: [String: String] = [:], limits: ReadLimits = ReadLimits()
    ) -> (records: [Record], error: FerryError?, context: ReadContext) {
        let context = ReadContext(options: OptionValues(options), limits: limits)
        var records: [Record] = []
        do throws(FerryError) {
            let reader = try codec.makeReader(MemoryInput(bytes, name: "test"), context: context)
            while let record = try reader.next() { records.append(record) }
            return (records, nil, context)
        } catch {
            return (records, error, context)
        }
    }

    /// The bytes `codec` writes for `records`.
    static func write(
        _ records: [Record], codec: any Codec, kind: RecordKind? = nil, options: [String: String] = [:]
    ) throws(FerryError) -> [UInt8] {
        let output = MemoryOutput()
        let writer = try codec.makeWriter(output, context: WriteContext(kind: kind, options: OptionValues(options)))
        for record in records { try writer.write(record) }
        try writer.finish()
        return output.bytes
    }

    /// The whole value of a binary plist.
    static func decode(_ bytes: [UInt8], limits: ReadLimits = ReadLimits()) throws(FerryError) -> PlistValue {
        let scanner = try BinaryPlistScanner(bytes, name: "test", limits: limits)
        var decoder = BinaryPlistDecoder(scanner, limits: limits, fileSize: bytes.count)
        return try decoder.value(scanner.topObject)
    }

    /// A binary plist of `value`, written by Ferry's builder.
    static func encode(_ value: PlistValue) throws(FerryError) -> [UInt8] {
        var builder = BinaryPlistBuilder()
        let top = builder.add(value)
        let output = MemoryOutput()
        try builder.write(top: top, to: output)
        return output.bytes
    }

    /// A binary plist assembled by hand: objects, then the offset table and
    /// trailer worked out from them, with 1-byte offsets and references.
    static func handMade(_ objects: [[UInt8]], top: Int = 0, referenceSize: UInt8 = 1) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        let offsetSize = table + objects.count > 255 ? 2 : 1
        for offset in offsets {
            if offsetSize == 2 { bytes.append(UInt8(offset >> 8)) }
            bytes.append(UInt8(offset & 0xFF))
        }
        bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), referenceSize]
        func be64(_ value: Int) -> [UInt8] { (0..<8).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) } }
        bytes += be64(objects.count) + be64(top) + be64(table)
        return bytes
    }
}
