import FerryCore

/// Writes records as JSON (an array of objects) or JSON Lines.
///
/// Strings are escaped per RFC 8259 and keep their UTF-8; integers stay
/// integers; doubles are written in their shortest form that reads back to
/// the same value (19.99 stays 19.99, 67.0 stays 67.0). Bytes become `data:`
/// URIs and dates ISO 8601 strings.
public final class JSONWriter: RecordWriter {
    /// How the output is laid out.
    public enum Style: Sendable {
        /// An array with one key per line, indented by two spaces.
        case pretty
        /// An array on one line.
        case compact
        /// JSON Lines: one compact object per line.
        case lines
    }

    private let output: any ByteOutput
    private var buffer = WriteBuffer()
    private let style: Style
    private var written = 0
    private var finished = false
    /// The encoded `"key": ` prefixes of the last field list seen.
    private var keyCache: (fields: FieldList, keys: EncodedKeys)?

    /// Bytes are handed to the output once this many have gathered.
    private static let drainThreshold = 1 << 18

    public init(_ output: any ByteOutput, style: Style) {
        self.output = output
        self.style = style
    }

    deinit { buffer.release() }

    public func write(_ record: Record) throws(FerryError) {
        let keys = encodedKeys(record.fields)
        // Work on a local copy, so the appends below need no access checks
        // on the class's storage.
        var out = buffer
        defer { buffer = out }
        switch style {
        case .pretty: append(written == 0 ? "[\n  " : ",\n  ", to: &out)
        case .compact: append(written == 0 ? "[" : ",", to: &out)
        case .lines: break
        }
        if record.values.isEmpty {
            append("{}", to: &out)
        } else {
            out.append(UInt8(ascii: "{"))
            for index in record.values.indices {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                if style == .pretty { append("\n    ", to: &out) }
                keys.append(index, to: &out)
                do {
                    try writeValue(record.values[index], level: 2, to: &out)
                } catch {
                    throw error.located(SourceLocation(record: record.origin.index, field: record.fields.names[index]))
                }
            }
            if style == .pretty { append("\n  ", to: &out) }
            out.append(UInt8(ascii: "}"))
        }
        if style == .lines { out.append(0x0A) }
        written += 1
        if out.count >= JSONWriter.drainThreshold { try out.drain(to: output) }
    }

    public func finish() throws(FerryError) {
        guard !finished else { return }
        finished = true
        switch style {
        case .pretty: buffer.append(written == 0 ? "[]\n" : "\n]\n")
        case .compact: buffer.append(written == 0 ? "[]\n" : "]\n")
        case .lines: break
        }
        try buffer.drain(to: output)
        try output.flush()
    }

    // MARK: - Values

    private func encodedKeys(_ fields: FieldList) -> EncodedKeys {
        if let keyCache, keyCache.fields === fields { return keyCache.keys }
        let keys = EncodedKeys(fields, separator: style == .pretty ? ": " : ":")
        keyCache = (fields, keys)
        return keys
    }

    @inline(__always)
    private func append(_ text: StaticString, to out: inout WriteBuffer) {
        out.append(text)
    }

    private func newline(level: Int, to out: inout WriteBuffer) {
        out.append(0x0A)
        out.append(repeating: UInt8(ascii: " "), count: level * 2)
    }

