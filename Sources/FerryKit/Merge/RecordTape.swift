/// Raw records copied one after another into one buffer, so that a reading
/// thread can hand them to a writing thread without a `Value` per cell.
///
/// A raw record borrows its text from the reader, so it cannot cross
/// threads; a `Record` can, but costs a string and an array to make and as
/// much again to free. The tape copies the record's bytes, which is cheap,
/// and gives raw records back that borrow from the tape.
///
/// Layout, per record: the field list's index in `fieldLists` (UInt32), the
/// cell count (UInt32), the origin's index and byte offset (Int64 each); then
/// per cell a tag byte and its payload: nothing for null and the two bools,
/// 8 bytes for an integer or a double, an Int64 length and the bytes for
/// text or borrowed bytes, a UInt32 index into `values` for anything else (the records read
/// back point into that array).
///
/// A tape is used by one thread at a time: `BackgroundSource` hands it over
/// through a semaphore, which orders the writes before the reads.
final class RecordTape: @unchecked Sendable {
    // One thread at a time (see above): the run-time exclusivity checks are
    // left out.
    @exclusivity(unchecked) private var base: UnsafeMutableRawPointer
    /// The bytes its memory holds, used or not.
    @exclusivity(unchecked) private(set) var capacity: Int
    @exclusivity(unchecked) private(set) var byteCount = 0
    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private var values: [Value] = []
    /// The tape's own copies of the records' field lists.
    @exclusivity(unchecked) private var fieldLists = FieldListCopies()
    @exclusivity(unchecked) private var cells = RawCellBuffer()
    /// The key digest of each record, when the reading thread made them
    /// (merge); else empty.
    @exclusivity(unchecked) var digests: [KeyDigest?] = []

    private typealias Tag = CellTag

    init(capacity: Int = 1 << 18) {
        self.capacity = capacity
        base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
    }

    deinit {
        base.deallocate()
        cells.deallocate()
    }

    /// Forgets the records, keeping the memory.
    func reset() {
        byteCount = 0
        count = 0
        values.removeAll(keepingCapacity: true)
        fieldLists.removeAll()
        digests.removeAll(keepingCapacity: true)
    }

    // MARK: - Writing

    func append(_ record: RawRecord) {
        // Room for the whole record first, then plain stores through a local
        // cursor.
        var needed = 24
        for cell in record.values {
            needed += 9
            switch cell {
            case .text(let utf8), .number(let utf8): needed += utf8.count
            case .bytes(let bytes): needed += bytes.count
            default: break
            }
        }
        reserve(needed)
        var out = Cursor(base: UnsafeRawPointer(base), offset: byteCount)
        out.store(UInt32(truncatingIfNeeded: fieldLists.index(of: record.fields)))
        out.store(UInt32(truncatingIfNeeded: record.values.count))
        out.store(Int64(record.origin.index))
        out.store(Int64(record.origin.byteOffset))
        for cell in record.values {
            switch cell {
            case .null: out.store(Tag.null.rawValue)
            case .bool(let flag): out.store(flag ? Tag.yes.rawValue : Tag.no.rawValue)
            case .integer(let number):
                out.store(Tag.integer.rawValue)
                out.store(number)
            case .double(let number):
                out.store(Tag.double.rawValue)
                out.store(number.bitPattern)
            case .text(let utf8):
                out.store(Tag.text.rawValue)
                out.store(Int64(utf8.count))
                out.copy(utf8)
            case .number(let utf8):
                out.store(Tag.number.rawValue)
                out.store(Int64(utf8.count))
                out.copy(utf8)
            case .bytes(let bytes):
                out.store(Tag.bytes.rawValue)
                out.store(Int64(bytes.count))
                out.copy(bytes.assumingMemoryBound(to: UInt8.self))
            case .other(let other):
                out.store(Tag.value.rawValue)
                out.store(UInt32(truncatingIfNeeded: values.count))
                values.append(record.others[other])
            }
        }
        byteCount = out.offset
        count += 1
    }

