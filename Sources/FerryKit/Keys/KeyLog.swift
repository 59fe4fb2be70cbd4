#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FerryCore

// MARK: - Design
//
// The unique keys of a file read in parts (`Validator+Parts.swift`) are
// not looked up as they are read. Each part logs each key instead: its
// digest (`KeyDigest`, over `KeyText`), the unique field, the record and
// its byte offset, into one of 64 partitions by the digest's top bits.
// Logging is a store to the end of one of 64 runs of memory, with no cache
// miss of a large table. Once every part is read, the partitions are
// taken one at a time, a run of them on each thread: the first part's entries
// then the next's, and so on (the file's order), and a key whose digest and
// field an earlier entry had is a duplicate of that entry's record:
//
//     partition 0x3A:  first  [A r12] [B r40]    second  [A r7]
//     table (small):   A→12, B→40;  second's A r7 = file record 500,007:
//                      a duplicate of record 12
//
// A partition holds about 1/64 of the keys, so its table stays in the
// core's own cache, where one table of all the keys took a cache and TLB
// miss a key (and a pass of its own to find the keys the parts share).
// The duplicates go to the report in the records' order (`FileCheck.adopt`),
// each found again in the file, as one pass gives them.
//
// The partitions are cut into runs of neighbours, one a thread the caller
// may use (`--jobs`), all matched at once (`inRuns`); what each run finds
// is gathered in the partitions' order, so the result is the same for any
// number of threads.
//
// The spooled merge (`SpooledMerge`) logs its records' keys the same way,
// one log a part (a record without a key too: `appendWithoutKey`), and
// walks each partition of every part's log in reading order
// (`forEach(in:of:)`) into its own table, `MergeIndex`, which settles
// duplicates by the merge's policy.
//
// `validate --combine` matches its shards' keys the same way: each shard
// report's keys go into a log of their own (`ReportCombiner`), in order.
// So does `schema infer`, for every field that may be unique: each read
// logs its fields' keys, and `repeatedFields` says which fields had a key
// twice, each read's field numbers renamed to the fields of the schema
// (`FieldProfiles`).

/// The unique keys one part of a file saw, for the check of all its parts
/// at once, or the keys of one part of a merge's input (see the design
/// above). One thread at a time uses a log.
final class KeyLog: @unchecked Sendable {
    /// A key as the part logged it: 32 bytes.
    struct Entry {
        var low: UInt64
        var high: UInt64
        /// The record (0-based in the half) in the low 48 bits, the unique
        /// field (its index in `RecordRules.uniqueFields`) in the top 16:
        /// a half of 2^48 records, a schema of 2^16 unique fields.
        var recordAndKey: UInt64
        /// The record's byte offset in the half's input. (A merge's part
        /// keeps its record's value digest here: its offsets are a column
        /// of their own, `SpooledMerge`.)
        var byteOffset: Int

        var record: Int { Int(truncatingIfNeeded: recordAndKey & 0xFFFF_FFFF_FFFF) }
        var key: UInt64 { recordAndKey >> 48 }
        /// The key's digest; nil for a record without a key (`appendWithoutKey`).
        var digest: KeyDigest? { key == KeyLog.noKey ? nil : KeyDigest(low: low, high: high) }
    }

    /// A key that an earlier record of the file had, in the file's records
    /// and bytes.
    struct Duplicate {
        var record: Int
        var key: Int
        var first: Int
        var byteOffset: Int
        /// The log that had it: its index in those `duplicates` was given.
        var part: Int
        var digest: KeyDigest
    }

    /// The records a log can tell apart: 48 bits of an entry hold one.
    static let recordLimit = 1 << 48
    /// The field of a record without a key (`appendWithoutKey`); no unique
    /// field has this number.
    static let noKey: UInt64 = 0xFFFF

    static let partitionBits = 6
    static let partitionCount = 1 << partitionBits
    /// Entries a chunk of a partition holds (32 KiB).
    private static let chunkEntries = 1024

