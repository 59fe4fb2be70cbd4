// MARK: - Design
//
// Two records are the same record when their keys are the same text, and
// "the same" is what a person sees: `Crème` typed on a Mac (NFC, è one
// scalar) and `Cre\u{300}me` from another system (NFD, e + combining grave)
// are one product, and so are `A-1` and ` A-1 ` from a careless export.
// Swift's `String ==` already treats canonically equivalent strings as
// equal, but keys are matched by a digest of their bytes (`KeyDigest`), so
// the bytes themselves are put in one form first: trimmed of the
// surrounding white space (Unicode's White_Space, which holds U+00A0 and
// U+3000), then in NFC.
//
//     " Cre\u{300}me\u{A0}"   20 43 72 65 CC 80 6D 65 C2 A0
//      trimmed                   43 72 65 CC 80 6D 65
//      NFC                       43 72 C3 A8 6D 65        "Crème"
//
// NFC costs. The stdlib's own normalizer (`String._nfcCodeUnits`, the one
// `String ==` and hashing use) took 88 ns a key on ASCII SKUs, 118 ns on
// Latin text already in NFC and 690 ns on decomposed text; Foundation's
// `precomposedStringWithCanonicalMapping` (ICU, through all of Foundation)
// took 710, 1,080 and 1,180 ns. So text is checked first, a word at a
// time: no scalar below U+0300 is changed by NFC or composes with another
// (NFC_QC is Yes for all of them; the first Maybe is U+0300), and those are
// exactly the UTF-8 texts with no byte ≥ 0xCC. That covers ASCII and the
// precomposed Latin of most real data (é, ß, ł, ő) for about 3 ns a key;
// only text with a later scalar (Greek, CJK, a combining mark) goes
// through the stdlib.
//
// Numbers are keys by value: `269`, `269.0` and `2.69E2` all have the key
// text `269` (`DecimalText.appendCanonical`), which is also the key of the
// string "269", so a SKU read as a number from one file and as text from
// another still matches.

