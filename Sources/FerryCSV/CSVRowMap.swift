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
// too. Blank rows (a lone line break), rows of delimiters only and Excel's
// `sep=` line are kept apart, as the reader skips them.

/// One row of a CSV file, by byte ranges of the whole file.
struct CSVMappedRow {
    /// From the first byte of the row to the end of its line break.
    var range: Range<Int>
    /// Where the row's line break starts (`range.upperBound` when it has none).
    var contentEnd: Int
}

/// The cells of one row.
struct CSVMappedCells {
    /// Each cell's bytes, quotes included.
    var ranges: [Range<Int>]
    /// Whether each cell is quoted.
    var quoted: [Bool]
}

/// The rows of a whole CSV file (see the design note): where each row lies;
/// a row's cells are cut again when an edit needs them (`cells(of:in:)`),
/// so a large file costs two integers a row.
struct CSVRowMap {
    /// The rows that hold records or the header, in order; blank rows are left out.
    var rows: [CSVMappedRow] = []
    /// The length of the byte-order mark, 0 or 3.
    var bomLength = 0
    /// The length of the byte-order mark and a `sep=` line after it, when
    /// there is one (CSVSepLine.swift): where the rows start.
    var rowsStart = 0
    /// The line break of the first row, else LF.
    var lineEnding: [UInt8] = [0x0A]
    /// Whether every cell of the first rows is quoted (`--quoting all`).
    var quotesEveryCell = false
    private let dialect: CSVDialect

    /// Maps `bytes` as `dialect` cuts them.
    /// - Throws: `edit.formatNotEditable` when the scanner fails, which a
    ///   file the reader read through does not do.
    init(_ bytes: [UInt8], dialect: CSVDialect) throws(FerryError) {
        self.dialect = dialect
        bomLength = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        rowsStart = max(bomLength, CSVSepLine.length(in: bytes, isWhole: true, quote: dialect.quote))
        var buffer = CSVFieldBuffer()
        defer { buffer.deallocate() }
        var quoted: [Bool] = []
        let scanned: [CSVMappedRow]? = bytes.withUnsafeBufferPointer { all in
            var scanner = scanner(all, at: rowsStart)
            var rows: [CSVMappedRow] = []
            var firstWidth: Int?
            while true {
                let start = scanner.position
                guard let more = try? scanner.scanRow(into: &buffer) else { return nil }
                guard more else { return rows }
                let fields = buffer.fields
                guard let last = fields.last else { continue }
                // A blank row, as the reader skips it: before the header, or
                // in a file of more than one column.
                if CSVField.isBlank(fields) && (firstWidth.map { $0 > 1 } ?? true) { continue }
                if CSVField.isDelimitersOnly(fields) { continue }
                if firstWidth == nil { firstWidth = fields.count }
                if rows.count < 3 { quoted += fields.map(\.quoted) }
                let contentEnd = min(last.end + (last.quoted ? 1 : 0), scanner.position)
                rows.append(CSVMappedRow(range: start..<scanner.position, contentEnd: contentEnd))
            }
        }
        guard let scanned else { throw .editFormatNotEditable(dialect.delimiter == 0x09 ? "tsv" : "csv") }
        rows = scanned
        if let first = rows.first, first.contentEnd < first.range.upperBound {
            lineEnding = Array(bytes[first.contentEnd..<first.range.upperBound])
        }
        quotesEveryCell = !quoted.isEmpty && quoted.allSatisfy { $0 }
    }

    /// The cells of `row`, cut again from `bytes`.
    func cells(of row: CSVMappedRow, in bytes: [UInt8]) -> CSVMappedCells {
        var buffer = CSVFieldBuffer()
        defer { buffer.deallocate() }
        return bytes.withUnsafeBufferPointer { all in
            var scanner = scanner(all, at: row.range.lowerBound)
            _ = try? scanner.scanRow(into: &buffer)
            let fields = buffer.fields
            return CSVMappedCells(
                ranges: fields.map { $0.quoted ? $0.start - 1..<$0.end + 1 : $0.start..<$0.end },
                quoted: fields.map(\.quoted))
        }
    }

    private func scanner(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> CSVScanner {
        CSVScanner(
            bytes: bytes, baseOffset: 0, position: position, isFinal: true, delimiter: dialect.delimiter,
            quote: dialect.quote, maxFieldBytes: Int.max)
    }

    /// Whether the file's last row ends with a line break.
    func endsWithLineBreak(_ bytes: [UInt8]) -> Bool {
        guard let last = bytes.last else { return true }
        return last == 0x0A || last == 0x0D
    }
}
