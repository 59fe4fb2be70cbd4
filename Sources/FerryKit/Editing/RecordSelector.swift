/// Which record `ferry edit` and `ferry remove` mean: its number, counted
/// from 1 as every message counts records (the numbers `validate` prints),
/// or its key (`KeyFields`, `DefaultKey.addressingFields`; Formats/editing.md).
///
/// Digits alone are a record number when there is such a record, unless
/// `--key` was given; anything else, or digits past the last record, is a
/// key. A
/// key of one field matches its key text (trimmed, NFC, numbers by value:
/// `269` finds `269.0`); a key of several fields (a book's title and
/// author) matches their key texts joined by ` / `, or the first field's
/// alone (`Dune`).
///
/// The keys are worked out only when a key is looked up or shown: an index
/// costs nothing more.
package final class RecordSelector {
    /// The key fields, or nil when the records have no key (generic ones without `--key`).
    package private(set) lazy var keyFields: [String]? = key ?? DefaultKey.addressingFields(of: records, kind: kind)
    /// Whether the key was asked for (`--key`): the selector is then always a key.
    package let keyGiven: Bool
    private let records: [Record]
    private let key: [String]?
    private let schema: Schema
    private let kind: RecordKind
    /// Each record's key texts, one a key field.
    private lazy var keys: [[String?]] = {
        guard let keyFields else { return [] }
        let fields = KeyFields(keyFields, schema: schema)
        return records.map { fields.key(of: $0)?.parts ?? keyFields.map { _ in nil } }
    }()

    /// The most candidates an error lists.
    static let shownCandidates = 5

    /// - Parameter key: `--key`'s fields, or nil for the kind's default key.
    package init(records: [Record], key: [String]?, schema: Schema, kind: RecordKind) {
        keyGiven = key != nil
        self.records = records
        self.key = key
        self.schema = schema
        self.kind = kind
    }

    /// The key of record `index` as text (its parts joined by ` / `), or nil.
    package func keyText(of index: Int) -> String? {
        guard index < keys.count, keys[index].contains(where: { $0 != nil }) else { return nil }
        return keys[index].map { $0 ?? "" }.joined(separator: " / ")
    }

    /// The index (0-based) of the record `selector` names.
    /// - Throws: `edit.indexOutOfRange`, `edit.noSuchRecord` and
    ///   `edit.ambiguousKey` (with candidates), `edit.noKey`.
    package func index(of selector: String, count: Int, in path: String) throws(FerryError) -> Int {
        let isIndex = !selector.isEmpty && selector.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        if isIndex && !keyGiven, let number = Int(selector), number >= 1, number <= count { return number - 1 }
        guard keyFields != nil else {
            if isIndex { throw .editIndexOutOfRange(Int(selector) ?? Int.max, count: count, in: path) }
            throw .editNoKey(selector, in: path)
        }
        let wanted = RecordSelector.keyTexts(of: selector)
        let matches = keys.indices.filter { index in
            let parts = keys[index]
            if let first = parts.first ?? nil, wanted.contains(first) { return true }
            return parts.count > 1 && wanted.contains(parts.map { $0 ?? "" }.joined(separator: " / "))
        }
        if matches.count == 1 { return matches[0] }
        if matches.count > 1 {
            throw .editAmbiguousKey(selector, count: matches.count, candidates: candidates(matches), in: path)
        }
        if isIndex && !keyGiven { throw .editIndexOutOfRange(Int(selector) ?? Int.max, count: count, in: path) }
        throw .editNoSuchRecord(selector, candidates: candidates(nearest(to: wanted.first ?? selector)), in: path)
    }

    /// The key texts a selector may stand for: as text, and as a number when it is one.
    static func keyTexts(of selector: String) -> Set<String> {
        var texts: Set<String> = [KeyText.normalized(selector)]
        var number = Array(selector.utf8)
        let value = number.withUnsafeMutableBufferPointer { DecimalText.parse(UnsafeBufferPointer($0)) }
        if let value {
            number.removeAll()
            if KeyText.append(value, to: &number) { texts.insert(String(decoding: number, as: UTF8.self)) }
        }
        return texts
    }

    /// The records whose key contains `text`, ignoring case; else the first ones.
    private func nearest(to text: String) -> [Int] {
        let folded = text.lowercased()
        let containing = keys.indices.filter { index in
            keyText(of: index)?.lowercased().contains(folded) ?? false
        }
        return containing.isEmpty ? Array(keys.indices.prefix(RecordSelector.shownCandidates)) : containing
    }

    /// `number: key` for the first few of `indexes`, and `…` when there are more.
    private func candidates(_ indexes: [Int]) -> String {
        var shown = indexes.prefix(RecordSelector.shownCandidates).map { "\($0 + 1): \(keyText(of: $0) ?? "-")" }
        if indexes.count > RecordSelector.shownCandidates { shown.append("…") }
        return shown.joined(separator: "; ")
    }
}
