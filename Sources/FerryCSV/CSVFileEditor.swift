import FerryCore

/// Edits a CSV or TSV file by splicing: an edited cell's bytes are replaced
/// by the new value written in the file's style, an added row goes right
/// after the last one (before trailing blank lines), a removed row is cut out; every other byte stays as it was,
/// the byte-order mark, the line breaks and the quoting included.
///
/// Cells are written by `CSVWriter` itself, with the file's delimiter, line
/// break and quoting (every cell quoted when the first rows quote every
/// cell, else only the cells that need it), so a spliced cell reads back
/// as a written one. A CSV file has one header: a field it has no column
/// for is `edit.newColumn`.
package final class CSVFileEditor: RecordFileEditor {
    package private(set) var records: [Record]
    package let keepsLayout = true
    private var bytes: [UInt8]
    /// The map of `bytes`, made again after a splice when it is next needed.
    private var cachedMap: CSVRowMap?
    private let dialect: CSVDialect
    private let schema: Schema?
    /// The column names, in order.
    private let header: [String]
    /// The row of record 0 in `map.rows`.
    private let firstRow: Int

    /// - Throws: `edit.formatNotEditable` for a file in another encoding
    ///   than UTF-8, or whose rows do not match the records read.
    init(_ bytes: [UInt8], records: [Record], dialect: CSVDialect, schema: Schema?, format: String) throws(FerryError) {
        guard dialect.encoding == .utf8 else { throw .editFormatNotEditable(format) }
        let map = try CSVRowMap(bytes, dialect: dialect)
        cachedMap = map
        firstRow = dialect.hasHeader ? 1 : 0
        guard max(0, map.rows.count - firstRow) == records.count else { throw .editFormatNotEditable(format) }
        var style = dialect
        style.hasHeader = false
        style.quoteAll = map.quotesEveryCell
        style.lineEnding = map.lineEnding
        self.dialect = style
        self.bytes = bytes
        self.records = records
        self.schema = schema
        if dialect.hasHeader, let row = map.rows.first {
            header = map.cells(of: row, in: bytes).ranges.map { CSVFileEditor.text(of: bytes[$0], quote: dialect.quote) }
        } else {
            header = records.first?.fields.names ?? []
        }
    }

    package func replace(at index: Int, with record: Record) throws(FerryError) {
        let old = records[index]
        let map = try self.map()
        let row = map.rows[index + firstRow]
        let cells = map.cells(of: row, in: bytes)
        var splices: [(range: Range<Int>, bytes: [UInt8])] = []
        var tail: [Int: [UInt8]] = [:]
        var changes: [(column: Int, value: Value)] = []
        for (name, value) in record.pairs where old[name] != value || old[name] == nil {
            guard let column = header.firstIndex(of: name) else { throw .editNewColumn(name, record: index) }
            changes.append((column, value))
        }
        for name in old.fields.names where record[name] == nil {
            if let column = header.firstIndex(of: name) { changes.append((column, .null)) }
        }
        for (column, value) in changes {
            let cell = try self.cell(value, field: header[column], record: index)
            if column < cells.ranges.count {
                splices.append((cells.ranges[column], cell))
            } else {
                tail[column] = cell
            }
        }
        if let last = tail.keys.max() {
            // A short row (read with --ragged pad) grows to the column.
            var added: [UInt8] = []
            for column in cells.ranges.count...last {
                added.append(dialect.delimiter)
                added += tail[column] ?? []
            }
            splices.append((row.contentEnd..<row.contentEnd, added))
        }
        for splice in splices.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            bytes.replaceSubrange(splice.range, with: splice.bytes)
        }
        remap()
        records[index] = record
    }

    package func append(_ record: Record) throws(FerryError) {
        for name in record.fields.names where !header.contains(name) {
            throw .editNewColumn(name, record: records.count)
        }
        let row = Record(fields: FieldList(header), values: header.map { record[$0] ?? .null })
        var added = try written(row, record: records.count)
        let map = try self.map()
        // Right after the last row (blank lines and rows of delimiters
        // only after it stay after the new one), after a line break in the
        // file's style when it has none.
        guard let last = map.rows.last else {
            if !map.endsWithLineBreak(bytes) { added = map.lineEnding + added }
            bytes += added
            remap()
            records.append(record)
            return
        }
        if last.contentEnd == last.range.upperBound { added = map.lineEnding + added }
        bytes.insert(contentsOf: added, at: last.range.upperBound)
        remap()
        records.append(record)
    }

    package func remove(at index: Int) throws(FerryError) {
        let map = try self.map()
        let row = map.rows[index + firstRow]
        var cut = row.range
        // The last row without a line break: the one before loses its own,
        // so that the file still ends as it did.
        if row.contentEnd == row.range.upperBound, index + firstRow > 0 {
            cut = map.rows[index + firstRow - 1].contentEnd..<row.range.upperBound
        }
        bytes.removeSubrange(cut)
        remap()
        records.remove(at: index)
    }

    package func encoded() throws(FerryError) -> [UInt8] { bytes }

    // MARK: - Cells

    /// `value` as the cell of field `field`, in the file's style.
    private func cell(_ value: Value, field: String, record: Int) throws(FerryError) -> [UInt8] {
        let row = try written(Record(fields: FieldList([field]), values: [value]), record: record)
        return Array(row.dropLast(dialect.lineEnding.count))
    }

    /// `record` as a row of the file, line break included.
    private func written(_ record: Record, record index: Int) throws(FerryError) -> [UInt8] {
        let output = MemoryOutput()
        let writer = CSVWriter(output, dialect: dialect, schema: schema)
        var located = record
        located.origin = RecordOrigin(index: index)
        try writer.write(located)
        try writer.finish()
        return output.bytes
    }

    /// The bytes changed: the map is made again when next needed.
    private func remap() {
        cachedMap = nil
    }

    private func map() throws(FerryError) -> CSVRowMap {
        if let cachedMap { return cachedMap }
        let map = try CSVRowMap(bytes, dialect: dialect)
        cachedMap = map
        return map
    }

    /// The text of a cell: its quotes taken off and doubled quotes undone.
    static func text(of cell: ArraySlice<UInt8>, quote: UInt8) -> String {
        guard cell.count >= 2, cell.first == quote, cell.last == quote else { return String(decoding: cell, as: UTF8.self) }
        var text: [UInt8] = []
        var previousWasQuote = false
        for byte in cell.dropFirst().dropLast() {
            if byte == quote && previousWasQuote {
                previousWasQuote = false
                continue
            }
            previousWasQuote = byte == quote
            text.append(byte)
        }
        return String(decoding: text, as: UTF8.self)
    }
}

extension CSVCodec: EditableCodec {
    public func makeEditor(_ bytes: [UInt8], records: [Record], context: ReadContext) throws(FerryError) -> any RecordFileEditor {
        var dialect = try runDialect(context.options)
        if !dialect.delimiterGiven {
            let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            let sample = Array(bytes[start..<min(bytes.count, start + CSVDelimiterSniffer.sampleLength)])
            dialect.delimiter = CSVDelimiterSniffer.sniff(
                sample, isWhole: bytes.count - start <= CSVDelimiterSniffer.sampleLength, quote: dialect.quote,
                preferred: delimiter)
        }
        return try CSVFileEditor(
            bytes, records: records, dialect: dialect, schema: context.schema ?? context.kind?.schema, format: id)
    }
}
