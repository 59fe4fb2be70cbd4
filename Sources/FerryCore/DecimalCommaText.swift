// MARK: - Design
//
// Numbers as European spreadsheets write them (`--decimal-comma`): a comma
// for the point, and thousands grouped by a point, a space, U+00A0 or
// U+202F (CLDR's de, es, it, el and fr styles; see NumberStyle):
//
//     1.234.567,89   groups 1, 234, 567   ->  1234567.89
//     1 234,5        groups 1, 234        ->  1234.5
//     1.234          groups 1, 234        ->  1234 (a point is never a decimal point)
//     1.23,4         groups 1, 23         ->  bad grouping, never a guess
//     12.34.5,6      groups 12, 34, 5     ->  bad grouping
//
// The groups must be those of a formatted number: one to three digits, then
// groups of three, one separator throughout. The text without separators,
// its comma made a point, is then read as `DecimalText` reads any number,
// so the value keeps its text (`1234.50`) as every number does.

/// Reads numbers written with a decimal comma and grouped thousands (see
/// the design above).
package enum DecimalCommaText {
    /// What a text turned out to be.
    package enum Reading: Equatable {
        /// A number, as `DecimalText.parsedValue` reads it with a point.
        case number(Value)
        /// Text that is no number.
        case notANumber
        /// Digits grouped in a way no formatted number is (`1.23,4`).
        case badGrouping
    }

    /// The number `bytes` hold, written with a decimal comma.
    /// - Complexity: O(`bytes.count`).
    package static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> Reading {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count)
        var index = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            text.append(bytes[index])
            index += 1
        }
        // The digits before the comma, in groups.
        var groups: [Int] = []
        var digits = 0
        var separator: ArraySlice<UInt8>?
        var mixed = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte &- 0x30 < 10 {
                text.append(byte)
                digits += 1
                index += 1
                continue
            }
            let length = separatorLength(bytes, at: index)
            guard length > 0 else { break }
            let found = ArraySlice(bytes[index..<index + length])
            if let separator, separator != found { mixed = true }
            separator = found
            groups.append(digits)
            digits = 0
            index += length
        }
        groups.append(digits)
        if groups.count > 1 {
            // A separator at either end is no grouping (` 5`, `5.`).
            guard let first = groups.first, let last = groups.last, first > 0, last > 0 else { return .notANumber }
            guard !mixed, first <= 3, groups.dropFirst().allSatisfy({ $0 == 3 }) else { return .badGrouping }
        }
        // The rest: the comma as a point, the fraction and an exponent.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") { return .notANumber }
            text.append(byte == UInt8(ascii: ",") ? UInt8(ascii: ".") : byte)
            index += 1
        }
        guard let value = text.withUnsafeBufferPointer({ DecimalText.parsedValue($0) }) else { return .notANumber }
        return .number(value)
    }

    /// Whether a number `read` gave is a whole number's text (`1.234`,
    /// not `1,5`), for an integer column.
    package static func isWhole(_ value: Value) -> Bool {
        switch value {
        case .integer: return true
        case .number(let number): return !number.text.contains { $0 == "." || $0 == "e" || $0 == "E" }
        default: return false
        }
    }

    /// Whether `bytes` may hold a separator this reading takes: a comma,
    /// a point, a space or a byte above 0x7F. Other text reads as it does
    /// without `--decimal-comma`.
    @inline(__always)
    package static func mayHoldSeparators(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ".") || $0 == 0x20 || $0 >= 0x80 }
    }

    /// The length of the thousands separator at `index`: a point or a
    /// space (1), U+00A0 (2), U+202F (3); 0 for none.
    private static func separatorLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        switch bytes[index] {
        case UInt8(ascii: "."), 0x20: return 1
        case 0xC2 where index + 1 < bytes.count && bytes[index + 1] == 0xA0: return 2
        case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && bytes[index + 2] == 0xAF: return 3
        default: return 0
        }
    }
}
