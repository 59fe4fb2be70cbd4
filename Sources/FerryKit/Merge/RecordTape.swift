/// Raw records copied one after another into one buffer, so that a reading
/// thread can hand them to a writing thread without a `Value` per cell.
///
/// A raw record borrows its text from the reader, so it cannot cross
/// threads; a `Record` can, but costs a string and an array to make and as
/// much again to free. The tape copies the record's bytes, which is cheap,
/// and gives raw records back that borrow from the tape.
///
/// The records are laid out as `RecordBytes`, with their field lists
/// numbered among the tape's copies, and their nested values kept beside
/// the tape by index (`BesideValues`): the records read back point into
/// that array.
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
    @exclusivity(unchecked) private var nested = BesideValues()
    /// The tape's own copies of the records' field lists.
    @exclusivity(unchecked) private var fieldLists = FieldListCopies()
    @exclusivity(unchecked) private var cells = RawCellBuffer()
    /// The key digest of each record, when the reading thread made them
    /// (merge); else empty.
    @exclusivity(unchecked) var digests: [KeyDigest?] = []

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
        nested.values.removeAll(keepingCapacity: true)
        fieldLists.removeAll()
        digests.removeAll(keepingCapacity: true)
    }

    // MARK: - Writing

    func append(_ record: RawRecord) {
        // Room for the whole record first, then plain stores through a cursor.
        reserve(RecordBytes.size(of: record, nested: nested))
        var out = RecordBytes.Cursor(base: UnsafeRawPointer(base), offset: byteCount)
        RecordBytes.write(record, fieldList: fieldLists.index(of: record.fields), to: &out, nested: &nested)
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
        var cursor = RecordBytes.Cursor(base: UnsafeRawPointer(base))
        var nested = nested
        let others = nested.values
        // Records in a row mostly share their fields: fetched (and retained)
        // only when they change.
        var fieldsIndex = -1
        var fields = FieldList([])
        for _ in 0..<count {
            let start = cursor.offset
            let (index, origin) = RecordBytes.read(&cursor, into: &cells, nested: &nested)
            if index != fieldsIndex {
                fieldsIndex = index
                fields = fieldLists.copies[index]
            }
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
        var cursor = RecordBytes.Cursor(base: UnsafeRawPointer(base), offset: offset)
        var nested = nested
        let (index, origin) = RecordBytes.read(&cursor, into: &cells, nested: &nested)
        return try RawRecord.with(
            fields: fieldLists.copies[index], values: cells.cells, others: nested.values, origin: origin, body)
    }

    /// Puts the tape's copy of each field list through `replace`: a tape
    /// kept after its batch can share one list per shape with the other
    /// kept tapes.
    func replaceFieldLists(_ replace: (FieldList) -> FieldList) {
        fieldLists.replaceCopies(replace)
    }
}

/// A tape's nested values: kept in memory beside the tape, each written
/// as its index there (UInt32), and read back as that index.
struct BesideValues: NestedValues {
    var values: [Value] = []

    func size(of value: Value) -> Int { 4 }

    mutating func write(_ value: Value, to cursor: inout RecordBytes.Cursor) {
        cursor.store(UInt32(truncatingIfNeeded: values.count))
        values.append(value)
    }

    func read(from cursor: inout RecordBytes.Cursor) -> Int { Int(cursor.load(UInt32.self)) }
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