    private func reserve(_ extra: Int) {
        guard byteCount + extra > capacity else { return }
        let grown = max(capacity * 2, byteCount + extra)
        let moved = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 8)
        moved.copyMemory(from: base, byteCount: byteCount)
        base.deallocate()
        base = moved
        capacity = grown
    }

    // MARK: - Reading

    /// Calls `body` with each record in turn; their text borrows the tape.
    func forEach(_ body: (RawRecord) throws(FerryError) -> Void) throws(FerryError) {
        try forEachWithOffset { (record, _) throws(FerryError) in try body(record) }
    }

    /// Calls `body` with each record in turn and the offset it starts at on
    /// the tape, for `withRecord(at:)`; their text borrows the tape.
    func forEachWithOffset(_ body: (RawRecord, Int) throws(FerryError) -> Void) throws(FerryError) {
        var cells = RawCellBuffer()
        swap(&cells, &self.cells)
        defer { swap(&cells, &self.cells) }
        var cursor = Cursor(base: UnsafeRawPointer(base))
        let others = values
        // Records in a row mostly share their fields: fetched (and retained)
        // only when they change.
        var fieldsIndex = -1
        var fields = FieldList([])
        for _ in 0..<count {
            let start = cursor.offset
            let index = Int(cursor.load(UInt32.self))
            if index != fieldsIndex {
                fieldsIndex = index
                fields = fieldLists.copies[index]
            }
            let origin = Self.loadCells(&cursor, into: &cells)
            try RawRecord.with(fields: fields, values: cells.cells, others: others, origin: origin) {
                (record) throws(FerryError) in try body(record, start)
            }
        }
    }

    /// Calls `body` with the record that starts at `offset` (as
    /// `forEachWithOffset` gives it), its cells decoded into `cells`.
    func withRecord<Result>(
        at offset: Int, cells: inout RawCellBuffer, _ body: (RawRecord) throws(FerryError) -> Result
    ) throws(FerryError) -> Result {
        var cursor = Cursor(base: UnsafeRawPointer(base), offset: offset)
        let fields = fieldLists.copies[Int(cursor.load(UInt32.self))]
        let origin = Self.loadCells(&cursor, into: &cells)
        return try RawRecord.with(fields: fields, values: cells.cells, others: values, origin: origin, body)
    }

    /// Puts the tape's copy of each field list through `replace`: a tape
    /// kept after its batch can share one list per shape with the other
    /// kept tapes.
    func replaceFieldLists(_ replace: (FieldList) -> FieldList) {
        fieldLists.replaceCopies(replace)
    }

    /// Reads a record's cell count, origin and cells, after its field list's index.
    @inline(__always)
    private static func loadCells(_ cursor: inout Cursor, into cells: inout RawCellBuffer) -> RecordOrigin {
        let cellCount = Int(cursor.load(UInt32.self))
        let origin = RecordOrigin(index: Int(cursor.load(Int64.self)), byteOffset: Int(cursor.load(Int64.self)))
        cells.removeAll()
        for _ in 0..<cellCount {
            switch Tag(rawValue: cursor.load(UInt8.self)) {
            // A tape writes no date, array or object: those are a spill's.
            case .null, nil, .date, .array, .object: cells.append(.null)
            case .no: cells.append(.bool(false))
            case .yes: cells.append(.bool(true))
            case .integer: cells.append(.integer(cursor.load(Int64.self)))
            case .double: cells.append(.double(Double(bitPattern: cursor.load(UInt64.self))))
            case .text:
                let length = Int(cursor.load(Int64.self))
                cells.append(.text(cursor.bytes(length)))
            case .number:
                let length = Int(cursor.load(Int64.self))
                cells.append(.number(cursor.bytes(length)))
            case .bytes:
                let length = Int(cursor.load(Int64.self))
                cells.append(.bytes(UnsafeRawBufferPointer(cursor.bytes(length))))
            case .value: cells.append(.other(Int(cursor.load(UInt32.self))))
            }
        }
        return origin
    }

    /// Writes the tape, or reads it from the start.
    private struct Cursor {
        let base: UnsafeRawPointer
        var offset = 0

        @inline(__always)
        mutating func load<T: FixedWidthInteger>(_: T.Type) -> T {
            let number = base.loadUnaligned(fromByteOffset: offset, as: T.self)
            offset += MemoryLayout<T>.size
            return number
        }

        @inline(__always)
        mutating func store<T: FixedWidthInteger>(_ number: T) {
            UnsafeMutableRawPointer(mutating: base).storeBytes(of: number, toByteOffset: offset, as: T.self)
            offset += MemoryLayout<T>.size
        }

        @inline(__always)
        mutating func copy(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let source = bytes.baseAddress else { return }
            WriteBuffer.copy(
                to: UnsafeMutableRawPointer(mutating: base + offset), from: UnsafeRawPointer(source), count: bytes.count)
            offset += bytes.count
        }

        @inline(__always)
        mutating func bytes(_ count: Int) -> UnsafeBufferPointer<UInt8> {
            let start = (base + offset).assumingMemoryBound(to: UInt8.self)
            offset += count
            return UnsafeBufferPointer(start: start, count: count)
        }
    }
}

/// Copies of the field lists of a batch of records, made on the reading
/// thread for the writing one.
///
/// Every record carries its field list, and each thread counts references
/// on it record after record. A list shared by both threads has its count
/// bounce between the two cores' caches each time, which costs more than
/// the rest of the record; with a copy per batch, each thread counts on
/// objects of its own.
struct FieldListCopies {
    private var sources: [FieldList] = []
    private(set) var copies: [FieldList] = []

    /// The index in `copies` of the copy of `fields`, made on first sight.
    mutating func index(of fields: FieldList) -> Int {
        if let last = sources.last, last === fields { return sources.count - 1 }
        // Records often alternate between a few lists (with and without a photo).
        for index in sources.indices.reversed().prefix(8) where sources[index] === fields { return index }
        sources.append(fields)
        copies.append(FieldList(fields.names))
        return sources.count - 1
    }

    /// The copy of `fields`.
    mutating func copy(of fields: FieldList) -> FieldList { copies[index(of: fields)] }

    /// Replaces each copy with what `replace` gives for it.
    mutating func replaceCopies(_ replace: (FieldList) -> FieldList) {
        copies = copies.map(replace)
    }

    mutating func removeAll() {
        sources.removeAll(keepingCapacity: true)
        copies.removeAll(keepingCapacity: true)
    }
}
