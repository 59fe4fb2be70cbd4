#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Design
//
// A text format writes a number as text, and that text is the number's
// identity to the people who wrote it: `1.10` is a price with two
// decimals, `1E2` is how their tool spells a hundred, and a 30-digit ID is
// an ID. Parsed into an `Int64` or a `Double` and printed again, each comes
// out different (`1.1`, `100.0`, `1.2345678901234568e+29`).
//
// So a text reader hands out a number as `.integer`/`.double` only when
// the writers print that value back as exactly the text it read (84.99, 7,
// 244.0: `JSONText.printsAsWritten`, which is most numbers in real data
// and costs nothing more); any other number keeps its text, `.number` in a
// `Value`, `.number(bytes)` in a `RawValue`. Text writers write the text;
// checks (type, minimum, multipleOf) see `value`; binary writers store
// `value` and warn when it does not hold the text's number exactly
// (`convert.numberRounded`).

/// A number as a text format wrote it: its text, kept byte for byte, and
/// the value checks and binary formats see.
public struct NumberText: Sendable, Hashable {
    /// The text, in `DecimalText`'s grammar (which holds JSON's).
    public let text: String

    /// Wraps `text`, which the caller has checked is a number
    /// (`DecimalText.isNumber`).
    public init(unchecked text: String) { self.text = text }

    /// The number: an integer when the text is one that fits 64 bits, else
    /// the nearest double (an infinity past the largest).
    public var value: Value {
        var text = text
        return text.withUTF8 { bytes in
            switch DecimalText.value(bytes) {
            case .integer(let number): .integer(number)
            case .double(let number): .double(number)
            default: .double(.nan)
            }
        }
    }
}

extension NumberText {
    /// The number when the text is an integer from 2^63 to 2^64 − 1 (an
    /// optional `+`, then digits), which `value` can only round to a
    /// double: property lists store these exactly, in 16 bytes.
    public var unsignedInteger: UInt64? {
        var text = text
        return text.withUTF8 { bytes -> UInt64? in
            var digits = bytes[...]
            if digits.first == UInt8(ascii: "+") { digits = digits.dropFirst() }
            guard !digits.isEmpty else { return nil }
            var magnitude: UInt64 = 0
            for byte in digits {
                guard byte &- 0x30 < 10 else { return nil }
                let (product, high) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, carry) = product.addingReportingOverflow(UInt64(byte &- 0x30))
                guard !high, !carry else { return nil }
                magnitude = sum
            }
            return magnitude > UInt64(Int64.max) ? magnitude : nil
        }
    }
}

extension Value {
    /// The value, with a number kept as text (`.number`) as its number.
    @inlinable
    public var numeric: Value {
        if case .number(let number) = self { return number.value }
        return self
    }
}

// MARK: - Text as a raw value

extension DecimalText {
    /// A number's cell: `.integer` or `.double` when the writers print its
    /// value back as exactly `bytes`, else the text itself (`.number`).
    /// - Returns: nil when `bytes` are not a number in this grammar.
    @inlinable
    public static func cell(_ bytes: UnsafeBufferPointer<UInt8>) -> RawValue? {
        if JSONText.printsAsWritten(bytes) || JSONText.printsAsWrittenNegative(bytes) { return number(bytes) }
        return isNumber(bytes) ? .number(bytes) : nil
    }

    /// An integer's cell, as `cell(_:)` gives it, for text that is an
    /// integer (an optional sign and digits), however long.
    /// - Returns: nil for any other text.
    @inlinable
    public static func integerCell(_ bytes: UnsafeBufferPointer<UInt8>) -> RawValue? {
        if JSONText.printsAsWritten(bytes) || JSONText.printsAsWrittenNegative(bytes) {
            if case .integer(let number)? = number(bytes) { return .integer(number) }
            return nil
        }
        return isInteger(bytes) ? .number(bytes) : nil
    }

    /// A number's value, as `cell(_:)` reads it, with text copied out.
    public static func parsedValue(_ bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        switch cell(bytes) {
        case .integer(let number)?: .integer(number)
        case .double(let number)?: .double(number)
        case .number?: .number(NumberText(unchecked: String(decoding: bytes, as: UTF8.self)))
        default: nil
        }
    }

    /// Whether `bytes` are an optional sign and at least one digit.
    public static func isInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        if index < bytes.count && (bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")) { index += 1 }
        guard index < bytes.count else { return false }
        while index < bytes.count {
            guard bytes[index] &- 0x30 < 10 else { return false }
            index += 1
        }
        return true
    }

