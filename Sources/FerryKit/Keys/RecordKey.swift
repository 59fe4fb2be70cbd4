// MARK: - Design
//
// A record's key is the key text (`KeyText`) of each of its key fields, and
// records are matched by the digest of those texts (`KeyDigest`), so a
// million keys take 16 bytes each whatever their length. With one key field
// the digest is that of its text alone, the digest `ferry validate` keeps
// for an `x-ferry-unique` field: validate's duplicates are merge's matches.
// With several, each field's text is followed by 0xFF, and a field with no
// value is 0xFE: neither byte occurs in UTF-8, so no two keys share their
// bytes.
//
//     title "Dune", author " Frank Herbert"   44 75 6E 65 FF 46 72 … 74 FF
//     title "Dune", no author                  44 75 6E 65 FF FE FF
//
// A key field has no value when it is missing, null, or (in a field the
// kind or schema types) empty after trimming, as `RecordEquality` has it.
// A record none of whose key fields has a value has no key.

/// The key of one record: the key text of each key field, and their digest.
package struct RecordKey: Hashable, Sendable {
    /// Each key field's key text, in the key's order; nil for a field with
    /// no value.
    package let parts: [String?]
    /// What records are matched by (see the design note).
    package let digest: KeyDigest

    package static func == (lhs: RecordKey, rhs: RecordKey) -> Bool { lhs.digest == rhs.digest }
    package func hash(into hasher: inout Hasher) { hasher.combine(digest) }
}

/// The fields records are keyed by, and the making of their keys.
///
/// It keeps where its fields are in the field list seen last, and a buffer
/// for the key's bytes, so keying a raw record allocates nothing when its
/// text needs no normalizing. Use one per thread.
package final class KeyFields {
    /// The key fields, in order.
    package let names: [String]
    /// Whether the kind or schema types each field: an empty value is then
    /// no value.
    private let typed: [Bool]
    private var positions: (fields: FieldList?, at: [Int?]) = (nil, [])
    /// The address of `positions.fields`, which keeps that list alive
    /// (`RawRecord.address(of:)`): a raw record is compared by it.
    private var positionsAddress: UnsafeRawPointer?
    private var bytes: [UInt8] = []

    /// Keys on `names`, typed as `schema` types them.
    package init(_ names: [String], schema: Schema) {
        self.names = names
        let typedNames = Set(schema.fieldRules.filter { $0.type != nil }.map(\.name))
        typed = names.map(typedNames.contains)
        bytes.reserveCapacity(64)
    }

    /// Keys on `names`, typed as `kind` types them.
    package convenience init(_ names: [String], kind: RecordKind) {
        self.init(names, schema: kind.schema)
    }

    /// The digest of `record`'s key, or nil when it has none.
    /// - Complexity: O(n) in the key's bytes; no allocation for text that
    ///   is already in NFC.
    package func digest(of record: RawRecord) -> KeyDigest? {
        if record.fieldsAddress != positionsAddress { locate(record.fields) }
        // The common key: one field of text already in key form, digested
        // where it lies.
        if names.count == 1, let position = positions.at[0], case .text(let text) = record.values[position] {
            let trimmed = KeyText.trimmed(text)
            if KeyText.isKnownNFC(trimmed) {
                if trimmed.isEmpty && typed[0] { return nil }
                return KeyDigest(UnsafeRawBufferPointer(trimmed))
            }
        }
        guard fill(from: record) else { return nil }
        return bytes.withUnsafeBytes { KeyDigest($0) }
    }

    /// The key of `record`, with its parts as text, or nil when it has none.
    package func key(of record: RawRecord) -> RecordKey? {
        guard fill(from: record) else { return nil }
        let digest = bytes.withUnsafeBytes { KeyDigest($0) }
        guard names.count > 1 else { return RecordKey(parts: [String(decoding: bytes, as: UTF8.self)], digest: digest) }
        let parts = bytes.split(separator: 0xFF, omittingEmptySubsequences: false).dropLast().map { part in
            part.elementsEqual([0xFE]) ? nil : String(decoding: part, as: UTF8.self)
        }
        return RecordKey(parts: Array(parts), digest: digest)
    }

    /// The key of `record`, or nil when it has none.
    package func key(of record: Record) -> RecordKey? {
        RawRecord.with(record) { key(of: $0) }
    }

    /// The digest of `record`'s key, or nil when it has none.
    package func digest(of record: Record) -> KeyDigest? {
        RawRecord.with(record) { digest(of: $0) }
    }

    /// Whether `record` has a value for every key field.
    package func hasEveryField(_ record: RawRecord) -> Bool {
        locate(record.fields)
        defer { bytes.removeAll(keepingCapacity: true) }
        for index in names.indices where !hasValue(record, field: index) { return false }
        return true
    }

    // MARK: - Bytes

    /// Puts the key's bytes in `bytes`.
    /// - Returns: false when no key field has a value.
    private func fill(from record: RawRecord) -> Bool {
        locate(record.fields)
        bytes.removeAll(keepingCapacity: true)
        if names.count == 1 { return hasValue(record, field: 0) }
        var any = false
        for index in names.indices {
            if hasValue(record, field: index) {
                any = true
            } else {
                bytes.append(0xFE)
            }
            bytes.append(0xFF)
        }
        return any
    }

    /// Appends field `field`'s key text to `bytes`.
    /// - Returns: false, appending nothing, when the field has no value.
    @inline(__always)
    private func hasValue(_ record: RawRecord, field: Int) -> Bool {
        guard let position = positions.at[field] else { return false }
        let start = bytes.count
        guard KeyText.append(record, at: position, to: &bytes) else { return false }
        if typed[field] && bytes.count == start { return false }
        return true
    }

    @inline(__always)
    private func locate(_ fields: FieldList) {
        guard positions.fields !== fields else { return }
        positions = (fields, names.map(fields.index(of:)))
        positionsAddress = RawRecord.address(of: fields)
    }
}
