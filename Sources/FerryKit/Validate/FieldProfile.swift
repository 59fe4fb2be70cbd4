/// What `ferry schema infer` learns of one field over every record: the
/// types of its values, whether it is always there, its few distinct
/// strings, its smallest and largest number, the formats all its strings
/// have, and whether any value repeats. See Formats/schema.md, "Drafting a
/// schema from data", for the rules.
struct FieldProfile {
    /// A field whose strings take at most this many distinct values gets
    /// an `enum`, when they also repeat: at least twice as many values as
    /// distinct ones (a file of three names is no list of allowed names).
    static let enumLimit = 10
    /// The most slots a unique check's table may take (24 bytes each, so
    /// 96 MiB): about two million distinct values, half-full. A field with
    /// more gives up the check, frees its table and gets no
    /// `x-ferry-unique`, as it would after a repeat.
    static let uniqueSlotLimit = 1 << 22

    let name: String
    /// The records in which the field is present and not null.
    private(set) var filled = 0
    private var types: ValueTypes = []
    /// The distinct strings, while they are few; nil past `enumLimit`.
    /// An array searched in turn: a string already there costs no copy (a
    /// set of arrays copied and hashed each cell, 10% of drafting the
    /// schema of 200,000 products).
    private var strings: [[UInt8]]? = []
    private var stringCount = 0
    /// The formats every string so far has.
    private var formats = InferableFormat.allCases
    private var minimum: Bound?
    private var maximum: Bound?
    /// The keys seen, as validation's unique check keeps them; nil once a
    /// key repeated, a value was no key, or the table reached its limit.
    /// Its table starts small (6 KiB) and doubles as keys come: a wide
    /// file has hundreds of fields, most of which repeat at once.
    private var keys: UniqueKeys? = UniqueKeys(slotLimit: FieldProfile.uniqueSlotLimit, initialSlots: 1 << 8)
    /// The tables of the reads merged in after this one (the next parts of
    /// a file, the next files), no two with a key in common, nor with
    /// `keys`: a merge looks the keys of one side up in the other's tables
    /// rather than moving them into one, after the parts are read, on one
    /// thread. A profile observes no record once it has merged.
    private var mergedKeys: [UniqueKeys] = []
    private var keyText: [UInt8] = []
    /// Keys on their way into `keys`, each prefetched as it came, put in a
    /// batch at a time (`keyBatch`): a table of a million keys is far larger
    /// than the caches, and one insert at a time waited for one miss after
    /// another (32% of drafting the schema of 1M products). `finish()`
    /// puts the last ones in.
    private var pendingKeys: [(digest: (low: UInt64, high: UInt64), record: Int)] = []
    static let keyBatch = 16

    /// For a CSV column whose reader left its type to be inferred: the
    /// inference, and the profile as the type would read the cells.
    private var deferred: DeferredColumn?

    /// - Parameter deferred: whether the field is a CSV column whose
    ///   reader left its type to be inferred (`FieldProfiles`).
    init(name: String, deferred: Bool = false) {
        self.name = name
        if deferred { self.deferred = DeferredColumn(name: name) }
    }

    /// A number and the value that spells it, for `minimum` and `maximum`.
    /// Whole numbers compare as whole numbers: past 2^53 doubles cannot
    /// tell ids apart, and a bound one off would fail the file it came from.
    private struct Bound {
        var integer: Int64?
        var number: Double
        var value: Value

        /// Whether this number is smaller than `other`'s; equal numbers are not.
        func isLess(than other: Bound) -> Bool {
            if let integer, let theirs = other.integer { return integer < theirs }
            return number < other.number
        }
    }

    // MARK: - Learning

    /// Learns from the value at `position` of `record`, the `ordinal`th read.
    @inline(__always)
    mutating func observe(_ record: RawRecord, at position: Int, ordinal: Int) {
        observe(record.values[position], others: record.others, ordinal: ordinal)
        if let deferred, !deferred.isText {
            deferred.observe(record.values[position], others: record.others, ordinal: ordinal)
        }
    }

    /// Learns from `cell`, whose `.other` values are in `others`, of the `ordinal`th record read.
    mutating func observe(_ cell: RawValue, others: UnsafeBufferPointer<Value>, ordinal: Int) {
        switch cell {
        case .null:
            return
        case .bool(let flag):
            observe(.bool(flag))
        case .integer(let number):
            observe(.integer(number))
        case .double(let number):
            observe(.double(number))
        case .number(let bytes):
            observeNumber(bytes)
        case .text(let bytes):
            observeString(bytes)
        case .bytes:
            // Not JSON: no type is claimed for them (a photo's bytes).
            types = .all
        case .other(let other):
            // A null handed over as a value (a record read without raw
            // cells) is no more there than a null cell.
            if case .null = others[other] { return }
            observe(others[other])
        }
        filled += 1
        observeKey(cell, others: others, ordinal: ordinal)
    }

