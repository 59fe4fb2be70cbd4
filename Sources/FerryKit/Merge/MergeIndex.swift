/// The records a merge keeps, in first-seen order, and what became of the
/// others: records are added in reading order, matched by the digest of
/// their key (`KeyFields`), and a duplicate is compared with the record kept
/// for its key (`RecordEquality`).
///
/// Per key it holds one 24-byte slot (`UniqueKeys`: the key's digest and its
/// place in the output); per record kept, its index in the store (4 bytes).
///
///     record 0  A-1  new      kept: [0]
///     record 1  A-2  new      kept: [0, 1]
///     record 2  A-1  equal    kept: [0, 1]      identical duplicates: 1
///     record 3  A-2  differs  kept: [0, 1]      conflict (1, 3); keep-last: kept [0, 3]
///
/// Used by one thread: the run-time exclusivity checks are left out.
final class MergeIndex {
    let keyFields: KeyFields
    let policy: ConflictPolicy
    private let equality: RecordEquality
    /// Each key's place in `kept`.
    private let places = UniqueKeys()
    /// The store index of each record kept, in output order.
    @exclusivity(unchecked) private(set) var kept: [UInt32] = []
    /// Under keep-last, the record each key was first seen at, by its
    /// place in `kept` (which may hold a later record of the key); under
    /// the other policies that is `kept` itself.
    @exclusivity(unchecked) private var firsts: [UInt32] = []
    @exclusivity(unchecked) private(set) var identicalDuplicates = 0
    @exclusivity(unchecked) private(set) var recordsWithoutKey = 0
    @exclusivity(unchecked) private(set) var conflicts: [Conflict] = []

    /// Two records of one key that differ, by their store indices.
    struct Conflict {
        var key: [String?]
        var first: Int
        var second: Int
        var keptSecond: Bool
        var differences: [FieldDifference]
    }

    /// Matches records by `fields`, typed and compared as `schema` says.
    init(fields: [String], schema: Schema, policy: ConflictPolicy) {
        keyFields = KeyFields(fields, schema: schema)
        equality = RecordEquality(schema: schema, keyFields: fields)
        self.policy = policy
    }

    /// Records waiting to be placed, with their key's digest: they are
    /// placed a few dozen at a time, so that the cache misses of a large
    /// table overlap (as `ferry validate`'s unique keys do).
    @exclusivity(unchecked) private var pending: [(index: Int, digest: KeyDigest?)] = []

    /// Forgets every record, keeping the memory: for the next partition of
    /// a merge's keys (`SpooledMerge`).
    func clear() {
        places.clear()
        kept.removeAll(keepingCapacity: true)
        firsts.removeAll(keepingCapacity: true)
        pending.removeAll(keepingCapacity: true)
        identicalDuplicates = 0
        recordsWithoutKey = 0
        conflicts = []
    }

    /// Room for `keys` keys at once, when their count is known.
    func reserve(keys: Int) {
        places.reserve(keys: keys)
        kept.reserveCapacity(keys)
    }

    /// Adds record `index` of `records`, whose key has `digest` (nil for a
    /// record with no key); `finish` places the last ones.
    func add(index: Int, digest: KeyDigest?, records: some MergeRecords) throws(FerryError) {
        if let digest { places.prefetch(digest) }
        pending.append((index, digest))
        if pending.count >= 64 { try finish(records) }
    }

    /// Places every record added.
    func finish(_ records: some MergeRecords) throws(FerryError) {
        for (index, digest) in pending { try place(index, digest: digest, records: records) }
        pending.removeAll(keepingCapacity: true)
    }

    /// The conflict between `earlier`, the record kept for a key, and
    /// `later`, a duplicate (records `first` and `second` in reading
    /// order); nil when they are equal.
    func conflict(_ earlier: RawRecord, _ later: RawRecord, first: Int, second: Int) -> Conflict? {
        // Equal records (most duplicates) cost no allocation.
        guard !equality.equal(earlier, later) else { return nil }
        return likelyConflict(earlier, later, first: first, second: second)
    }

    /// As `conflict`, for a pair that most likely differs (their value
    /// digests do): the differences are looked for at once, with no test
    /// of equality first.
    func likelyConflict(_ earlier: RawRecord, _ later: RawRecord, first: Int, second: Int) -> Conflict? {
        let differences = equality.differences(earlier, later)
        guard !differences.isEmpty else { return nil }
        return Conflict(
            key: keyFields.key(of: later)?.parts ?? [], first: first, second: second,
            keptSecond: policy == .keepLast, differences: differences)
    }

    /// The record first seen for the key of `kept[place]`.
    func firstSeen(_ place: Int) -> UInt32 { policy == .keepLast ? firsts[place] : kept[place] }

    private func keep(_ index: Int) {
        kept.append(UInt32(truncatingIfNeeded: index))
        if policy == .keepLast { firsts.append(UInt32(truncatingIfNeeded: index)) }
    }

    private func place(_ index: Int, digest: KeyDigest?, records: some MergeRecords) throws(FerryError) {
        guard let digest else {
            // No key: kept as it is, never merged.
            recordsWithoutKey += 1
            keep(index)
            return
        }
        guard let place = places.insert(digest, record: kept.count) else {
            // A key the full table could not take would be taken for new.
            if places.outOfMemory { throw .ioOutOfMemory() }
            keep(index)
            return
        }
        let keptIndex = Int(kept[place])
        let conflict = try records.conflict(keptIndex, index, in: self)
        guard let conflict else {
            identicalDuplicates += 1
            return
        }
        conflicts.append(conflict)
        if conflict.keptSecond { kept[place] = UInt32(truncatingIfNeeded: index) }
    }
}

/// Where a merge's records are, for `MergeIndex` to compare a duplicate
/// with the record kept for its key.
protocol MergeRecords {
    /// The conflict between record `kept` and record `later` (both in
    /// reading order), as `index.conflict` finds it; nil when they are equal.
    func conflict(_ kept: Int, _ later: Int, in index: MergeIndex) throws(FerryError) -> MergeIndex.Conflict?
}

extension MergeStore: MergeRecords {
    func conflict(_ kept: Int, _ later: Int, in index: MergeIndex) throws(FerryError) -> MergeIndex.Conflict? {
        try withRecords(kept, later) { (earlier, record) throws(FerryError) -> MergeIndex.Conflict? in
            index.conflict(earlier, record, first: kept, second: later)
        }
    }
}
