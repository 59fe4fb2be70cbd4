#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FerryCore

// MARK: - Numbers

extension JSONScanner {
    private static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    /// Parses the number at the position (RFC 8259 grammar).
    ///
    /// A number without fraction or exponent that fits in 64 bits is an
    /// integer. Anything else is a double, correctly rounded: small cases by
    /// Clinger's fast path, the rest by `strtod`.
    mutating func parseNumber() throws(JSONScanError) -> Value {
        let start = position
        let count = bytes.count
        var index = position
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < count else { throw endOfBytes() }

        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var isInteger = true

        // Integer part: 0, or a non-zero digit and more digits.
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if Self.isDigit(bytes[index]) {
            while index < count, Self.isDigit(bytes[index]) {
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(bytes[index] &- 0x30) }
                digits += 1
                index += 1
            }
        } else {
            throw .failed(.jsonInvalidNumber, [.byte(bytes[index])], index: index)
        }

        // Fraction.
        if index < count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < count else { throw endOfBytes() }
            guard Self.isDigit(bytes[index]) else {
                throw .failed(.jsonInvalidNumber, [.byte(bytes[index])], index: index)
            }
            while index < count, Self.isDigit(bytes[index]) {
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(bytes[index] &- 0x30)
                    exponent -= 1
                    if mantissa != 0 { digits += 1 }
                } else {
                    digits += 1
                }
                index += 1
            }
        }

        // Exponent.
        if index < count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            guard index < count else { throw endOfBytes() }
            var exponentNegative = false
            if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
                guard index < count else { throw endOfBytes() }
            }
            guard Self.isDigit(bytes[index]) else {
                throw .failed(.jsonInvalidNumber, [.byte(bytes[index])], index: index)
            }
            var written = 0
            while index < count, Self.isDigit(bytes[index]) {
                if written < 100_000 { written = written * 10 + Int(bytes[index] &- 0x30) }
                index += 1
            }
            exponent += exponentNegative ? -written : written
        }

        // A number that reaches the end of the window may go on in the next chunk.
        if index == count && !isFinal { throw .needMore }
        position = index

        if isInteger && digits <= 19 {
            if negative {
                if mantissa <= UInt64(Int64.max) { return .integer(-Int64(mantissa)) }
                if mantissa == UInt64(Int64.max) + 1 { return .integer(Int64.min) }
            } else if mantissa <= UInt64(Int64.max) {
                return .integer(Int64(mantissa))
            }
        }
        if digits <= 15 && mantissa <= 1 << 53 && (-22...22).contains(exponent) {
            var value = Double(mantissa)
            value = exponent < 0 ? value / DecimalText.powerOfTen(-exponent) : value * DecimalText.powerOfTen(exponent)
            return .double(negative ? -value : value)
        }
        return .double(try slowDouble(start..<index))
    }

    /// Converts the number text in `range` with `strtod`, which rounds correctly.
    private func slowDouble(_ range: Range<Int>) throws(JSONScanError) -> Double {
        let value = withUnsafeTemporaryAllocation(of: CChar.self, capacity: range.count + 1) { text in
            for (offset, index) in range.enumerated() { text[offset] = CChar(bitPattern: bytes[index]) }
            text[range.count] = 0
            return strtod(text.baseAddress!, nil)
        }
        guard value.isFinite else {
            throw .failed(.jsonNumberOutOfRange, [], index: range.lowerBound)
        }
        return value
    }
}
