import FerryCore

// MARK: - Design
//
// `ferry edit`, `add` and `remove` on a workbook change the XML of one
// sheet part and keep every other byte of the package:
//
//     [Content_Types].xml  local header + deflated bytes   copied as they are
//     xl/workbook.xml      …                               copied; with `fullCalcOnLoad` set
//                                                           when the workbook has formulas
//                                                           (`WorkbookRecalculation`)
//     xl/worksheets/sheet1.xml                             inflated, spliced, deflated anew
//     xl/styles.xml, xl/sharedStrings.xml, charts, …       copied
//     central directory                                    written again: the offsets moved
//
// In the sheet, an edit rewrites only the `<c>` cells of the fields that
// changed (`SheetMap` says where they are), each keeping its style; new
// text is an inline string, so the shared strings stay as they are. An
// added record is a new `<row>` right after the last record's, numbered
// one past it, and `<dimension>` grows to hold it. A removed record's
// `<row>` is cut out and the later rows keep their numbers: Excel takes
// gaps between rows, and nothing that points at a later row (a formula,
// a merged range, a defined name, a hyperlink) has to move.
//
// What would break is refused, with the workbook left as it was: a cell
// with a formula, or inside an array formula's range, is not edited nor
// its row removed (`xlsx.editFormulaCell`: the calculation chain lists
// it), and rows are not added to or removed
// from a sheet with a table or an autofilter, whose range would no longer
// cover the records (`xlsx.editRangeWouldBreak`). A record with no value
// at all would be a row that reading skips (`xlsx.editEmptyRow`).

/// Edits a workbook in place (see the design note).
final class XLSXFileEditor: RecordFileEditor {
    private(set) var records: [Record]
    let keepsLayout = true
    private let original: [UInt8]
    private let archive: ZipArchive
    /// Each entry's local header, data and data descriptor in `original`,
    /// by directory index; found with the sheet's XML, on the first change.
    private var spans: [Range<Int>] = []
    /// The edited sheet: its entry's index, name and part name.
    private let sheetEntry: Int
    private let sheetName: String
    private let limits: ReadLimits
    private let styles: CellStyles
    /// The sheet part's XML, as edited so far; inflated on the first change
    /// (`ferry list` makes an editor too, and changes nothing).
    private var xml: [UInt8] = []
    private var loaded = false
    /// The map of `xml`, made again after a splice when it is next needed.
    private var cachedMap: SheetMap?
    /// The header's fields, by column from `firstColumn`.
    private var header: [String]
    private var firstColumn: Int
    private var changed = false
    private let format: String
    /// The workbook part, and the other sheets' parts: a formula in any
    /// of them makes an edit ask for recalculation (`WorkbookRecalculation`).
    private let workbookPart: String
    private let otherSheetParts: [String]
    /// Sizes and offsets from this one on are zip64 (see `ZipWriter`); tests lower it.
    var zip64From: UInt64 = 0xFFFF_FFFF

    /// - Throws: the reader's errors.
    init(_ bytes: [UInt8], records: [Record], context: ReadContext, format: String, sheet: String? = nil) throws(FerryError) {
        // The reader again, for the sheet it chooses, its header and the
        // package: reading to the first record reads the header.
        let readContext = ReadContext(kind: context.kind, schema: context.schema, options: context.options, limits: context.limits)
        readContext.mismatchedCells = .keepText
        let reader = try XLSXReader(MemoryInput(bytes), context: readContext, sheet: sheet)
        _ = try reader.next()
        archive = reader.archive
        guard let sheetEntry = archive.entries.firstIndex(where: { $0.name == reader.sheet.part }) else {
            throw .xlsxMissingPart(reader.sheet.part, at: SourceLocation(sheet: reader.sheet.name))
        }
        self.sheetEntry = sheetEntry
        sheetName = reader.sheet.name
        limits = context.limits
        styles = reader.styles
        header = reader.header?.names ?? []
        firstColumn = reader.firstColumn
        original = bytes
        self.records = records
        self.format = format
        workbookPart = reader.workbook.part
        otherSheetParts = reader.workbook.sheets.map(\.part).filter { $0 != reader.sheet.part }
    }

