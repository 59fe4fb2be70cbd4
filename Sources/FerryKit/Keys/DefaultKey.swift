/// The key fields records are matched by when no key is asked for.
///
/// A kind names a preferred key and a fallback: a product is keyed by `sku`
/// when every record has one, else by `name`; a book by `isbn` when every
/// record has one, else by `title` and `author` together. A generic record
/// has no default key. "Has one" is as `KeyFields` sees it: present, not
/// null, not empty once trimmed.
///
///     var choice = DefaultKey(kind: .product)
///     for record in records { choice.observe(record) }
///     choice.fields  // ["sku"], or ["name"] when a record had no sku
package struct DefaultKey {
    package let kind: RecordKind
    private let preferred: KeyFields?
    private let fallback: [String]?
    /// Whether every record seen so far has the preferred key.
    package private(set) var everyRecordHasPreferred = true
    /// How many records were seen.
    package private(set) var records = 0

    package init(kind: RecordKind) {
        self.kind = kind
        switch kind {
        case .product:
            preferred = KeyFields(["sku"], kind: kind)
            fallback = ["name"]
        case .book:
            preferred = KeyFields(["isbn"], kind: kind)
            fallback = ["title", "author"]
        case .generic:
            preferred = nil
            fallback = nil
        }
    }

    /// Notes whether `record` has the preferred key.
    /// - Complexity: O(1) once a record lacks it; else the key's length.
    package mutating func observe(_ record: RawRecord) {
        records += 1
        guard everyRecordHasPreferred, let preferred else { return }
        if !preferred.hasEveryField(record) { everyRecordHasPreferred = false }
    }

    /// Notes whether `record` has the preferred key.
    package mutating func observe(_ record: Record) {
        RawRecord.with(record) { observe($0) }
    }

    /// The key fields for the records seen: the preferred key when every
    /// one had it (so also when none was seen), else the fallback; nil for
    /// a kind with no default key (give one).
    package var fields: [String]? {
        guard let preferred else { return nil }
        return everyRecordHasPreferred ? preferred.names : fallback
    }

    /// The fields `list`, `edit` and `remove` address the records of one
    /// file by: the preferred key when any record has it, else the fallback.
    /// So the key is the file's, chosen by the kind: a product file with
    /// skus stays keyed by sku after one record loses its sku (that record
    /// is then found by its number), where `fields` would key every record
    /// by name from then on.
    package static func addressingFields(of records: some Sequence<Record>, kind: RecordKind) -> [String]? {
        let choice = DefaultKey(kind: kind)
        guard let preferred = choice.preferred else { return nil }
        let anyHasPreferred = records.contains { record in RawRecord.with(record) { preferred.hasEveryField($0) } }
        return anyHasPreferred ? preferred.names : choice.fallback
    }

    /// The default key fields of `records`, all of kind `kind`.
    package static func fields(of records: some Sequence<Record>, kind: RecordKind) -> [String]? {
        var choice = DefaultKey(kind: kind)
        for record in records { choice.observe(record) }
        return choice.fields
    }
}
