import FerryCore

// MARK: - Design
//
// A zip is read from its end: the end of central directory record (EOCD)
// sits in the last 22 bytes plus a comment of up to 65,535; it gives the
// central directory's place and entry count; each central entry gives a
// part's name, sizes, CRC and the offset of its local header, and the
// part's data follows that header. Zip64 moves the counts and offsets
// that overflow into a zip64 EOCD (found through its locator, just before
// the EOCD) and into each entry's zip64 extra field (id 0x0001).
//
//     … local header "PK\3\4" name data … | central "PK\1\2" … | [zip64 EOCD "PK\6\6", locator "PK\6\7"] | EOCD "PK\5\6"
//
//     EOCD:    50 4B 05 06  disk(2) cdDisk(2) entriesHere(2) entries(2) cdSize(4) cdOffset(4) commentLength(2)
//     central: 50 4B 01 02  made(2) need(2) flags(2) method(2) time(2) date(2) crc(4) csize(4) usize(4)
//              nameLength(2) extraLength(2) commentLength(2) disk(2) iattr(2) eattr(4) localOffset(4) name extra comment
//     local:   50 4B 03 04  need(2) flags(2) method(2) time(2) date(2) crc(4) csize(4) usize(4) nameLength(2) extraLength(2) name extra
//
// The local header must agree with the central entry (name, method, and
// the sizes and CRC unless bit 3 defers them to a data descriptor): a zip
// whose two directories disagree reads differently in different tools,
// which is how malicious packages hide parts. Nothing is extracted to
// disk: a part is inflated as it is read (`ZipEntryInput`).

/// Bytes at any offset: a regular file read with `pread(2)`, or an input
/// held in memory (standard input, a pipe), read under the input limit.
final class ZipSource {
    private let file: RandomAccessFile?
    private let memory: InputBytes?
    let name: String
    let size: Int

    /// - Throws: `limit.inputTooLarge` when a pipe's bytes pass `limit`; `io.readFailed`.
    init(_ input: any ByteInput, limit: Int) throws(FerryError) {
        name = input.name
        // A regular file that can be opened again is read in place, at any
        // offset; anything else is read into memory once.
        if input.reopened() != nil, let file = RandomAccessFile(input.name), file.size == input.sizeHint {
            self.file = file
            memory = nil
            size = file.size
        } else {
            let bytes = try InputBytes.read(input, limit: limit)
            try input.checkIntact()
            memory = bytes
            file = nil
            size = bytes.count
        }
    }

    /// Reads up to `buffer.count` bytes at `offset`.
    /// - Returns: how many were read; fewer only at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(FerryError) -> Int {
        guard offset >= 0, offset < size else { return 0 }
        if let file { return try file.read(into: buffer, at: offset) }
        guard let memory else { return 0 }
        let count = min(buffer.count, size - offset)
        buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: memory.bytes[offset..<offset + count]))
        return count
    }

    /// Exactly `count` bytes at `offset`.
    /// - Throws: `xlsx.truncated` when the file ends first.
    func bytes(at offset: Int, count: Int) throws(FerryError) -> [UInt8] {
        guard offset >= 0, count >= 0, offset <= size, count <= size - offset else {
            throw .xlsxTruncated(at: SourceLocation(file: name, byteOffset: offset))
        }
        var result = [UInt8](repeating: 0, count: count)
        let got = try result.withUnsafeMutableBytes { buffer in
            Result { () throws(FerryError) in try read(into: buffer, at: offset) }
        }.get()
        guard got == count else { throw .xlsxTruncated(at: SourceLocation(file: name, byteOffset: offset)) }
        return result
    }
}

/// One part of the package, as the central directory describes it.
struct ZipEntry: Sendable, Hashable {
    var name: String
    var method: Int
    var flags: Int
    var crc: UInt32
    var compressedSize: Int
    var size: Int
    var localHeaderOffset: Int
}

/// Little-endian fields of a record read into memory.
struct ZipFields {
    let bytes: [UInt8]
    var position: Int