    /// Where each entry's bytes are: from its local header to the next
    /// one's (or the central directory), data descriptor included.
    private static func spans(of archive: ZipArchive) throws(FerryError) -> [Range<Int>] {
        let entries = archive.entries
        let order = entries.indices.sorted { entries[$0].localHeaderOffset < entries[$1].localHeaderOffset }
        var spans = [Range<Int>](repeating: 0..<0, count: entries.count)
        for (place, index) in order.enumerated() {
            let entry = entries[index]
            let end = place + 1 < order.count ? entries[order[place + 1]].localHeaderOffset : archive.directoryOffset
            let dataEnd = try archive.dataOffset(of: entry) + entry.compressedSize
            guard dataEnd <= end else {
                throw .xlsxCorruptZip(
                    "local headers", at: SourceLocation(file: archive.source.name, byteOffset: entry.localHeaderOffset))
            }
            spans[index] = entry.localHeaderOffset..<end
        }
        return spans
    }

    // MARK: - Edits

    func replace(at index: Int, with record: Record) throws(FerryError) {
        let old = records[index]
        var changes: [(column: Int, value: Value)] = []
        for (name, value) in record.pairs where old[name] != value || old[name] == nil {
            guard let place = header.firstIndex(of: name) else { throw .editNewColumn(name, record: index) }
            changes.append((firstColumn + place, value))
        }
        for name in old.fields.names where record[name] == nil {
            if let place = header.firstIndex(of: name) { changes.append((firstColumn + place, .null)) }
        }
        try requireValue(record, index: index)
        let map = try self.map()
        try splice(rewriting(map.rows[map.recordRows[index]], with: changes, record: index, in: map))
        records[index] = record
    }

    func append(_ record: Record) throws(FerryError) {
        let index = records.count
        try requireValue(record, index: index)
        let map = try self.map()
        if let ranges = map.rangesOverRows { throw .xlsxEditRangeWouldBreak(ranges, sheet: sheetName, record: index) }
        var splices: [Splice] = []
        var added: [UInt8] = []
        let last = map.recordRows.last ?? map.headerRow
        var number = last.map { map.rows[$0].number + 1 } ?? ((map.rows.last?.number ?? 0) + 1)
        if last == nil {
            // A sheet without a header gets one, of the record's fields.
            header = record.fields.names
            firstColumn = 0
            added = try newRow(number, header.map(Value.string), record: index)
            number += 1
        }
        for name in record.fields.names where !header.contains(name) { throw .editNewColumn(name, record: index) }
        let values = header.map { record[$0] ?? .null }
        let after = last.map { map.rows[$0].range.upperBound } ?? map.rows.last?.range.upperBound
        if let last, last + 1 < map.rows.count, map.rows[last + 1].number == number {
            // An empty row element (a height, a style) is where the record goes.
            let changes = values.enumerated().map { (column: firstColumn + $0.offset, value: $0.element) }
            splices += try rewriting(map.rows[last + 1], with: changes, record: index, in: map)
        } else if let after {
            splices.append(Splice(range: after..<after, bytes: added + (try newRow(number, values, record: index))))
        } else if let empty = map.sheetDataEmptyElement {
            let rows = added + (try newRow(number, values, record: index))
            splices.append(Splice(range: empty, bytes: Array("<sheetData>".utf8) + rows + Array("</sheetData>".utf8)))
        } else {
            let at = map.sheetDataInsertion
            splices.append(Splice(range: at..<at, bytes: added + (try newRow(number, values, record: index))))
        }
        if let ref = map.dimensionRef, let widened = widened(ref, toRow: number) {
            splices.append(Splice(range: ref, bytes: widened))
        }
        try splice(splices)
        records.append(record)
    }

    func remove(at index: Int) throws(FerryError) {
        let map = try self.map()
        if let ranges = map.rangesOverRows { throw .xlsxEditRangeWouldBreak(ranges, sheet: sheetName, record: index) }
        let row = map.rows[map.recordRows[index]]
        if let formula = row.cells.first(where: \.hasFormula) {
            throw .xlsxEditFormulaCell(
                CellReference.name(column: formula.column, row: row.number), sheet: sheetName, record: index)
        }
        if let array = map.arrayFormulas.first(where: { $0.holds(row: row.number) }) {
            throw .xlsxEditFormulaCell(
                CellReference.name(column: array.first.column, row: row.number), sheet: sheetName, record: index)
        }
        try splice([Splice(range: row.range, bytes: [])])
        records.remove(at: index)
    }

