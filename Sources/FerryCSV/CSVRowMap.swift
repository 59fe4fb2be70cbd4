import FerryCore

// MARK: - Design
//
// Where each row and cell of a whole CSV file lies, for splicing edits
// (`CSVFileEditor`). The rows are cut by the reader's own `CSVScanner`, so
// a cell here is exactly the cell the reader read:
//
//     bytes:  EF BB BF n a m e ; p r i c e \r \n W i i ; 2 6 9 \r \n
//     rows:            0 = 3..<17 (header)       1 = 17..<26
//     row 1's cells:   "Wii" 17..<20, "269" 21..<24; its end 24, after CRLF 26
//
// A cell's range includes its quotes, so replacing it replaces the quotes
// too. Blank rows (a lone line break) are kept apart, as the reader skips them.

/// One row of a CSV file, by byte ranges of the whole file.
struct CSVMappedRow {
    /// Each cell's bytes, quotes included.
    var cells: [Range<Int>]
    /// Whether each cell is quoted.
    var quoted: [Bool]
    /// From the first byte of the row to the end of its line break.
    var range: Range<Int>
    /// Where the row's line break starts (`range.upperBound` when it has none).
    var contentEnd: Int
}

/// The rows of a whole CSV file (see the design note).
struct CSVRowMap {
    /// The rows that hold records or the header, in order; blank rows are left out.
    var rows: [CSVMappedRow] = []
    /// The length of the byte-order mark, 0 or 3.
    var bomLength = 0
    /// The line break of the first row, else LF.
    var lineEnding: [UInt8] = [0x0A]
    /// Whether every cell of the first rows is quoted (`--quoting all`).
    var quotesEveryCell = false

    /// Maps `bytes` as `dialect` cuts them.
    /// - Throws: `edit.formatNotEditable` when the scanner fails, which a
    ///   file the reader read through does not do.
    init(_ bytes: [UInt8], dialect: CSVDialect) throws(FerryError) {
        bomLength = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var buffer = CSVFieldBuffer()
        defer { buffer.deallocate() }
        let scanned: [CSVMappedRow]? = bytes.withUnsafeBufferPointer { all in
            var scanner = CSVScanner(
                bytes: all, baseOffset: 0, position: bomLength, isFinal: true, delimiter: dialect.delimiter,
                quote: dialect.quote, maxFieldBytes: Int.max)
            var rows: [CSVMappedRow] = []
            while true {
                let start = scanner.position
                guard let more = try? scanner.scanRow(into: &buffer) else { return nil }
                guard more else { return rows }
                let fields = buffer.fields
                // A blank row, as the reader skips it: before the header, or
                // in a file of more than one column.
                if fields.count == 1 && fields[0].start == fields[0].end && !fields[0].quoted
                    && (rows.first.map { $0.cells.count > 1 } ?? true)
                {
                    continue
                }
                let cells = fields.map { $0.quoted ? $0.start - 1..<$0.end + 1 : $0.start..<$0.end }
                var contentEnd = cells.last?.upperBound ?? start
                // An unquoted last cell ends before the line break; step over nothing else.
                contentEnd = min(contentEnd, scanner.position)
                rows.append(
                    CSVMappedRow(
                        cells: cells, quoted: fields.map(\.quoted), range: start..<scanner.position,
                        contentEnd: contentEnd))
            }
        }
        guard let scanned else { throw .editFormatNotEditable(dialect.delimiter == 0x09 ? "tsv" : "csv") }
        rows = scanned
        if let first = rows.first, first.contentEnd < first.range.upperBound {
            lineEnding = Array(bytes[first.contentEnd..<first.range.upperBound])
        }
        let sample = rows.prefix(3).flatMap(\.quoted)
        quotesEveryCell = !sample.isEmpty && sample.allSatisfy { $0 }
    }

    /// Whether the file's last row ends with a line break.
    func endsWithLineBreak(_ bytes: [UInt8]) -> Bool {
        guard let last = bytes.last else { return true }
        return last == 0x0A || last == 0x0D
    }
}
