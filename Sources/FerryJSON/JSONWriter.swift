import FerryCore

/// Writes records as JSON (an array of objects) or JSON Lines.
///
/// Strings are escaped per RFC 8259 and keep their UTF-8; integers stay
/// integers; doubles are written in their shortest form that reads back to
/// the same value (19.99 stays 19.99, 67.0 stays 67.0). Bytes become `data:`
/// URIs and dates ISO 8601 strings.
package final class JSONWriter: LineCopyingWriter {
    /// How the output is laid out.
    package enum Style: Sendable {
        /// An array with one key per line, indented by two spaces.
        case pretty
        /// An array on one line.
        case compact
        /// JSON Lines: one compact object per line.
        case lines
    }

    private let output: any ByteOutput
    // Touched for every record; a writer is never shared between threads,
    // so the run-time exclusivity checks are left out.
    @exclusivity(unchecked) private var buffer = WriteBuffer()
    private let style: Style
    /// The part of the document written: all of it, or a shard's.
    private let part: DocumentPart
    /// The indent level of a record's values: nil when compact.
    private let valueLevel: Int?
    @exclusivity(unchecked) private var written = 0
    private var finished = false
    /// The encoded `"key": ` prefixes of the field lists seen lately: records
    /// often alternate between a few (a product with and without a photo).
    @exclusivity(unchecked) private var keyCache: [(fields: FieldList, keys: EncodedKeys)] = []

    /// Bytes are handed to the output once this many have gathered.
    private static let drainThreshold = 1 << 18

    package init(_ output: any ByteOutput, style: Style, part: DocumentPart = .whole) {
        self.output = output
        self.style = style
        self.part = part
        valueLevel = style == .pretty ? 2 : nil
    }

    deinit { buffer.release() }

    package func write(_ record: Record) throws(FerryError) {
        try writeRecord(record.fields, count: record.values.count, index: record.origin.index) {
            (index, out) throws(FerryError) in
            try JSONText.appendValue(record.values[index], to: &out, indentLevel: valueLevel)
        }
    }

    package func writeRaw(_ record: RawRecord) throws(FerryError) {
        try writeRecord(record.fields, count: record.values.count, index: record.origin.index) {
            (index, out) throws(FerryError) in
            try JSONText.appendRaw(record, at: index, to: &out, indentLevel: valueLevel)
        }
    }

    /// Writes one record: its keys, and each value through `appendValue`.
    @inline(__always)
    private func writeRecord(
        _ fields: FieldList, count: Int, index recordIndex: Int,
        _ appendValue: (Int, inout WriteBuffer) throws(FerryError) -> Void
    ) throws(FerryError) {
        let keys = encodedKeys(fields)
        // Work on a local copy, so the appends below need no access checks
        // on the class's storage.
        var out = buffer
        defer { buffer = out }
        openRecord(to: &out)
        for index in 0..<count {
            keys.append(index, to: &out)
            do {
                try appendValue(index, &out)
            } catch {
                throw error.located(SourceLocation(record: recordIndex, field: fields.names[index]))
            }
        }
        try closeRecord(empty: count == 0, to: &out)
    }

    /// What comes before a record's first key: the separator from the record
    /// before, in a document.
    @inline(__always)
    private func opening(first: Bool) -> StaticString {
        switch style {
        case .pretty: first ? "[\n  " : ",\n  "
        case .compact: first ? "[" : ","
        case .lines: ""
        }
    }

    /// What comes after a record's last value.
    @inline(__always)
    private var closing: StaticString {
        switch style {
        case .pretty: "\n  }"
        case .compact: "}"
        case .lines: "}\n"
        }
    }

    @inline(__always)
    private func openRecord(to out: inout WriteBuffer) {
        if style != .lines { append(opening(first: written == 0 && !part.continues), to: &out) }
    }

    @inline(__always)
    private func closeRecord(empty: Bool, to out: inout WriteBuffer) throws(FerryError) {
        if empty {
            append(style == .lines ? "{}\n" : "{}", to: &out)
        } else {
            append(closing, to: &out)
        }
        written += 1
        if out.count >= JSONWriter.drainThreshold { try out.drain(to: output) }
    }

    // MARK: - Records laid out by the CSV to JSON accelerator

    /// The layout of records with these fields (at least one).
    package func jsonLayout(for fields: FieldList) -> JSONRecordLayout {
        let keys = EncodedKeys(fields, pretty: style == .pretty)
        func bytes(_ text: StaticString) -> [UInt8] {
            Array(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }
        return JSONRecordLayout(
            firstOpening: bytes(opening(first: !part.continues)) + keys.segment(0),
            opening: bytes(opening(first: false)) + keys.segment(0),
            separators: [[]] + (1..<max(fields.count, 1)).map { keys.segment($0) },
            closing: bytes(closing))
    }

    /// Hands what the buffer holds to the output now, for a caller that
    /// writes to the same output itself between records.
    package func drain() throws(FerryError) {
        if buffer.count > 0 { try buffer.drain(to: output) }
    }

    /// Whether the writer writes JSON Lines: the lines `JSONReader` marks
    /// as written are then its own.
    package var copiesLinesAsWritten: Bool { style == .lines }

    /// How many records the writer has written or taken so far.
    package var recordsWritten: Int { written }

    /// Takes the `records` records laid out in `block` with
    /// `jsonLayout(for:)`, in order, as if each had been written, and leaves
    /// `block` empty; the first uses `firstOpening` exactly when
    /// `recordsWritten` was 0.
    package func appendLaidOut(_ block: inout WriteBuffer, records: Int) throws(FerryError) {
        // Small blocks gather in the buffer; a large one goes out as it is,
        // after what the buffer holds.
        if block.count < JSONWriter.drainThreshold / 4 {
            buffer.append(block.contents.assumingMemoryBound(to: UInt8.self))
            block.truncate(to: 0)
            if buffer.count >= JSONWriter.drainThreshold { try buffer.drain(to: output) }
        } else {
            try buffer.drain(to: output)
            try block.drain(to: output)
        }
        written += records
    }

    package func finish() throws(FerryError) {
        guard !finished else { return }
        finished = true
        // A document of no records is `[]`; a part that does not close it
        // leaves the bracket to a later part.
        let empty = written == 0 && !part.continues
        switch style {
        case .pretty where part.closes: buffer.append(empty ? "[]\n" : "\n]\n")
        case .compact where part.closes: buffer.append(empty ? "[]\n" : "]\n")
        case .pretty, .compact, .lines: break
        }
        try buffer.drain(to: output)
        try output.flush()
    }

    // MARK: - Values

    private func encodedKeys(_ fields: FieldList) -> EncodedKeys {
        if let last = keyCache.last, last.fields === fields { return last.keys }
        for entry in keyCache where entry.fields === fields { return entry.keys }
        let keys = EncodedKeys(fields, pretty: style == .pretty)
        if keyCache.count == 16 { keyCache.removeFirst() }
        keyCache.append((fields, keys))
        return keys
    }

    @inline(__always)
    private func append(_ text: StaticString, to out: inout WriteBuffer) {
        out.append(text)
    }
}

/// The `"key":` prefixes of one field list, encoded once and kept in one
/// array, so writing a key is one copy with no reference counting.
/// A field list's keys as JSON, each with what goes before it (the record's
/// brace or a comma, and the indent when pretty) and the colon after it:
/// `{"name":`, `,"price":`.
final class EncodedKeys {
    private let bytes: [UInt8]
    private let starts: [Int]

    init(_ fields: FieldList, pretty: Bool) {
        var bytes: [UInt8] = []
        var starts = [0]
        for (index, name) in fields.names.enumerated() {
            bytes.append(index == 0 ? UInt8(ascii: "{") : UInt8(ascii: ","))
            if pretty { bytes += Array("\n    ".utf8) }
            bytes += JSONText.quoted(name)
            bytes += Array((pretty ? ": " : ":").utf8)
            starts.append(bytes.count)
        }
        self.bytes = bytes
        self.starts = starts
    }

    /// What goes before value `index`, as bytes.
    func segment(_ index: Int) -> [UInt8] { Array(bytes[starts[index]..<starts[index + 1]]) }

    @inline(__always)
    func append(_ index: Int, to out: inout WriteBuffer) {
        bytes.withUnsafeBufferPointer { all in
            out.append(UnsafeBufferPointer(rebasing: all[starts[index]..<starts[index + 1]]))
        }
    }
}