    /// The workbook: the sheet deflated anew, every other entry copied.
    /// - Throws: `gzip.zlibFailed`.
    func encoded() throws(FerryError) -> [UInt8] {
        guard changed else { return original }
        let output = MemoryOutput()
        let zip = ZipWriter(output, zip64From: zip64From, zip64Count: zip64From < 0xFFFF ? Int(zip64From) : 0xFFFF)
        let recalculated = try recalculatingWorkbook()
        for (index, entry) in archive.entries.enumerated() {
            if index == sheetEntry {
                try zip.addDeflated(entry.name, xml, level: XLSXWriter.sheetLevel)
            } else if entry.name == workbookPart, let recalculated {
                try zip.addDeflated(entry.name, recalculated)
            } else {
                try zip.addCopy(entry, local: original[spans[index]], record: archive.directory[archive.centralRecords[index]])
            }
        }
        try zip.finish()
        return output.bytes
    }

    /// The workbook part asking for its formulas to be calculated again on
    /// opening, when the workbook has any: their cached results may read
    /// the cells edited. Nil when it has none, or asks already.
    /// - Throws: zip and XML errors.
    private func recalculatingWorkbook() throws(FerryError) -> [UInt8]? {
        let file = archive.source.name
        let map = try map()
        var formulas = !map.arrayFormulas.isEmpty || map.rows.contains { $0.cells.contains(where: \.hasFormula) }
        formulas = formulas || archive.entries.contains { $0.name.hasSuffix("/calcChain.xml") }
        for part in otherSheetParts where !formulas {
            guard let entry = archive.entry(part) else { continue }
            formulas = try WorkbookRecalculation.hasFormula(
                ZipEntryInput(archive, entry: entry, limits: limits), part: part, file: file, limits: limits)
        }
        guard formulas, let entry = archive.entry(workbookPart) else { return nil }
        let xml = try ZipEntryInput(archive, entry: entry, limits: limits).readAll(limit: limits.maxEntryBytes)
        return try WorkbookRecalculation.requested(in: xml, part: workbookPart, file: file, limits: limits)
    }

    // MARK: - Rows and cells

    /// Bytes that take the place of `range` in the sheet's XML.
    private struct Splice {
        var range: Range<Int>
        var bytes: [UInt8]
    }

    /// The splices that give `row` the values of `changes` (a null takes
    /// the cell's value away; it keeps its style): an existing cell is
    /// rewritten, a missing one is put in column order.
    /// - Throws: `xlsx.editFormulaCell`, `xlsx.nonFiniteNumber`.
    private func rewriting(
        _ row: SheetMap.Row, with changes: [(column: Int, value: Value)], record: Int, in map: SheetMap
    ) throws(FerryError) -> [Splice] {
        let cells = EditedRowCells(names: header, firstColumn: firstColumn, styles: styles)
        var splices: [Splice] = []
        var inserted: [(at: Int, bytes: [UInt8])] = []
        for (column, value) in changes.sorted(by: { $0.column < $1.column }) {
            if map.arrayFormulas.contains(where: { $0.holds(column: column, row: row.number) }) {
                throw .xlsxEditFormulaCell(
                    CellReference.name(column: column, row: row.number), sheet: sheetName, record: record)
            }
            if let cell = row.cells.first(where: { $0.column == column }) {
                if cell.hasFormula {
                    throw .xlsxEditFormulaCell(
                        CellReference.name(column: column, row: row.number), sheet: sheetName, record: record)
                }
                let style = cell.style.map { Array(xml[$0]) }
                splices.append(Splice(range: cell.range, bytes: try written(value, column, row.number, record, style, cells)))
            } else if value != .null {
                let at = row.cells.first(where: { $0.column > column })?.range.lowerBound ?? row.cellsEnd
                inserted.append((at, try written(value, column, row.number, record, nil, cells)))
            }
        }
        // New cells at one place go in column order, before the cell there.
        var groups: [Int: [UInt8]] = [:]
        for (at, bytes) in inserted { groups[at, default: []] += bytes }
        for (at, bytes) in groups {
            if row.isEmptyElement && at == row.cellsEnd {
                splices.append(Splice(range: at..<(at + 2), bytes: Array(">".utf8) + bytes + Array("</row>".utf8)))
            } else {
                splices.append(Splice(range: at..<at, bytes: bytes))
            }
        }
        return splices
    }