    init(_ bytes: [UInt8], at position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
    func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
    func u64(_ at: Int) -> UInt64 { UInt64(u32(at)) | UInt64(u32(at + 4)) << 32 }
}

/// The central directory of a zip: its parts by name.
struct ZipArchive {
    let source: ZipSource
    /// The parts in directory order.
    let entries: [ZipEntry]
    private let byName: [String: Int]
    /// Where the central directory starts, and its bytes: each entry's
    /// record is `directory[centralRecords[i]]`, kept for a zip copied
    /// entry by entry (`ZipWriter.addCopy`).
    let directoryOffset: Int
    let directory: [UInt8]
    let centralRecords: [Range<Int>]

    static let eocdSignature = 0x0605_4B50
    static let zip64LocatorSignature = 0x0706_4B50
    static let zip64EOCDSignature = 0x0606_4B50
    static let centralSignature = 0x0201_4B50
    static let localSignature = 0x0403_4B50

    /// Reads the central directory of `source`.
    /// - Throws: `xlsx.notZip`, `xlsx.truncated`, `xlsx.corruptZip`,
    ///   `xlsx.tooManyEntries` (past `limits.maxEntries`).
    init(_ source: ZipSource, limits: ReadLimits) throws(FerryError) {
        self.source = source
        let here = SourceLocation(file: source.name)
        // The EOCD: the last "PK\5\6" in the final 64 KiB + 22 bytes.
        let tailCount = min(source.size, 22 + 0xFFFF)
        let tail = try source.bytes(at: source.size - tailCount, count: tailCount)
        guard tailCount >= 22,
            let end = stride(from: tailCount - 22, through: 0, by: -1).first(where: {
                ZipFields(tail).u32($0) == Self.eocdSignature
            })
        else {
            // A file that starts as a zip does but has no end record was cut short.
            let start = try source.bytes(at: 0, count: min(4, source.size))
            throw start == [0x50, 0x4B, 0x03, 0x04] ? .xlsxTruncated(at: here) : .xlsxNotZip(at: here)
        }
        let eocd = ZipFields(tail)
        let eocdOffset = source.size - tailCount + end
        var count = eocd.u16(end + 10)
        var directorySize = eocd.u32(end + 12)
        var directoryOffset = eocd.u32(end + 16)
        // Zip64: a locator 20 bytes before the EOCD points at the zip64 EOCD.
        if eocdOffset >= 20, count == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
            let locator = ZipFields(try source.bytes(at: eocdOffset - 20, count: 20))
            if locator.u32(0) == Self.zip64LocatorSignature {
                let at = try Self.checked(locator.u64(8), here)
                let record = ZipFields(try source.bytes(at: at, count: 56))
                guard record.u32(0) == Self.zip64EOCDSignature else {
                    throw .xlsxCorruptZip("zip64 end of central directory", at: SourceLocation(file: source.name, byteOffset: at))
                }
                count = try Self.checked(record.u64(32), here)
                directorySize = try Self.checked(record.u64(40), here)
                directoryOffset = try Self.checked(record.u64(48), here)
            }
        }
        guard count <= limits.maxEntries else { throw .xlsxTooManyEntries(limit: limits.maxEntries, at: here) }
        // Each central entry takes 46 bytes at least (divided, not multiplied:
        // a zip64 count under `Int.max / 2` and a raised limit would overflow).
        guard directorySize / 46 >= count, directoryOffset <= source.size, directorySize <= source.size - directoryOffset
        else { throw .xlsxTruncated(at: SourceLocation(file: source.name, byteOffset: directoryOffset)) }
        let directory = try source.bytes(at: directoryOffset, count: directorySize)
        var entries: [ZipEntry] = []
        entries.reserveCapacity(count)
        var fields = ZipFields(directory)
        var byName: [String: Int] = [:]
        var records: [Range<Int>] = []
        records.reserveCapacity(count)
        for _ in 0..<count {
            let start = fields.position
            let entry = try Self.centralEntry(&fields, base: directoryOffset, source: source)
            byName[entry.name] = entries.count
            entries.append(entry)
            records.append(start..<fields.position)
        }
        self.entries = entries
        self.byName = byName
        self.directoryOffset = directoryOffset
        self.directory = directory
        centralRecords = records
    }

    /// The part named `name` (without a leading `/`), if the zip has it.
    func entry(_ name: String) -> ZipEntry? {
        byName[name].map { entries[$0] }
    }

    private static func checked(_ value: UInt64, _ location: SourceLocation) throws(FerryError) -> Int {
        guard value <= UInt64(Int.max / 2) else { throw .xlsxCorruptZip("zip64", at: location) }
        return Int(value)
    }

