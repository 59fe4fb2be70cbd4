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

// MARK: - Design
//
// A merge over its memory budget keeps its records and its sorted runs of
// keys on disk. A `RecordTape` cannot go there as it is: its cells point at
// `Value`s in memory (escaped strings, nested values). A spilled record is
// self-contained instead, every value inline, and names its field list by
// its index in the merge's table of shapes (a few lists, kept in memory):
//
//     length    UInt32   bytes after this word
//     shape     UInt32   index of the field list
//     origin    Int64 ×2 record index and byte offset in its source
//     cells     UInt32   count, then per cell a tag and its payload:
//               null 00 · false 01 · true 02 · integer 03 + 8 · double 04 + 8
//               number 05, text 06, bytes 07: UInt32 length + bytes
//               a value 08: the value, tagged the same way, with
//               date 09 + 8 (seconds since 2001), array 0A and object 0B:
//               UInt32 count + elements (an object's keys as text first)
//
// The file is made with `mkstemp` in $TMPDIR (or /tmp) and unlinked at
// once: it has no name left to clean up, whatever ends the process, even
// SIGKILL, which `TemporaryFiles` cannot catch; its space goes back when
// the descriptor closes.

/// An anonymous temporary file, written in order and read back anywhere.
final class SpillFile {
    private let descriptor: Int32
    /// Where the file was made, for errors.
    let folder: String
    private var buffer: [UInt8] = []
    /// Bytes written to the file itself, before `buffer`.
    private var flushed = 0

