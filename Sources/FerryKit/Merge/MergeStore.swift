// MARK: - Design
//
// Merge reads every input before it writes anything: the default key is
// known only once every record has been seen (a product is keyed by `sku`
// when every one has one), and `--on-conflict fail` must write nothing when
// any conflict turns up. So the records stay where the reading thread put
// them, on the `RecordTape`s it hands over, and the store keeps those tapes
// rather than recycling them. A record is then 8 bytes in the store's own
// table, its tape and its offset on it:
//
//     entries  [ (tape 0, 0) (tape 0, 57) (tape 0, 131) … (tape 9, 262011) ]
//     tapes    [ tape 0: 256 KiB of records … ]
//
// Each tape copies the field lists of its records (so that the two threads
// never count references on one object); the store swaps those copies for
// one list per shape, shared by every kept tape, so that comparing two
// records of different tapes finds its pairing of fields cached
// (`RecordEquality`'s plans are kept per pair of lists).

/// The records of a merge, in the order they were read, kept on the tapes
/// they were read onto. Used by one thread: the run-time exclusivity
/// checks are left out.
final class MergeStore {
    /// Where one record is: its tape and its offset on it.
    struct Entry {
        var tape: UInt32
        var offset: UInt32
    }

    @exclusivity(unchecked) private var tapes: [RecordTape] = []
    @exclusivity(unchecked) private(set) var entries: [Entry] = []
    /// One field list per shape, in the order the shapes were first seen.
    @exclusivity(unchecked) private(set) var shapes: [FieldList] = []
    @exclusivity(unchecked) private var shapeIndex: [[String]: Int] = [:]
    /// Cells of records looked up by index: two, for a comparison.
    @exclusivity(unchecked) private var cells = (RawCellBuffer(), RawCellBuffer())

    /// The memory the kept tapes take.
    @exclusivity(unchecked) private(set) var byteCount = 0

    deinit {
        cells.0.deallocate()
        cells.1.deallocate()
    }

    var count: Int { entries.count }

    /// Keeps `tape` and calls `body` with each of its records, its index in
    /// the store, and its key digest when the tape has them (else `.none`).
    func keep(_ tape: RecordTape, _ body: (RawRecord, Int, KeyDigest??) throws(FerryError) -> Void) throws(FerryError) {
        tape.replaceFieldLists(shared)
        let tapeIndex = UInt32(tapes.count)
        tapes.append(tape)
        // What the tape takes, not what it holds: a tape is sent half full
        // or more, and kept as it is.
        byteCount += tape.capacity
        let digests = tape.digests
        var position = 0
        try tape.forEachWithOffset { (record, offset) throws(FerryError) in
            // Offsets are 32 bits: a tape past 4 GiB (records of more than
            // 4 GiB, possible only with --max-record-bytes raised) is refused.
            guard offset <= Int(UInt32.max) else {
                throw .recordTooLarge(
                    limit: Int(UInt32.max), at: SourceLocation(byteOffset: record.origin.byteOffset, record: record.origin.index))
            }
            entries.append(Entry(tape: tapeIndex, offset: UInt32(truncatingIfNeeded: offset)))
            try body(record, entries.count - 1, position < digests.count ? .some(digests[position]) : .none)
            position += 1
        }
        // Kept with the tape, they would cost 24 bytes a record.
        tape.digests = []
    }

    /// Calls `body` with record `index` (0-based, in reading order).
    func withRecord<Result>(_ index: Int, _ body: (RawRecord) throws(FerryError) -> Result) throws(FerryError) -> Result {
        let entry = entries[index]
        return try tapes[Int(entry.tape)].withRecord(at: Int(entry.offset), cells: &cells.0, body)
    }

    /// Calls `body` with records `first` and `second` at once.
    func withRecords<Result>(
        _ first: Int, _ second: Int, _ body: (RawRecord, RawRecord) throws(FerryError) -> Result
    ) throws(FerryError) -> Result {
        let a = entries[first]
        let b = entries[second]
        var other = RawCellBuffer()
        swap(&other, &cells.1)
        defer { swap(&other, &cells.1) }
        return try tapes[Int(a.tape)].withRecord(at: Int(a.offset), cells: &cells.0) { (x) throws(FerryError) in
            try tapes[Int(b.tape)].withRecord(at: Int(b.offset), cells: &other) { (y) throws(FerryError) in
                try body(x, y)
            }
        }
    }

    /// Calls `body` with each record before record `end`, in reading order,
    /// and its index; `body` may look records up meanwhile.
    func forEach(before end: Int, _ body: (RawRecord, Int) throws(FerryError) -> Void) throws(FerryError) {
        var own = RawCellBuffer()
        defer { own.deallocate() }
        for index in 0..<end {
            let entry = entries[index]
            try tapes[Int(entry.tape)].withRecord(at: Int(entry.offset), cells: &own) { (record) throws(FerryError) in
                try body(record, index)
            }
        }
    }

    /// Calls `body` with records `indices`, which ascend, and each one's
    /// index: the tapes are read in order, which costs less than looking
    /// each record up.
    func forEach(ascending indices: [UInt32], _ body: (RawRecord, Int) throws(FerryError) -> Void) throws(FerryError) {
        var next = 0
        var index = 0
        for tape in tapes where next < indices.count {
            let end = index + tape.count
            guard Int(indices[next]) < end else {
                index = end
                continue
            }
            try tape.forEachWithOffset { (record, _) throws(FerryError) in
                if next < indices.count && Int(indices[next]) == index {
                    try body(record, index)
                    next += 1
                }
                index += 1
            }
        }
    }

    /// The names of every field, in the order they were first seen.
    static func union(of shapes: [FieldList]) -> [String] {
        var seen = Set<String>()
        var names: [String] = []
        for shape in shapes {
            for name in shape.names where seen.insert(name).inserted { names.append(name) }
        }
        return names
    }

    /// The one list of the shape `fields` has.
    private func shared(_ fields: FieldList) -> FieldList {
        if let index = shapeIndex[fields.names] { return shapes[index] }
        shapeIndex[fields.names] = shapes.count
        shapes.append(fields)
        return fields
    }
}
