import CZlib
import FerryCore
import FerryGzip

// MARK: - Design
//
// A zip (APPNOTE 6.3) written front to back into any `ByteOutput`, never
// seeking: each entry is a local header and its data, with the sizes and
// CRC known before the header is written (the workbook writer spools its
// sheet until the end, so it knows them too), and the central directory
// follows the last entry.
//
//     50 4B 03 04  local header: version 20 (45 with zip64), flags 0x0800
//                  (UTF-8 names), method 8 (deflate), time 0000, date 0021
//                  (1980-01-01, fixed: the same records give the same bytes),
//                  CRC-32, sizes, name, [zip64 extra 0001: both sizes]
//     …data…
//     50 4B 01 02  central header per entry, [zip64 extra 0001: the sizes
//                  and offset that pass 0xFFFFFFFF, in that order]
//     50 4B 06 06  zip64 end of central directory  ┐ only when the count
//     50 4B 06 07  its locator                     ┘ or an offset is too big
//     50 4B 05 06  end of central directory
//
// No data descriptors: a reader that trusts local headers (a streaming
// unzip) finds the true sizes there.

/// Writes a zip archive entry by entry, streaming into `output`.
final class ZipWriter {
    private let output: any ByteOutput
    /// Bytes written so far: the offset of the next local header.
    private var offset: UInt64 = 0
    private var entries: [Entry] = []
    private var finished = false
    /// Sizes and offsets from this one on are written in zip64 fields. Zip
    /// says 0xFFFFFFFF; tests lower it to check zip64 on small archives.
    private let zip64From: UInt64
    /// Entry counts from this one on need the zip64 end record.
    private let zip64Count: Int

    /// One entry, for the central directory.
    fileprivate struct Entry {
        var name: [UInt8]
        var crc: UInt32
        var compressedSize: UInt64
        var size: UInt64
        var offset: UInt64
        /// The central record of an entry copied from another zip.
        var copiedRecord: [UInt8]? = nil
    }

    /// The DOS time and date of every entry: midnight, 1980-01-01.
    fileprivate static let dosTime: UInt16 = 0
    fileprivate static let dosDate: UInt16 = (0 << 9) | (1 << 5) | 1
    fileprivate static let deflated: UInt16 = 8
    fileprivate static let utf8Names: UInt16 = 0x0800

    init(_ output: any ByteOutput, zip64From: UInt64 = 0xFFFF_FFFF, zip64Count: Int = 0xFFFF) {
        self.output = output
        self.zip64From = zip64From
        self.zip64Count = zip64Count
    }

    /// Adds an entry holding `bytes`, deflated.
    /// - Throws: `io.writeFailed`; `gzip.zlibFailed`.
    func addDeflated(_ name: String, _ bytes: [UInt8], level: Int = 6) throws(FerryError) {
        let deflater = try Deflater(level: level)
        defer { deflater.end() }
        var compressed: [UInt8] = []
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
        defer { scratch.deallocate() }
        try bytes.withUnsafeBytes { input in
            Result { () throws(FerryError) in
                try deflater.deflate(input, finish: true, scratch: scratch) { compressed.append(contentsOf: $0) }
            }
        }.get()
        var crc = CRC32()
        crc.update(bytes)
        try addEntry(
            name, crc: crc.value, compressedSize: UInt64(compressed.count), size: UInt64(bytes.count)
        ) { () throws(FerryError) in try write(compressed) }
    }

    /// Adds a deflated entry whose data `writeData` hands to `write(_:)`:
    /// exactly `compressedSize` bytes, which inflate to `size` bytes whose
    /// CRC-32 is `crc`.
    /// - Throws: `io.writeFailed`; what `writeData` throws.
    func addEntry(
        _ name: String, crc: UInt32, compressedSize: UInt64, size: UInt64,
        writeData: () throws(FerryError) -> Void
    ) throws(FerryError) {
        let entry = Entry(name: Array(name.utf8), crc: crc, compressedSize: compressedSize, size: size, offset: offset)
        let wide = compressedSize >= zip64From || size >= zip64From
        var header: [UInt8] = []
        header.appendLittleEndian(UInt32(0x0403_4B50))
        // A local header's zip64 field holds both sizes, and the header says so.
        ZipWriter.appendSharedFields(
            entry, wide: wide, compressedSize: wide ? UInt32.max : UInt32(compressedSize),
            size: wide ? UInt32.max : UInt32(size), extraLength: wide ? 20 : 0, to: &header)
        header.append(contentsOf: entry.name)
        if wide {
            header.appendLittleEndian(UInt16(1))
            header.appendLittleEndian(UInt16(16))
            header.appendLittleEndian(size)
            header.appendLittleEndian(compressedSize)
        }
        try write(header)
        let start = offset
        try writeData()
        assert(offset - start == compressedSize, "an entry's data is the size its header says")
        entries.append(entry)
    }

