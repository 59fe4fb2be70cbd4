// The spooled merge's matching (see the design note in
// `SpooledMerge.swift`): each part's keys, logged in a `KeyLog`, matched a
// partition at a time by `MergeIndex`, on the threads `--jobs` allows.

// MARK: - Matching

/// Partitions of the keys, matched on one thread, one after another.
///
/// `MergeIndex` numbers the records of a partition by their place in it,
/// and `PartitionRecords` finds each one's value digest there, in its
/// key's entry (`Part.append`): a duplicate is compared with the record
/// kept for its key with no look-up in the columns of all the records.
/// The places go back to reading order once a partition is matched.
final class PartitionMatcher: @unchecked Sendable {
    /// Each part's keys, in reading order.
    let logs: [KeyLog]
    /// Each part's first record among all records read.
    let firstSequences: [Int]
    let index: MergeIndex
    let equalPairs: Set<UInt64>
    /// Shared by every job; each writes only the records of its partitions.
    let keptAt: Column<UInt32>
    /// Whether a partition's entries are given back once it is matched
    /// (`KeyLog.discard`): not under keep-last, which may match again.
    let discards: Bool
    @exclusivity(unchecked) private(set) var succeeded = false
    @exclusivity(unchecked) private(set) var identicalDuplicates = 0
    @exclusivity(unchecked) private(set) var recordsWithoutKey = 0
    /// The records its partitions kept.
    @exclusivity(unchecked) private(set) var keptCount = 0
    @exclusivity(unchecked) private(set) var conflicts: [MergeIndex.Conflict] = []

    init(
        logs: [KeyLog], firstSequences: [Int], index: MergeIndex, equalPairs: Set<UInt64>, keptAt: Column<UInt32>,
        discards: Bool
    ) {
        self.logs = logs
        self.firstSequences = firstSequences
        self.index = index
        self.equalPairs = equalPairs
        self.keptAt = keptAt
        self.discards = discards
    }

    /// Adds each partition's records in reading order, then notes the
    /// records it kept at their keys' first records.
    func run(_ partitions: Range<Int>) {
        let records = PartitionRecords(
            capacity: KeyLog.largest(in: logs, partitions: partitions), equalPairs: equalPairs)
        defer { records.release() }
        do throws(FerryError) {
            for partition in partitions {
                index.clear()
                var place = 0
                try firstSequences.withUnsafeBufferPointer { (firsts) throws(FerryError) in
                    try KeyLog.forEach(in: partition, of: logs) { (part, entry) throws(FerryError) in
                        records.places[place] = PartitionRecords.Place(entry, sequence: firsts[part] + entry.record)
                        try index.add(index: place, digest: entry.digest, records: records)
                        place += 1
                    }
                }
                try index.finish(records)
                if discards { for log in logs { log.discard(partition: partition) } }
                keptAt.withMutableElements { keptAt in
                    for kept in index.kept.indices {
                        let first = records.places[Int(index.firstSeen(kept))].sequence
                        keptAt[first] = UInt32(truncatingIfNeeded: records.places[Int(index.kept[kept])].sequence + 1)
                    }
                }
                keptCount += index.kept.count
                identicalDuplicates += index.identicalDuplicates
                recordsWithoutKey += index.recordsWithoutKey
                conflicts += index.conflicts.map { conflict in
                    var conflict = conflict
                    (conflict.first, conflict.second) = (
                        records.places[conflict.first].sequence, records.places[conflict.second].sequence
                    )
                    return conflict
                }
            }
            succeeded = true
        } catch {
            return
        }
    }
}

// MARK: - Records by their digests

/// The records of one partition of a spooled merge, for `MergeIndex`, by
/// their places in it: equal value digests are equal records; others are
/// taken for a conflict, with no key and no differences yet, until
/// `SpooledMerge.settle` reads them again.
struct PartitionRecords: MergeRecords {
    /// A record of the partition: its place in reading order and its value
    /// digest, as its key's entry has them.
    struct Place {
        var sequence: Int
        var value: UInt64
        var hasValue: Bool

        init(_ entry: KeyLog.Entry, sequence: Int) {
            self.sequence = sequence
            value = UInt64(bitPattern: Int64(entry.byteOffset))
            hasValue = entry.key != PartitionRecords.withoutValueDigest
        }
    }

    /// The field a part logs a record's key under when the record has no
    /// value digest (`SpooledMerge`'s `Part.append`); 0 when it has one.
    static let withoutValueDigest: UInt64 = 1

    /// The partition's records, by place; made for the largest partition.
    let places: UnsafeMutablePointer<Place>
    /// Pairs of records known to be equal though their digests differ (`pair`).
    let equalPairs: Set<UInt64>

    init(capacity: Int, equalPairs: Set<UInt64>) {
        places = .allocate(capacity: max(capacity, 1))
        self.equalPairs = equalPairs
    }

    /// Frees the places; they must not be used after.
    func release() { places.deallocate() }

    /// Records `first` and `second` (in reading order) as one number.
    static func pair(_ first: Int, _ second: Int) -> UInt64 { UInt64(first) << 32 | UInt64(second) }

    func conflict(_ kept: Int, _ later: Int, in index: MergeIndex) throws(FerryError) -> MergeIndex.Conflict? {
        let (a, b) = (places[kept], places[later])
        if a.hasValue && b.hasValue && a.value == b.value { return nil }
        if !equalPairs.isEmpty && equalPairs.contains(Self.pair(a.sequence, b.sequence)) { return nil }
        return MergeIndex.Conflict(
            key: [], first: kept, second: later, keptSecond: index.policy == .keepLast, differences: [])
    }
}