    /// Whether `bytes` are a number in `number(_:)`'s grammar, of any size.
    public static func isNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = bytes.count
        var index = 0
        if index < count && (bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")) { index += 1 }
        var digits = 0
        while index < count, bytes[index] &- 0x30 < 10 {
            digits += 1
            index += 1
        }
        if index < count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < count, bytes[index] &- 0x30 < 10 {
                digits += 1
                index += 1
            }
        }
        guard digits > 0 else { return false }
        if index < count && bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < count && (bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")) { index += 1 }
            var exponentDigits = 0
            while index < count, bytes[index] &- 0x30 < 10 {
                exponentDigits += 1
                index += 1
            }
            guard exponentDigits > 0 else { return false }
        }
        return index == count
    }

    /// The value of number text of any size: as `number(_:)` reads it, or
    /// an infinity past the largest double.
    /// - Returns: nil when `bytes` are not a number.
    public static func value(_ bytes: UnsafeBufferPointer<UInt8>) -> RawValue? {
        if let number = number(bytes) { return number }
        guard isNumber(bytes) else { return nil }
        let negative = bytes.first == UInt8(ascii: "-")
        return .double(negative ? -.infinity : .infinity)
    }

    /// Whether `double`, printed as the shortest text that reads back as
    /// it, is the same number as `bytes` spell: whether a binary format
    /// holds the text's number exactly. `0.1`, `1.10`, `1E2`, `-0.0` and
    /// `5e-324` are; `1e400` and most integers past 2^53 are not.
    public static func holds(_ double: Double, exactly bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard double.isFinite else { return false }
        var printed = double.description
        return printed.withUTF8 { Decimal(text: $0) == Decimal(text: bytes) }
    }

    /// Whether `a` and `b` spell the same number, exactly: `1.10`, `1.1`
    /// and `0.11e1` do; two 30-digit integers that differ in their last
    /// digit do not, though they round to one double.
    public static func sameNumber(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        Decimal(text: a) == Decimal(text: b)
    }

    /// Appends the one text of the number `bytes` spell, whatever way it
    /// was written: plain decimal (`269`, `-2.5`, `0.001`) without a plus
    /// sign, leading or trailing zeros; an exponent only past 21 digits or
    /// below 10⁻⁶ (`1e+400`, `1.5e-9`), as JavaScript prints numbers. `269`,
    /// `269.0`, `+0269` and `2.69E2` all give `269`; zero gives `0`.
    public static func appendCanonical(_ bytes: UnsafeBufferPointer<UInt8>, to text: inout [UInt8]) {
        let decimal = Decimal(text: bytes)
        let digits = decimal.digits
        guard !digits.isEmpty else {
            text.append(UInt8(ascii: "0"))
            return
        }
        if decimal.negative { text.append(UInt8(ascii: "-")) }
        // Where the point falls, counted from the first digit.
        let point = digits.count + decimal.exponent
        if decimal.exponent >= 0 && point <= 21 {
            text.append(contentsOf: digits)
            text.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: decimal.exponent))
        } else if decimal.exponent < 0 && point > 0 {
            text.append(contentsOf: digits[..<point])
            text.append(UInt8(ascii: "."))
            text.append(contentsOf: digits[point...])
        } else if decimal.exponent < 0 && point > -6 {
            text.append(contentsOf: "0.".utf8)
            text.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: -point))
            text.append(contentsOf: digits)
        } else {
            text.append(digits[0])
            if digits.count > 1 {
                text.append(UInt8(ascii: "."))
                text.append(contentsOf: digits[1...])
            }
            text.append(UInt8(ascii: "e"))
            if point - 1 >= 0 { text.append(UInt8(ascii: "+")) }
            text.append(contentsOf: String(point - 1).utf8)
        }
    }

    /// A number text's sign, significant digits and exponent, to compare
    /// two texts as numbers: `1.10`, `1.1` and `0.11e1` are alike.
    private struct Decimal: Equatable {
        var negative = false
        var digits: [UInt8] = []
        var exponent = 0

        init(text bytes: UnsafeBufferPointer<UInt8>) {
            var index = 0
            if index < bytes.count && (bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")) {
                negative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            var point = false
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: ".") {
                    point = true
                } else if byte &- 0x30 < 10 {
                    if !(digits.isEmpty && byte == UInt8(ascii: "0")) { digits.append(byte) } else if point { exponent -= 1 }
                    if point && !(digits.isEmpty) { exponent -= 1 }
                } else {
                    break
                }
                index += 1
            }
            if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
                index += 1
                var exponentNegative = false
                if index < bytes.count && (bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")) {
                    exponentNegative = bytes[index] == UInt8(ascii: "-")
                    index += 1
                }
                var written = 0
                while index < bytes.count, bytes[index] &- 0x30 < 10 {
                    if written < 1_000_000 { written = written * 10 + Int(bytes[index] &- 0x30) }
                    index += 1
                }
                exponent += exponentNegative ? -written : written
            }
            // Trailing zeros move into the exponent: 1.10 is 11e-1, 100 is 1e2.
            while digits.last == UInt8(ascii: "0") {
                digits.removeLast()
                exponent += 1
            }
            if digits.isEmpty { exponent = 0 }
        }
    }
}
