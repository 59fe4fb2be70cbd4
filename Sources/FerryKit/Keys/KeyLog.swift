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
//
// The log itself, raw memory, is in KeyLog+UnsafeStorage.swift.

extension KeyLog {
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
}