    /// Learns from a value that is no raw cell (escaped text, nested values).
    private mutating func observe(_ value: Value) {
        switch value {
        case .null: return
        case .bool: types.insert(.boolean)
        case .integer(let number):
            types.insert(.integer)
            bound(Bound(integer: number, number: Double(number), value: .integer(number)))
        case .double(let number):
            types.insert(.number)
            bound(Bound(number: number, value: .double(number)))
        case .number(let number):
            var text = number.text
            text.withUTF8 { observeNumber($0) }
        case .string(var text):
            text.withUTF8 { observeString($0) }
        case .bytes, .date:
            // Not JSON: no type is claimed for them (a plist's data or date).
            types = .all
        case .array: types.insert(.array)
        case .object: types.insert(.object)
        }
    }

    private mutating func observeNumber(_ bytes: UnsafeBufferPointer<UInt8>) {
        let whole = !bytes.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
        types.insert(whole ? .integer : .number)
        let integer: Int64?
        let number: Double
        switch DecimalText.value(bytes) {
        case .integer(let whole)?: (integer, number) = (whole, Double(whole))
        case .double(let double)?: (integer, number) = (nil, double)
        default: return
        }
        let isLower = minimum.map { Bound(integer: integer, number: number, value: .null).isLess(than: $0) } ?? true
        let isUpper = maximum.map { $0.isLess(than: Bound(integer: integer, number: number, value: .null)) } ?? true
        // The text is copied only for a new bound.
        guard isLower || isUpper else { return }
        let value = Value.number(NumberText(unchecked: String(decoding: bytes, as: UTF8.self)))
        bound(Bound(integer: integer, number: number, value: value))
    }

    private mutating func observeString(_ bytes: UnsafeBufferPointer<UInt8>) {
        types.insert(.string)
        stringCount += 1
        if let known = strings, !known.contains(where: { $0.elementsEqual(bytes) }) {
            strings = known.count < Self.enumLimit ? known + [Array(bytes)] : nil
        }
        if !formats.isEmpty {
            let text = String(decoding: bytes, as: UTF8.self)
            formats.removeAll { !$0.accepts(text) }
        }
    }

    /// Moves the bounds out to `candidate`.
    private mutating func bound(_ candidate: Bound) {
        guard candidate.number.isFinite else { return }
        if minimum.map({ candidate.isLess(than: $0) }) ?? true { minimum = candidate }
        if maximum.map({ $0.isLess(than: candidate) }) ?? true { maximum = candidate }
    }

    /// Puts the value's key into the unique check, which it leaves at the
    /// first repeat (or value that is no key, or a full table).
    private mutating func observeKey(_ cell: RawValue, others: UnsafeBufferPointer<Value>, ordinal: Int) {
        guard let table = keys else { return }
        keyText.removeAll(keepingCapacity: true)
        guard KeyText.append(cell, others: others, to: &keyText) else {
            keys = nil
            return
        }
        let digest = keyText.withUnsafeBytes { UniqueKeys.digest($0) }
        table.prefetch(digest)
        pendingKeys.append((digest, ordinal))
        if pendingKeys.count >= Self.keyBatch { insertPendingKeys() }
    }

    /// Puts the pending keys into the unique check, which it leaves at the
    /// first repeat (or a full table).
    private mutating func insertPendingKeys() {
        defer { pendingKeys.removeAll(keepingCapacity: true) }
        guard let table = keys else { return }
        for (digest, record) in pendingKeys where table.insert(digest, record: record) != nil || table.outOfMemory {
            keys = nil
            return
        }
    }

    /// Ends the reading: the keys still pending go into the unique check.
    /// Called once every record is observed, before `merge` or `schema`.
    mutating func finish() {
        insertPendingKeys()
        deferred?.finish()
    }

    // MARK: - Merging

    /// Adds what `later` learnt of the same field from the records after
    /// these (a later part of the file, or a later file): the profile is
    /// then the one that observing all of them in turn gives.
    mutating func merge(_ later: FieldProfile) {
        filled += later.filled
        types.formUnion(later.types)
        stringCount += later.stringCount
        if let known = strings, let theirs = later.strings {
            let added = theirs.filter { text in !known.contains(text) }
            strings = known.count + added.count <= Self.enumLimit ? known + added : nil
        } else {
            strings = nil
        }
        formats.removeAll { !later.formats.contains($0) }
        // On a tie the earlier bound stays, as it does record by record.
        if let low = later.minimum { bound(low) }
        if let high = later.maximum { bound(high) }
        mergeKeys(later)
        if let deferred, let theirs = later.deferred {
            deferred.merge(theirs)
        } else {
            // Parts read one header: a column is deferred in all or none.
            deferred = nil
        }
    }

