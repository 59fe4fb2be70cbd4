import FerryCore

// MARK: - Strings

/// Where a string's content lies in the buffer, and what it needs before it
/// can become a `String`.
struct RawString {
    let start: Int
    let end: Int
    let hasEscapes: Bool
    let hasNonASCII: Bool
}

extension JSONScanner {
    /// Flags, in the high bit of each byte, the bytes of `word` that are `"`,
    /// `\`, a control byte or non-ASCII. A byte above a flagged one may be
    /// flagged wrongly (a borrow runs upward), but the lowest flag is always
    /// right, and no such byte is ever missed.
    @inline(__always)
    static func attentionMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let hasQuote = (quote &- ones) & ~quote
        let hasBackslash = (backslash &- ones) & ~backslash
        let hasControl = word &- (ones &* 0x20)
        return (hasQuote | hasBackslash | hasControl | word) & highs
    }

    /// Slices out the string at the position, which holds its opening quote,
    /// and moves past the closing quote.
    ///
    /// Eight bytes are looked at at once; the lowest flagged byte of a word
    /// (see `attentionMask`) is the next one that matters.
    mutating func scanString() throws(JSONScanError) -> RawString {
        let start = position + 1
        var index = start
        var hasEscapes = false
        var hasNonASCII = false
        let count = bytes.count
        guard let base = bytes.baseAddress else { throw endOfBytes() }
        let raw = UnsafeRawPointer(base)
        while true {
            if index + 8 <= count {
                let mask = Self.attentionMask(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                if mask == 0 {
                    index += 8
                    continue
                }
                index += mask.trailingZeroBitCount >> 3
            } else {
                // The last few bytes of the window, one at a time.
                while index < count {
                    let byte = base[index]
                    if byte == 0x22 || byte == 0x5C || byte < 0x20 || byte >= 0x80 { break }
                    index += 1
                }
                if index >= count { throw endOfBytes() }
            }
            let byte = base[index]
            switch byte {
            case 0x22:
                position = index + 1
                return RawString(start: start, end: index, hasEscapes: hasEscapes, hasNonASCII: hasNonASCII)
            case 0x5C:
                hasEscapes = true
                index += 2  // the escaped byte is checked when decoding
            case 0..<0x20:
                throw .failed(.jsonControlCharacter, [.byte(byte)], index: index)
            default:
                hasNonASCII = true
                index += 1
            }
        }
    }

    /// Parses the string at the position.
    mutating func parseString() throws(JSONScanError) -> String {
        try makeString(try scanString())
    }

    /// Builds the `String` for a scanned string, checking UTF-8 and escapes.
    func makeString(_ raw: RawString) throws(JSONScanError) -> String {
        if raw.hasNonASCII, let bad = UTF8Validation.firstInvalidIndex(in: bytes, raw.start..<raw.end) {
            throw .failed(.jsonInvalidUTF8, [.byte(bytes[bad])], index: bad)
        }
        let slice = UnsafeBufferPointer(rebasing: bytes[raw.start..<raw.end])
        guard raw.hasEscapes else { return String(decoding: slice, as: UTF8.self) }
        let decoded = try unescape(raw)
        return String(decoding: decoded, as: UTF8.self)
    }

    /// The bytes of a string with escapes, decoded.
    private func unescape(_ raw: RawString) throws(JSONScanError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(raw.end - raw.start)
        var index = raw.start
        while index < raw.end {
            let byte = bytes[index]
            guard byte == 0x5C else {
                output.append(byte)
                index += 1
                continue
            }
            let escaped = bytes[index + 1]
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(escaped)
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "u"):
                index = try appendUnicodeEscape(at: index, end: raw.end, into: &output)
                continue
            default:
                throw .failed(.jsonInvalidEscape, [.byte(escaped)], index: index + 1)
            }
            index += 2
        }
        return output
    }

    /// Decodes `\uXXXX`, or a surrogate pair `\uD83D\uDE00`, at `index`.
    /// - Returns: the index after the escape.
    private func appendUnicodeEscape(at index: Int, end: Int, into output: inout [UInt8]) throws(JSONScanError) -> Int {
        let high = try hexQuad(at: index + 2, end: end)
        var scalar = high
        var next = index + 6
        if (0xD800...0xDBFF).contains(high) {
            guard next + 1 < end, bytes[next] == 0x5C, bytes[next + 1] == UInt8(ascii: "u") else {
                throw .failed(.jsonInvalidSurrogate, [.string(hex(high))], index: index)
            }
            let low = try hexQuad(at: next + 2, end: end)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw .failed(.jsonInvalidSurrogate, [.string(hex(high))], index: index)
            }
            scalar = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
            next += 6
        } else if (0xDC00...0xDFFF).contains(high) {
            throw .failed(.jsonInvalidSurrogate, [.string(hex(high))], index: index)
        }
        UTF8Validation.append(scalar: scalar, to: &output)
        return next
    }

    private func hexQuad(at index: Int, end: Int) throws(JSONScanError) -> UInt32 {
        var value: UInt32 = 0
        for offset in 0..<4 {
            guard index + offset < end else {
                throw .failed(.jsonInvalidEscape, [.byte(UInt8(ascii: "u"))], index: index - 1)
            }
            let byte = bytes[index + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw .failed(.jsonInvalidEscape, [.byte(byte)], index: index + offset)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "\\u" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
