// MARK: - Design
//
// How Ferry's values look to a JSON Schema: as the JSON Ferry writes for
// them. `.bytes` is a string (a `data:` URI) and `.date` a string (ISO
// 8601); `.integer` is an integer and a number; a `.double` is a number,
// and an integer too when it has no fraction (JSON Schema counts 1.0 as an
// integer). Numbers compare by value, exactly (an Int64 against a Double
// without rounding either), and 1 equals 1.0; true never equals 1. Strings
// compare by their Unicode scalars, as JSON does, not by Swift's canonical
// equivalence.

/// The seven types of JSON Schema, as a set.
struct JSONTypes: OptionSet, Sendable, Hashable {
    let rawValue: UInt8

    static let null = JSONTypes(rawValue: 1)
    static let boolean = JSONTypes(rawValue: 2)
    static let object = JSONTypes(rawValue: 4)
    static let array = JSONTypes(rawValue: 8)
    static let number = JSONTypes(rawValue: 16)
    static let string = JSONTypes(rawValue: 32)
    static let integer = JSONTypes(rawValue: 64)

    /// The names, in the order JSON Schema lists them.
    static let names: [(String, JSONTypes)] = [
        ("null", .null), ("boolean", .boolean), ("object", .object), ("array", .array), ("number", .number),
        ("string", .string), ("integer", .integer),
    ]

    init(rawValue: UInt8) { self.rawValue = rawValue }

    init?(name: String) {
        guard let found = Self.names.first(where: { $0.0 == name }) else { return nil }
        self = found.1
    }

    /// The names of the types in the set, in JSON Schema's order.
    var typeNames: [String] { Self.names.filter { contains($0.1) }.map(\.0) }

    /// Whether `value` has one of the types.
    func matches(_ value: Value) -> Bool {
        switch value {
        case .null: contains(.null)
        case .bool: contains(.boolean)
        case .integer: contains(.number) || contains(.integer)
        case .double(let number): contains(.number) || (contains(.integer) && SchemaValues.isIntegral(number))
        case .number(let number): matches(number.value)
        case .string, .bytes, .date: contains(.string)
        case .array: contains(.array)
        case .object: contains(.object)
        }
    }
}

/// A number in a schema: a limit or a divisor, kept as the document gave it.
enum SchemaNumber: Sendable, Hashable {
    case integer(Int64)
    case double(Double)

    init?(_ value: Value) {
        switch value.numeric {
        case .integer(let number): self = .integer(number)
        case .double(let number) where number.isFinite: self = .double(number)
        default: return nil
        }
    }

    var isZero: Bool {
        switch self {
        case .integer(let number): number == 0
        case .double(let number): number == 0
        }
    }

    /// As a message shows it.
    var argument: MessageArgument {
        switch self {
        case .integer(let number): .integer(Int(number))
        case .double(let number): .double(number)
        }
    }
}

enum SchemaValues {
    /// Whether `number` is finite and has no fraction.
    /// Whether `number` is a multiple of `divisor` as decimals, each read as
    /// the shortest text that gives it back (75.99 and 0.01, as people write
    /// them): 75.99 is 7599 hundredths, a multiple of one hundredth, although
    /// the binary quotient 75.99 / 0.01 is 7598.999…, which fails in Python's
    /// jsonschema. Nil when either has more digits than 64 bits hold once
    /// both are scaled to the same number of decimals.
    static func isDecimalMultiple(_ number: Double, of divisor: Double) -> Bool? {
        guard number.isFinite, divisor.isFinite, divisor != 0,
            let left = Decimal64(number), let right = Decimal64(divisor)
        else { return nil }
        let scale = max(left.scale, right.scale)
        guard let a = left.scaled(to: scale), let b = right.scaled(to: scale), b != 0 else { return nil }
        return a.remainderReportingOverflow(dividingBy: b).partialValue == 0
    }

    /// A double as an integer of decimals: `significand × 10^-scale`.
    private struct Decimal64 {
        let significand: Int64
        let scale: Int

        /// From the shortest text of `value` (`description`: "75.99", "1e-05").
        init?(_ value: Double) {
            var text = Substring(value.description)
            var exponent = 0
            if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
                guard let power = Int(text[text.index(after: e)...]) else { return nil }
                exponent = power
                text = text[..<e]
            }
            var digits = text
            var fraction = 0
            if let point = text.firstIndex(of: ".") {
                digits = text[..<point] + text[text.index(after: point)...]
                fraction = text.distance(from: text.index(after: point), to: text.endIndex)
            }
            guard var significand = Int64(digits) else { return nil }
            var scale = fraction - exponent
            while scale < 0 {
                let (scaled, overflow) = significand.multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
                significand = scaled
                scale += 1
            }
            self.significand = significand
            self.scale = scale
        }

