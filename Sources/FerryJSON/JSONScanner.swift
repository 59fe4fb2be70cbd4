import FerryCore

// MARK: - Design
//
// The scanner reads one JSON value from bytes in memory and builds a `Value`.
// It works on an `UnsafeBufferPointer<UInt8>` (a reader's `InputWindow`) with
// a plain integer position, and never looks at `Character`s.
//
//     bytes:    [ { " n a m e " : " W i i " , " p r i c e " : 2 6 9 . 0 } ,
//     position:   ^ 1                                                     ^ 36
//
// A reader calls `parseRecord(depth:expecting:…)` at 1 and gets the record; the
// scanner stops after the closing brace, at 36. Each value's first byte picks
// its parser: `{` object, `[` array, `"` string, `-`/digit number, `t`/`f`/`n`
// literals.
//
// When the bytes end in the middle of a value and the input has more, the
// scanner throws `.needMore`; the reader refills its window and scans the
// value again from its start. When the input has ended, the same place is a
// located `json.unexpectedEnd`.
//
// Strings are sliced out in one pass that stops at `"`, `\` or a control
// byte. Only strings with escapes are copied into a scratch buffer, and only
// strings with non-ASCII bytes are checked as UTF-8. Numbers without a
// fraction or exponent that fit 64 bits stay integers; others become doubles,
// exactly (Clinger's fast path, else `strtod`).

/// Why a scan stopped early.
enum JSONScanError: Error {
    /// The bytes ended inside a value and the input has more.
    case needMore
    /// The input is malformed at byte `index` of the window.
    case failed(FerryError.Code, [MessageArgument], index: Int)
}

/// Reads JSON values from a buffer. See the design note above.
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var position: Int
    /// True when the buffer holds the rest of the input, so running out of
    /// bytes is truncation rather than a reason to refill.
    let isFinal: Bool
    /// Whether an object since the reader last cleared it repeated a name;
    /// which names, `duplicateNames(inValueAt:)` finds (a flag keeps the
    /// scanner a plain value, cheap to copy for every record).
    var sawDuplicateName = false
    /// Whether whitespace was skipped since the reader last cleared it.
    var skippedWhitespace = false
    /// Whether a string with escapes, since the reader last cleared it,
    /// was escaped otherwise than the JSON writer would escape it; checked
    /// only when `checksEscapes`.
    var escapedOtherwise = false
    var checksEscapes = false
    let maxDepth: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, position: Int, isFinal: Bool, maxDepth: Int) {
        self.bytes = bytes
        self.position = position
        self.isFinal = isFinal
        self.maxDepth = maxDepth
    }

    // MARK: - Bytes

    /// Fails for the end of the bytes: truncation if final, else a refill.
    func endOfBytes() -> JSONScanError {
        isFinal ? .failed(.jsonUnexpectedEnd, [], index: bytes.count) : .needMore
    }

    /// Fails for the byte at `index`; a NUL byte, which suggests UTF-16 or
    /// a binary file rather than a typo, has its own code.
    func unexpected(at index: Int) -> JSONScanError {
        let byte = bytes[index]
        if byte == 0 { return .failed(.jsonNullByte, [], index: index) }
        return .failed(.jsonUnexpectedCharacter, [.byte(byte)], index: index)
    }

    /// Skips JSON whitespace (space, tab, LF, CR).
    @inline(__always)
    mutating func skipWhitespace() {
        // Most tokens follow none, or one space (`", "` and `": "`, as
        // Python's json.dumps writes): one test for a byte past the space.
        guard position < bytes.count, bytes[position] <= 0x20 else { return }
        if bytes[position] == 0x20 {
            position += 1
            skippedWhitespace = true
            guard position < bytes.count, bytes[position] <= 0x20 else { return }
        }
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09:
                position += 1
                skippedWhitespace = true
            default: return
            }
        }
    }

    /// The byte at the position after whitespace, without consuming it.
    @inline(__always)
    mutating func peekSignificant() throws(JSONScanError) -> UInt8 {
        skipWhitespace()
        guard position < bytes.count else { throw endOfBytes() }
        return bytes[position]
    }

    /// Consumes `byte` after whitespace, or fails.
    @inline(__always)
    mutating func expect(_ byte: UInt8) throws(JSONScanError) {
        guard try peekSignificant() == byte else { throw unexpected(at: position) }
        position += 1
    }

    /// Skips the rest of a JSON Lines line after its value: blanks, then the
    /// line break, or the end of the input.
    mutating func skipLineEnd() throws(JSONScanError) {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0D: position += 1
            case 0x0A:
                position += 1
                return
            default:
                throw .failed(.jsonExpectedNewline, [.byte(bytes[position])], index: position)
            }
        }
        if !isFinal { throw .needMore }
    }

    // MARK: - Values

    /// Parses any value at the position; `depth` counts the arrays and objects around it.
    mutating func parseValue(depth: Int) throws(JSONScanError) -> Value {
        switch try peekSignificant() {
        case UInt8(ascii: "{"): return .object(try parseObject(depth: depth + 1))
        case UInt8(ascii: "["): return .array(try parseArray(depth: depth + 1))
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case UInt8(ascii: "t"):
            try parseLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try parseLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try parseLiteral("null")
            return .null
        default:
            throw unexpected(at: position)
        }
    }

    mutating func parseLiteral(_ literal: StaticString) throws(JSONScanError) {
        let length = literal.utf8CodeUnitCount
        let word = literal.utf8Start
        for offset in 0..<length {
            guard position + offset < bytes.count else { throw endOfBytes() }
            guard bytes[position + offset] == word[offset] else { throw unexpected(at: position + offset) }
        }
        position += length
    }

    func checkDepth(_ depth: Int) throws(JSONScanError) {
        if depth > maxDepth {
            throw .failed(.nestingTooDeep, [.integer(maxDepth)], index: position)
        }
    }

    mutating func parseArray(depth: Int) throws(JSONScanError) -> [Value] {
        try checkDepth(depth)
        position += 1  // [
        var elements: [Value] = []
        if try peekSignificant() == UInt8(ascii: "]") {
            position += 1
            return elements
        }
        while true {
            elements.append(try parseValue(depth: depth))
            switch try peekSignificant() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return elements
            default: throw unexpected(at: position)
            }
        }
    }

    mutating func parseObject(depth: Int) throws(JSONScanError) -> OrderedObject {
        try checkDepth(depth)
        position += 1  // {
        var object = OrderedObject()
        var keys = KeyCollector()
        if try peekSignificant() == UInt8(ascii: "}") {
            position += 1
            return object
        }
        while true {
            guard try peekSignificant() == UInt8(ascii: "\"") else { throw unexpected(at: position) }
            let key = try parseString()
            try expect(UInt8(ascii: ":"))
            let value = try parseValue(depth: depth)
            // Duplicate keys: the last one wins, as in most JSON readers.
            if let earlier = keys.index(of: key) {
                sawDuplicateName = true
                object.replaceValue(at: earlier, with: value)
            } else {
                keys.append(key)
                object.append(key: key, value: value)
            }
            switch try peekSignificant() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return object
            default: throw unexpected(at: position)
            }
        }
    }
}
