// MARK: - Design
//
// Records wait as bytes in two places: on a tape in memory (`RecordTape`,
// which hands a reading thread's records to another thread without a
// `Value` per cell) and in a spill on disk (`SpilledRecord`, a merge past
// its memory budget). Both write a raw record the one way this file
// describes, little-endian and unaligned:
//
//     fields   UInt32    index of the record's field list (the tape's
//                        copies, the spill's shapes)
//     cells    UInt32    count, then per cell a tag byte and its payload:
//                        null 00 · false 01 · true 02
//                        integer 03 + Int64 · double 04 + its bits
//                        number 05, text 06, bytes 07: Int64 length + bytes
//                        nested 08: a `RawValue.other`, as `NestedValues` keeps it
//     origin   Int64 ×2  record index and byte offset in its source
//
// The one choice they make differently is where a nested value (an array,
// an object, a date: `RawValue.other`) goes. A tape keeps the `Value`
// beside it, in memory, and writes its index (`BesideValues`): reading it
// back costs a retain. A spill must be self-contained, so it writes the
// value in place (`InlineValues`), tagged the same way, with date 09 + its
// bits (seconds since 2001), array 0A and object 0B (UInt32 count, then the
// elements; an object's keys as text first).

/// One serialisation of a raw record (see the design note).
enum RecordBytes {
    enum Tag: UInt8 {
        case null, no, yes, integer, double, number, text, bytes, nested, date, array, object
    }

    /// The bytes a record's fields index, count and origin take.
    static let headerSize = 24

    /// The bytes `record` takes, with its nested values kept by `nested`.
    @inline(__always)
    static func size<Nested: NestedValues>(of record: RawRecord, nested: Nested) -> Int {
        var size = headerSize
        for cell in record.values {
            size += 1
            switch cell {
            case .null, .bool: break
            case .integer, .double: size += 8
            case .text(let utf8), .number(let utf8): size += 8 + utf8.count
            case .bytes(let bytes): size += 8 + bytes.count
            case .other(let index): size += nested.size(of: record.others[index])
            }
        }
        return size
    }

    /// Writes `record`, whose field list is number `fieldList`, at `cursor`,
    /// which has room for `size(of:nested:)` bytes.
    @inline(__always)
    static func write<Nested: NestedValues>(
        _ record: RawRecord, fieldList: Int, to cursor: inout Cursor, nested: inout Nested
    ) {
        cursor.store(UInt32(truncatingIfNeeded: fieldList))
        cursor.store(UInt32(truncatingIfNeeded: record.values.count))
        cursor.store(Int64(record.origin.index))
        cursor.store(Int64(record.origin.byteOffset))
        for cell in record.values {
            switch cell {
            case .null: cursor.store(Tag.null.rawValue)
            case .bool(let flag): cursor.store(flag ? Tag.yes.rawValue : Tag.no.rawValue)
            case .integer(let number): cursor.store(.integer, number)
            case .double(let number): cursor.store(.double, number.bitPattern)
            case .text(let utf8): cursor.store(.text, utf8)
            case .number(let utf8): cursor.store(.number, utf8)
            case .bytes(let bytes): cursor.store(.bytes, bytes.assumingMemoryBound(to: UInt8.self))
            case .other(let index):
                cursor.store(Tag.nested.rawValue)
                nested.write(record.others[index], to: &cursor)
            }
        }
    }

    /// Reads the record at `cursor` into `cells`.
    /// - Returns: its field list's number and its origin; its nested values
    ///   are the indices `nested` gave.
    @inline(__always)
    static func read<Nested: NestedValues>(
        _ cursor: inout Cursor, into cells: inout RawCellBuffer, nested: inout Nested
    ) -> (fieldList: Int, origin: RecordOrigin) {
        let fieldList = Int(cursor.load(UInt32.self))
        let cellCount = Int(cursor.load(UInt32.self))
        let origin = RecordOrigin(index: Int(cursor.load(Int64.self)), byteOffset: Int(cursor.load(Int64.self)))
        cells.removeAll()
        for _ in 0..<cellCount {
            switch Tag(rawValue: cursor.load(UInt8.self)) {
            // A cell is never a date, array or object: those are nested values' tags.
            case .null, nil, .date, .array, .object: cells.append(.null)
            case .no: cells.append(.bool(false))
            case .yes: cells.append(.bool(true))
            case .integer: cells.append(.integer(cursor.load(Int64.self)))
            case .double: cells.append(.double(Double(bitPattern: cursor.load(UInt64.self))))
            case .text: cells.append(.text(cursor.text()))
            case .number: cells.append(.number(cursor.text()))
            case .bytes: cells.append(.bytes(UnsafeRawBufferPointer(cursor.text())))
            case .nested: cells.append(.other(nested.read(from: &cursor)))
            }
        }
        return (fieldList, origin)
    }

    /// Writes or reads record bytes from `base`, which outlives it.
    struct Cursor {
        let base: UnsafeRawPointer
        var offset = 0

        @inline(__always)
        mutating func load<T: FixedWidthInteger>(_: T.Type) -> T {
            let number = T(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: T.self))
            offset += MemoryLayout<T>.size
            return number
        }

        @inline(__always)
        mutating func store<T: FixedWidthInteger>(_ number: T) {
            UnsafeMutableRawPointer(mutating: base).storeBytes(of: number.littleEndian, toByteOffset: offset, as: T.self)
            offset += MemoryLayout<T>.size
        }

        /// Stores `tag` and `number`.
        @inline(__always)
        mutating func store<T: FixedWidthInteger>(_ tag: Tag, _ number: T) {
            store(tag.rawValue)
            store(number)
        }

        /// Stores `tag`, the length of `bytes` and the bytes.
        @inline(__always)
        mutating func store(_ tag: Tag, _ bytes: UnsafeBufferPointer<UInt8>) {
            store(tag.rawValue)
            store(Int64(bytes.count))
            guard let source = bytes.baseAddress else { return }
            WriteBuffer.copy(
                to: UnsafeMutableRawPointer(mutating: base + offset), from: UnsafeRawPointer(source), count: bytes.count)
            offset += bytes.count
        }

        /// Reads a length and the bytes after it, which borrow `base`.
        @inline(__always)
        mutating func text() -> UnsafeBufferPointer<UInt8> {
            let count = Int(load(Int64.self))
            let start = (base + offset).assumingMemoryBound(to: UInt8.self)
            offset += count
            return UnsafeBufferPointer(start: start, count: count)
        }
    }
}

/// Where a record's nested values (`RawValue.other`) go when it is written
/// as `RecordBytes`, and how they come back.
protocol NestedValues {
    /// The bytes `value` takes after its tag.
    func size(of value: Value) -> Int
    /// Writes `value`, after its tag.
    mutating func write(_ value: Value, to cursor: inout RecordBytes.Cursor)
    /// Reads a value `write` wrote.
    /// - Returns: its index in the record's other values.
    mutating func read(from cursor: inout RecordBytes.Cursor) -> Int
}
