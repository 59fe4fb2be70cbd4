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
// keys on disk. A spilled record is a `RecordBytes` record, as a tape holds
// it, after its length (UInt32: the bytes after that word), with two
// differences a file needs: its field list is numbered in the merge's table
// of shapes (a few lists, kept in memory), and its nested values are
// written in place (`InlineValues`), not kept beside it in memory.
//
// The records go to an `AnonymousFile` (FerryCore), which has no name
// left to clean up whatever ends the process.

// MARK: - Records

/// Spilled records: written self-contained (see the design note), read back
/// as raw records whose text borrows the bytes read.
enum SpilledRecord {
    /// The most bytes a spilled record may take: its length is 32 bits.
    static let maxLength = Int(UInt32.max)

    /// Appends `record`, whose field list is shape `shape`, to `out`.
    /// - Throws: `limit.recordTooLarge` for a record of more than
    ///   `maxLength` bytes (possible only with `--max-record-bytes` past
    ///   4 GiB): its length would not fit. Nothing is appended then.
    static func encode(
        _ record: RawRecord, shape: Int, to out: inout [UInt8], maxLength: Int = SpilledRecord.maxLength
    ) throws(FerryError) {
        var nested = InlineValues()
        let size = RecordBytes.size(of: record, nested: nested)
        guard size <= maxLength else {
            throw .recordTooLarge(limit: maxLength, at: SourceLocation(byteOffset: record.origin.byteOffset, record: record.origin.index))
        }
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: 4 + size))
        out.withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            var cursor = RecordBytes.Cursor(base: UnsafeRawPointer(base), offset: start)
            cursor.store(UInt32(truncatingIfNeeded: size))
            RecordBytes.write(record, fieldList: shape, to: &cursor, nested: &nested)
        }
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
        // Never short: `MergeSpill` reads whole what `encode` wrote.
        guard bytes.count >= 4 + RecordBytes.headerSize, let base = bytes.baseAddress else {
            throw .ioReadFailed(AnonymousFile.folder, errno: EIO)
        }
        var cursor = RecordBytes.Cursor(base: base, offset: 4)
        var nested = InlineValues()
        let (shape, origin) = RecordBytes.read(&cursor, into: &cells, nested: &nested)
        return try RawRecord.with(
            fields: shapes[shape], values: cells.cells, others: nested.decoded, origin: origin, body)
    }
}

/// A spill's nested values: written in place, each with its own tag after
/// the cell's (see the design note), and decoded again when read.
struct InlineValues: NestedValues {
    private typealias Tag = RecordBytes.Tag
    /// The values read so far, in the record's order.
    private(set) var decoded: [Value] = []

    /// The bytes `value` takes, its tag included.
    func size(of value: Value) -> Int {
        switch value {
        case .null, .bool: return 1
        case .integer, .double, .date: return 9
        case .number(let number): return 9 + number.text.utf8.count
        case .string(let text): return 9 + text.utf8.count
        case .bytes(let bytes): return 9 + bytes.count
        case .array(let elements): return elements.reduce(5) { $0 + size(of: $1) }
        case .object(let object):
            return zip(object.keys, object.values).reduce(5) { $0 + 9 + $1.0.utf8.count + size(of: $1.1) }
        }
    }

    /// Writes `value`, its tag first.
    func write(_ value: Value, to cursor: inout RecordBytes.Cursor) {
        switch value {
        case .null: cursor.store(Tag.null.rawValue)
        case .bool(let flag): cursor.store(flag ? Tag.yes.rawValue : Tag.no.rawValue)
        case .integer(let number): cursor.store(.integer, number)
        case .double(let number): cursor.store(.double, number.bitPattern)
        case .date(let date): cursor.store(.date, date.timeIntervalSinceReferenceDate.bitPattern)
        case .number(let number): Self.store(.number, number.text, to: &cursor)
        case .string(let text): Self.store(.text, text, to: &cursor)
        case .bytes(let bytes): bytes.withUnsafeBufferPointer { cursor.store(.bytes, $0) }
        case .array(let elements):
            cursor.store(.array, UInt32(truncatingIfNeeded: elements.count))
            for element in elements { write(element, to: &cursor) }
        case .object(let object):
            cursor.store(.object, UInt32(truncatingIfNeeded: object.keys.count))
            for (key, element) in zip(object.keys, object.values) {
                Self.store(.text, key, to: &cursor)
                write(element, to: &cursor)
            }
        }
    }

    private static func store(_ tag: Tag, _ text: String, to cursor: inout RecordBytes.Cursor) {
        var text = text
        text.withUTF8 { cursor.store(tag, $0) }
    }

    mutating func read(from cursor: inout RecordBytes.Cursor) -> Int {
        decoded.append(Self.value(at: &cursor))
        return decoded.count - 1
    }

    /// The value at `cursor`, its tag first.
    private static func value(at cursor: inout RecordBytes.Cursor) -> Value {
        switch Tag(rawValue: cursor.load(UInt8.self)) {
        case .no: return .bool(false)
        case .yes: return .bool(true)
        case .integer: return .integer(cursor.load(Int64.self))
        case .double: return .double(Double(bitPattern: cursor.load(UInt64.self)))
        case .number: return .number(NumberText(unchecked: String(decoding: cursor.text(), as: UTF8.self)))
        case .text: return .string(String(decoding: cursor.text(), as: UTF8.self))
        case .bytes: return .bytes(Array(cursor.text()))
        case .date: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: cursor.load(UInt64.self))))
        case .array: return .array((0..<Int(cursor.load(UInt32.self))).map { _ in value(at: &cursor) })
        case .object:
            var pairs: [(String, Value)] = []
            for _ in 0..<Int(cursor.load(UInt32.self)) {
                cursor.offset += 1  // the key's text tag
                let key = String(decoding: cursor.text(), as: UTF8.self)
                pairs.append((key, value(at: &cursor)))
            }
            return .object(OrderedObject(pairs))
        case .null, .nested, nil: return .null
        }
    }
}
