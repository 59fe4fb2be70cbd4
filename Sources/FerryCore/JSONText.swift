/// The byte-level pieces of writing JSON text, shared by every codec that
/// writes numbers or nested values as text (JSON, CSV cells, …).
package enum JSONText {
    /// Appends `value` as JSON: compact when `indentLevel` is nil, else
    /// indented by two spaces a level, starting at that level.
    /// - Throws: `json.nonFiniteNumber` for an infinity or NaN.
    package static func appendValue(
        _ value: Value, to out: inout WriteBuffer, indentLevel: Int? = nil
    ) throws(FerryError) {
        switch value {
        case .null: out.append("null")
        case .bool(let flag): out.append(flag ? "true" : "false")
        case .integer(let number): appendInteger(number, to: &out)
        case .double(let number):
            guard number.isFinite else { throw FerryError(.jsonNonFiniteNumber, [.double(number)]) }
            appendDouble(number, to: &out)
        case .number(let number):
            var text = number.text
            text.withUTF8 { appendNumber($0, to: &out) }
        case .string(let text): appendQuoted(text, to: &out)
        case .bytes(let bytes): appendDataURI(bytes, to: &out)
        case .date(let date): appendQuoted(Timestamp.iso8601(date), to: &out)
        case .array(let elements):
            guard !elements.isEmpty else { return out.append("[]") }
            let inner = indentLevel.map { $0 + 1 }
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                startMember(index, level: inner, to: &out)
                try appendValue(element, to: &out, indentLevel: inner)
            }
            if let indentLevel { appendLineBreak(level: indentLevel, to: &out) }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            guard object.count > 0 else { return out.append("{}") }
            let inner = indentLevel.map { $0 + 1 }
            out.append(UInt8(ascii: "{"))
            for index in 0..<object.count {
                startMember(index, level: inner, to: &out)
                appendQuoted(object.keys[index], to: &out)
                out.append(inner == nil ? ":" : ": ")
                try appendValue(object.values[index], to: &out, indentLevel: inner)
            }
            if let indentLevel { appendLineBreak(level: indentLevel, to: &out) }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Appends a raw record's cell as `appendValue` would append its value.
    /// - Throws: `json.nonFiniteNumber` for an infinity or NaN.
    @inline(__always)
    package static func appendRaw(
        _ record: RawRecord, at index: Int, to out: inout WriteBuffer, indentLevel: Int? = nil
    ) throws(FerryError) {
        switch record.values[index] {
        case .null: out.append("null")
        case .bool(let flag): out.append(flag ? "true" : "false")
        case .integer(let number): appendInteger(number, to: &out)
        case .double(let number):
            guard number.isFinite else { throw FerryError(.jsonNonFiniteNumber, [.double(number)]) }
            appendDouble(number, to: &out)
        case .number(let text): appendNumber(text, to: &out)
        case .text(let utf8): appendQuoted(utf8, to: &out)
        case .bytes(let bytes): appendDataURI(bytes, to: &out)
        case .other(let other): try appendValue(record.others[other], to: &out, indentLevel: indentLevel)
        }
    }

    /// `value` as compact JSON text.
    /// - Throws: `json.nonFiniteNumber`.
    package static func compact(_ value: Value) throws(FerryError) -> String {
        var buffer = WriteBuffer(capacity: 64)
        defer { buffer.release() }
        try appendValue(value, to: &buffer)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    /// `text` as a quoted JSON string.
    package static func quoted(_ text: String) -> [UInt8] {
        var buffer = WriteBuffer(capacity: text.utf8.count + 8)
        defer { buffer.release() }
        appendQuoted(text, to: &buffer)
        return buffer.bytes
    }

    /// Flags, in the high bit of each byte, the bytes of `word` that JSON
    /// escapes: `"`, `\` and control bytes. The lowest flag is always right.
    @inline(__always)
    private static func escapeMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let flags = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
        return flags & 0x8080_8080_8080_8080
    }

    /// Whether none of the `count` (more than 8) bytes at `bytes` needs an
    /// escape, read a word at a time, the last word overlapping the one
    /// before it.
    @inline(__always)
    static func longNeedsNoEscape(_ bytes: UnsafeRawPointer, count: Int) -> Bool {
        var flags: UInt64 = 0
        var index = 0
        while index + 8 < count {
            flags |= escapeMask(bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            index += 8
        }
        return flags | escapeMask(bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)) == 0
    }

    /// Whether none of the `count` (at most 16) bytes at `bytes` needs an
    /// escape. The bytes are read as one or two words, overlapping where
    /// `count` is not a whole number of words; in a string shorter than four
    /// bytes, `A`s stand in for the bytes it does not have.
    @inline(__always)
    static func shortNeedsNoEscape(_ bytes: UnsafeRawPointer, count: Int) -> Bool {
        let word: UInt64
        switch count {
        case 8...:
            word = escapeMask(bytes.loadUnaligned(as: UInt64.self))
                | escapeMask(bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
        case 4...:
            let low = UInt64(bytes.loadUnaligned(as: UInt32.self))
            let high = UInt64(bytes.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
            word = escapeMask(low | high << 32)
        case 1...:
            let first = UInt64(bytes.load(as: UInt8.self))
            let middle = UInt64(bytes.load(fromByteOffset: count / 2, as: UInt8.self))
            let last = UInt64(bytes.load(fromByteOffset: count - 1, as: UInt8.self))
            word = escapeMask(first | middle << 8 | last << 16 | 0x4141_4141_4100_0000)
        default:
            return true
        }
        return word == 0
    }

    /// Appends `text` as a quoted JSON string.
    package static func appendQuoted(_ text: String, to output: inout WriteBuffer) {
        var text = text
        text.withUTF8 { appendQuoted($0, to: &output) }
    }

    /// Appends UTF-8 `utf8` as a quoted JSON string.
    package static func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>, to output: inout WriteBuffer) {
        guard let base = utf8.baseAddress else { return output.append("\"\"") }
        let count = utf8.count
        let raw = UnsafeRawPointer(base)
        // Six bytes per byte covers the worst case, `\u00XX`.
        output.reserve(count * 6 + 2)
        output.appendUnchecked(UInt8(ascii: "\""))
        // Most strings in records need no escape: one look at all their
        // bytes (a word at a time, the last word overlapping the one before),
        // and one copy.
        if count <= 16 ? shortNeedsNoEscape(raw, count: count) : longNeedsNoEscape(raw, count: count) {
            output.appendUnchecked(utf8)
            output.appendUnchecked(UInt8(ascii: "\""))
            return
        }
        var runStart = 0
        var index = 0
        while index < count {
            // Find the next byte to escape, eight bytes at a time.
            if index + 8 <= count {
                let mask = escapeMask(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                if mask == 0 {
                    index += 8
                    continue
                }
                index += mask.trailingZeroBitCount >> 3
            } else {
                let byte = base[index]
                if byte >= 0x20 && byte != 0x22 && byte != 0x5C {
                    index += 1
                    continue
                }
            }
            let byte = base[index]
            if runStart < index { output.append(UnsafeBufferPointer(start: base + runStart, count: index - runStart)) }
            let escape = escapeSequence(of: byte)
            for offset in 0..<escape.count { output.appendUnchecked(escape.byte(offset)) }
            index += 1
            runStart = index
        }
        if runStart < count { output.append(UnsafeBufferPointer(start: base + runStart, count: count - runStart)) }
        output.appendUnchecked(UInt8(ascii: "\""))
    }

    /// The escape `appendQuoted` writes for `byte`, one of `"`, `\` and the
    /// control bytes: `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t` or `\u00XX`.
    /// The one table of escapes, which `quotes` reads too.
    @inline(__always)
    static func escapeSequence(of byte: UInt8) -> EscapeSequence {
        let short: UInt8
        switch byte {
        case 0x22: short = UInt8(ascii: "\"")
        case 0x5C: short = UInt8(ascii: "\\")
        case 0x08: short = UInt8(ascii: "b")
        case 0x0C: short = UInt8(ascii: "f")
        case 0x0A: short = UInt8(ascii: "n")
        case 0x0D: short = UInt8(ascii: "r")
        case 0x09: short = UInt8(ascii: "t")
        default:
            let digits = UInt64(hexDigit(byte >> 4)) | UInt64(hexDigit(byte & 15)) << 8
            return EscapeSequence(bytes: 0x3030_755C | digits << 32, count: 6)  // \u00 and the two digits
        }
        return EscapeSequence(bytes: UInt64(UInt8(ascii: "\\")) | UInt64(short) << 8, count: 2)
    }

    /// Up to eight bytes of an escape, the first in the lowest byte.
    struct EscapeSequence {
        let bytes: UInt64
        let count: Int

        @inline(__always)
        func byte(_ offset: Int) -> UInt8 { UInt8(truncatingIfNeeded: bytes >> UInt64(8 * offset)) }
    }

    /// Whether `appendQuoted(text)` writes exactly `written`, its quotes
    /// included: for a reader that meets an escaped string and would know
    /// whether the writer gives its bytes back as they are. Compared as it
    /// goes, with the writer's own table of escapes; nothing is allocated.
    package static func quotes(_ text: String, as written: UnsafeBufferPointer<UInt8>) -> Bool {
        guard written.count >= 2, written.first == 0x22, written.last == 0x22 else { return false }
        var position = 1
        let end = written.count - 1
        for byte in text.utf8 {
            if byte >= 0x20 && byte != 0x22 && byte != 0x5C {
                guard position < end, written[position] == byte else { return false }
                position += 1
                continue
            }
            let escape = escapeSequence(of: byte)
            guard end - position >= escape.count else { return false }
            for offset in 0..<escape.count where written[position + offset] != escape.byte(offset) { return false }
            position += escape.count
        }
        return position == end
    }

    /// Appends `bytes` as the quoted `data:` URI of an inline photo, encoded
    /// straight into the output; none of its characters needs escaping.
    package static func appendDataURI(_ bytes: [UInt8], to out: inout WriteBuffer) {
        bytes.withUnsafeBytes { appendDataURI($0, to: &out) }
    }

    /// The `data:` URI of `bytes`, quoted.
    package static func appendDataURI(_ bytes: UnsafeRawBufferPointer, to out: inout WriteBuffer) {
        out.append(UInt8(ascii: "\""))
        Photo.appendDataURI(bytes, to: &out)
        out.append(UInt8(ascii: "\""))
    }

    @inline(__always)
    static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? value + 0x30 : value - 10 + UInt8(ascii: "a")
    }

    /// Appends the decimal digits of `number`.
    package static func appendInteger(_ number: Int64, to output: inout WriteBuffer) {
        if number == 0 { return output.append(UInt8(ascii: "0")) }
        var magnitude = number.magnitude
        var digits = 0
        var probe = magnitude
        while probe > 0 {
            digits += 1
            probe /= 10
        }
        let length = digits + (number < 0 ? 1 : 0)
        output.reserve(length)
        if number < 0 { output.appendUnchecked(UInt8(ascii: "-")) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { scratch in
            var index = 20
            while magnitude > 0 {
                index -= 1
                scratch[index] = UInt8(magnitude % 10) + 0x30
                magnitude /= 10
            }
            output.append(UnsafeBufferPointer(rebasing: scratch[index..<20]))
        }
    }

    /// Appends number text as it was written when it is JSON (RFC 8259),
    /// else with the least change that makes it so, keeping every digit:
    /// no `+` sign, no leading zeros (`007` → `7`), a zero before a point
    /// that starts it (`.5` → `0.5`) and after one that ends it (`5.` →
    /// `5.0`).
    /// - Parameter text: a number in `DecimalText`'s grammar.
    package static func appendNumber(_ text: UnsafeBufferPointer<UInt8>, to output: inout WriteBuffer) {
        let count = text.count
        var index = 0
        if index < count && text[index] == UInt8(ascii: "+") { index += 1 }
        if index < count && text[index] == UInt8(ascii: "-") {
            output.append(UInt8(ascii: "-"))
            index += 1
        }
        var whole = index
        while whole < count && text[whole] &- 0x30 < 10 { whole += 1 }
        // The digits before any point, without leading zeros but the last.
        var first = index
        while first + 1 < whole && text[first] == UInt8(ascii: "0") { first += 1 }
        if first == whole {
            output.append(UInt8(ascii: "0"))
        } else {
            output.append(UnsafeBufferPointer(rebasing: text[first..<whole]))
        }
        index = whole
        if index < count && text[index] == UInt8(ascii: ".") {
            output.append(UInt8(ascii: "."))
            index += 1
            if index == count || text[index] &- 0x30 >= 10 { output.append(UInt8(ascii: "0")) }
        }
        if index < count { output.append(UnsafeBufferPointer(rebasing: text[index..<count])) }
    }

    /// Whether `bytes` spell a number of at least zero that, read as
    /// `DecimalText.number` reads it, `appendInteger` or `appendDouble`
    /// prints back as exactly these bytes, so that a writer may copy them:
    /// `0` or up to 18 digits with no leading zero (an integer); or up to 13
    /// such digits, a point, and one digit or two ending in a nonzero one,
    /// not all zero (a double printed from its cents, as `appendDouble`
    /// does). `84.99`, `244.0` and `7` qualify; `84.90`, `007`, `1e3`, `-1`
    /// and `0.0` do not. Numbers below zero are `printsAsWrittenNegative`'s:
    /// whether a column takes them is its rule's to say (`ColumnRule`), and
    /// most say no, so this test spends nothing on a sign.
    @inlinable
    package static func printsAsWritten(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = bytes.count
        guard count > 0 else { return false }
        var index = 0
        while index < count && bytes[index] &- 0x30 < 10 { index += 1 }
        let whole = index
        guard whole > 0, whole == 1 || bytes[0] != UInt8(ascii: "0") else { return false }
        if whole == count { return whole <= 18 }
        guard whole <= 13, bytes[index] == UInt8(ascii: "."), count - index - 1 == 1 || count - index - 1 == 2 else {
            return false
        }
        let first = bytes[index + 1] &- 0x30
        guard first < 10 else { return false }
        if count - index - 1 == 2 {
            let second = bytes[index + 2] &- 0x30
            return second < 10 && second != 0
        }
        // One fraction digit: zero only when the whole part is not.
        return first != 0 || bytes[0] != UInt8(ascii: "0")
    }

    /// Whether `bytes` are `-` and a number `printsAsWritten` accepts, which
    /// the writers print back the same with their sign: `-7`, `-84.99`,
    /// `-0.5`; not `-0`, which reads as 0 and prints without it.
    @inlinable
    package static func printsAsWrittenNegative(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count > 1, bytes[0] == UInt8(ascii: "-") else { return false }
        let magnitude = UnsafeBufferPointer(rebasing: bytes[1...])
        return printsAsWritten(magnitude) && !(magnitude.count == 1 && magnitude[0] == UInt8(ascii: "0"))
    }

    /// Appends the shortest text that reads back as `number`, which must be
    /// finite. Integral values keep a `.0` so they read back as doubles.
    package static func appendDouble(_ number: Double, to output: inout WriteBuffer) {
        // Prices are most doubles Ferry writes: values with at most two
        // decimals below 10^13 are printed straight from their cents, after
        // checking that those cents read back as exactly this double. At that
        // size doubles are closer than 0.002 apart, so no shorter text names
        // the same double, and the result equals `description`.
        let magnitude = number.magnitude
        if magnitude < 1e13 && number != 0 {
            let cents = (magnitude * 100).rounded()
            if cents / 100 == magnitude {
                let whole = Int64(cents) / 100
                let fraction = Int(Int64(cents) % 100)
                if number < 0 { output.append(UInt8(ascii: "-")) }
                appendInteger(whole, to: &output)
                output.append(UInt8(ascii: "."))
                output.append(UInt8(truncatingIfNeeded: fraction / 10) + 0x30)
                if fraction % 10 != 0 { output.append(UInt8(truncatingIfNeeded: fraction % 10) + 0x30) }
                return
            }
        }
        var text = number.description
        text.withUTF8 { output.append($0) }
    }
}

// MARK: - JSON Pointer (RFC 6901)

extension JSONText {
    /// `name` as a JSON pointer's reference token: `~` as `~0`, `/` as `~1`.
    package static func pointerToken(_ name: String) -> String {
        guard name.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return name }
        var escaped = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "~": escaped += "~0"
            case "/": escaped += "~1"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
