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
    /// The most keys a unique check takes (32 bytes each in its log, so
    /// 64 MiB): a field with this many values gives up the check, logs no
    /// more and gets no `x-ferry-unique`, as it would after a repeat.
    static let uniqueKeyLimit = 1 << 21

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
    /// The values that spell `minimum` and `maximum`, kept apart so that
    /// comparing a number with the bounds copies no `Value`.
    private var minimumValue = Value.null
    private var maximumValue = Value.null
    /// Whether no key has been found twice yet (see `FieldProfiles`):
    /// false once a key repeated, a value was no key, or the field had
    /// `uniqueKeyLimit` keys. The keys go into the log of the read
    /// (`KeyLog`), matched at its checks and at the end.
    private(set) var mayBeUnique: Bool
    /// The keys logged, in all the reads merged.
    private var keyCount = 0
    /// The log this read puts the field's keys in, and the field's number
    /// there; nil for a profile with no unique check.
    private let keyLog: KeyLog?
    private let keyNumber: Int
    /// Where the keys of every read merged are: this read's log and those
    /// of the reads merged in after it (the next parts of a file, the next
    /// files). A profile observes no record once it has merged.
    private(set) var keySources: [(log: KeyLog, number: Int)]
    private var keyText: [UInt8] = []

    /// For a CSV column whose reader left its type to be inferred: the
    /// inference, and the profile as the type would read the cells.
    private var deferred: DeferredColumn?

    /// - Parameters:
    ///   - deferred: whether the field is a CSV column whose reader left
    ///     its type to be inferred (`FieldProfiles`).
    ///   - keys: the log for the field's keys, with the field's number in
    ///     it (and the next number, for a deferred column's typed cells);
    ///     nil for no unique check.
    init(name: String, deferred: Bool = false, keys: (log: KeyLog, number: Int)? = nil) {
        self.name = name
        keyLog = keys?.log
        keyNumber = keys?.number ?? 0
        keySources = keys.map { [$0] } ?? []
        mayBeUnique = keys != nil
        if deferred { self.deferred = DeferredColumn(name: name, keys: keys.map { ($0.log, $0.number + 1) }) }
    }

    /// A number, for `minimum` and `maximum`. Whole numbers compare as
    /// whole numbers: past 2^53 doubles cannot tell ids apart, and a bound
    /// one off would fail the file it came from.
    private struct Bound {
        var integer: Int64?
        var number: Double

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
    /// Inlined into the loop over a record's cells: a call a cell was 4%
    /// of drafting a schema.
    @inline(__always)
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
            bound(Bound(integer: number, number: Double(number))) { .integer(number) }
        case .double(let number):
            types.insert(.number)
            bound(Bound(number: number)) { .double(number) }
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
        // The text is copied only for a new bound.
        bound(Bound(integer: integer, number: number)) {
            .number(NumberText(unchecked: String(decoding: bytes, as: UTF8.self)))
        }
    }

    private mutating func observeString(_ bytes: UnsafeBufferPointer<UInt8>) {
        types.insert(.string)
        stringCount += 1
        // Looked up in place: a copy of the list would count a reference a cell.
        if strings?.contains(where: { $0.elementsEqual(bytes) }) == false {
            if let count = strings?.count, count < Self.enumLimit {
                strings?.append(Array(bytes))
            } else {
                strings = nil
            }
        }
        if !formats.isEmpty {
            let text = String(decoding: bytes, as: UTF8.self)
            formats.removeAll { !$0.accepts(text) }
        }
    }

    /// Moves the bounds out to `candidate`, which `value` spells: made
    /// only for a new bound.
    @inline(__always)
    private mutating func bound(_ candidate: Bound, _ value: () -> Value) {
        guard candidate.number.isFinite else { return }
        let isLower = minimum.map { candidate.isLess(than: $0) } ?? true
        let isUpper = maximum.map { $0.isLess(than: candidate) } ?? true
        guard isLower || isUpper else { return }
        let spelled = value()
        if isLower { (minimum, minimumValue) = (candidate, spelled) }
        if isUpper { (maximum, maximumValue) = (candidate, spelled) }
    }

    /// Logs the value's key for the unique check, which it leaves at a
    /// value that is no key, or at the limit.
    @inline(__always)
    private mutating func observeKey(_ cell: RawValue, others: UnsafeBufferPointer<Value>, ordinal: Int) {
        guard mayBeUnique, let keyLog else { return }
        keyCount += 1
        guard keyCount < Self.uniqueKeyLimit else { return endUniqueCheck() }
        // Most text is its own key text: its digest is taken in place.
        if case .text(let bytes) = cell, let text = KeyText.inPlace(bytes) {
            return log(KeyDigest(UnsafeRawBufferPointer(text)), in: keyLog, ordinal: ordinal)
        }
        keyText.removeAll(keepingCapacity: true)
        guard KeyText.append(cell, others: others, to: &keyText) else { return endUniqueCheck() }
        log(keyText.withUnsafeBytes { KeyDigest($0) }, in: keyLog, ordinal: ordinal)
    }

    /// Logs a key; with no memory for it, the unique check ends.
    @inline(__always)
    private mutating func log(_ digest: KeyDigest, in keyLog: KeyLog, ordinal: Int) {
        do { try keyLog.append(digest, key: keyNumber, record: ordinal, byteOffset: 0) } catch { endUniqueCheck() }
    }

    /// Ends the unique check: a key repeated (or could not be checked).
    private mutating func endUniqueCheck() {
        mayBeUnique = false
        keySources = []
    }

    /// Ends the unique check of this profile (and of its typed cells)
    /// whose number in the read's log is among `repeated`: a check of the
    /// log so far found a key of it twice.
    mutating func keysRepeat(among repeated: Set<UInt64>) {
        if mayBeUnique && repeated.contains(UInt64(keyNumber)) { endUniqueCheck() }
        deferred?.keysRepeat(among: repeated)
    }

    /// Keeps, in `fields` (a read's field numbers, each renamed to itself
    /// or to `KeyLog.ignored`), the numbers of this profile and of its
    /// typed cells while their keys are checked.
    func markChecked(_ fields: inout [UInt64]) {
        if mayBeUnique && keyLog != nil && keyNumber < fields.count { fields[keyNumber] = UInt64(keyNumber) }
        deferred?.markChecked(&fields)
    }

    /// Ends the reading. Called once every record is observed, before
    /// `merge` or `schema`.
    mutating func finish() {
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
        if let low = later.minimum { bound(low) { later.minimumValue } }
        if let high = later.maximum { bound(high) { later.maximumValue } }
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

    /// The unique check over the keys of both profiles, matched at the end
    /// (`FieldProfiles.schema`); given up when their keys together reach
    /// the limit.
    private mutating func mergeKeys(_ later: FieldProfile) {
        keyCount += later.keyCount
        guard mayBeUnique, later.mayBeUnique, keyCount < Self.uniqueKeyLimit else { return endUniqueCheck() }
        keySources += later.keySources
    }

    // MARK: - The schema

    /// The field's schema: its type (none when it held values of no JSON
    /// type, or only null), and the rules every value met.
    /// - Parameter unique: whether no key of the field came twice.
    func schema(unique: Bool) -> Value {
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
        if numeric, minimum != nil, maximum != nil {
            schema.append(key: "minimum", value: minimumValue)
            schema.append(key: "maximum", value: maximumValue)
        }
        if unique && mayBeUnique && filled >= 2 { schema.append(key: "x-ferry-unique", value: .bool(true)) }
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