    private func writeValue(_ value: Value, level: Int, to out: inout WriteBuffer) throws(FerryError) {
        switch value {
        case .null: append("null", to: &out)
        case .bool(let flag): append(flag ? "true" : "false", to: &out)
        case .integer(let number): JSONEscaping.appendInteger(number, to: &out)
        case .double(let number):
            guard number.isFinite else { throw FerryError(.jsonNonFiniteNumber, [.double(number)]) }
            JSONEscaping.appendDouble(number, to: &out)
        case .string(let text): JSONEscaping.appendQuoted(text, to: &out)
        case .bytes(let bytes): JSONEscaping.appendQuoted(Photo.dataURI(bytes), to: &out)
        case .date(let date): JSONEscaping.appendQuoted(Timestamp.iso8601(date), to: &out)
        case .array(let elements):
            guard !elements.isEmpty else { return append("[]", to: &out) }
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                if style == .pretty { newline(level: level + 1, to: &out) }
                try writeValue(element, level: level + 1, to: &out)
            }
            if style == .pretty { newline(level: level, to: &out) }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            guard object.count > 0 else { return append("{}", to: &out) }
            out.append(UInt8(ascii: "{"))
            for index in 0..<object.count {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                if style == .pretty { newline(level: level + 1, to: &out) }
                JSONEscaping.appendQuoted(object.keys[index], to: &out)
                append(style == .pretty ? ": " : ":", to: &out)
                try writeValue(object.values[index], level: level + 1, to: &out)
            }
            if style == .pretty { newline(level: level, to: &out) }
            out.append(UInt8(ascii: "}"))
        }
    }
}

/// The `"key":` prefixes of one field list, encoded once and kept in one
/// array, so writing a key is one copy with no reference counting.
struct EncodedKeys {
    private let bytes: [UInt8]
    private let starts: [Int]

    init(_ fields: FieldList, separator: StaticString) {
        var bytes: [UInt8] = []
        var starts = [0]
        for name in fields.names {
            bytes += JSONEscaping.quoted(name)
            separator.withUTF8Buffer { bytes += $0 }
            starts.append(bytes.count)
        }
        self.bytes = bytes
        self.starts = starts
    }

    @inline(__always)
    func append(_ index: Int, to out: inout WriteBuffer) {
        bytes.withUnsafeBufferPointer { all in
            out.append(UnsafeBufferPointer(rebasing: all[starts[index]..<starts[index + 1]]))
        }
    }
}

/// The byte-level pieces of writing JSON text.
public enum JSONEscaping {
    /// `text` as a quoted JSON string.
    public static func quoted(_ text: String) -> [UInt8] {
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

    /// Appends `text` as a quoted JSON string.
    public static func appendQuoted(_ text: String, to output: inout WriteBuffer) {
        var text = text
        text.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else { return output.append("\"\"") }
            let count = utf8.count
            let raw = UnsafeRawPointer(base)
            // Six bytes per byte covers the worst case, `\u00XX`.
            output.reserve(count * 6 + 2)
            output.appendUnchecked(UInt8(ascii: "\""))
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
                output.appendUnchecked(UInt8(ascii: "\\"))
                switch byte {
                case 0x22: output.appendUnchecked(UInt8(ascii: "\""))
                case 0x5C: output.appendUnchecked(UInt8(ascii: "\\"))
                case 0x08: output.appendUnchecked(UInt8(ascii: "b"))
                case 0x0C: output.appendUnchecked(UInt8(ascii: "f"))
                case 0x0A: output.appendUnchecked(UInt8(ascii: "n"))
                case 0x0D: output.appendUnchecked(UInt8(ascii: "r"))
                case 0x09: output.appendUnchecked(UInt8(ascii: "t"))
                default:
                    output.append("u00")
                    output.appendUnchecked(hexDigit(byte >> 4))
                    output.appendUnchecked(hexDigit(byte & 15))
                }
                index += 1
                runStart = index
            }
            if runStart < count { output.append(UnsafeBufferPointer(start: base + runStart, count: count - runStart)) }
            output.appendUnchecked(UInt8(ascii: "\""))
        }
    }

    @inline(__always)
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? value + 0x30 : value - 10 + UInt8(ascii: "a")
    }

    /// Appends the decimal digits of `number`.
    public static func appendInteger(_ number: Int64, to output: inout WriteBuffer) {
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

    /// Appends the shortest text that reads back as `number`, which must be
    /// finite. Integral values keep a `.0` so they read back as doubles.
    public static func appendDouble(_ number: Double, to output: inout WriteBuffer) {
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
