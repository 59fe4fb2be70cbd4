#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decimal numbers in text, read exactly: integers that fit 64 bits stay
/// integers; other numbers become the nearest double (Clinger's fast path
/// for the common short ones, `strtod` for the rest).
package enum DecimalText {
    /// The number `bytes` spell, in the grammar of spreadsheets and CSV: an
    /// optional sign (`+` too), digits with an optional fraction (leading
    /// zeros allowed), and an optional exponent.
    /// - Returns: nil when `bytes` are not such a number or overflow a double.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        switch number(bytes) {
        case .integer(let number)?: .integer(number)
        case .double(let number)?: .double(number)
        default: nil
        }
    }

    /// The number `bytes` spell, as `parse(_:)` reads it, as a raw cell
    /// (`.integer` or `.double`), which copies without reference counting.
    package static func number(_ bytes: UnsafeBufferPointer<UInt8>) -> RawValue? {
        guard let scanned = scan(bytes) else { return nil }
        let (negative, mantissa, exponent, significant) =
            (scanned.negative, scanned.mantissa, scanned.exponent, scanned.significant)
        if scanned.isInteger && significant <= 18 && exponent == 0 {
            let magnitude = Int64(mantissa)
            return .integer(negative ? -magnitude : magnitude)
        }
        if scanned.isInteger, significant <= 19, exponent == 0 {
            if negative && mantissa <= UInt64(Int64.max) + 1 {
                return .integer(mantissa == UInt64(Int64.max) + 1 ? .min : -Int64(mantissa))
            }
            if !negative && mantissa <= UInt64(Int64.max) { return .integer(Int64(mantissa)) }
        }
        if significant <= 15 && mantissa <= 1 << 53 && (-22...22).contains(exponent) {
            var value = Double(mantissa)
            value = exponent < 0 ? value / powerOfTen(-exponent) : value * powerOfTen(exponent)
            return .double(negative ? -value : value)
        }
        let count = bytes.count
        let value = withUnsafeTemporaryAllocation(of: CChar.self, capacity: count + 1) { text in
            for offset in 0..<count { text[offset] = CChar(bitPattern: bytes[offset]) }
            text[count] = 0
            return strtod(text.baseAddress!, nil)
        }
        return value.isFinite ? .double(value) : nil
    }

    /// A number's text taken apart: its sign, its first 19 significant
    /// digits as an integer, and the power of ten that scales them.
    package struct Scanned {
        package var negative: Bool
        /// The first 19 significant digits (leading zeros are not significant).
        package var mantissa: UInt64
        /// `mantissa × 10^exponent` is the number, but for the digits past
        /// the 19th (`truncated`). Exponents past ±100,000 are capped.
        package var exponent: Int
        /// How many significant digits the integer part and the kept
        /// fraction have; past 19 in the integer part each raised `exponent`.
        package var significant: Int
        /// Whether significant digits past the 19th were dropped.
        package var truncated: Bool
        /// Whether the text had neither a point nor an exponent.
        package var isInteger: Bool
    }

    /// Takes apart the number `bytes` spell, in `parse(_:)`'s grammar: the
    /// one scan every exact reading of a number's text starts from (doubles
    /// and integers here, `Decimal`s for Codable).
    /// - Returns: nil when `bytes` are not such a number.
    @inline(__always)
    package static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Scanned? {
        let count = bytes.count
        var index = 0
        var negative = false
        if index < count && (bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")) {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var significant = 0
        var exponent = 0
        var isInteger = true
        var truncated = false
        while index < count, bytes[index] &- 0x30 < 10 {
            if significant < 19 {
                mantissa = mantissa &* 10 &+ UInt64(bytes[index] &- 0x30)
                if mantissa != 0 { significant += 1 }
            } else {
                exponent += 1
                significant += 1
                truncated = true
            }
            digits += 1
            index += 1
        }
        if index < count && bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            while index < count, bytes[index] &- 0x30 < 10 {
                if significant < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(bytes[index] &- 0x30)
                    exponent -= 1
                    if mantissa != 0 { significant += 1 }
                } else if bytes[index] != UInt8(ascii: "0") {
                    truncated = true
                }
                digits += 1
                index += 1
            }
        }
        guard digits > 0 else { return nil }
        if index < count && bytes[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            var exponentNegative = false
            if index < count && (bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")) {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            var written = 0
            var exponentDigits = 0
            while index < count, bytes[index] &- 0x30 < 10 {
                if written < 100_000 { written = written * 10 + Int(bytes[index] &- 0x30) }
                exponentDigits += 1
                index += 1
            }
            guard exponentDigits > 0 else { return nil }
            exponent += exponentNegative ? -written : written
        }
        guard index == count else { return nil }
        return Scanned(
            negative: negative, mantissa: mantissa, exponent: exponent, significant: significant, truncated: truncated,
            isInteger: isInteger)
    }

    /// 10^exponent for 0...22, the powers of ten a double holds exactly (the
    /// JSON scanner's fast path uses them too). A switch rather than a
    /// global table, which would cost a lazy-initialization check on every
    /// use; inlinable, so other modules get the switch, not a call.
    @inlinable @inline(__always)
    package static func powerOfTen(_ exponent: Int) -> Double {
        switch exponent {
        case 0: 1e0
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        default: 1e22
        }
    }
}