    /// Writes part of an entry's data, inside `addEntry`'s `writeData`.
    /// - Throws: `io.writeFailed`.
    func write(_ bytes: UnsafeRawBufferPointer) throws(FerryError) {
        try output.write(bytes)
        offset += UInt64(bytes.count)
    }

    func write(_ bytes: [UInt8]) throws(FerryError) {
        try bytes.withUnsafeBytes { buffer in Result { () throws(FerryError) in try write(buffer) } }.get()
    }

    // MARK: - Central directory

    /// Writes the central directory and the end records, and flushes.
    /// - Throws: `io.writeFailed`.
    func finish() throws(FerryError) {
        guard !finished else { return }
        finished = true
        let directoryOffset = offset
        var directory: [UInt8] = []
        for entry in entries {
            try appendCentralHeader(entry, to: &directory)
            if directory.count >= 1 << 16 {
                try write(directory)
                directory.removeAll(keepingCapacity: true)
            }
        }
        try write(directory)
        let directorySize = offset - directoryOffset
        var end: [UInt8] = []
        let wide = entries.count >= zip64Count || directoryOffset >= zip64From || directorySize >= zip64From
        if wide {
            let recordOffset = offset
            end.appendLittleEndian(UInt32(0x0606_4B50))
            end.appendLittleEndian(UInt64(44))
            end.appendLittleEndian(UInt16(45))
            end.appendLittleEndian(UInt16(45))
            end.appendLittleEndian(UInt32(0))
            end.appendLittleEndian(UInt32(0))
            end.appendLittleEndian(UInt64(entries.count))
            end.appendLittleEndian(UInt64(entries.count))
            end.appendLittleEndian(directorySize)
            end.appendLittleEndian(directoryOffset)
            end.appendLittleEndian(UInt32(0x0706_4B50))
            end.appendLittleEndian(UInt32(0))
            end.appendLittleEndian(recordOffset)
            end.appendLittleEndian(UInt32(1))
        }
        let count = wide ? UInt16.max : UInt16(entries.count)
        end.appendLittleEndian(UInt32(0x0605_4B50))
        end.appendLittleEndian(UInt16(0))
        end.appendLittleEndian(UInt16(0))
        end.appendLittleEndian(count)
        end.appendLittleEndian(count)
        end.appendLittleEndian(wide ? UInt32.max : UInt32(directorySize))
        end.appendLittleEndian(wide ? UInt32.max : UInt32(directoryOffset))
        end.appendLittleEndian(UInt16(0))
        try write(end)
        try output.flush()
    }

    private func appendCentralHeader(_ entry: Entry, to out: inout [UInt8]) throws(FerryError) {
        if let record = entry.copiedRecord {
            out += ZipWriter.relocated(record, to: entry.offset, zip64From: zip64From)
            return
        }
        var extra: [UInt8] = []
        if entry.size >= zip64From { extra.appendLittleEndian(entry.size) }
        if entry.compressedSize >= zip64From { extra.appendLittleEndian(entry.compressedSize) }
        if entry.offset >= zip64From { extra.appendLittleEndian(entry.offset) }
        let wide = !extra.isEmpty
        out.appendLittleEndian(UInt32(0x0201_4B50))
        out.appendLittleEndian(UInt16(45))
        // Only the sizes that pass the limit are in the zip64 field.
        ZipWriter.appendSharedFields(
            entry, wide: wide, compressedSize: entry.compressedSize >= zip64From ? UInt32.max : UInt32(entry.compressedSize),
            size: entry.size >= zip64From ? UInt32.max : UInt32(entry.size), extraLength: wide ? extra.count + 4 : 0,
            to: &out)
        out.appendLittleEndian(UInt16(0))
        out.appendLittleEndian(UInt16(0))
        out.appendLittleEndian(UInt16(0))
        out.appendLittleEndian(UInt32(0))
        out.appendLittleEndian(entry.offset >= zip64From ? UInt32.max : UInt32(entry.offset))
        out.append(contentsOf: entry.name)
        if wide {
            out.appendLittleEndian(UInt16(1))
            out.appendLittleEndian(UInt16(extra.count))
            out.append(contentsOf: extra)
        }
    }
}

