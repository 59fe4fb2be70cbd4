#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Design
//
// The same product read from a CSV export, a JSON feed and an app archive
// should be the same record, though each format spells it its own way:
//
//     CSV     name,price,sku,notes        Wii,269,A-1,          price .integer(269), notes ""
//     JSON    {"name":"Wii","price":2.69E2,"sku":"A-1"}         price .number("2.69E2"), no notes
//     archive Product{name: "Wii", price: 269.0, sku: "A-1"}    price .double(269.0)
//
// So two records are equal when each field is, under these rules (see
// Formats/merge.md, which users read):
//
// - a field one record lacks is null in it;
// - numbers are equal by value, exactly: `.integer(269)`, `.double(269.0)`
//   and `.number("2.69E2")` are one number; a double's value is its
//   shortest text (0.1 is 0.1), a number's text is read exactly (two
//   30-digit IDs that differ in the last digit differ);
// - in a field the kind or schema types, an empty string is null (a CSV
//   cell cannot say which it is); elsewhere `""` is a value of its own;
// - in a field no schema types, CSV has only text, so a text that spells a
//   number equals that number, and `true`/`false` those bools;
// - text is equal when canonically equivalent (NFC): `Cre\u{300}me` is
//   `Crème`; in key fields it is compared as key text (`KeyText`: trimmed
//   too), so the fields records were matched by never count as differing;
// - arrays and objects by these rules, element by element and key by key
//   (as fields no schema types); bytes and dates as `Value ==` has them.
//
// Raw records are compared in place: each cell is seen as an `Operand`
// (borrowed bytes or a number), so equal records cost no allocation.

/// A field whose values differ between two records, for a conflict report.
public struct FieldDifference: Sendable, Equatable {
    public let field: String
    /// The first record's value; nil when it lacks the field.
    public let first: Value?
    /// The second record's value; nil when it lacks the field.
    public let second: Value?

    package init(field: String, first: Value?, second: Value?) {
        self.field = field
        self.first = first
        self.second = second
    }
}

