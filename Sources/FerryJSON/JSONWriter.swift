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
    /// The encoded `"key": ` prefixes of the field lists seen lately: records
    /// often alternate between a few (a product with and without a photo).
    private var keyCache: [(fields: FieldList, keys: EncodedKeys)] = []

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
        for entry in keyCache where entry.fields === fields { return entry.keys }
        let keys = EncodedKeys(fields, separator: style == .pretty ? ": " : ":")
        if keyCache.count == 16 { keyCache.removeFirst() }
        keyCache.append((fields, keys))
        return keys
    }

    @inline(__always)
    private func append(_ text: StaticString, to out: inout WriteBuffer) {
        out.append(text)
    }

    private func writeValue(_ value: Value, level: Int, to out: inout WriteBuffer) throws(FerryError) {
        try JSONText.appendValue(value, to: &out, indentLevel: style == .pretty ? level : nil)
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
            bytes += JSONText.quoted(name)
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