/// The text a value has as a key: see the design note above.
package enum KeyText {
    /// Appends the key text of `bytes`, which are valid UTF-8: without the
    /// white space around it, in NFC.
    /// - Complexity: O(n); about 3 ns for a short ASCII key.
    package static func append(_ bytes: UnsafeBufferPointer<UInt8>, to text: inout [UInt8]) {
        let trimmed = self.trimmed(bytes)
        if isKnownNFC(trimmed) {
            text.append(contentsOf: trimmed)
        } else {
            text.append(contentsOf: String(decoding: trimmed, as: UTF8.self)._nfcCodeUnits)
        }
    }

    /// The key text of `bytes`, which are valid UTF-8, when it lies within
    /// them (trimmed, and already in NFC, as nearly all keys are); nil
    /// when it must be made (`append(_:to:)`).
    @inline(__always)
    package static func inPlace(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        let trimmed = self.trimmed(bytes)
        return isKnownNFC(trimmed) ? trimmed : nil
    }

    /// Appends the key text of `value`.
    /// - Returns: false, appending nothing, for null and for values that
    ///   are no key (bytes, dates, arrays, objects).
    package static func append(_ value: Value, to text: inout [UInt8]) -> Bool {
        switch value {
        case .string(var string):
            string.withUTF8 { append($0, to: &text) }
        case .integer(let number):
            appendInteger(number, to: &text)
        case .double(let number):
            guard number.isFinite else { return false }
            appendDouble(number, to: &text)
        case .number(let number):
            var written = number.text
            written.withUTF8 { DecimalText.appendCanonical($0, to: &text) }
        case .bool(let flag):
            text.append(contentsOf: (flag ? "true" : "false").utf8)
        default:
            return false
        }
        return true
    }

    /// Appends the key text of the cell at `index` of `record`.
    /// - Returns: false, appending nothing, as `append(_:to:)` for values.
    @inline(__always)
    package static func append(_ record: RawRecord, at index: Int, to text: inout [UInt8]) -> Bool {
        append(record.values[index], others: record.others, to: &text)
    }

    /// Appends the key text of `cell`, whose `.other` values are in `others`.
    /// - Returns: false, appending nothing, as `append(_:to:)` for values.
    @inline(__always)
    package static func append(_ cell: RawValue, others: UnsafeBufferPointer<Value>, to text: inout [UInt8]) -> Bool {
        switch cell {
        case .text(let bytes):
            append(bytes, to: &text)
        case .integer(let number):
            appendInteger(number, to: &text)
        case .number(let bytes):
            DecimalText.appendCanonical(bytes, to: &text)
        case .null, .bytes:
            return false
        case .double(let number):
            return append(.double(number), to: &text)
        case .bool(let flag):
            return append(.bool(flag), to: &text)
        case .other(let other):
            return append(others[other], to: &text)
        }
        return true
    }

    /// The key text of `text`, as a string.
    package static func normalized(_ text: String) -> String {
        var bytes: [UInt8] = []
        _ = append(.string(text), to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - Parts

    /// `bytes` without the White_Space scalars at either end.
    @inline(__always)
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = bytes.count
        // The common case: a visible ASCII byte at each end.
        if end > 0 && bytes[0] > 0x20 && bytes[0] < 0x80 && bytes[end - 1] > 0x20 && bytes[end - 1] < 0x80 {
            return bytes
        }
        while start < end, let length = whiteSpaceLength(bytes, at: start) { start += length }
        while end > start, let length = whiteSpaceLengthBefore(bytes, end: end) { end -= length }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// The length of the White_Space scalar at `index`, or nil when there
    /// is none there.
    private static func whiteSpaceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let lead = bytes[index]
        if lead < 0x80 { return isASCIIWhiteSpace(lead) ? 1 : nil }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        guard index + length <= bytes.count else { return nil }
        return isWhiteSpace(UnsafeBufferPointer(rebasing: bytes[index..<index + length])) ? length : nil
    }

    /// The length of the White_Space scalar that ends at `end`, or nil when
    /// the scalar there is none.
    private static func whiteSpaceLengthBefore(_ bytes: UnsafeBufferPointer<UInt8>, end: Int) -> Int? {
        let last = bytes[end - 1]
        if last < 0x80 { return isASCIIWhiteSpace(last) ? 1 : nil }
        var start = end - 1
        // Back over continuation bytes to the lead byte: at most three.
        while start > 0 && end - start < 4 && bytes[start] & 0xC0 == 0x80 { start -= 1 }
        return isWhiteSpace(UnsafeBufferPointer(rebasing: bytes[start..<end])) ? end - start : nil
    }

    /// Tab, line feed, vertical tab, form feed, carriage return, space.
    @inline(__always)
    private static func isASCIIWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }

    /// Whether `scalar` (one scalar's UTF-8) has Unicode's White_Space property.
    private static func isWhiteSpace(_ scalar: UnsafeBufferPointer<UInt8>) -> Bool {
        var decoder = UTF8()
        var iterator = scalar.makeIterator()
        guard case .scalarValue(let value) = decoder.decode(&iterator) else { return false }
        return value.properties.isWhitespace
    }

    /// Whether NFC leaves `bytes` as they are because no scalar is U+0300
    /// or above: no byte is 0xCC or more (see the design note).
    @inline(__always)
    static func isKnownNFC(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(bytes)
        var index = 0
        while index + 8 <= raw.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            // Bytes of 0x80 or more, then among those whether any is 0xCC or more.
            if word & 0x8080_8080_8080_8080 != 0 {
                for offset in 0..<8 where raw[index + offset] >= 0xCC { return false }
            }
            index += 8
        }
        while index < raw.count {
            if raw[index] >= 0xCC { return false }
            index += 1
        }
        return true
    }

    /// An integer's digits, with its sign, without making a string.
    @inline(__always)
    static func appendInteger(_ number: Int64, to text: inout [UInt8]) {
        if number < 0 { text.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: enough for 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[23 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude != 0
            text.append(contentsOf: buffer[(24 - count)...])
        }
    }

    /// A double's key text: that of its shortest round-trip text, so 269.0
    /// gives `269` and 0.1 gives `0.1`.
    static func appendDouble(_ number: Double, to text: inout [UInt8]) {
        if let integer = Int64(exactly: number), integer.magnitude <= 1 << 53 {
            appendInteger(integer, to: &text)
            return
        }
        var printed = number.description
        printed.withUTF8 { DecimalText.appendCanonical($0, to: &text) }
    }
}
