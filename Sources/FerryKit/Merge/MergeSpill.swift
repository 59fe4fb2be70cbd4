// MARK: - Design
//
// When a merge's records outgrow its memory budget (`--memory`), they go to
// a temporary file (`AnonymousFile`, self-contained records: `SpilledRecord`) and the merge runs
// as an external sort, in memory that the budget bounds:
//
//  1. records are appended to the file in reading order; record n is the
//     n-th (its "sequence"), as it is the n-th of the store in memory;
//  2. the file is read once more, each record keyed (`KeyFields`), and its
//     key's digest, sequence and offset (a `KeyLog.Entry`) gathered into runs of
//     a third of the budget, each sorted by digest then sequence and
//     written out (the sort borrows half a run more: half the budget in all);
//  3. the runs are merged: the entries of one key come together, in
//     reading order, so the first is the record first seen; each later one
//     is read back (pread) and compared with the record then kept, exactly
//     as the index in memory compares them (`RecordEquality`);
//  4. the file is read a last time, in order, and the first record of each
//     key is written, or the record kept in its place (keep-last).
//
// What stays in memory is a bit per record (kept or not), the keep-last
// replacements and the conflicts, which the report lists anyway. The
// outcome is the in-memory merge's, conflict for conflict.

/// The records of a merge on disk, and the merge of their keys there.
final class MergeSpill {
    private let file: AnonymousFile
    private let runs: AnonymousFile
    /// One field list per shape, as spilled records name them.
    private(set) var shapes: [FieldList] = []
    private var shapeByNames: [[String]: Int] = [:]
    private var lastShape: (fields: FieldList, index: Int)?
    private var encoded: [UInt8] = []
    private(set) var count = 0
    private var cells = (RawCellBuffer(), RawCellBuffer())
    private var readBuffers: ([UInt8], [UInt8]) = ([], [])

    /// One key in a run: a key log's entry (32 bytes), whose record is
    /// the record's sequence and byte offset its offset in the file.
    private typealias Entry = KeyLog.Entry

    /// What the merge of the keys found: the records kept (a bit each), the
    /// keep-last replacements, the counts and the conflicts.
    struct Outcome {
        var keptBits: [UInt64] = []
        /// The record kept in the place of the first of its key, by keep-last.
        var replacements: [Int: (offset: Int, sequence: Int)] = [:]
        var identicalDuplicates = 0
        var recordsWithoutKey = 0
        var recordsOut = 0
        var conflicts: [MergeIndex.Conflict] = []
        /// The offset of each record a conflict names.
        var offsets: [Int: Int] = [:]
    }

    init() throws(FerryError) {
        file = try AnonymousFile(purpose: "merge")
        runs = try AnonymousFile(purpose: "merge-runs")
    }

    deinit {
        cells.0.deallocate()
        cells.1.deallocate()
    }

    // MARK: - 1. Records

    /// Appends `record`, the next in reading order.
    func append(_ record: RawRecord) throws(FerryError) {
        encoded.removeAll(keepingCapacity: true)
        try SpilledRecord.encode(record, shape: shape(of: record.fields), to: &encoded)
        try file.append(encoded)
        count += 1
    }

    private func shape(of fields: FieldList) -> Int {
        if let last = lastShape, last.fields === fields { return last.index }
        let index = shapeByNames[fields.names] ?? shapes.count
        if index == shapes.count {
            shapes.append(fields)
            shapeByNames[fields.names] = index
        }
        lastShape = (fields, index)
        return index
    }

    /// Calls `body` with every record in reading order: the record, its
    /// sequence and its offset in the file.
    func forEach(_ body: (RawRecord, Int, Int) throws(FerryError) -> Void) throws(FerryError) {
        try file.flush()
        var window: [UInt8] = []
        var windowStart = 0
        var offset = 0
        var own = RawCellBuffer()
        defer { own.deallocate() }
        for sequence in 0..<count {
            var at = offset - windowStart
            if window.count - at < 4 || window.count - at < Self.length(in: window, at: at) {
                // The next record whole in the window, read from its start.
                let size = min(max(1 << 20, try recordLength(at: offset)), file.size - offset)
                if window.count != size { window = [UInt8](repeating: 0, count: size) }
                try window.withMutableBytes { (bytes) throws(FerryError) in try file.read(at: offset, into: bytes) }
                windowStart = offset
                at = 0
            }
            let length = Self.length(in: window, at: at)
            try window.withBytes { (bytes) throws(FerryError) in
                try SpilledRecord.decode(UnsafeRawBufferPointer(rebasing: bytes[at..<at + length]), shapes: shapes, cells: &own) {
                    (record) throws(FerryError) in try body(record, sequence, offset)
                }
            }
            offset += length
        }
    }

