import FerryCore

/// Writes records as CSV or TSV.
///
/// The header comes from the first record. Later records are written by
/// field name: a field they lack is an empty cell, a field the header lacks
/// is `csv.fieldsChanged`, since a CSV file has one header. Null is an empty
/// cell and an empty string `""`, so the two read back apart when the
/// column is typed; in a column nothing types, null reads back as an empty
/// string, which `csv.nullAsEmpty` says once per field unless `--null`
/// names a text for it. Numbers are written as JSON writes them, or as
/// they were written (`RawValue.number`); nested arrays and objects as
/// compact JSON, which `csv.nestedAsJSON` says unless `--nested json`.
package final class CSVWriter: RawRecordWriter {
    private let output: any ByteOutput
    private let dialect: CSVDialect
    // Touched for every record; a writer is never shared between threads,
    // so the run-time exclusivity checks are left out.
    @exclusivity(unchecked) private var buffer = WriteBuffer()
    @exclusivity(unchecked) private var header: FieldList?
    /// For the field lists seen lately: the position in each of every header field.
    @exclusivity(unchecked) private var mappings: [(fields: FieldList, positions: [Int?])] = []
    private var finished = false
    /// The schema that types columns on reading, if any.
    private let schema: Schema?
    /// Where nulls and nested values that will not read back are counted.
    private let losses: LossTally
    /// Whether each field of `typedFields` is typed by the schema.
    @exclusivity(unchecked) private var typed: (fields: FieldList?, flags: [Bool]) = (nil, [])

    private static let drainThreshold = 1 << 18

    package init(_ output: any ByteOutput, dialect: CSVDialect, schema: Schema? = nil, losses: LossTally = LossTally()) {
        self.output = output
        self.dialect = dialect
        self.schema = schema
        self.losses = losses
    }

    deinit { buffer.release() }

    package func write(_ record: Record) throws(FerryError) {
        try writeRow(record.fields, count: record.values.count, index: record.origin.index) {
            (field, out) throws(FerryError) in
            try appendCell(record.values[field], fields: record.fields, at: field, record: record.origin.index, to: &out)
        }
    }

    package func writeRaw(_ record: RawRecord) throws(FerryError) {
        try writeRow(record.fields, count: record.values.count, index: record.origin.index) {
            (field, out) throws(FerryError) in
            switch record.values[field] {
            case .null: appendNull(record.fields, at: field, record: record.origin.index, to: &out)
            case .bool(let flag): appendPlain(flag ? "true" : "false", to: &out)
            case .integer(let number): appendInteger(number, to: &out)
            case .double(let number): try appendDouble(number, to: &out)
            case .number(let text): appendNumber(text, to: &out)
            case .text(let utf8): appendText(utf8, to: &out)
            case .bytes(let bytes): appendText(Photo.dataURI(bytes), to: &out)
            case .other(let other):
                try appendCell(record.others[other], fields: record.fields, at: field, record: record.origin.index, to: &out)
            }
        }
    }

    /// Writes one row in the header's order; `appendCell` writes the cell of
    /// the record's field at an index.
    @inline(__always)
    private func writeRow(
        _ fields: FieldList, count: Int, index recordIndex: Int,
        _ appendCell: (Int, inout WriteBuffer) throws(FerryError) -> Void
    ) throws(FerryError) {
        var out = buffer
        defer { buffer = out }
        let header = self.header ?? startHeader(fields, to: &out)
        func cell(_ field: Int) throws(FerryError) {
            do {
                try appendCell(field, &out)
            } catch {
                throw error.located(SourceLocation(record: recordIndex, field: fields.names[field]))
            }
        }
        if fields === header {
            for index in 0..<count {
                if index > 0 { out.append(dialect.delimiter) }
                try cell(index)
            }
        } else {
            let positions = try positions(of: fields, in: header, record: recordIndex)
            for (index, position) in positions.enumerated() {
                if index > 0 { out.append(dialect.delimiter) }
                if let position { try cell(position) }
            }
        }
        out.append(dialect.lineEnding)
        if out.count >= CSVWriter.drainThreshold { try out.drain(to: output) }
    }

    package func finish() throws(FerryError) {
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
    private func positions(of fields: FieldList, in header: FieldList, record: Int) throws(FerryError) -> [Int?] {
        // Records often alternate between a few lists (with and without a photo).
        for mapping in mappings where mapping.fields === fields { return mapping.positions }
        for name in fields.names where !header.contains(name) {
            throw FerryError(.csvFieldsChanged, [.string(name)], at: SourceLocation(record: record, field: name))
        }
        let positions = header.names.map { fields.index(of: $0) }
        if mappings.count == 8 { mappings.removeFirst() }
        mappings.append((fields, positions))
        return positions
    }

    // MARK: - Cells

    /// Appends the cell of field `index` of `fields`, in record `record`.
    private func appendCell(
        _ value: Value, fields: FieldList, at index: Int, record: Int, to out: inout WriteBuffer
    ) throws(FerryError) {
        switch value {
        case .null: appendNull(fields, at: index, record: record, to: &out)
        case .bool(let flag): appendPlain(flag ? "true" : "false", to: &out)
        case .integer(let number): appendInteger(number, to: &out)
        case .double(let number): try appendDouble(number, to: &out)
        case .number(let number):
            var text = number.text
            text.withUTF8 { appendNumber($0, to: &out) }
        case .string(let text): appendText(text, to: &out)
        case .bytes(let bytes): appendText(Photo.dataURI(bytes), to: &out)
        case .date(let date): appendText(Timestamp.iso8601(date), to: &out)
        case .array, .object:
            if !dialect.nestedJSON {
                let name = fields.names[index]
                losses.note(.csvNestedAsJSON, field: name, record: record, [.string(name)])
            }
            appendText(try JSONText.compact(value), to: &out)
        }
    }

    /// Appends null: `--null`'s text, else nothing, which a column nothing
    /// types reads back as an empty string (noted as `csv.nullAsEmpty`).
    @inline(__always)
    private func appendNull(_ fields: FieldList, at index: Int, record: Int, to out: inout WriteBuffer) {
        if let text = dialect.nullText { return text.withUnsafeBufferPointer { out.append($0) } }
        if typed.fields !== fields {
            typed = (fields, fields.names.map { schema?.rule(for: $0)?.type != nil })
        }
        guard !typed.flags[index] else { return }
        let name = fields.names[index]
        losses.note(.csvNullAsEmpty, field: name, record: record, [.string(name)])
    }

    private func appendInteger(_ number: Int64, to out: inout WriteBuffer) {
        if dialect.quoteAll { out.append(dialect.quote) }
        JSONText.appendInteger(number, to: &out)
        if dialect.quoteAll { out.append(dialect.quote) }
    }

    private func appendDouble(_ number: Double, to out: inout WriteBuffer) throws(FerryError) {
        guard number.isFinite else { throw FerryError(.csvNonFiniteNumber, [.double(number)]) }
        if dialect.decimalComma {
            var text = WriteBuffer(capacity: 32)
            defer { text.release() }
            JSONText.appendDouble(number, to: &text)
            return appendDecimalComma(text.bytes, to: &out)
        }
        if dialect.quoteAll { out.append(dialect.quote) }
        JSONText.appendDouble(number, to: &out)
        if dialect.quoteAll { out.append(dialect.quote) }
    }

    /// Appends a number kept as text, as it was written.
    private func appendNumber(_ text: UnsafeBufferPointer<UInt8>, to out: inout WriteBuffer) {
        if dialect.decimalComma { return appendDecimalComma(Array(text), to: &out) }
        if dialect.quoteAll { out.append(dialect.quote) }
        out.append(text)
        if dialect.quoteAll { out.append(dialect.quote) }
    }

    /// Appends a number's text with a comma for its point (`--decimal-comma`),
    /// quoted as text is when the comma is the delimiter.
    private func appendDecimalComma(_ text: [UInt8], to out: inout WriteBuffer) {
        let commas = text.map { $0 == UInt8(ascii: ".") ? UInt8(ascii: ",") : $0 }
        commas.withUnsafeBufferPointer { appendText($0, to: &out) }
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
        text.withUTF8 { appendText($0, to: &out) }
    }

    private func appendText(_ utf8: UnsafeBufferPointer<UInt8>, to out: inout WriteBuffer) {
        let delimiter = dialect.delimiter
        let quote = dialect.quote
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

private extension WriteBuffer {
    mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}
