import FerryCore

/// Writes records as the rows of one Markdown table.
///
/// The header row comes from the first record's field names, followed by the
/// `| --- |` separator and one row per record, written as the records arrive.
/// Later records are matched to the header by field name: a field the record
/// lacks gives an empty cell, and a field the header lacks is left out.
///
///     | name | price | photo |
///     | --- | --- | --- |
///     | Xbox 360 | 299.0 | photos/xbox-360.png |
///
/// No records give no output at all, since there is nothing to name the
/// columns after. See `MarkdownCell` for how each value is shown.
public final class MarkdownTableWriter: RecordWriter {
    /// How many bytes collect before they are handed on, so the system sees
    /// few large writes.
    private static let drainThreshold = 1 << 18

    private let output: any ByteOutput
    /// Rows not yet handed to `output`.
    private var pending: [UInt8] = []
    /// The columns, named by the first record; nil until it arrives.
    private var header: FieldList?
    /// For the field list seen last: where each column's value sits in it.
    private var columnPositions: (fields: FieldList, positions: [Int?])?
    private var finished = false

    public init(_ output: any ByteOutput) {
        self.output = output
        pending.reserveCapacity(Self.drainThreshold + Self.drainThreshold / 4)
    }

    /// Writes one row, and the header before the first.
    /// - Throws: `markdown.noColumns` when the first record has no fields;
    ///   `io.writeFailed`.
    public func write(_ record: Record) throws(FerryError) {
        let header: FieldList
        if let started = self.header { header = started } else { header = try startTable(with: record) }
        let positions = positions(of: header, in: record.fields)
        pending.append(UInt8(ascii: "|"))
        for position in positions {
            appendCell { MarkdownCell.append(position.map { record.values[$0] } ?? .null, to: &$0) }
        }
        pending.append(0x0A)
        if pending.count >= Self.drainThreshold { try drain() }
    }

    /// Flushes what is left. Calling it again does nothing.
    /// - Throws: `io.writeFailed`.
    public func finish() throws(FerryError) {
        guard !finished else { return }
        finished = true
        try drain()
        try output.flush()
    }

    private func drain() throws(FerryError) {
        guard !pending.isEmpty else { return }
        try output.write(pending)
        pending.removeAll(keepingCapacity: true)
    }

    // MARK: - Rows

    /// Writes the header and separator rows from `record`'s field names.
    private func startTable(with record: Record) throws(FerryError) -> FieldList {
        guard record.fields.count > 0 else { throw .markdownNoColumns(record: record.origin.index) }
        pending.append(UInt8(ascii: "|"))
        for name in record.fields.names {
            appendCell { MarkdownCell.appendEscaped(name.utf8, to: &$0) }
        }
        pending.append(0x0A)
        pending.append(UInt8(ascii: "|"))
        for _ in 0..<record.fields.count { pending.append(contentsOf: " --- |".utf8) }
        pending.append(0x0A)
        header = record.fields
        return record.fields
    }

    /// Appends ` text |`, or ` |` when the cell is empty.
    private func appendCell(_ content: (inout [UInt8]) -> Void) {
        pending.append(UInt8(ascii: " "))
        let start = pending.count
        content(&pending)
        if pending.count > start { pending.append(UInt8(ascii: " ")) }
        pending.append(UInt8(ascii: "|"))
    }

    /// Where each of the header's columns is in `fields`, nil where it is
    /// missing. Worked out once per field list, not once per record.
    private func positions(of header: FieldList, in fields: FieldList) -> [Int?] {
        if let columnPositions, columnPositions.fields === fields { return columnPositions.positions }
        // The header's own names map by position, so repeated names keep their own values.
        let positions: [Int?] =
            fields == header ? Array(0..<header.count) : header.names.map { fields.index(of: $0) }
        columnPositions = (fields, positions)
        return positions
    }
}