// MARK: - Copies

extension ZipWriter {
    /// Adds an entry of another zip as it is: `local` holds its local
    /// header, its data and any data descriptor after it, byte for byte;
    /// `record` is its central directory record, `entry` what that says.
    /// Only the local header's offset in the central record changes.
    /// - Throws: `io.writeFailed`.
    func addCopy(_ entry: ZipEntry, local: ArraySlice<UInt8>, record: ArraySlice<UInt8>) throws(FerryError) {
        let copy = Entry(
            name: Array(entry.name.utf8), crc: entry.crc, compressedSize: UInt64(entry.compressedSize),
            size: UInt64(entry.size), offset: offset, copiedRecord: Array(record))
        try local.withUnsafeBytes { buffer in Result { () throws(FerryError) in try write(buffer) } }.get()
        entries.append(copy)
    }

    /// A copied central record with its local header at `offset`: in its
    /// 32-bit field, or in its zip64 extra field (rebuilt: the sizes that
    /// were wide, then the offset) when it is wide or was there already.
    fileprivate static func relocated(_ original: [UInt8], to offset: UInt64, zip64From: UInt64) -> [UInt8] {
        var record = original
        let fields = ZipFields(original)
        guard fields.u32(42) == 0xFFFF_FFFF || offset >= zip64From else {
            record.replaceSubrange(42..<46, with: withUnsafeBytes(of: UInt32(offset).littleEndian, Array.init))
            return record
        }
        let nameEnd = 46 + fields.u16(28)
        let extraEnd = nameEnd + fields.u16(30)
        var extras: [UInt8] = []
        var wideValues: [UInt64] = []
        var at = nameEnd
        while at + 4 <= extraEnd {
            let id = fields.u16(at)
            let end = min(at + 4 + fields.u16(at + 2), extraEnd)
            if id == 0x0001 {
                // The sizes that overflowed, in that order; the offset is written anew.
                var value = at + 4
                for field in [24, 20] where fields.u32(field) == 0xFFFF_FFFF && value + 8 <= end {
                    wideValues.append(fields.u64(value))
                    value += 8
                }
            } else {
                extras += original[at..<end]
            }
            at = end
        }
        wideValues.append(offset)
        extras.appendLittleEndian(UInt16(1))
        extras.appendLittleEndian(UInt16(8 * wideValues.count))
        for value in wideValues { extras.appendLittleEndian(value) }
        record.replaceSubrange(nameEnd..<extraEnd, with: extras)
        record.replaceSubrange(42..<46, with: [0xFF, 0xFF, 0xFF, 0xFF])
        record.replaceSubrange(30..<32, with: withUnsafeBytes(of: UInt16(extras.count).littleEndian, Array.init))
        if fields.u16(6) < 45 { record.replaceSubrange(6..<8, with: [45, 0]) }
        return record
    }
}

extension ZipWriter {
    /// Appends what local and central headers share, from the version
    /// needed to the length of the extra field.
    fileprivate static func appendSharedFields(
        _ entry: Entry, wide: Bool, compressedSize: UInt32, size: UInt32, extraLength: Int, to out: inout [UInt8]
    ) {
        out.appendLittleEndian(wide ? UInt16(45) : UInt16(20))
        out.appendLittleEndian(utf8Names)
        out.appendLittleEndian(deflated)
        out.appendLittleEndian(dosTime)
        out.appendLittleEndian(dosDate)
        out.appendLittleEndian(entry.crc)
        out.appendLittleEndian(compressedSize)
        out.appendLittleEndian(size)
        out.appendLittleEndian(UInt16(truncatingIfNeeded: entry.name.count))
        out.appendLittleEndian(UInt16(extraLength))
    }
}

extension Array where Element == UInt8 {
    /// Appends `value`'s bytes, least significant first, as zip stores numbers.
    mutating func appendLittleEndian<Number: FixedWidthInteger>(_ value: Number) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