    /// - Throws: `xlsx.editEmptyRow` when no field of `record` would
    ///   give its cell a value: reading skips such a row.
    private func requireValue(_ record: Record, index: Int) throws(FerryError) {
        guard record.values.contains(where: { $0 != .null && $0 != .string("") }) else {
            throw .xlsxEditEmptyRow(sheet: sheetName, record: index)
        }
    }

    /// A cell's bytes: empty for a null without a style to keep.
    private func written(
        _ value: Value, _ column: Int, _ row: Int, _ record: Int, _ style: [UInt8]?, _ cells: EditedRowCells
    ) throws(FerryError) -> [UInt8] {
        guard value == .null else { return try cells.cell(value, column: column, row: row, record: record, style: style) }
        guard let style, style.withUnsafeBufferPointer(CellReference.number) != nil else { return [] }
        return Array("<c r=\"\(CellReference.name(column: column, row: row))\" s=\"".utf8) + style + Array("\"/>".utf8)
    }

    /// `<row r="12">` and the cells of `values`, from `firstColumn`, and `</row>`.
    private func newRow(_ number: Int, _ values: [Value], record: Int) throws(FerryError) -> [UInt8] {
        let cells = EditedRowCells(names: header, firstColumn: firstColumn, styles: styles)
        var row = Array("<row r=\"\(number)\">".utf8)
        for (place, value) in values.enumerated() where value != .null {
            row += try cells.cell(value, column: firstColumn + place, row: number, record: record, style: nil)
        }
        return row + Array("</row>".utf8)
    }

    /// The bytes of a `<dimension ref>` value grown to hold row `row` and
    /// the header's columns; nil when it holds them, or is not a range.
    private func widened(_ range: Range<Int>, toRow row: Int) -> [UInt8]? {
        guard let old = CellRange(xml[range]) else { return nil }
        let (from, to) = (old.first, old.last)
        let lastColumn = max(to.column, firstColumn + header.count - 1)
        guard row > to.row || lastColumn > to.column || firstColumn < from.column else { return nil }
        let start = CellReference.name(column: min(from.column, firstColumn), row: from.row)
        return Array((start + ":" + CellReference.name(column: lastColumn, row: max(row, to.row))).utf8)
    }

    /// Applies `splices` (from the last byte back, so that offsets hold;
    /// at one offset, what replaces bytes before what is put in).
    private func splice(_ splices: [Splice]) throws(FerryError) {
        let ordered = splices.sorted {
            ($0.range.lowerBound, $0.range.upperBound) > ($1.range.lowerBound, $1.range.upperBound)
        }
        for each in ordered { xml.replaceSubrange(each.range, with: each.bytes) }
        cachedMap = nil
        changed = true
    }

    /// The map of the sheet as it is now; on the first call, the sheet's
    /// XML inflated and the entries' places found.
    /// - Throws: `xlsx.corruptZip` for entries that overlap;
    ///   `edit.formatNotEditable` when the sheet's rows do not match the
    ///   records read; zip and XML errors.
    private func map() throws(FerryError) -> SheetMap {
        if let cachedMap { return cachedMap }
        let entry = archive.entries[sheetEntry]
        if !loaded {
            spans = try Self.spans(of: archive)
            xml = try ZipEntryInput(archive, entry: entry, limits: limits).readAll(limit: limits.maxEntryBytes)
        }
        let map = try SheetMap(xml, part: entry.name, file: archive.source.name, limits: limits)
        guard map.recordRows.count == records.count else { throw .editFormatNotEditable(format) }
        loaded = true
        cachedMap = map
        return map
    }
}

extension XLSXCodec: EditableCodec {
    /// An editor of the sheet `--sheet` names, else the first (see `XLSXFileEditor`).
    public func makeEditor(_ bytes: [UInt8], records: [Record], context: ReadContext) throws(FerryError) -> any RecordFileEditor {
        try XLSXFileEditor(bytes, records: records, context: context, format: id, sheet: sheet)
    }
}
