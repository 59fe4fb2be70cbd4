import CZlib
import FerryCore
import FerryGzip

// MARK: - Design
//
// A workbook of one sheet, written in flat memory. The sheet's XML gives
// the column widths before the rows, but the widths are known only after
// the last row; so the rows are deflated as they come into a spool file
// (an `AnonymousFile`, FerryCore), and at the end the sheet's entry is written as
//
//     head   <worksheet>…<cols>widths</cols><sheetData><row r="1">header</row>
//            deflated apart, ending with a sync flush (a byte-aligned,
//            non-final block), so that what follows continues the stream
//     rows   the spool: one deflate stream of every row and the tail
//            </sheetData>…</worksheet>, ending with the final block
//
// Raw deflate streams join that way: the rows' stream never refers back
// past its own start. The entry's CRC-32 is the head's combined with the
// rows' (`crc32_combine`), so nothing is read twice. The header row sits
// in the head too, so columns are the union of the records' fields, in
// the order they first appear: a field first seen in record 500 is a new
// column, and earlier rows simply have no cell there.
//
//     <row r="2"><c r="A2" t="inlineStr"><is><t>Lamp</t></is></c>
//       <c r="B2"><v>19.99</v></c><c r="C2" t="b"><v>1</v></c>
//       <c r="D2" s="2"><v>45658.0</v></c></row>
//
// Strings are inline (`t="inlineStr"`), not shared: a shared-strings
// table would have to be held whole until the end, against flat memory.
// Null is no cell at all.