    /// One central directory entry at `fields.position`, which moves past it.
    private static func centralEntry(_ fields: inout ZipFields, base: Int, source: ZipSource) throws(FerryError) -> ZipEntry {
        let at = fields.position
        let location = SourceLocation(file: source.name, byteOffset: base + at)
        guard at + 46 <= fields.bytes.count, fields.u32(at) == centralSignature else {
            throw .xlsxCorruptZip("central directory", at: location)
        }
        let nameLength = fields.u16(at + 28)
        let extraLength = fields.u16(at + 30)
        let commentLength = fields.u16(at + 32)
        let end = at + 46 + nameLength + extraLength + commentLength
        guard end <= fields.bytes.count else { throw .xlsxCorruptZip("central directory", at: location) }
        let name = String(decoding: fields.bytes[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self)
        var entry = ZipEntry(
            name: name, method: fields.u16(at + 10), flags: fields.u16(at + 8), crc: UInt32(fields.u32(at + 16)),
            compressedSize: fields.u32(at + 20), size: fields.u32(at + 24), localHeaderOffset: fields.u32(at + 42))
        // The zip64 extra field holds, in this order, those of the three
        // that overflowed 32 bits.
        var extra = at + 46 + nameLength
        let extraEnd = extra + extraLength
        while extra + 4 <= extraEnd {
            let id = fields.u16(extra)
            let length = fields.u16(extra + 2)
            guard extra + 4 + length <= extraEnd else { break }
            if id == 0x0001 {
                var value = extra + 4
                func next() throws(FerryError) -> Int {
                    guard value + 8 <= extra + 4 + length else { throw .xlsxCorruptZip("zip64", at: location) }
                    defer { value += 8 }
                    return try checked(fields.u64(value), location)
                }
                if entry.size == 0xFFFF_FFFF { entry.size = try next() }
                if entry.compressedSize == 0xFFFF_FFFF { entry.compressedSize = try next() }
                if entry.localHeaderOffset == 0xFFFF_FFFF { entry.localHeaderOffset = try next() }
            }
            extra += 4 + length
        }
        fields.position = end
        return entry
    }

    /// Where `entry`'s data starts, once its local header is checked
    /// against the central directory.
    /// - Throws: `xlsx.headerMismatch`, `xlsx.truncated`, `xlsx.unsupportedEntry`.
    func dataOffset(of entry: ZipEntry) throws(FerryError) -> Int {
        let location = SourceLocation(file: source.name, byteOffset: entry.localHeaderOffset)
        let header = ZipFields(try source.bytes(at: entry.localHeaderOffset, count: 30))
        guard header.u32(0) == Self.localSignature else { throw .xlsxHeaderMismatch(part: entry.name, at: location) }
        if entry.flags & 1 != 0 { throw .xlsxUnsupportedEntry(part: entry.name, method: -1, at: location) }
        guard entry.method == 0 || entry.method == 8 else {
            throw .xlsxUnsupportedEntry(part: entry.name, method: entry.method, at: location)
        }
        let nameLength = header.u16(26)
        let extraLength = header.u16(28)
        let name = try source.bytes(at: entry.localHeaderOffset + 30, count: nameLength)
        var agrees = header.u16(8) == entry.method && name.elementsEqual(entry.name.utf8)
        // Without a data descriptor (bit 3), the header repeats the CRC and
        // sizes; zip64 headers put 0xFFFFFFFF there and the sizes in an extra field.
        if header.u16(6) & 8 == 0 {
            agrees = agrees && UInt32(header.u32(14)) == entry.crc
            let compressed = header.u32(18)
            let size = header.u32(22)
            if compressed != 0xFFFF_FFFF { agrees = agrees && compressed == entry.compressedSize }
            if size != 0xFFFF_FFFF { agrees = agrees && size == entry.size }
        }
        guard agrees else { throw .xlsxHeaderMismatch(part: entry.name, at: location) }
        let start = entry.localHeaderOffset + 30 + nameLength + extraLength
        guard start <= source.size, entry.compressedSize <= source.size - start else {
            throw .xlsxTruncated(at: SourceLocation(file: source.name, byteOffset: start))
        }
        return start
    }
}