    /// Each partition's chunks, all full but the last, which `ends` says how
    /// far is filled. The last chunk of each is also in `current`, so that
    /// appending touches no Swift array (no reference counting, no checks
    /// of uniqueness).
    @exclusivity(unchecked) private var chunks: [[UnsafeMutablePointer<Entry>]]
    private let current: UnsafeMutablePointer<UnsafeMutablePointer<Entry>?>
    private let ends: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) private(set) var count = 0
    /// Where the chunks are cut from, one after another: mapped memory that
    /// grows (`LargeBuffer`), zero from the kernel, rather than a `malloc`
    /// each. A chunk the system cannot map comes from the allocator.
    @exclusivity(unchecked) private var arena = LargeBuffer()
    /// The bytes of `arena` cut into chunks.
    @exclusivity(unchecked) private var arenaUsed = 0
    /// The entries past which no chunk is added, as when the system has no
    /// memory for one (tests lower it to reach that case).
    private let entryLimit: Int

    init(entryLimit: Int = .max) {
        self.entryLimit = entryLimit
        chunks = Array(repeating: [], count: Self.partitionCount)
        current = .allocate(capacity: Self.partitionCount)
        current.initialize(repeating: nil, count: Self.partitionCount)
        ends = .allocate(capacity: Self.partitionCount)
        ends.initialize(repeating: Self.chunkEntries, count: Self.partitionCount)
    }

    deinit {
        freeChunks()
        current.deallocate()
        ends.deallocate()
    }

    /// Frees every entry: the log is empty after, as a new one (a merge's,
    /// once matched, before its output is written).
    func removeAll() {
        freeChunks()
        (arena, arenaUsed, packed, count) = (LargeBuffer(), 0, nil, 0)
        chunks = Array(repeating: [], count: Self.partitionCount)
        current.update(repeating: nil, count: Self.partitionCount)
        ends.update(repeating: Self.chunkEntries, count: Self.partitionCount)
    }

    /// Gives back the memory of `partition`'s entries, which are read no
    /// more (a merge's, once that partition is matched): the peak of a
    /// merge's memory is while its keys are matched, and each partition
    /// matched frees 1/64 of the logs as the tables and the kept records
    /// grow. Threads may discard different partitions of one log at once.
    /// The log may only be emptied (`removeAll`) after.
    func discard(partition: Int) {
        guard packed == nil, let base = arena.base else { return }
        for chunk in chunks[partition] where inArena(chunk) {
            let offset = UnsafeMutableRawPointer(chunk) - base
            arena.discard(offset..<offset + Self.chunkBytes)
        }
    }

    /// Frees every chunk and the arena.
    private func freeChunks() {
        if let packed {
            packed.deallocate()
        } else {
            for partition in chunks {
                for chunk in partition where !inArena(chunk) { free(chunk) }
            }
        }
        arena.release()
    }

    // MARK: - Packing

    /// A packed log's entries, partition after partition (`pack()`); nil
    /// before.
    @exclusivity(unchecked) private var packed: UnsafeMutablePointer<Entry>?
    /// The most entries `pack()` moves: past it, the arena's pages are full.
    static let packLimit = 1 << 14

    /// Moves the entries of a small log (`packLimit`) into one allocation
    /// of their size, and frees its arena: a log keeps a page of each
    /// partition it has a key in, which `schema infer` pays for each of
    /// thousands of small files it may read (1,000 files of 10 records
    /// took 149 MB, where their own tables had taken 38 MB). The order of
    /// each partition's entries stays; no entry may be appended after.
    func pack() {
        guard packed == nil, count <= Self.packLimit else { return }
        let block = UnsafeMutablePointer<Entry>.allocate(capacity: max(count, 1))
        var packedChunks: [[UnsafeMutablePointer<Entry>]] = Array(repeating: [], count: Self.partitionCount)
        var packedEnds = [Int](repeating: Self.chunkEntries, count: Self.partitionCount)
        var filled = 0
        for partition in 0..<Self.partitionCount {
            let start = filled
            forEach(in: partition) { entry in
                (block + filled).initialize(to: entry)
                filled += 1
            }
            if filled > start { (packedChunks[partition], packedEnds[partition]) = ([block + start], filled - start) }
        }
        freeChunks()
        (arena, arenaUsed, chunks, packed) = (LargeBuffer(), 0, packedChunks, block)
        for partition in 0..<Self.partitionCount {
            current[partition] = packedChunks[partition].first
            ends[partition] = packedEnds[partition]
        }
    }

    private static let chunkBytes = chunkEntries * MemoryLayout<Entry>.stride
    /// The arena's first size (128 chunks); it doubles after.
    private static let firstArenaBytes = 4 << 20

    private func inArena(_ chunk: UnsafeMutablePointer<Entry>) -> Bool {
        guard let base = arena.base else { return false }
        let at = UnsafeMutableRawPointer(chunk)
        return at >= base && at < base + arenaUsed
    }

    /// Logs key `key` of `record`, with its digest.
    /// - Throws: `io.outOfMemory` when the system has no memory for it.
    @inline(__always)
    func append(_ digest: KeyDigest, key: Int, record: Int, byteOffset: Int) throws(FerryError) {
        let partition = Int(truncatingIfNeeded: digest.high >> UInt64(64 - Self.partitionBits))
        var end = ends[partition]
        if end == Self.chunkEntries { end = try newChunk(partition) }
        current[partition].unsafelyUnwrapped.advanced(by: end).initialize(
            to: Entry(
                low: digest.low, high: digest.high,
                recordAndKey: UInt64(truncatingIfNeeded: record) & 0xFFFF_FFFF_FFFF | UInt64(truncatingIfNeeded: key) << 48,
                byteOffset: byteOffset))
        ends[partition] = end + 1
        count += 1
    }

    /// Logs a record without a key, in partition 0 (as the merge keeps it
    /// in its place: `MergeIndex` counts it, never matches it).
    func appendWithoutKey(record: Int, byteOffset: Int) throws(FerryError) {
        try append(KeyDigest(low: 0, high: 0), key: Int(Self.noKey), record: record, byteOffset: byteOffset)
    }

    /// Starts a chunk for `partition`; returns its first free entry (0).
    /// - Throws: `io.outOfMemory` when neither the arena nor the allocator has one.
    private func newChunk(_ partition: Int) throws(FerryError) -> Int {
        guard count < entryLimit,
            let chunk = arenaChunk() ?? malloc(Self.chunkBytes)?.bindMemory(to: Entry.self, capacity: Self.chunkEntries)
        else { throw .ioOutOfMemory() }
        chunks[partition].append(chunk)
        current[partition] = chunk
        return 0
    }

    /// The next chunk of the arena, grown as needed (its chunks move with
    /// it); nil when it cannot grow.
    private func arenaChunk() -> UnsafeMutablePointer<Entry>? {
        if arenaUsed + Self.chunkBytes > arena.capacity {
            let old = arena.base
            guard arena.grow(to: max(arenaUsed + Self.chunkBytes, Self.firstArenaBytes)) else { return nil }
            if let old, let base = arena.base, old != base {
                let end = old + arenaUsed
                for partition in chunks.indices {
                    for index in chunks[partition].indices {
                        let at = UnsafeMutableRawPointer(chunks[partition][index])
                        guard at >= old && at < end else { continue }
                        chunks[partition][index] = (base + (at - old)).assumingMemoryBound(to: Entry.self)
                    }
                    current[partition] = chunks[partition].last
                }
            }
        }
        guard let base = arena.base else { return nil }
        let chunk = (base + arenaUsed).bindMemory(to: Entry.self, capacity: Self.chunkEntries)
        arenaUsed += Self.chunkBytes
        return chunk
    }

    /// The entries of `partition`, in the order logged.
    @inline(__always)
    private func forEach<Failure: Error>(
        in partition: Int, _ body: (Entry) throws(Failure) -> Void
    ) throws(Failure) {
        let list = chunks[partition]
        for (index, chunk) in list.enumerated() {
            let filled = index == list.count - 1 ? ends[partition] : Self.chunkEntries
            for entry in 0..<filled { try body(chunk[entry]) }
        }
    }

    /// The entries of `partition` in `logs`, log after log, each in the
    /// order logged (a file's parts: the file's order), with their log's
    /// index in `logs`.
    static func forEach<Failure: Error>(
        in partition: Int, of logs: [KeyLog], _ body: (_ log: Int, Entry) throws(Failure) -> Void
    ) throws(Failure) {
        for (number, log) in logs.enumerated() {
            try log.forEach(in: partition) { (entry) throws(Failure) in try body(number, entry) }
        }
    }

    /// The most entries any of `partitions` holds in `logs` together: what
    /// a table of one partition at a time must take.
    static func largest(in logs: [KeyLog], partitions: Range<Int>) -> Int {
        partitions.reduce(0) { total, partition in max(total, logs.reduce(0) { $0 + $1.count(in: partition) }) }
    }

    /// How many entries `partition` holds.
    private func count(in partition: Int) -> Int {
        chunks[partition].isEmpty ? 0 : (chunks[partition].count - 1) * Self.chunkEntries + ends[partition]
    }

    /// The duplicates of the file whose parts logged `logs`, in the file's
    /// order, in the records' order (and the fields' within a record): a
    /// key's first record is the earliest part's. The partitions are
    /// shared among `threads` threads (`inRuns`); what they find is the
    /// same whatever their number.
    /// - Parameters:
    ///   - records: the records before each part: added to its own.
    ///   - bytes: added to each part's byte offsets.
    ///   - threads: the threads that may match at once (`--jobs`).
    static func duplicates(in logs: [KeyLog], records: [Int], bytes: [Int], threads: Int) -> [Duplicate] {
        let parts = Array(zip(logs, zip(records, bytes)).map { Part(log: $0, records: $1.0, bytes: $1.1) })
        var found = gathered(threads: threads) { partitions in
            var found: [Duplicate] = []
            match(parts, partitions: partitions) { entry, key, record, earlier, part in
                found.append(
                    Duplicate(
                        record: record, key: Int(key), first: earlier,
                        byteOffset: entry.byteOffset + parts[part].bytes, part: part,
                        digest: KeyDigest(low: entry.low, high: entry.high)))
            }
            return found
        }
        found.sort { ($0.record, $0.key) < ($1.record, $1.key) }
        return found
    }

    /// The fields whose keys repeat in `logs`, as `duplicates` finds them,
    /// when all that matters is whether a field has a repeat, not where
    /// (`schema infer`'s `x-ferry-unique`). Each log's fields are renamed
    /// by its list in `fields` (a field past the end of its list, or
    /// renamed `ignored`, is not matched), so that logs that number the
    /// same fields differently are matched by the names they share.
    /// - Parameter threads: the threads that may match at once, as in
    ///   `duplicates` (1: this one alone).
    /// - Returns: the renamed fields of which some key came twice or more.
    static func repeatedFields(in logs: [KeyLog], fields: [[UInt64]], threads: Int) -> Set<UInt64> {
        let parts = zip(logs, fields).map { Part(log: $0, records: 0, bytes: 0, fields: $1) }
        let find = { @Sendable (partitions: Range<Int>) -> [UInt64] in
            var found: Set<UInt64> = []
            match(parts, partitions: partitions) { _, key, _, _, _ in found.insert(key) }
            return Array(found)
        }
        return Set(gathered(threads: threads, find))
    }

    /// A renaming that leaves out the field it gives (`repeatedFields`).
    static let ignored = UInt64.max

    // MARK: - Partitions on several threads

    /// The partitions cut into `threads` runs of neighbours (at most one a
    /// partition, at least one), each matched by `body(run, partitions)` on
    /// a thread of its own (`LargeStackThread.each`; this one among them),
    /// all at once; returns when every run is done. Each run matches its
    /// partitions with one table, made for the largest.
    static func inRuns(threads: Int, _ body: @escaping @Sendable (_ run: Int, _ partitions: Range<Int>) -> Void) {
        let runs = runCount(threads: threads)
        LargeStackThread.each(runs, threads: runs) { run in body(run, partitions(ofRun: run, of: runs)) }
    }

    /// How many runs `inRuns` cuts the partitions into for `threads`.
    static func runCount(threads: Int) -> Int { min(max(threads, 1), partitionCount) }

    /// The partitions of run `run` of `runs`.
    private static func partitions(ofRun run: Int, of runs: Int) -> Range<Int> {
        run * partitionCount / runs..<(run + 1) * partitionCount / runs
    }

    /// What `body` found over each run of the partitions (`inRuns`), in
    /// the partitions' order: the same whatever the number of threads.
    private static func gathered<Found>(
        threads: Int, _ body: @escaping @Sendable (Range<Int>) -> [Found]
    ) -> [Found] {
        let batches = (0..<runCount(threads: threads)).map { _ in Batch<Found>() }
        inRuns(threads: threads) { run, partitions in batches[run].found = body(partitions) }
        return batches.flatMap(\.found)
    }

    /// A part's log and its shift to the file.
    private struct Part: @unchecked Sendable {
        let log: KeyLog
        let records: Int
        let bytes: Int
        /// The log's fields renamed (see `repeatedFields`); empty when the
        /// fields keep their numbers.
        var fields: [UInt64] = []
    }

    /// What one run found; only its thread touches it until it is done.
    private final class Batch<Found>: @unchecked Sendable {
        var found: [Found] = []
    }

    /// Matches the keys of `partitions` in `parts`, in the file's order,
    /// and calls `found` with each entry whose key (field and digest) an
    /// earlier entry had: the entry, its field (renamed), its file record,
    /// the file record of that earlier entry, and its part's index.
    private static func match(
        _ parts: [Part], partitions: Range<Int>, found: (Entry, UInt64, Int, Int, Int) -> Void
    ) {
        let logs = parts.map(\.log)
        var table = PartitionTable(capacity: largest(in: logs, partitions: partitions))
        defer { table.release() }
        for partition in partitions {
            table.clear()
            for (number, part) in parts.enumerated() {
                let fields = part.fields
                part.log.forEach(in: partition) { entry in
                    var key = entry.key
                    if !fields.isEmpty {
                        key = key < fields.count ? fields[Int(key)] : ignored
                        if key == ignored { return }
                    }
                    let record = entry.record + part.records
                    if let earlier = table.insert(entry, key: key, record: record) {
                        found(entry, key, record, earlier, number)
                    }
                }
            }
        }
    }

    /// The keys of one partition: an open-addressing table, at most half
    /// full, made once for the largest partition and cleared between them.
    private struct PartitionTable {
        private struct Slot {
            var low: UInt64
            var high: UInt64
            var key: UInt64
            /// The record that had the key first, plus 1; 0 for an empty slot.
            var record: Int
        }

        private let slots: UnsafeMutablePointer<Slot>
        private let mask: Int
        /// The slots in use, to clear them alone.
        private let used: UnsafeMutablePointer<Int>
        private var usedCount = 0

        init(capacity: Int) {
            var size = 16
            while size < capacity * 2 { size *= 2 }
            slots = .allocate(capacity: size)
            slots.initialize(repeating: Slot(low: 0, high: 0, key: 0, record: 0), count: size)
            mask = size - 1
            used = .allocate(capacity: max(capacity, 1))
        }

        /// Frees the table's memory; it must not be used after.
        func release() {
            slots.deallocate()
            used.deallocate()
        }

        mutating func clear() {
            for index in 0..<usedCount { slots[used[index]].record = 0 }
            usedCount = 0
        }

        /// Adds the entry's digest as a key of field `key`, of file record `record`.
        /// - Returns: the file record that had it first, or nil when it is new.
        @inline(__always)
        mutating func insert(_ entry: Entry, key: UInt64, record: Int) -> Int? {
            // The top bits chose the partition: the index takes the low ones.
            var index = Int(truncatingIfNeeded: entry.low) & mask
            while slots[index].record != 0 {
                let slot = slots[index]
                if slot.low == entry.low && slot.high == entry.high && slot.key == key { return slot.record - 1 }
                index = (index + 1) & mask
            }
            slots[index] = Slot(low: entry.low, high: entry.high, key: key, record: record + 1)
            used[usedCount] = index
            usedCount += 1
            return nil
        }
    }
}