/// Writes records as an Excel workbook with one sheet (see the design note).
package final class XLSXWriter: RawRecordWriter {
    /// A sheet's rows, the header's included, and columns (Excel's limits).
    static let maxRows = 1_048_576
    static let maxColumns = 16_384
    /// The zlib level of the sheet: its rows are most of the file.
    static let sheetLevel = 1
    private static let drainThreshold = 1 << 18

    private let zip: ZipWriter
    private let sheetName: String
    let losses: LossTally
    private let spool: AnonymousFile
    private let deflater: Deflater
    private let scratch: UnsafeMutableRawBufferPointer
    // Touched for every record; a writer is never shared between threads,
    // so the run-time exclusivity checks are left out.
    @exclusivity(unchecked) private var buffer = WriteBuffer(capacity: 1 << 19)
    /// The rows' CRC-32 and length, as deflated into the spool.
    @exclusivity(unchecked) private var crc = CRC32()
    private var rowBytes: UInt64 = 0
    /// The columns: each one's field name, reference letters and widest cell.
    @exclusivity(unchecked) private var names: [String] = []
    private var columnOf: [String: Int] = [:]
    @exclusivity(unchecked) private(set) var letters: [[UInt8]] = []
    @exclusivity(unchecked) private var widths: [Int] = []
    /// For the field lists seen lately: their fields with their columns,
    /// in the order of the columns (cells of a row go left to right).
    @exclusivity(unchecked) private var layouts: [(fields: FieldList, cells: [(field: Int, column: Int)])] = []
    /// The rows written, the header's place included, and the most there may be.
    private var rows = 1
    private let rowLimit: Int
    /// The current row's number, in digits (the header's, 1, at first).
    @exclusivity(unchecked) var rowDigits: [UInt8] = [UInt8(ascii: "1")]
    /// The current record's fields and index, for the losses noted.
    @exclusivity(unchecked) private(set) var rowFields: FieldList?
    private(set) var rowRecord = 0
    private var finished = false

    /// - Parameters:
    ///   - sheetName: the sheet's name, which `XLSXWriter.isValidSheetName` accepts.
    ///   - zip64From: see `ZipWriter`; tests lower it.
    ///   - maxRows: the rows a sheet holds; tests lower it.
    /// - Throws: `io.temporaryFile` when the spool cannot be made; `gzip.zlibFailed`.
    init(
        _ output: any ByteOutput, sheetName: String, losses: LossTally, zip64From: UInt64 = 0xFFFF_FFFF,
        maxRows: Int = XLSXWriter.maxRows
    ) throws(FerryError) {
        rowLimit = maxRows
        zip = ZipWriter(output, zip64From: zip64From, zip64Count: zip64From < 0xFFFF ? Int(zip64From) : 0xFFFF)
        self.sheetName = sheetName
        self.losses = losses
        spool = try AnonymousFile(purpose: "xlsx")
        deflater = try Deflater(level: XLSXWriter.sheetLevel)
        scratch = .allocate(byteCount: 1 << 17, alignment: 8)
    }

    deinit {
        buffer.release()
        scratch.deallocate()
        deflater.end()
    }

    // MARK: - Sheet names

    /// The sheet's name when `--sheet` gives none: after the kind.
    static func defaultSheetName(for kind: RecordKind?) -> String {
        switch kind {
        case .product?: "Products"
        case .book?: "Books"
        default: "Sheet1"
        }
    }

    /// Whether Excel takes `name` for a sheet: 1 to 31 characters, none of
    /// `[ ] : * ? / \` nor a control character, no apostrophe at either
    /// end, and not `History`, which Excel keeps for itself.
    static func isValidSheetName(_ name: String) -> Bool {
        let length = name.utf16.count
        guard length >= 1, length <= 31, !name.hasPrefix("'"), !name.hasSuffix("'") else { return false }
        guard name.lowercased() != "history" else { return false }
        return !name.unicodeScalars.contains { "[]:*?/\\".unicodeScalars.contains($0) || $0.value < 0x20 }
    }

    // MARK: - Rows

    package func write(_ record: Record) throws(FerryError) {
        try writeRow(record.fields, index: record.origin.index) { (field, column, out) throws(FerryError) in
            try appendCell(record.values[field], column: column, field: field, to: &out)
        }
    }

    package func writeRaw(_ record: RawRecord) throws(FerryError) {
        try writeRow(record.fields, index: record.origin.index) { (field, column, out) throws(FerryError) in
            switch record.values[field] {
            case .null: return 0
            case .bool(let flag): return appendBool(flag, column: column, to: &out)
            case .integer(let number): return appendInteger(number, column: column, to: &out)
            case .double(let number): return try appendDouble(number, column: column, to: &out)
            case .number(let text): return appendNumber(text, column: column, field: field, to: &out)
            case .text(let utf8): return appendText(utf8, column: column, field: field, to: &out)
            case .bytes(let bytes):
                noteLoss(.xlsxPhotoAsDataURI, field: field)
                var uri = Photo.dataURI(bytes)
                return uri.withUTF8 { appendText($0, column: column, field: field, to: &out) }
            case .other(let other): return try appendCell(record.others[other], column: column, field: field, to: &out)
            }
        }
    }

    /// Writes one row; `appendCell` writes the cell of the record's field at
    /// an index into a column, and returns its width in characters.
    @inline(__always)
    private func writeRow(
        _ fields: FieldList, index recordIndex: Int,
        _ appendCell: (Int, Int, inout WriteBuffer) throws(FerryError) -> Int
    ) throws(FerryError) {
        guard rows < rowLimit else { throw .xlsxTooManyRows(record: recordIndex) }
        rows += 1
        XLSXWriter.increment(&rowDigits)
        rowFields = fields
        rowRecord = recordIndex
        let cells = try layout(of: fields, record: recordIndex)
        var out = buffer
        defer { buffer = out }
        out.append("<row r=\"")
        rowDigits.withUnsafeBufferPointer { out.append($0) }
        out.append("\">")
        for (field, column) in cells {
            do {
                let width = try appendCell(field, column, &out)
                if width > widths[column] { widths[column] = width }
            } catch {
                throw error.located(SourceLocation(record: recordIndex, field: fields.names[field]))
            }
        }
        out.append("</row>")
        if out.count >= XLSXWriter.drainThreshold { try drain(&out, finish: false) }
    }

    /// The cells of a record with `fields`, in the order of their columns;
    /// a field no record had before becomes the next column.
    /// - Throws: `xlsx.tooManyColumns`.
    private func layout(of fields: FieldList, record: Int) throws(FerryError) -> [(field: Int, column: Int)] {
        // Records often alternate between a few lists (with and without a photo).
        for layout in layouts where layout.fields === fields { return layout.cells }
        var cells: [(field: Int, column: Int)] = []
        for (field, name) in fields.names.enumerated() {
            if let column = columnOf[name] {
                cells.append((field, column))
                continue
            }
            guard names.count < XLSXWriter.maxColumns else { throw .xlsxTooManyColumns(record: record, field: name) }
            columnOf[name] = names.count
            cells.append((field, names.count))
            letters.append(XLSXWriter.columnLetters(names.count))
            names.append(name)
            widths.append(0)
        }
        cells.sort { $0.column < $1.column }
        if layouts.count == 8 { layouts.removeFirst() }
        layouts.append((fields, cells))
        return cells
    }

    /// Deflates the rows in `out` into the spool; with `finish`, ends the stream.
    private func drain(_ out: inout WriteBuffer, finish: Bool) throws(FerryError) {
        let contents = out.contents
        crc.update(contents)
        rowBytes += UInt64(contents.count)
        let spool = self.spool
        try deflater.deflate(contents, finish: finish, scratch: scratch) { (bytes) throws(FerryError) in
            try spool.append(bytes)
        }
        out.truncate(to: 0)
    }

    // MARK: - The workbook

    package func finish() throws(FerryError) {
        guard !finished else { return }
        finished = true
        var out = buffer
        defer { buffer = out }
        XLSXParts.sheetTail.withUnsafeBufferPointer { out.append($0) }
        try drain(&out, finish: true)

        let head = sheetHead()
        var headCRC = CRC32()
        headCRC.update(head)
        var headDeflated: [UInt8] = []
        let headDeflater = try Deflater(level: XLSXWriter.sheetLevel)
        defer { headDeflater.end() }
        let scratch = self.scratch
        try head.withUnsafeBytes { bytes in
            Result { () throws(FerryError) in
                try headDeflater.deflateBlock(bytes, finish: false, scratch: scratch) { headDeflated.append(contentsOf: $0) }
            }
        }.get()
        let sheetCRC = crc32_combine(UInt(headCRC.value), UInt(crc.value), Int(rowBytes))

        try zip.addDeflated("[Content_Types].xml", XLSXParts.contentTypes)
        try zip.addDeflated("_rels/.rels", XLSXParts.packageRelationships)
        try zip.addDeflated("xl/workbook.xml", XLSXParts.workbook(sheetName: sheetName))
        try zip.addDeflated("xl/_rels/workbook.xml.rels", XLSXParts.workbookRelationships)
        try zip.addDeflated("xl/styles.xml", XLSXParts.styles)
        let zip = self.zip
        let spool = self.spool
        try zip.addEntry(
            XLSXParts.sheetPath, crc: UInt32(truncatingIfNeeded: sheetCRC),
            compressedSize: UInt64(headDeflated.count) + UInt64(spool.size), size: UInt64(head.count) + rowBytes
        ) { () throws(FerryError) in
            try zip.write(headDeflated)
            try spool.readBack { (bytes) throws(FerryError) in try zip.write(bytes) }
        }
        try zip.finish()
    }

    /// The sheet up to its second row: the used range, the frozen pane, the
    /// column widths (from 8 to 60 characters) and the bold header row.
    private func sheetHead() -> [UInt8] {
        // The last row's number is the current one's.
        let lastCell = letters.last.map { $0 + rowDigits }
        let columnWidths = Swift.zip(names, widths).map { name, width in
            min(max(max(width, name.count + 1) + 2, 8), 60)
        }
        var head = WriteBuffer(capacity: 1 << 12)
        defer { head.release() }
        XLSXParts.sheetHead(lastCell: lastCell, widths: columnWidths).withUnsafeBufferPointer { head.append($0) }
        if !names.isEmpty {
            rowDigits = Array("1".utf8)
            head.append("<row r=\"1\">")
            for (column, name) in names.enumerated() {
                appendReference(column, to: &head)
                head.append(" s=\"1\"")  // XLSXParts.Style.header
                var name = name
                _ = name.withUTF8 { appendInlineString($0, to: &head) }
            }
            head.append("</row>")
        }
        return head.bytes
    }

    // MARK: - Helpers

    /// Adds one to a number kept as decimal digits.
    static func increment(_ digits: inout [UInt8]) {
        var index = digits.count - 1
        while index >= 0 {
            if digits[index] < UInt8(ascii: "9") {
                digits[index] += 1
                return
            }
            digits[index] = UInt8(ascii: "0")
            index -= 1
        }
        digits.insert(UInt8(ascii: "1"), at: 0)
    }

    /// A column's letters: A for the first, Z, AA, … XFD for the 16,384th.
    static func columnLetters(_ column: Int) -> [UInt8] {
        var letters: [UInt8] = []
        var rest = column + 1
        while rest > 0 {
            rest -= 1
            letters.append(UInt8(ascii: "A") + UInt8(rest % 26))
            rest /= 26
        }
        return letters.reversed()
    }
}
