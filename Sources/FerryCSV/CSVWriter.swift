import FerryCore

/// Writes records as CSV or TSV.
///
/// The header comes from the first record. Later records are written by
/// field name: a field they lack is an empty cell, a field the header lacks
/// is `csv.fieldsChanged`, since a CSV file has one header. Null is an empty
/// cell and an empty string `""`, so the two read back apart. Numbers are
/// written as JSON writes them; nested arrays and objects as compact JSON.
public final class CSVWriter: RecordWriter {
    private let output: any ByteOutput
    private let dialect: CSVDialect
    private var buffer = WriteBuffer()
    private var header: FieldList?
    /// For the last field list seen: the position in it of each header field.
    private var mapping: (fields: FieldList, positions: [Int?])?
    private var finished = false

    private static let drainThreshold = 1 << 18

    public init(_ output: any ByteOutput, dialect: CSVDialect) {
        self.output = output
        self.dialect = dialect
    }

    deinit { buffer.release() }

    public func write(_ record: Record) throws(FerryError) {
        var out = buffer
        defer { buffer = out }
        let header = self.header ?? startHeader(record.fields, to: &out)
        if record.fields === header {
            for index in record.values.indices {
                if index > 0 { out.append(dialect.delimiter) }
                try appendCell(record.values[index], to: &out, record: record, field: index)
            }
        } else {
            let positions = try positions(of: record, in: header)
            for (index, position) in positions.enumerated() {
                if index > 0 { out.append(dialect.delimiter) }
                if let position { try appendCell(record.values[position], to: &out, record: record, field: position) }
            }
        }
        out.append(dialect.lineEnding)
        if out.count >= CSVWriter.drainThreshold { try out.drain(to: output) }
    }

    public func finish() throws(FerryError) {
        guard !finished else { return }
        finished = true
        try buffer.drain(to: output)
        try output.flush()
    }

    // MARK: - Header

    private func startHeader(_ fields: FieldList, to out: inout WriteBuffer) -> FieldList {
        header = fields
        if dialect.hasHeader {
            for (index, name) in fields.names.enumerated() {
                if index > 0 { out.append(dialect.delimiter) }
                appendText(name, to: &out)
            }
            out.append(dialect.lineEnding)
        }
        return fields
    }

    /// Where each header field is in `record`.
    /// - Throws: `csv.fieldsChanged` when the record has a field the header lacks.
    private func positions(of record: Record, in header: FieldList) throws(FerryError) -> [Int?] {
        if let mapping, mapping.fields === record.fields { return mapping.positions }
        for name in record.fields.names where !header.contains(name) {
            throw FerryError(.csvFieldsChanged, [.string(name)], at: SourceLocation(record: record.origin.index, field: name))
        }
        let positions = header.names.map { record.fields.index(of: $0) }
        mapping = (record.fields, positions)
        return positions
    }

    // MARK: - Cells

    private func appendCell(_ value: Value, to out: inout WriteBuffer, record: Record, field: Int) throws(FerryError) {
        switch value {
        case .null:
            break
        case .bool(let flag):
            appendPlain(flag ? "true" : "false", to: &out)
        case .integer(let number):
            if dialect.quoteAll { out.append(dialect.quote) }
            JSONText.appendInteger(number, to: &out)
            if dialect.quoteAll { out.append(dialect.quote) }
        case .double(let number):
            guard number.isFinite else {
                throw FerryError(
                    .csvNonFiniteNumber, [.double(number)],
                    at: SourceLocation(record: record.origin.index, field: record.fields.names[field]))
            }
            if dialect.quoteAll { out.append(dialect.quote) }
            JSONText.appendDouble(number, to: &out)
            if dialect.quoteAll { out.append(dialect.quote) }
        case .string(let text):
            appendText(text, to: &out)
        case .bytes(let bytes):
            appendText(Photo.dataURI(bytes), to: &out)
        case .date(let date):
            appendText(Timestamp.iso8601(date), to: &out)
        case .array, .object:
            do throws(FerryError) {
                appendText(try JSONText.compact(value), to: &out)
            } catch {
                throw error.located(SourceLocation(record: record.origin.index, field: record.fields.names[field]))
            }
        }
    }

    private func appendPlain(_ text: StaticString, to out: inout WriteBuffer) {
        if dialect.quoteAll { out.append(dialect.quote) }
        out.append(text)
        if dialect.quoteAll { out.append(dialect.quote) }
    }

    /// Appends text, quoted when it holds the delimiter, the quote or a line
    /// break, when it is empty (so it reads back as "" and not null), or
    /// always with `--quoting all`.
    private func appendText(_ text: String, to out: inout WriteBuffer) {
        var text = text
        let delimiter = dialect.delimiter
        let quote = dialect.quote
        text.withUTF8 { utf8 in
            var needsQuotes = dialect.quoteAll || utf8.isEmpty
            if !needsQuotes {
                for byte in utf8 where byte == delimiter || byte == quote || byte == 0x0A || byte == 0x0D {
                    needsQuotes = true
                    break
                }
            }
            guard needsQuotes else { return out.append(utf8) }
            out.reserve(utf8.count * 2 + 2)
            out.appendUnchecked(quote)
            for byte in utf8 {
                if byte == quote { out.appendUnchecked(quote) }
                out.appendUnchecked(byte)
            }
            out.appendUnchecked(quote)
        }
    }
}

private extension WriteBuffer {
    mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}
