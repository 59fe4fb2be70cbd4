import FerryCore
import FerryGzip

/// A bundle checked against its manifest, with its records and photos
/// spooled to a private folder.
final class UnpackedBundle {
    let manifest: BundleManifest
    let spool: SpoolFolder
    /// The spooled records entry.
    let recordsFile: String
    /// The spooled photos by their path in the bundle (`media/wii.png`).
    let media: [String: (file: String, bytes: Int)]

    init(
        manifest: BundleManifest, spool: SpoolFolder, recordsFile: String, media: [String: (file: String, bytes: Int)]
    ) {
        self.manifest = manifest
        self.spool = spool
        self.recordsFile = recordsFile
        self.media = media
    }
}

/// Reads a bundle's tar stream once, from start to end, refusing unsafe
/// entries and checking every file against the manifest as it spools it.
///
/// Entries are refused, each with its own code, when their name is absolute
/// or has a `..` part, when they are links, devices or FIFOs, when a name
/// comes twice, and when they are neither the manifest, the records nor a
/// photo the manifest lists. Folder entries are allowed and ignored. Only
/// the spool folder is written to, under names the spool chooses.
struct BundleUnpacker {
    let scanner: TarScanner
    let archiveName: String
    /// Reads the manifest, a JSON object, as one record.
    let records: any Codec
    let context: ReadContext

    /// - Throws: `bundle.*`, `tar.*`, `limit.*`, input errors, and the
    ///   manifest's JSON errors.
    func unpack() throws(FerryError) -> UnpackedBundle {
        let spool = try SpoolFolder()
        var manifest: BundleManifest?
        var listed: [String: BundleManifest.Media] = [:]
        var recordsFile: String?
        var media: [String: (file: String, bytes: Int)] = [:]
        var seen = Set<String>()
        while let entry = try scanner.next() {
            let here = SourceLocation(file: archiveName, byteOffset: entry.offset)
            let path = try EntryPath.canonical(entry.name, at: here)
            switch entry.type {
            case UInt8(ascii: "0"), 0, UInt8(ascii: "7"): break
            case UInt8(ascii: "5"): continue  // nothing is made for folders
            case UInt8(ascii: "2"): throw .bundleSymlink(entry: entry.name, target: entry.linkName, at: here)
            case UInt8(ascii: "1"): throw .bundleHardLink(entry: entry.name, target: entry.linkName, at: here)
            case UInt8(ascii: "3"), UInt8(ascii: "4"), UInt8(ascii: "6"):
                throw .bundleSpecialFile(entry: entry.name, type: entry.type, at: here)
            default: throw .tarUnsupportedEntry(entry: entry.name, type: entry.type, at: here)
            }
            guard seen.insert(path).inserted else { throw .bundleDuplicateEntry(entry: entry.name, at: here) }
            guard let known = manifest else {
                guard path == EntryPath.manifest else { throw .bundleMissingManifest(found: entry.name, at: here) }
                let read = try readManifest(entry, at: here)
                manifest = read
                for file in read.media { listed[file.path] = file }
                continue
            }
            if path == known.records {
                recordsFile = try spoolEntry(entry, to: spool, as: "records").file
            } else if EntryPath.isMedia(path) {
                guard let file = listed[path] else { throw .bundleUnlistedEntry(entry: entry.name, at: here) }
                guard entry.size == file.bytes else {
                    throw .bundleSizeMismatch(entry: entry.name, expected: file.bytes, found: entry.size, at: here)
                }
                let spooled = try spoolEntry(entry, to: spool, as: String(media.count))
                guard spooled.crc32 == file.crc32 else {
                    throw .bundleCRCMismatch(entry: entry.name, expected: file.crc32, found: spooled.crc32, at: here)
                }
                media[path] = (spooled.file, entry.size)
            } else {
                throw .bundleUnexpectedEntry(entry: entry.name, at: here)
            }
        }
        let end = SourceLocation(file: archiveName)
        guard let manifest else { throw .bundleMissingManifest(found: "", at: end) }
        guard let recordsFile else { throw .bundleMissingEntry(entry: manifest.records, at: end) }
        for file in manifest.media where media[file.path] == nil {
            throw .bundleMissingEntry(entry: file.path, at: end)
        }
        return UnpackedBundle(manifest: manifest, spool: spool, recordsFile: recordsFile, media: media)
    }

    /// Reads `manifest.json` through the records codec. JSON allows a line
    /// break only between tokens, so the breaks of a pretty-printed manifest
    /// are turned into spaces (offsets stay the same) and the object reads as
    /// one JSON line.
    private func readManifest(_ entry: TarScanner.Entry, at location: SourceLocation) throws(FerryError)
        -> BundleManifest
    {
        let limit = context.limits.maxRecordBytes
        guard entry.size <= limit else { throw .recordTooLarge(limit: limit, at: location) }
        var bytes = [UInt8](repeating: 0, count: entry.size)
        var filled = 0
        while filled < bytes.count {
            let count = try bytes.withUnsafeMutableBytes { raw in
                Result { () throws(FerryError) in
                    try scanner.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]))
                }
            }.get()
            if count == 0 { break }
            filled += count
        }
        for index in bytes.indices where bytes[index] == 0x0A || bytes[index] == 0x0D { bytes[index] = 0x20 }
        let name = archiveName + "/" + EntryPath.manifest
        let reader = try records.makeReader(MemoryInput(bytes, name: name), context: ReadContext(limits: context.limits))
        let manifestFile = SourceLocation(file: name)
        guard let record = try reader.next() else {
            throw .bundleInvalidManifest(field: EntryPath.manifest, expected: .typeObject, at: manifestFile)
        }
        if try reader.next() != nil {
            throw .bundleInvalidManifest(field: EntryPath.manifest, expected: .typeObject, at: manifestFile)
        }
        return try BundleManifest(record, at: manifestFile)
    }

    /// Copies the current entry's content into a new spool file.
    private func spoolEntry(_ entry: TarScanner.Entry, to spool: SpoolFolder, as name: String) throws(FerryError)
        -> (file: String, crc32: UInt32)
    {
        let output = try spool.create(name)
        defer { output.close() }
        var crc = CRC32()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try chunk.withUnsafeMutableBytes { raw in
                Result { () throws(FerryError) in try scanner.read(into: raw) }
            }.get()
            if count == 0 { break }
            try chunk.withUnsafeBytes { raw in
                Result { () throws(FerryError) in
                    let filled = UnsafeRawBufferPointer(rebasing: raw[0..<count])
                    crc.update(filled)
                    try output.write(filled)
                }
            }.get()
        }
        return (spool.file(name), crc.value)
    }
}