    /// The profile with a deferred column's type decided: the profile of
    /// its cells as typed when inference types it, else as text.
    func resolved() -> FieldProfile {
        if let typed = deferred?.typedProfile { return typed }
        var text = self
        text.deferred = nil
        return text
    }

    /// The unique check over the keys of both profiles: it gives up at a
    /// key both have, and when their keys together are as many as one
    /// table stops at (it may not grow past `uniqueSlotLimit` slots).
    private mutating func mergeKeys(_ later: FieldProfile) {
        guard let table = keys, let theirs = later.keys else {
            (keys, mergedKeys) = (nil, [])
            return
        }
        let mine = [table] + mergedKeys
        let others = [theirs] + later.mergedKeys
        guard (mine + others).reduce(0, { $0 + $1.count }) < Self.uniqueSlotLimit / 2, !Self.share(mine, others) else {
            (keys, mergedKeys) = (nil, [])
            return
        }
        mergedKeys += others
    }

    /// Whether a key is in a table of `first` and in one of `second`: each
    /// key of the side with fewer is looked up in the other's tables, its
    /// slots asked for a batch ahead (`UniqueKeys.prefetch`).
    private static func share(_ first: [UniqueKeys], _ second: [UniqueKeys]) -> Bool {
        let count = { (tables: [UniqueKeys]) in tables.reduce(0) { $0 + $1.count } }
        let (few, many) = count(first) <= count(second) ? (first, second) : (second, first)
        var digests: [(low: UInt64, high: UInt64)] = []
        digests.reserveCapacity(count(few))
        for table in few { table.forEach { digest, _ in digests.append(digest) } }
        for (index, digest) in digests.enumerated() {
            if index + keyBatch < digests.count {
                for table in many { table.prefetch(digests[index + keyBatch]) }
            }
            if many.contains(where: { $0.record(of: digest) != nil }) { return true }
        }
        return false
    }

    // MARK: - The schema

    /// The field's schema: its type (none when it held values of no JSON
    /// type, or only null), and the rules every value met.
    func schema() -> Value {
        var schema = OrderedObject()
        let kinds = types.subtracting(.null)
        let numeric = !kinds.isEmpty && kinds.isSubset(of: [.integer, .number])
        if kinds != .all {
            let names: [String] =
                numeric
                ? [kinds.contains(.number) ? "number" : "integer"]
                : ValueTypes.named.filter { kinds.contains($0.type) }.map(\.name)
            if names.count == 1 {
                schema.append(key: "type", value: .string(names[0]))
            } else if names.count > 1 {
                schema.append(key: "type", value: .array(names.map(Value.string)))
            }
        }
        if kinds == .string {
            if let format = formats.first, stringCount > 0 { schema.append(key: "format", value: .string(format.rawValue)) }
            if let strings, !strings.isEmpty, stringCount >= 2 * strings.count {
                let sorted = strings.map { String(decoding: $0, as: UTF8.self) }.sorted()
                schema.append(key: "enum", value: .array(sorted.map(Value.string)))
            }
        }
        if numeric, let minimum, let maximum {
            schema.append(key: "minimum", value: minimum.value)
            schema.append(key: "maximum", value: maximum.value)
        }
        if keys != nil && filled >= 2 { schema.append(key: "x-ferry-unique", value: .bool(true)) }
        return .object(schema)
    }
}

/// The JSON types a field's values had.
struct ValueTypes: OptionSet {
    let rawValue: UInt8

    static let null = ValueTypes(rawValue: 1)
    static let boolean = ValueTypes(rawValue: 2)
    static let integer = ValueTypes(rawValue: 4)
    static let number = ValueTypes(rawValue: 8)
    static let string = ValueTypes(rawValue: 16)
    static let array = ValueTypes(rawValue: 32)
    static let object = ValueTypes(rawValue: 64)
    /// Every type: what a field with values of no JSON type is given.
    static let all: ValueTypes = [.null, .boolean, .integer, .number, .string, .array, .object]

    /// The names JSON Schema gives them, in the order a `type` list has them.
    static let named: [(type: ValueTypes, name: String)] = [
        (.array, "array"), (.boolean, "boolean"), (.integer, "integer"), (.number, "number"), (.object, "object"),
        (.string, "string"),
    ]
}