        /// The significand for `scale` decimals (at least `self.scale`).
        func scaled(to target: Int) -> Int64? {
            var result = significand
            for _ in scale..<target {
                let (scaled, overflow) = result.multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
                result = scaled
            }
            return result
        }
    }

    static func isIntegral(_ number: Double) -> Bool {
        number.isFinite && number.rounded(.towardZero) == number
    }

    /// How `value` (a number) compares with `limit`: negative, zero or
    /// positive; nil when it does not (NaN, or not a number).
    static func compare(_ value: Value, with limit: SchemaNumber) -> Int? {
        switch value.numeric {
        case .integer(let number): compare(SchemaNumber.integer(number), with: limit)
        case .double(let number): compare(SchemaNumber.double(number), with: limit)
        default: nil
        }
    }

    /// How `number` compares with `limit`, as `compare(_:with:)` of a
    /// value: for `RawSchemaCheck`, which has numbers, not values.
    static func compare(_ number: SchemaNumber, with limit: SchemaNumber) -> Int? {
        switch (number, limit) {
        case (.integer(let left), .integer(let right)): left < right ? -1 : (left == right ? 0 : 1)
        case (.integer(let left), .double(let right)): compare(left, right)
        case (.double(let left), .integer(let right)): compare(right, left).map { -$0 }
        case (.double(let left), .double(let right)):
            left.isNaN ? nil : (left < right ? -1 : (left == right ? 0 : 1))
        }
    }

    // The tests of `minimum`, `maximum`, `exclusiveMinimum` and
    // `exclusiveMaximum`, which the full check (`checkNumber`) and
    // `RawSchemaCheck` both call: whether `value` breaks the limit. A value
    // that does not compare (NaN) breaks each.

    static func isBelow(_ value: Value, minimum limit: SchemaNumber) -> Bool {
        (compare(value, with: limit) ?? -1) < 0
    }

    static func isAbove(_ value: Value, maximum limit: SchemaNumber) -> Bool {
        (compare(value, with: limit) ?? 1) > 0
    }

    static func isAtOrBelow(_ value: Value, exclusiveMinimum limit: SchemaNumber) -> Bool {
        (compare(value, with: limit) ?? 0) <= 0
    }

    static func isAtOrAbove(_ value: Value, exclusiveMaximum limit: SchemaNumber) -> Bool {
        (compare(value, with: limit) ?? 0) >= 0
    }

    // The same tests of a number (`RawSchemaCheck`'s cells).

    static func isBelow(_ number: SchemaNumber, minimum limit: SchemaNumber) -> Bool {
        (compare(number, with: limit) ?? -1) < 0
    }

    static func isAbove(_ number: SchemaNumber, maximum limit: SchemaNumber) -> Bool {
        (compare(number, with: limit) ?? 1) > 0
    }

    static func isAtOrBelow(_ number: SchemaNumber, exclusiveMinimum limit: SchemaNumber) -> Bool {
        (compare(number, with: limit) ?? 0) <= 0
    }

    static func isAtOrAbove(_ number: SchemaNumber, exclusiveMaximum limit: SchemaNumber) -> Bool {
        (compare(number, with: limit) ?? 0) >= 0
    }

    /// How `integer` compares with `double`, exactly.
    static func compare(_ integer: Int64, _ double: Double) -> Int? {
        if double.isNaN { return nil }
        if double >= 9_223_372_036_854_775_808.0 { return -1 }
        if double < -9_223_372_036_854_775_808.0 { return 1 }
        // |double| < 2^63 here: its whole part is an Int64, and the rest exact.
        let whole = Int64(double.rounded(.towardZero))
        if integer != whole { return integer < whole ? -1 : 1 }
        let fraction = double - Double(whole)
        return fraction > 0 ? -1 : (fraction < 0 ? 1 : 0)
    }

    /// Whether `value` (a number) is a multiple of `divisor` (above 0), the
    /// way Python's `jsonschema` decides it: exactly for two integers; for a
    /// double, by the remainder of a division by an integer divisor, or by
    /// whether the quotient by a double divisor is whole.
    static func isMultiple(_ value: Value, of divisor: SchemaNumber) -> Bool {
        switch value.numeric {
        case .integer(let number): isMultiple(SchemaNumber.integer(number), of: divisor)
        case .double(let number): isMultiple(SchemaNumber.double(number), of: divisor)
        default: true
        }
    }

    /// `isMultiple(_:of:)` of a number.
    static func isMultiple(_ number: SchemaNumber, of divisor: SchemaNumber) -> Bool {
        switch (number, divisor) {
        case (.integer(let number), .integer(let divisor)):
            return number.remainderReportingOverflow(dividingBy: divisor).partialValue == 0
        case (.double(let number), .integer(let divisor)):
            guard number.isFinite else { return false }
            return number.truncatingRemainder(dividingBy: Double(divisor)) == 0
        case (.integer(let number), .double(let divisor)):
            return isDecimalMultiple(Double(number), of: divisor) ?? isIntegral(Double(number) / divisor)
        case (.double(let number), .double(let divisor)):
            return isDecimalMultiple(number, of: divisor) ?? isIntegral(number / divisor)
        }
    }

    /// The text of a value JSON Schema counts as a string: a string's own,
    /// the `data:` URI of bytes, the ISO 8601 text of a date.
    static func text(of value: Value) -> String? {
        switch value {
        case .string(let text): text
        case .bytes(let bytes): Photo.dataURI(bytes)
        case .date(let date): Timestamp.iso8601(date)
        default: nil
        }
    }

    /// Whether two names have the same Unicode scalars, as JSON compares
    /// them: the same UTF-8 bytes, one scalar each way. The lengths first:
    /// most names that differ differ in length. (Comparing the scalars one
    /// by one ran 160 instructions a name, 17M of 875M validating 100,000
    /// products against shop.schema.json; the views' `elementsEqual`, 440;
    /// the buffers', 170.)
    static func sameName(_ left: String, _ right: String) -> Bool {
        guard left.utf8.count == right.utf8.count else { return false }
        var (left, right) = (left, right)
        return left.withUTF8 { left in
            right.withUTF8 { right in
                for index in left.indices where left[index] != right[index] { return false }
                return true
            }
        }
    }

    /// Whether `left` and `right` are equal as JSON values.
    static func equal(_ left: Value, _ right: Value) -> Bool {
        let left = left.numeric
        let right = right.numeric
        switch (left, right) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.integer, .integer), (.integer, .double), (.double, .integer), (.double, .double):
            guard case .integer(let number) = left else {
                guard case .double(let number) = left else { return false }
                return compare(right, with: .double(number)) == 0
            }
            return compare(right, with: .integer(number)) == 0
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            for index in 0..<a.count {
                let key = a.keys[index]
                guard let other = b.keys.firstIndex(where: { $0.unicodeScalars.elementsEqual(key.unicodeScalars) }),
                    equal(a.values[index], b.values[other])
                else { return false }
            }
            return true
        default:
            guard let a = text(of: left), let b = text(of: right) else { return false }
            return a.unicodeScalars.elementsEqual(b.unicodeScalars)
        }
    }

    /// A hash that agrees with `equal`: equal values hash alike (1 and
    /// 1.0, objects whatever their keys' order), so `uniqueItems` compares
    /// only the items that share one.
    static func hash(_ value: Value, into hasher: inout Hasher) {
        let value = value.numeric
        switch value {
        case .null: hasher.combine(0)
        case .bool(let flag): hasher.combine(flag ? 1 : 2)
        case .integer(let number):
            // An integer equals a double only when the double is exactly it,
            // which is then the integer's nearest double.
            hasher.combine(3)
            hasher.combine(Double(number) + 0)
        case .double(let number):
            hasher.combine(3)
            hasher.combine(number + 0)  // -0.0 as 0.0
        case .array(let elements):
            hasher.combine(4)
            hasher.combine(elements.count)
            for element in elements { hash(element, into: &hasher) }
        case .object(let object):
            // Members in any order: a sum of each member's own hash.
            var sum = 0
            for index in 0..<object.count {
                var member = Hasher()
                for scalar in object.keys[index].unicodeScalars { member.combine(scalar.value) }
                hash(object.values[index], into: &member)
                sum = sum &+ member.finalize()
            }
            hasher.combine(5)
            hasher.combine(sum)
        default:
            hasher.combine(6)
            for scalar in (text(of: value) ?? "").unicodeScalars { hasher.combine(scalar.value) }
        }
    }

    /// The first two items of `elements` that are equal, by `equal`; nil
    /// when all differ. Items are grouped by `hash` first, so a long array
    /// costs one pass, not a comparison of every pair.
    static func firstRepeat(in elements: [Value]) -> (Int, Int)? {
        var seen: [Int: [Int]] = [:]
        for (index, element) in elements.enumerated() {
            var hasher = Hasher()
            hash(element, into: &hasher)
            let key = hasher.finalize()
            if let earlier = seen[key]?.first(where: { equal(elements[$0], element) }) { return (earlier, index) }
            seen[key, default: []].append(index)
        }
        return nil
    }

    /// `value` as a diagnostic shows it: a string's own text (a `data:` URI
    /// for bytes, ISO 8601 for a date), else compact JSON.
    static func display(_ value: Value) -> String {
        if let text = text(of: value) { return text }
        if let text = try? JSONText.compact(value) { return text }
        if case .double(let number) = value { return number.description }
        return value.typeName
    }

    /// `value` as compact JSON, for the arguments of `schema.enum` and `schema.const`.
    static func json(_ value: Value) -> String {
        (try? JSONText.compact(value)) ?? display(value)
    }
}