    private static func length(in window: [UInt8], at offset: Int) -> Int {
        window.withUnsafeBytes { SpilledRecord.length(header: UnsafeRawBufferPointer(rebasing: $0[offset..<offset + 4])) }
    }

    private func recordLength(at offset: Int) throws(FerryError) -> Int {
        var header: UInt32 = 0
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 4, alignment: 4)
        defer { bytes.deallocate() }
        try file.read(at: offset, into: bytes)
        header = bytes.loadUnaligned(as: UInt32.self)
        return Int(UInt32(littleEndian: header)) + 4
    }

    /// Calls `body` with the record at `offset`.
    func withRecord<Result>(at offset: Int, _ body: (RawRecord) throws(FerryError) -> Result) throws(FerryError) -> Result {
        try withRecord(at: offset, buffer: &readBuffers.0, cells: &cells.0, body)
    }

    private func withRecord<Result>(
        at offset: Int, buffer: inout [UInt8], cells: inout RawCellBuffer, _ body: (RawRecord) throws(FerryError) -> Result
    ) throws(FerryError) -> Result {
        let length = try recordLength(at: offset)
        if buffer.count < length { buffer = [UInt8](repeating: 0, count: length) }
        try buffer.withMutableBytes { (bytes) throws(FerryError) in
            try file.read(at: offset, into: UnsafeMutableRawBufferPointer(rebasing: bytes[0..<length]))
        }
        return try buffer.withBytes { (bytes) throws(FerryError) -> Result in
            try SpilledRecord.decode(UnsafeRawBufferPointer(rebasing: bytes[0..<length]), shapes: shapes, cells: &cells, body)
        }
    }

    // MARK: - 2 and 3. Runs, merged

    /// Matches the records by `index`'s key fields, comparing duplicates as
    /// it does, with runs of at most `budget` bytes.
    func merge(with index: MergeIndex, budget: Int) throws(FerryError) -> Outcome {
        var outcome = Outcome()
        outcome.keptBits = [UInt64](repeating: 0, count: (count + 63) / 64)
        // The standard sort is a merge sort that borrows room for half the
        // entries: runs of a third of the budget keep both within half of it.
        let perRun = max(budget / 3 / MemoryLayout<Entry>.stride, 1024)
        var buffer: [Entry] = []
        buffer.reserveCapacity(perRun)
        var runList: [(start: Int, count: Int)] = []
        func writeRun() throws(FerryError) {
            buffer.sort(by: <)
            runList.append((runs.size, buffer.count))
            try buffer.withBytes { (bytes) throws(FerryError) in try runs.append(bytes) }
            buffer.removeAll(keepingCapacity: true)
        }
        try forEach { (record, sequence, offset) throws(FerryError) in
            guard let digest = index.keyFields.digest(of: record) else {
                outcome.recordsWithoutKey += 1
                outcome.keptBits[sequence >> 6] |= 1 << UInt64(sequence & 63)
                return
            }
            buffer.append(Entry(digest, sequence: sequence, offset: offset))
            if buffer.count >= perRun { try writeRun() }
        }
        if !buffer.isEmpty { try writeRun() }
        try runs.flush()
        buffer = []
        var readers = runList.map { RunReader(start: $0.start, count: $0.count, chunk: max(perRun / max(runList.count, 1), 256)) }
        var group: (first: Entry, kept: Entry)?
        while true {
            var best: Int?
            for position in readers.indices {
                guard let entry = try readers[position].peek(runs) else { continue }
                if let chosen = best, !(entry < readers[chosen].current!) { continue }
                best = position
            }
            guard let chosen = best else { break }
            let entry = readers[chosen].current!
            readers[chosen].advance()
            if let current = group, current.first.low == entry.low && current.first.high == entry.high {
                group?.kept = try compare(current.kept, entry, index: index, outcome: &outcome)
            } else {
                if let current = group { finishGroup(current, outcome: &outcome) }
                group = (entry, entry)
                let sequence = entry.record
                outcome.keptBits[sequence >> 6] |= 1 << UInt64(sequence & 63)
            }
        }
        if let current = group { finishGroup(current, outcome: &outcome) }
        outcome.recordsOut = outcome.keptBits.reduce(0) { $0 + $1.nonzeroBitCount }
        outcome.conflicts.sort { $0.second < $1.second }
        return outcome
    }

    private func finishGroup(_ group: (first: Entry, kept: Entry), outcome: inout Outcome) {
        if group.kept.record != group.first.record {
            outcome.replacements[group.first.record] = (group.kept.byteOffset, group.kept.record)
        }
    }

    /// Compares a duplicate with the record kept for its key, as
    /// `MergeIndex` does.
    /// - Returns: the entry kept after it.
    private func compare(_ kept: Entry, _ entry: Entry, index: MergeIndex, outcome: inout Outcome) throws(FerryError) -> Entry {
        var second = RawCellBuffer()
        var secondBuffer: [UInt8] = []
        swap(&second, &cells.1)
        swap(&secondBuffer, &readBuffers.1)
        defer {
            swap(&second, &cells.1)
            swap(&secondBuffer, &readBuffers.1)
        }
        let conflict = try withRecord(at: kept.byteOffset) { (earlier) throws(FerryError) -> MergeIndex.Conflict? in
            try withRecord(at: entry.byteOffset, buffer: &secondBuffer, cells: &second) { (later) throws(FerryError) in
                index.conflict(earlier, later, first: kept.record, second: entry.record)
            }
        }
        guard let conflict else {
            outcome.identicalDuplicates += 1
            return kept
        }
        outcome.conflicts.append(conflict)
        outcome.offsets[kept.record] = kept.byteOffset
        outcome.offsets[entry.record] = entry.byteOffset
        return conflict.keptSecond ? entry : kept
    }

    /// Reads one sorted run in chunks.
    private struct RunReader {
        var next: Int
        let end: Int
        let chunk: Int
        var entries: [Entry] = []
        var position = 0

        init(start: Int, count: Int, chunk: Int) {
            next = start
            end = start + count * MemoryLayout<Entry>.stride
            self.chunk = chunk
        }

        var current: Entry? { position < entries.count ? entries[position] : nil }

        mutating func advance() { position += 1 }

        /// The current entry, reading the next chunk when needed.
        mutating func peek(_ file: AnonymousFile) throws(FerryError) -> Entry? {
            if position < entries.count { return entries[position] }
            guard next < end else { return nil }
            let count = min(chunk, (end - next) / MemoryLayout<Entry>.stride)
            entries = [Entry](repeating: Entry(low: 0, high: 0, recordAndKey: 0, byteOffset: 0), count: count)
            try entries.withMutableBytes { (bytes) throws(FerryError) in try file.read(at: next, into: bytes) }
            next += count * MemoryLayout<Entry>.stride
            position = 0
            return entries.first
        }
    }
}

