import FerryCore

// MARK: - Numbers

extension JSONScanner {
    private static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    /// Parses the number at the position (RFC 8259 grammar), as
    /// `scanNumber` does, with a number kept as text copied out.
    mutating func parseNumber() throws(JSONScanError) -> Value {
        let start = position
        switch try scanNumber() {
        case .integer(let number): return .integer(number)
        case .double(let number): return .double(number)
        default:
            let text = UnsafeBufferPointer(rebasing: bytes[start..<position])
            return .number(NumberText(unchecked: String(decoding: text, as: UTF8.self)))
        }
    }

    /// Scans the number at the position (RFC 8259 grammar).
    ///
    /// A number the writers print back as written is a value: without
    /// fraction or exponent, one that fits in 64 bits is an integer (but
    /// `-0`); `JSONText.printsAsWritten` text with a point is a double,
    /// correctly rounded by Clinger's fast path. Any other number, of any
    /// size, stays text (`.number`, borrowing the scanner's bytes).
    mutating func scanNumber() throws(JSONScanError) -> RawValue {
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
        let wholeStart = index
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
        var hasExponent = false
        let wholeEnd = index
        var fractionDigits = 0
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
            fractionDigits = index - wholeEnd - 1
        }

        // Exponent.
        if index < count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            hasExponent = true
            index += 1
            guard index < count else { throw endOfBytes() }
            if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
                guard index < count else { throw endOfBytes() }
            }
            guard Self.isDigit(bytes[index]) else {
                throw .failed(.jsonInvalidNumber, [.byte(bytes[index])], index: index)
            }
            while index < count, Self.isDigit(bytes[index]) { index += 1 }
        }

        // A number that reaches the end of the window may go on in the next chunk.
        if index == count && !isFinal { throw .needMore }
        position = index

        if isInteger && digits <= 19 {
            if negative {
                if mantissa <= UInt64(Int64.max) && mantissa != 0 { return .integer(-Int64(mantissa)) }
                if mantissa == UInt64(Int64.max) + 1 { return .integer(Int64.min) }
            } else if mantissa <= UInt64(Int64.max) {
                return .integer(Int64(mantissa))
            }
        }
        // A double only when it prints back as written
        // (`JSONText.printsAsWritten`, worked out from the counts): at most
        // 13 whole digits, one or two decimals, the last not zero but for
        // a whole number's `.0`; which is within the fast path.
        let wholeDigits: Int = wholeEnd - wholeStart
        let lastIsZero: Bool = bytes[index - 1] == 0x30
        let wholeIsZero: Bool = wholeDigits == 1 && bytes[wholeStart] == 0x30
        var asWritten: Bool = false
        if fractionDigits == 2 {
            asWritten = !lastIsZero
        } else if fractionDigits == 1 {
            asWritten = !lastIsZero || !wholeIsZero
        }
        if asWritten && !hasExponent && wholeDigits <= 13 {
            var value = Double(mantissa)
            value = exponent < 0 ? value / DecimalText.powerOfTen(-exponent) : value * DecimalText.powerOfTen(exponent)
            return .double(negative ? -value : value)
        }
        return .number(UnsafeBufferPointer(rebasing: bytes[start..<index]))
    }
}
