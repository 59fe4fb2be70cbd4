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
final class MergeIndex {
    let keyFields: KeyFields
    let policy: ConflictPolicy
    private let equality: RecordEquality
    /// Each key's place in `kept`.
    private let places = UniqueKeys()
    /// The store index of each record kept, in output order.
    private(set) var kept: [UInt32] = []
    private(set) var identicalDuplicates = 0
    private(set) var recordsWithoutKey = 0
    private(set) var conflicts: [Conflict] = []

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

    /// Adds record `index` of `store`, which is `record`.
    func add(_ record: RawRecord, index: Int, store: MergeStore) throws(FerryError) {
        guard let digest = keyFields.digest(of: record) else {
            // No key: kept as it is, never merged.
            recordsWithoutKey += 1
            kept.append(UInt32(truncatingIfNeeded: index))
            return
        }
        guard let place = places.insert((digest.low, digest.high), record: kept.count) else {
            kept.append(UInt32(truncatingIfNeeded: index))
            return
        }
        let keptIndex = Int(kept[place])
        let differences = try store.withRecord(keptIndex) { (earlier) throws(FerryError) -> [FieldDifference] in
            // Equal records (most duplicates) cost no allocation.
            equality.equal(earlier, record) ? [] : equality.differences(earlier, record)
        }
        if differences.isEmpty {
            identicalDuplicates += 1
            return
        }
        let keepsLater = policy == .keepLast
        conflicts.append(
            Conflict(
                key: keyFields.key(of: record)?.parts ?? [], first: keptIndex, second: index, keptSecond: keepsLater,
                differences: differences))
        if keepsLater { kept[place] = UInt32(truncatingIfNeeded: index) }
    }
}