    /// - Throws: `io.temporaryFile`.
    init() throws(FerryError) {
        folder = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(folder)/.ferry-merge-XXXXXX".utf8CString)
        descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw .ioTemporaryFile(folder, errno: errno) }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        buffer.reserveCapacity(1 << 20)
    }

    deinit { close(descriptor) }

    /// The bytes written so far: the offset the next append starts at.
    var size: Int { flushed + buffer.count }

    /// Appends `bytes`.
    func append(_ bytes: UnsafeRawBufferPointer) throws(FerryError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 20 { try flush() }
    }

    func append(_ bytes: [UInt8]) throws(FerryError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Writes what is buffered to the file.
    func flush() throws(FerryError) {
        var done = 0
        while done < buffer.count {
            let written = buffer.withUnsafeBytes { pwrite(descriptor, $0.baseAddress! + done, $0.count - done, off_t(flushed + done)) }
            guard written > 0 else { throw .ioWriteFailed(folder, errno: errno) }
            done += written
        }
        flushed += done
        buffer.removeAll(keepingCapacity: true)
    }

    /// Reads `into.count` bytes at `offset` (flush first).
    func read(at offset: Int, into bytes: UnsafeMutableRawBufferPointer) throws(FerryError) {
        var done = 0
        while done < bytes.count {
            let count = pread(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            guard count > 0 else { throw .ioReadFailed(folder, errno: count == 0 ? EIO : errno) }
            done += count
        }
    }
}

// MARK: - Records

/// Spilled records: written self-contained (see the design note), read back
/// as raw records whose text borrows the bytes read.
enum SpilledRecord {
    private typealias Tag = CellTag

    /// The most bytes a spilled record may take: its length is 32 bits.
    static let maxLength = Int(UInt32.max)

    /// Appends `record`, whose field list is shape `shape`, to `out`.
    /// - Throws: `limit.recordTooLarge` for a record of more than
    ///   `maxLength` bytes (possible only with `--max-record-bytes` past
    ///   4 GiB); its length, and any longer cell's, would not fit. Every
    ///   count and cell length within fits when the whole does.
    static func encode(
        _ record: RawRecord, shape: Int, to out: inout [UInt8], maxLength: Int = SpilledRecord.maxLength
    ) throws(FerryError) {
        let start = out.count
        append(UInt32(0), to: &out)
        append(UInt32(truncatingIfNeeded: shape), to: &out)
        append(Int64(record.origin.index), to: &out)
        append(Int64(record.origin.byteOffset), to: &out)
        append(UInt32(truncatingIfNeeded: record.values.count), to: &out)
        for cell in record.values {
            switch cell {
            case .null: out.append(Tag.null.rawValue)
            case .bool(let flag): out.append(flag ? Tag.yes.rawValue : Tag.no.rawValue)
            case .integer(let number): tagged(.integer, number, to: &out)
            case .double(let number): tagged(.double, number.bitPattern, to: &out)
            case .number(let text): tagged(.number, UnsafeRawBufferPointer(text), to: &out)
            case .text(let text): tagged(.text, UnsafeRawBufferPointer(text), to: &out)
            case .bytes(let bytes): tagged(.bytes, bytes, to: &out)
            case .other(let index):
                out.append(Tag.value.rawValue)
                encode(record.others[index], to: &out)
            }
        }
        guard out.count - start - 4 <= maxLength else {
            out.removeSubrange(start...)
            throw .recordTooLarge(limit: maxLength, at: SourceLocation(byteOffset: record.origin.byteOffset, record: record.origin.index))
        }
        let length = UInt32(truncatingIfNeeded: out.count - start - 4)
        withUnsafeBytes(of: length.littleEndian) { out.replaceSubrange(start..<start + 4, with: $0) }
    }

    /// The length of the record that starts with `header` (its first 4 bytes), header included.
    static func length(header: UnsafeRawBufferPointer) -> Int {
        Int(UInt32(littleEndian: header.loadUnaligned(as: UInt32.self))) + 4
    }

    /// Calls `body` with the record encoded in `bytes` (header included).
    static func decode<Result>(
        _ bytes: UnsafeRawBufferPointer, shapes: [FieldList], cells: inout RawCellBuffer,
        _ body: (RawRecord) throws(FerryError) -> Result
    ) throws(FerryError) -> Result {
        var reader = Reader(bytes: bytes, offset: 4)
        let fields = shapes[Int(reader.load(UInt32.self))]
        let origin = RecordOrigin(index: Int(reader.load(Int64.self)), byteOffset: Int(reader.load(Int64.self)))
        let count = Int(reader.load(UInt32.self))
        var others: [Value] = []
        cells.removeAll()
        for _ in 0..<count {
            switch Tag(rawValue: reader.load(UInt8.self)) {
            case .no: cells.append(.bool(false))
            case .yes: cells.append(.bool(true))
            case .integer: cells.append(.integer(reader.load(Int64.self)))
            case .double: cells.append(.double(Double(bitPattern: reader.load(UInt64.self))))
            case .number: cells.append(.number(reader.text()))
            case .text: cells.append(.text(reader.text()))
            case .bytes: cells.append(.bytes(UnsafeRawBufferPointer(reader.text())))
            case .value:
                others.append(reader.value())
                cells.append(.other(others.count - 1))
            default: cells.append(.null)
            }
        }
        return try RawRecord.with(fields: fields, values: cells.cells, others: others, origin: origin, body)
    }

    // MARK: Values

    private static func encode(_ value: Value, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(Tag.null.rawValue)
        case .bool(let flag): out.append(flag ? Tag.yes.rawValue : Tag.no.rawValue)
        case .integer(let number): tagged(.integer, number, to: &out)
        case .double(let number): tagged(.double, number.bitPattern, to: &out)
        case .number(let number): tagged(.number, number.text, to: &out)
        case .string(let text): tagged(.text, text, to: &out)
        case .bytes(let bytes): bytes.withUnsafeBytes { tagged(.bytes, $0, to: &out) }
        case .date(let date): tagged(.date, date.timeIntervalSinceReferenceDate.bitPattern, to: &out)
        case .array(let elements):
            out.append(Tag.array.rawValue)
            append(UInt32(truncatingIfNeeded: elements.count), to: &out)
            for element in elements { encode(element, to: &out) }
        case .object(let object):
            out.append(Tag.object.rawValue)
            append(UInt32(truncatingIfNeeded: object.keys.count), to: &out)
            for (key, element) in zip(object.keys, object.values) {
                tagged(.text, key, to: &out)
                encode(element, to: &out)
            }
        }
    }

    private static func tagged<T: FixedWidthInteger>(_ tag: Tag, _ number: T, to out: inout [UInt8]) {
        out.append(tag.rawValue)
        append(number, to: &out)
    }

    private static func tagged(_ tag: Tag, _ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        out.append(tag.rawValue)
        append(UInt32(truncatingIfNeeded: bytes.count), to: &out)
        out.append(contentsOf: bytes)
    }

    private static func tagged(_ tag: Tag, _ text: String, to out: inout [UInt8]) {
        out.append(tag.rawValue)
        append(UInt32(truncatingIfNeeded: text.utf8.count), to: &out)
        out.append(contentsOf: text.utf8)
    }

    private static func append<T: FixedWidthInteger>(_ number: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: number.littleEndian) { out.append(contentsOf: $0) }
    }

    /// Reads a spilled record's bytes in order.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset: Int

        mutating func load<T: FixedWidthInteger>(_: T.Type) -> T {
            let number = T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
            offset += MemoryLayout<T>.size
            return number
        }

        mutating func text() -> UnsafeBufferPointer<UInt8> {
            let count = Int(load(UInt32.self))
            defer { offset += count }
            return UnsafeBufferPointer(rebasing: bytes.assumingMemoryBound(to: UInt8.self)[offset..<offset + count])
        }

        mutating func value() -> Value {
            switch Tag(rawValue: load(UInt8.self)) {
            case .no: return .bool(false)
            case .yes: return .bool(true)
            case .integer: return .integer(load(Int64.self))
            case .double: return .double(Double(bitPattern: load(UInt64.self)))
            case .number: return .number(NumberText(unchecked: String(decoding: text(), as: UTF8.self)))
            case .text: return .string(String(decoding: text(), as: UTF8.self))
            case .bytes: return .bytes(Array(text()))
            case .date: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: load(UInt64.self))))
            case .array: return .array((0..<Int(load(UInt32.self))).map { _ in value() })
            case .object:
                var pairs: [(String, Value)] = []
                for _ in 0..<Int(load(UInt32.self)) {
                    offset += 1  // the key's text tag
                    let key = String(decoding: text(), as: UTF8.self)
                    pairs.append((key, value()))
                }
                return .object(OrderedObject(pairs))
            default: return .null
            }
        }
    }
}