extension KeyLog.Entry {
    /// The key `digest` of record `sequence`, at `offset` in the spill.
    fileprivate init(_ digest: KeyDigest, sequence: Int, offset: Int) {
        self.init(low: digest.low, high: digest.high, recordAndKey: UInt64(sequence), byteOffset: offset)
    }

    /// A run's order: by digest, then sequence.
    fileprivate static func < (a: Self, b: Self) -> Bool {
        (a.low, a.high, a.recordAndKey) < (b.low, b.high, b.recordAndKey)
    }
}

extension Array {
    /// `withUnsafeBytes`, keeping the type of what `body` throws.
    fileprivate func withBytes<Result>(
        _ body: (UnsafeRawBufferPointer) throws(FerryError) -> Result
    ) throws(FerryError) -> Result {
        try withUnsafeBytes { bytes in Swift.Result { () throws(FerryError) -> Result in try body(bytes) } }.get()
    }

    /// `withUnsafeMutableBytes`, keeping the type of what `body` throws.
    fileprivate mutating func withMutableBytes<Result>(
        _ body: (UnsafeMutableRawBufferPointer) throws(FerryError) -> Result
    ) throws(FerryError) -> Result {
        try withUnsafeMutableBytes { bytes in Swift.Result { () throws(FerryError) -> Result in try body(bytes) } }.get()
    }
}
