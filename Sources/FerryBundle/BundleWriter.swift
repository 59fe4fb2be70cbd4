#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FerryCore
import FerryGzip

/// Writes records as a bundle: a gzip-compressed tar of `manifest.json`,
/// `records.jsonl` and `media/`.
///
/// The manifest comes first but depends on everything after it, so records
/// and photos are spooled to a private folder as they come, each photo
/// written out at once and replaced in its record by its `media/…` path;
/// `finish()` then writes the archive. No more than one record's photos are
/// in memory at a time. The spool folder is removed by `finish()`, and by
/// `deinit` when a conversion fails.
final class BundleWriter: RecordWriter {
    private let output: any ByteOutput
    private let context: WriteContext
    private let spool: SpoolFolder
    private let recordsOutput: FileOutput
    private let recordsWriter: any RecordWriter
    private var names = MediaNames()
    private var media: [(file: String, entry: BundleManifest.Media)] = []
    private var count = 0
    private var finished = false

    /// - Throws: `bundle.spoolFailed`; the records codec's errors.
    init(_ output: any ByteOutput, records: any Codec, context: WriteContext) throws(FerryError) {
        self.output = output
        self.context = context
        spool = try SpoolFolder()
        recordsOutput = try spool.create("records")
        recordsWriter = try records.makeWriter(recordsOutput, context: context)
    }

    deinit { spool.remove() }

    /// Spools `record`, its photos first.
    /// - Throws: `bundle.spoolFailed`, `io.writeFailed`, the records codec's errors.
    func write(_ record: Record) throws(FerryError) {
        var record = record
        for (index, value) in record.values.enumerated() {
            guard case .bytes(let bytes) = value else { continue }
            let field = record.fields.names[index]
            let type = Photo.imageType(of: bytes)
            // A photo, or any other image; other bytes stay in the record.
            guard field == "photo" || type != .unknown else { continue }
            let title = record["name"]?.stringValue ?? record["title"]?.stringValue ?? "photo"
            let path = names.path(for: field == "photo" ? title : "\(title) \(field)", type: type)
            let file = String(media.count)
            let spooled = try spool.create(file)
            defer { spooled.close() }
            try spooled.write(bytes)
            var crc = CRC32()
            crc.update(bytes)
            media.append((spool.file(file), BundleManifest.Media(path: path, bytes: bytes.count, crc32: crc.value)))
            record.values[index] = .string(path)
        }
        try recordsWriter.write(record)
        count += 1
    }

    /// Writes the archive: manifest, records, photos, each file streamed from the spool.
    /// - Throws: output errors.
    func finish() throws(FerryError) {
        guard !finished else { return }
        finished = true
        defer { spool.remove() }
        try recordsWriter.finish()
        recordsOutput.close()
        let now = Int(time(nil))
        let manifest = BundleManifest(
            kind: context.kind?.rawValue, count: count,
            created: Timestamp.iso8601(Date(timeIntervalSince1970: Double(now))), media: media.map(\.entry))
        let gzip = try GzipOutput(output, level: 6, jobs: 1, modified: UInt32(clamping: now))
        var tar = TarBuilder(gzip, modified: now)
        try tar.addFile(EntryPath.manifest, bytes: try manifest.encoded())
        try copy(spool.file("records"), as: manifest.records, into: &tar)
        for (file, entry) in media { try copy(file, as: entry.path, into: &tar) }
        try tar.finish()
        try gzip.finish()
    }

    /// Streams a spooled file into the archive.
    private func copy(_ file: String, as name: String, into tar: inout TarBuilder) throws(FerryError) {
        let input = try FileInput(path: file)
        defer { input.close() }
        let size = input.sizeHint ?? 0
        try tar.beginFile(name, size: size)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var copied = 0
        while copied < size {
            let count = try chunk.withUnsafeMutableBytes { raw in
                Result { () throws(FerryError) in
                    try input.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<min(raw.count, size - copied)]))
                }
            }.get()
            guard count > 0 else { throw .ioReadFailed(file, errno: EIO) }
            try chunk.withUnsafeBytes { raw in
                Result { () throws(FerryError) in try tar.output.write(UnsafeRawBufferPointer(rebasing: raw[0..<count])) }
            }.get()
            copied += count
        }
        try tar.endFile(size: size)
    }
}