/// Record equality as merge and key matching see it (see the design note).
///
/// It keeps how the fields of two field lists pair up, and buffers for
/// numbers and key text, so use one per thread.
package final class RecordEquality {
    /// The fields the kind or schema types.
    private let typedNames: Set<String>
    /// The fields compared as key text.
    private let keyNames: Set<String>
    private var plans: [Pair: Plan] = [:]
    private var last: Plan?
    private var scratch: ([UInt8], [UInt8]) = ([], [])

    /// Compares records typed as `schema` types them, with `keyFields`
    /// compared as key text.
    package init(schema: Schema, keyFields: [String] = []) {
        typedNames = Set(schema.fieldRules.filter { $0.type != nil }.map(\.name))
        keyNames = Set(keyFields)
    }

    /// Compares records typed as `kind` types them, with `keyFields`
    /// compared as key text.
    package convenience init(kind: RecordKind, keyFields: [String] = []) {
        self.init(schema: kind.schema, keyFields: keyFields)
    }

    // MARK: - Records

    /// Whether `first` and `second` are equal, field by field.
    /// - Complexity: O(fields); no allocation for records whose text is
    ///   byte for byte equal or in NFC.
    package func equal(_ first: RawRecord, _ second: RawRecord) -> Bool {
        let plan = plan(first.fields, second.fields)
        for field in plan.fields where !equal(first, field.first, second, field.second, rule: field.rule) {
            return false
        }
        return true
    }

    /// The fields whose values differ between `first` and `second`, in the
    /// order of the first record's fields, then the second's others.
    package func differences(_ first: RawRecord, _ second: RawRecord) -> [FieldDifference] {
        let plan = plan(first.fields, second.fields)
        var differences: [FieldDifference] = []
        for field in plan.fields where !equal(first, field.first, second, field.second, rule: field.rule) {
            differences.append(
                FieldDifference(
                    field: field.name, first: field.first.map(first.value(at:)),
                    second: field.second.map(second.value(at:))))
        }
        return differences
    }

    /// Whether `first` and `second` are equal, field by field.
    package func equal(_ first: Record, _ second: Record) -> Bool {
        RawRecord.with(first) { first in RawRecord.with(second) { equal(first, $0) } }
    }

    /// The fields whose values differ between `first` and `second`.
    package func differences(_ first: Record, _ second: Record) -> [FieldDifference] {
        RawRecord.with(first) { first in RawRecord.with(second) { differences(first, $0) } }
    }

    /// Whether two values of field `field` are equal; nil is a missing field.
    package func equal(_ first: Value?, _ second: Value?, field: String) -> Bool {
        let rule = rule(of: field)
        return withOperand(first ?? .null) { a in withOperand(second ?? .null) { b in equal(a, b, rule: rule) } }
    }

    // MARK: - Digests

    /// A digest of `record`'s values under these rules, key fields left
    /// out: records that are not equal have different digests, so equal
    /// digests let a merge take two records of one key for identical
    /// without reading them again (about one pair in 2⁶⁴ would be taken for
    /// equal wrongly). It is stricter than `equal`: records it tells apart
    /// may still be equal (text in two normal forms, a number and the text
    /// that spells it), and are then compared. Nil for a record whose
    /// values it cannot digest (dates, nested values, NaN and infinities).
    ///
    /// Each field present (not null, and not an empty text where the field
    /// is typed) adds a 64-bit hash of its name, its value's type and its
    /// bytes. Numbers: a whole number within 2⁵³ by its value (`269`,
    /// `269.0` and the text `269` are one), another double by its bits,
    /// another number text by its one text (`DecimalText`). The sum does
    /// not depend on the fields' order.
    package func digest(of record: RawRecord) -> UInt64? {
        var exact = true
        return digest(of: record, exact: &exact)
    }

    /// `digest(of:)`, and whether it is exact: set to false unless every
    /// value is in the one form `equal` compares it in, so that two
    /// records whose exact digests differ are known to differ (but for
    /// their key fields) without being compared: text in NFC that, in a
    /// field no schema types, spells no number and no bool; numbers held
    /// as values, their magnitude below 2⁵³; bools and bytes; nulls.
    package func digest(of record: RawRecord, exact: inout Bool) -> UInt64? {
        if record.fieldsAddress != digestAddress { planDigest(record.fields) }
        // Readers give a cell for each name; a record that has more cells
        // than names (any code can make a raw record) has no digest, and
        // is compared field by field, rather than read past the plan.
        guard record.values.count <= digestSeeds.count else { return nil }
        var sum: UInt64 = 0
        for index in 0..<record.values.count {
            let seed = digestSeeds[index]
            if seed == 0 { continue }  // a key field
            // Values the reader made whole come as their cells would.
            let share = withOperand(record, index) { hash($0, seed: seed, typed: digestTyped[index], exact: &exact) }
            guard let share else { return nil }
            sum &+= share
        }
        return sum
    }

    /// A cell's share of a record's digest: 0 for none (null, or an empty
    /// text where typed); nil when it cannot be digested. `exact` is set
    /// to false for a value `equal` may find equal to one of another share.
    @inline(__always)
    private func hash(_ operand: Operand, seed: UInt64, typed: Bool, exact: inout Bool) -> UInt64? {
        switch operand {
        case .absent:
            return 0
        case .text(let text):
            if text.isEmpty && typed { return 0 }
            // The hash reads every byte: it tells whether any is past ASCII.
            var read: UInt64 = 0
            let share = Self.hash(UnsafeRawBufferPointer(text), seed: seed ^ 0x74, read: &read)
            if read & 0x8080_8080_8080_8080 != 0 && !KeyText.isKnownNFC(text) || !typed && Self.spellsScalar(text) {
                exact = false
            }
            return share
        case .integer(let number):
            if number.magnitude >= 1 << 53 { exact = false }
            return Self.hash(integer: number, seed: seed)
        case .double(let number):
            guard number.isFinite else { return nil }
            if let integer = Int64(exactly: number), integer.magnitude <= 1 << 53 {
                return Self.hash(integer: integer, seed: seed)
            }
            // Past 2⁵³ a double equals the integers its text spells.
            if number.magnitude >= 0x1p53 { exact = false }
            // A fraction by its bits: equal doubles have equal bits.
            return Self.hash(integer: Int64(bitPattern: number.bitPattern), seed: seed ^ 0x64)
        case .numberText(let text):
            exact = false
            if let integer = Self.smallInteger(text) { return Self.hash(integer: integer, seed: seed) }
            scratch.0.removeAll(keepingCapacity: true)
            DecimalText.appendCanonical(text, to: &scratch.0)
            return scratch.0.withUnsafeBytes { Self.hash($0, seed: seed ^ 0x6E) }
        case .bool(let flag):
            return Self.hash(UnsafeRawBufferPointer(start: nil, count: 0), seed: seed ^ (flag ? 0x62 : 0x42))
        case .bytes(let bytes):
            return Self.hash(bytes, seed: seed ^ 0x79)
        case .value:
            return nil  // dates and nested values
        }
    }

    /// Whether a text, in a field no schema types, may equal a number or a
    /// bool (see `equal`): it spells a number, `true` or `false`.
    @inline(__always)
    private static func spellsScalar(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        // No number, and neither word, starts with a letter other than t or f.
        if let first = text.first, first >= UInt8(ascii: "A"), first != UInt8(ascii: "t"), first != UInt8(ascii: "f") {
            return false
        }
        return DecimalText.isNumber(text) || text.elementsEqual("true".utf8) || text.elementsEqual("false".utf8)
    }

    // The digest's plan for the last field list: per field, a seed from
    // its name (0 for a key field) and whether it is typed. In memory of
    // its own and found by the list's address, so that a record reads it
    // with no reference counted; `digestFields` keeps the list alive.
    private var digestFields: FieldList?
    private var digestAddress: UnsafeRawPointer?
    private var digestSeeds = UnsafeMutableBufferPointer<UInt64>(start: nil, count: 0)
    private var digestTyped = UnsafeMutableBufferPointer<Bool>(start: nil, count: 0)

    deinit {
        digestSeeds.deallocate()
        digestTyped.deallocate()
    }

    private func planDigest(_ fields: FieldList) {
        digestSeeds.deallocate()
        digestTyped.deallocate()
        digestSeeds = .allocate(capacity: fields.names.count)
        digestTyped = .allocate(capacity: fields.names.count)
        for (index, name) in fields.names.enumerated() {
            var name = name
            // Never 0, which marks a key field; the low byte is left for the type.
            let seed = name.withUTF8 { Self.hash(UnsafeRawBufferPointer($0), seed: 0x9E37_79B9_7F4A_7C15) } | 0x100
            digestSeeds[index] = keyNames.contains(name) ? 0 : seed
            digestTyped[index] = typedNames.contains(name)
        }
        digestFields = fields
        digestAddress = RawRecord.address(of: fields)
    }

    /// The hash of an integer's value, which integers, whole doubles and
    /// number texts of one share.
    @inline(__always)
    private static func hash(integer: Int64, seed: UInt64) -> UInt64 {
        withUnsafeBytes(of: integer.littleEndian) { hash($0, seed: seed ^ 0x69) }
    }

    /// The value of a number's text when it is a plain integer of at most
    /// 15 digits (so within 2⁵³); nil for any other.
    @inline(__always)
    private static func smallInteger(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        let negative = text.first == UInt8(ascii: "-")
        let digits = negative ? UnsafeBufferPointer(rebasing: text.dropFirst()) : text
        guard !digits.isEmpty, digits.count <= 15, digits.count == 1 || digits[0] != UInt8(ascii: "0") else { return nil }
        var value: Int64 = 0
        for digit in digits {
            guard digit &- UInt8(ascii: "0") < 10 else { return nil }
            value = value * 10 + Int64(digit &- UInt8(ascii: "0"))
        }
        // "-0" is left to its text, which may not be the integer 0's.
        return negative ? (value == 0 ? nil : -value) : value
    }

    /// A 64-bit hash of `bytes` from `seed`: two multiplications for up
    /// to 16 bytes (most values: a name, a currency, a number's eight),
    /// one more every 16 after. Up to 16 bytes are read as two words that
    /// overlap (or, below eight, two of four, or three single bytes), and
    /// the length is mixed in, so every byte counts once.
    @inline(__always)
    private static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        var read: UInt64 = 0
        return hash(bytes, seed: seed, read: &read)
    }

    /// `hash(_:seed:)`, with the bits of every word it reads or'ed into
    /// `read`: every byte of `bytes` lies in some byte of it.
    @inline(__always)
    private static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64, read: inout UInt64) -> UInt64 {
        @inline(__always) func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
            let product = a.multipliedFullWidth(by: b)
            return product.high ^ product.low
        }
        @inline(__always) func word(_ offset: Int) -> UInt64 {
            UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        let count = bytes.count
        var state = seed ^ 0xA076_1D64_78BD_642F
        var index = 0
        while count - index > 16 {
            let (a, b) = (word(index), word(index + 8))
            read |= a | b
            state = mix(a ^ 0xE703_7ED1_A0B4_28DB, b ^ state)
            index += 16
        }
        let first: UInt64
        let last: UInt64
        let left = count - index
        if left >= 8 {
            (first, last) = (word(index), word(count - 8))
        } else if left >= 4 {
            first = UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self)))
            last = UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)))
        } else if left > 0 {
            first = UInt64(bytes[index]) << 16 | UInt64(bytes[index + left / 2]) << 8 | UInt64(bytes[count - 1])
            last = 0
        } else {
            (first, last) = (0, 0)
        }
        read |= first | last
        return mix(
            0xE703_7ED1_A0B4_28DB ^ UInt64(count), mix(first ^ 0xE703_7ED1_A0B4_28DB, last ^ state))
    }

    // MARK: - Cells

    /// How a field's values are compared.
    private struct Rule {
        /// The kind or schema types the field: an empty value is null.
        var typed: Bool
        /// A key field: compared as key text, empty once trimmed.
        var key: Bool
    }

    /// A cell as the comparison sees it; text and bytes are borrowed.
    private enum Operand {
        case absent
        case bool(Bool)
        case integer(Int64)
        case double(Double)
        case numberText(UnsafeBufferPointer<UInt8>)
        case text(UnsafeBufferPointer<UInt8>)
        case bytes(UnsafeRawBufferPointer)
        case value(Value)
    }

    private func rule(of field: String) -> Rule {
        Rule(typed: typedNames.contains(field), key: keyNames.contains(field))
    }

    @inline(__always)
    private func equal(_ first: RawRecord, _ a: Int?, _ second: RawRecord, _ b: Int?, rule: Rule) -> Bool {
        // The common case: the same text, or the same number of one type.
        if let a, let b {
            switch (first.values[a], second.values[b]) {
            case (.text(let x), .text(let y)) where x.count == y.count:
                // The same bytes are the same text under every rule.
                if x.count == 0 || memcmp(x.baseAddress.unsafelyUnwrapped, y.baseAddress.unsafelyUnwrapped, x.count) == 0 {
                    return true
                }
            case (.integer(let x), .integer(let y)): return x == y
            case (.double(let x), .double(let y)): return x == y
            case (.integer(let x), .double(let y)) where x.magnitude <= 1 << 53: return Double(x) == y
            case (.double(let y), .integer(let x)) where x.magnitude <= 1 << 53: return Double(x) == y
            default: break
            }
        }
        return withOperand(first, a) { x in withOperand(second, b) { y in equal(x, y, rule: rule) } }
    }

    private func equal(_ a: Operand, _ b: Operand, rule: Rule) -> Bool {
        let a = rule.typed ? nullIfEmpty(a, trimmed: rule.key) : a
        let b = rule.typed ? nullIfEmpty(b, trimmed: rule.key) : b
        switch (a, b) {
        case (.absent, .absent): return true
        case (.absent, _), (_, .absent): return false
        case _ where rule.key:
            return sameKeyText(a, b)
        case (.text(let x), .text(let y)):
            return sameText(x, y)
        case (.bool(let x), .bool(let y)): return x == y
        case (.bytes(let x), .bytes(let y)): return x.elementsEqual(y)
        case (.value(let x), .value(let y)): return sameNested(x, y)
        case (.text(let text), .bool(let flag)), (.bool(let flag), .text(let text)):
            return !rule.typed && text.elementsEqual((flag ? "true" : "false").utf8)
        case (.text(let text), _), (_, .text(let text)):
            // Text and a number: equal in an untyped field when it spells that number.
            guard !rule.typed, DecimalText.isNumber(text) else { return false }
            return sameNumber(a, b)
        default:
            return sameNumber(a, b)
        }
    }

    /// Whether two nested values are equal: arrays element by element,
    /// objects key by key (a missing key is null), under the rules of a
    /// field no schema types; dates as `Value ==` has them.
    private func sameNested(_ x: Value, _ y: Value) -> Bool {
        let rule = Rule(typed: false, key: false)
        switch (x, y) {
        case (.array(let x), .array(let y)):
            guard x.count == y.count else { return false }
            for (a, b) in zip(x, y) where !withOperand(a, { a in withOperand(b) { b in equal(a, b, rule: rule) } }) {
                return false
            }
            return true
        case (.object(let x), .object(let y)):
            for (key, a) in zip(x.keys, x.values) {
                let b = y[key] ?? .null
                guard withOperand(a, { a in withOperand(b) { b in equal(a, b, rule: rule) } }) else { return false }
            }
            for (key, b) in zip(y.keys, y.values) where x[key] == nil {
                guard withOperand(b, { b in equal(.absent, b, rule: rule) }) else { return false }
            }
            return true
        default:
            return x == y
        }
    }

    /// An empty text as null, for fields the kind or schema types; for a
    /// key field, a text empty once trimmed too.
    @inline(__always)
    private func nullIfEmpty(_ operand: Operand, trimmed: Bool) -> Operand {
        if case .text(let text) = operand, text.isEmpty || (trimmed && KeyText.trimmed(text).isEmpty) { return .absent }
        return operand
    }

    /// Whether two texts are canonically equivalent: the same bytes, or the
    /// same NFC.
    private func sameText(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
        if x.elementsEqual(y) { return true }
        // Two different texts each in NFC already are not equivalent.
        if KeyText.isKnownNFC(x) && KeyText.isKnownNFC(y) { return false }
        return String(decoding: x, as: UTF8.self) == String(decoding: y, as: UTF8.self)
    }

    /// Whether two values of a key field have the same key text (`KeyText`),
    /// as `KeyFields` matches them; values that are no key, as `Value ==`.
    private func sameKeyText(_ a: Operand, _ b: Operand) -> Bool {
        scratch.0.removeAll(keepingCapacity: true)
        scratch.1.removeAll(keepingCapacity: true)
        guard Self.appendKeyText(a, to: &scratch.0), Self.appendKeyText(b, to: &scratch.1) else {
            if case .value(let x) = a, case .value(let y) = b { return x == y }
            if case .bytes(let x) = a, case .bytes(let y) = b { return x.elementsEqual(y) }
            return false
        }
        return scratch.0 == scratch.1
    }

    /// Appends an operand's key text, as `KeyText` gives it for its value.
    /// - Returns: false when the operand is no key (bytes, dates, nested values).
    private static func appendKeyText(_ operand: Operand, to text: inout [UInt8]) -> Bool {
        switch operand {
        case .text(let bytes): KeyText.append(bytes, to: &text)
        case .bool(let flag): text.append(contentsOf: (flag ? "true" : "false").utf8)
        case .double(let number) where !number.isFinite: return false
        case .integer, .double, .numberText: return appendNumber(operand, to: &text)
        case .absent, .bytes, .value: return false
        }
        return true
    }

    /// Whether two operands are the same number (see the design note);
    /// false when either is no number.
    private func sameNumber(_ a: Operand, _ b: Operand) -> Bool {
        switch (a, b) {
        case (.integer(let x), .integer(let y)): return x == y
        case (.double(let x), .double(let y)): return x == y
        case (.integer(let x), .double(let y)), (.double(let y), .integer(let x)):
            // Doubles hold every integer up to 2^53; past it, as text.
            if x.magnitude <= 1 << 53 { return Double(x) == y }
        case (.double(let x), _) where !x.isFinite: return false
        case (_, .double(let y)) where !y.isFinite: return false
        default: break
        }
        scratch.0.removeAll(keepingCapacity: true)
        scratch.1.removeAll(keepingCapacity: true)
        guard Self.appendNumber(a, to: &scratch.0), Self.appendNumber(b, to: &scratch.1) else { return false }
        return scratch.0 == scratch.1
    }

    /// Appends the one text of a number (`DecimalText.appendCanonical`).
    /// - Returns: false when `operand` is no number.
    private static func appendNumber(_ operand: Operand, to text: inout [UInt8]) -> Bool {
        switch operand {
        case .integer(let number): KeyText.appendInteger(number, to: &text)
        case .double(let number): KeyText.appendDouble(number, to: &text)
        case .numberText(let bytes), .text(let bytes): DecimalText.appendCanonical(bytes, to: &text)
        default: return false
        }
        return true
    }

    @inline(__always)
    private func withOperand<Result>(_ record: RawRecord, _ index: Int?, _ body: (Operand) -> Result) -> Result {
        guard let index else { return body(.absent) }
        switch record.values[index] {
        case .null: return body(.absent)
        case .bool(let flag): return body(.bool(flag))
        case .integer(let number): return body(.integer(number))
        case .double(let number): return body(.double(number))
        case .number(let text): return body(.numberText(text))
        case .text(let text): return body(.text(text))
        case .bytes(let bytes): return body(.bytes(bytes))
        case .other(let other): return withOperand(record.others[other], body)
        }
    }

    private func withOperand<Result>(_ value: Value, _ body: (Operand) -> Result) -> Result {
        switch value {
        case .null: return body(.absent)
        case .bool(let flag): return body(.bool(flag))
        case .integer(let number): return body(.integer(number))
        case .double(let number): return body(.double(number))
        case .number(let number):
            var text = number.text
            return text.withUTF8 { body(.numberText($0)) }
        case .string(var text): return text.withUTF8 { body(.text($0)) }
        case .bytes(let bytes): return bytes.withUnsafeBytes { body(.bytes($0)) }
        case .date, .array, .object: return body(.value(value))
        }
    }

    // MARK: - Field pairs

    /// Two field lists, by identity; a plan holds both, so neither
    /// identifier is reused while the plan is kept.
    private struct Pair: Hashable {
        let first: ObjectIdentifier
        let second: ObjectIdentifier
    }

    /// How the fields of two field lists pair up.
    private final class Plan {
        let lists: (FieldList, FieldList)
        let fields: [(name: String, first: Int?, second: Int?, rule: Rule)]

        init(_ first: FieldList, _ second: FieldList, rule: (String) -> Rule) {
            lists = (first, second)
            var fields = first.names.enumerated().map { index, name in
                (name: name, first: Int?(index), second: second.index(of: name), rule: rule(name))
            }
            for (index, name) in second.names.enumerated() where !first.contains(name) {
                fields.append((name: name, first: nil, second: index, rule: rule(name)))
            }
            self.fields = fields
        }
    }

    @inline(__always)
    private func plan(_ first: FieldList, _ second: FieldList) -> Plan {
        // Most comparisons are of the pair of shapes compared last.
        if let last, last.lists.0 === first && last.lists.1 === second { return last }
        let plan = lookUp(first, second)
        last = plan
        return plan
    }

    private func lookUp(_ first: FieldList, _ second: FieldList) -> Plan {
        let pair = Pair(first: ObjectIdentifier(first), second: ObjectIdentifier(second))
        if let plan = plans[pair] { return plan }
        // Streams have a few shapes; a stream of ever new ones starts over.
        if plans.count >= 256 { plans.removeAll() }
        let plan = Plan(first, second, rule: rule(of:))
        plans[pair] = plan
        return plan
    }
}
