import FerryCore

/// Streams the records of one sheet of a workbook: its first non-empty
/// row is the header, as CSV has it, and each later row a record.
///
/// The sheet's XML is read as it inflates (`ZipEntryInput`,
/// `XMLPullScanner`), so memory stays flat; only the shared strings are
/// held. Cells are typed by the kind's or the schema's rules as CSV's are
/// (`XLSXCellTyping`); fields without a rule keep the cell's own type.
package final class XLSXReader: RecordReader {
    private let context: ReadContext
    private let file: String
    /// The sheet read, and every sheet of the workbook.
    let sheet: WorkbookSheet
    let workbook: WorkbookParts
    private let strings: SharedStrings
    let styles: CellStyles
    private let scanner: XMLPullScanner
    private let typing: XLSXCellTyping
    /// The package and its limits, for `structure()`'s look at the other
    /// sheets, and for the editor (`XLSXFileEditor`).
    let archive: ZipArchive
    private let limits: ReadLimits
    /// Which cell styles the rows read use, by style index, for `inspect`.
    private var stylesUsed: [Bool] = []
    private var hiddenRows = 0

    /// The header's fields, once read.
    private(set) var header: FieldList?
    /// The header's first column (0-based), and its rules.
    private(set) var firstColumn = 0
    private var rules: [ColumnRule] = []
    /// The row being read; unchecked, as the scanner's state is.
    @exclusivity(unchecked) private var row = XLSXRow()
    private var recordIndex = 0
    private var failure: FerryError?
    private var lastErrorResumes = false
    /// Whether the error being thrown spoilt one row only, and the caller
    /// asked to go on after such (`ReadContext.resumesAfterBadRecords`).
    private var skippedBadRow = false
    private var finished = false
    private var cellsOutsideHeader = 0
    private var firstCellOutsideHeader: SourceLocation?
    /// The row handed out last: its number and where it starts in the sheet part.
    private var currentRowNumber = 0
    private var currentRowOffset = -1

    /// - Throws: zip and workbook errors; `xlsx.noSuchSheet`, `xlsx.missingPart`.
    /// - Parameters:
    ///   - sheet: the codec's sheet (`XLSXCodec.sheet`), which `--sheet` overrides.
    ///   - readAheadSize: the smallest deflated sheet inflated on a thread of
    ///     its own (tests lower it).
    package init(
        _ input: any ByteInput, context: ReadContext, sheet chosen: String? = nil,
        readAheadSize: Int = XLSXReader.readAheadSize
    ) throws(FerryError) {
        self.context = context
        file = input.name
        let limits = context.limits
        let archive = try ZipArchive(ZipSource(input, limit: limits.maxInputBytes), limits: limits)
        self.archive = archive
        self.limits = limits
        workbook = try WorkbookParts(archive, limits: limits)
        sheet = try Self.choose(workbook.sheets, context.options[XLSXCodec.sheetOption] ?? chosen, file: file)
        guard let entry = archive.entry(sheet.part) else {
            throw .xlsxMissingPart(sheet.part, at: SourceLocation(file: file, sheet: sheet.name))
        }
        strings = try workbook.sharedStringsPart.flatMap(archive.entry).map {
            (entry) throws(FerryError) in try SharedStrings(archive, entry: entry, limits: limits)
        } ?? SharedStrings()
        styles = try workbook.stylesPart.flatMap(archive.entry).map {
            (entry) throws(FerryError) in try CellStyles(archive, entry: entry, limits: limits)
        } ?? CellStyles()
        scanner = XMLPullScanner(
            try Self.sheetInput(archive, entry: entry, limits: limits, readAheadSize: readAheadSize), part: entry.name,
            file: file,
            maxTokenBytes: limits.maxRecordBytes)
        typing = XLSXCellTyping(uses1904: workbook.uses1904)
    }

    /// The chosen sheet's bytes. A large deflated sheet is inflated on
    /// another thread, a few blocks ahead of the parsing (`ReadAheadInput`,
    /// as gzip input is): inflating and checking the CRC are about an
    /// eighth of reading a sheet, and then overlap it.
    private static func sheetInput(
        _ archive: ZipArchive, entry: ZipEntry, limits: ReadLimits, readAheadSize: Int
    ) throws(FerryError) -> any ByteInput {
        let input = try ZipEntryInput(archive, entry: entry, limits: limits)
        guard entry.method == 8, entry.size >= readAheadSize else { return input }
        return ReadAheadInput(input)
    }

    /// The smallest inflated sheet worth a thread of its own.
    static let readAheadSize = 4 << 20

    /// The sheet `--sheet` names (a name, else a 1-based place), or the first.
    static func choose(_ sheets: [WorkbookSheet], _ wanted: String?, file: String) throws(FerryError) -> WorkbookSheet {
        guard let first = sheets.first else { throw .xlsxNoSheets(at: SourceLocation(file: file)) }
        guard let wanted else { return first }
        if let sheet = sheets.first(where: { $0.name == wanted }) { return sheet }
        if let place = Int(wanted), place >= 1, place <= sheets.count { return sheets[place - 1] }
        if let sheet = sheets.first(where: { $0.name.lowercased() == wanted.lowercased() }) { return sheet }
        throw .xlsxNoSuchSheet(wanted, available: sheets.map(\.name), at: SourceLocation(file: file))
    }

    package var resumesAfterError: Bool { lastErrorResumes }

    package func next() throws(FerryError) -> Record? {
        if let failure { throw failure }
        lastErrorResumes = false
        do throws(FerryError) {
            while !finished {
                guard try readRow() else {
                    finish()
                    return nil
                }
                if row.isEmpty { continue }
                guard let header else {
                    makeHeader()
                    continue
                }
                if let record = try makeRecord(header) { return record }
            }
            return nil
        } catch {
            if skippedBadRow {
                skippedBadRow = false
                lastErrorResumes = true
            } else {
                failure = error
            }
            throw error
        }
    }

    private func finish() {
        finished = true
        if cellsOutsideHeader > 0, let first = firstCellOutsideHeader {
            context.warn(.xlsxCellsOutsideHeader(count: cellsOutsideHeader, at: first))
            cellsOutsideHeader = 0
        }
    }

    // MARK: - Rows

    /// Reads the next `<row>` into `row`.
    /// - Returns: false at the end of the sheet's data.
    private func readRow() throws(FerryError) -> Bool {
        row.removeAll()
        var inRow = false
        var inCell = false
        var text = CellTextState()
        while true {
            switch try scanner.next() {
            case .endOfDocument:
                guard !inRow else { throw scanner.malformed(at: scanner.tokenStart) }
                return false
            case .start:
                if inCell {
                    text.start(scanner)
                } else if inRow {
                    if scanner.nameIs("c") {
                        inCell = true
                        try startCell()
                    }
                } else if scanner.nameIs("row") {
                    inRow = true
                    try startRow()
                }
            case .end:
                if inCell {
                    if scanner.nameIs("c") {
                        inCell = false
                        row.endCell()
                    } else {
                        text.end(scanner)
                    }
                } else if inRow && scanner.nameIs("row") {
                    return true
                } else if scanner.nameIs("sheetData") {
                    // The rest of the part (merged ranges, page setup) is
                    // read too, so that its CRC and size are checked.
                    while try scanner.next() != .endOfDocument {}
                    return false
                }
            case .text:
                guard text.holdsValue else { continue }
                try scanner.appendText(scanner.textRange, cdata: scanner.isCDATA, to: &row.text)
                row.cellHasValue()
            }
        }
    }

    private func startRow() throws(FerryError) {
        row.offset = scanner.tokenOffset
        if let range = scanner.attribute("r") {
            guard let number = CellReference.number(scanner.bytes(range)), number >= 1 else {
                throw .xlsxBadCellReference(
                    String(decoding: scanner.bytes(range), as: UTF8.self), at: located(scanner.tokenLocation))
            }
            row.number = number
        } else {
            row.number = row.previousNumber + 1
        }
        row.previousNumber = row.number
        if let range = scanner.attribute("hidden"), scanner.bytes(range).first == UInt8(ascii: "1") || scanner.bytes(range).first == UInt8(ascii: "t") {
            hiddenRows += 1
        }
    }

    private func startCell() throws(FerryError) {
        var column = row.nextColumn
        if let range = scanner.attribute("r") {
            let bytes = scanner.bytes(range)
            guard let reference = CellReference(bytes), reference.column >= row.nextColumn else {
                throw .xlsxBadCellReference(
                    String(decoding: bytes, as: UTF8.self), at: located(scanner.tokenLocation))
            }
            column = reference.column
        }
        var type = CellType.number
        if let range = scanner.attribute("t") {
            type = CellType(scanner.bytes(range))
        }
        var style = 0
        if let range = scanner.attribute("s") {
            style = CellReference.number(scanner.bytes(range)) ?? 0
        }
        if style < styles.formatCodes.count {
            if stylesUsed.isEmpty { stylesUsed = Array(repeating: false, count: styles.formatCodes.count) }
            stylesUsed[style] = true
        }
        row.startCell(column: column, type: type, format: styles.kind(style))
    }

    // MARK: - Header and records

    private func makeHeader() {
        let first = row.columns[0]
        let last = row.columns[row.count - 1]
        var names = [String](repeating: "", count: last - first + 1)
        for index in 0..<row.count {
            names[row.columns[index] - first] = typing.text(of: row, index, strings: strings) ?? ""
        }
        names = HeaderNames.unique(names)
        firstColumn = first
        let list = FieldList(names)
        header = list
        let kind = context.kind ?? RecordKind.infer(from: list)
        context.kind = kind
        let schema = context.schema ?? kind.schema
        rules = names.map { schema.rule(for: $0) ?? ColumnRule(type: nil) }
    }

    private func makeRecord(_ header: FieldList) throws(FerryError) -> Record? {
        var values = [Value](repeating: .null, count: header.count)
        currentRowNumber = row.number
        currentRowOffset = row.offset
        for index in 0..<row.count {
            let place = row.columns[index] - firstColumn
            guard place >= 0, place < values.count else {
                if row.hasValue(index) {
                    cellsOutsideHeader += 1
                    if firstCellOutsideHeader == nil { firstCellOutsideHeader = cellLocation(column: row.columns[index], field: nil) }
                }
                continue
            }
            switch typing.value(of: row, index, rule: rules[place], strings: strings) {
            case .value(let value):
                values[place] = value
            case .errorCell(let text):
                context.warn(.xlsxErrorCell(text, at: cellLocation(column: row.columns[index], field: header.names[place])))
            case .badSharedString(let number):
                throw .xlsxBadSharedString(
                    index: number, count: strings.count,
                    at: cellLocation(column: row.columns[index], field: header.names[place]))
            case .badNumber(let text):
                throw .xlsxBadNumber(text, at: cellLocation(column: row.columns[index], field: header.names[place]))
            case .mismatch(let code, let text):
                let error = FerryError(
                    code, [.string(header.names[place]), .string(text)],
                    at: cellLocation(column: row.columns[index], field: header.names[place]))
                switch context.mismatchedCells {
                case .fail:
                    recordIndex += 1
                    skippedBadRow = context.resumesAfterBadRecords
                    throw error
                case .collect: context.cellErrors.append(error)
                case .keepText: values[place] = .string(text)
                }
            }
        }
        let record = Record(
            fields: header, values: values, origin: RecordOrigin(index: recordIndex, byteOffset: row.offset))
        recordIndex += 1
        return record
    }

    // MARK: - Locations

    private func located(_ location: SourceLocation) -> SourceLocation {
        var location = location
        location.sheet = sheet.name
        location.record = header == nil ? nil : recordIndex
        return location
    }

    private func cellLocation(column: Int, field: String?) -> SourceLocation {
        SourceLocation(
            file: file, record: recordIndex, field: field, sheet: sheet.name,
            cell: CellReference.name(column: column, row: row.number))
    }

    package func location(ofByteOffset offset: Int) -> SourceLocation {
        if offset == currentRowOffset {
            return SourceLocation(
                file: file, sheet: sheet.name, cell: CellReference.name(column: firstColumn, row: currentRowNumber))
        }
        return SourceLocation(file: file, sheet: sheet.name)
    }

    package func location(ofField name: String, inRecordAt byteOffset: Int) -> SourceLocation? {
        guard byteOffset == currentRowOffset, let index = header?.index(of: name) else { return nil }
        return SourceLocation(
            file: file, field: name, sheet: sheet.name,
            cell: CellReference.name(column: firstColumn + index, row: currentRowNumber))
    }
}

extension XLSXReader: StructureReporting {
    /// The workbook's sheets (each with the range it says it covers, and
    /// whether it is hidden), the hidden rows of the sheet read, and the
    /// number formats its cells use. Call it after the last record.
    /// - Throws: zip and XML errors of the other sheets' parts.
    package func structure() throws(FerryError) -> InputStructure {
        var sheets: [InputStructure.Sheet] = []
        for each in workbook.sheets {
            let isRead = each.part == sheet.part
            sheets.append(
                InputStructure.Sheet(
                    name: each.name, dimension: try dimension(of: each), state: each.state.flatMap(InputStructure.Sheet.State.init(rawValue:)) ?? .visible, isRead: isRead,
                    hiddenRows: isRead ? hiddenRows : nil))
        }
        var formats: [String] = []
        for (index, used) in stylesUsed.enumerated() where used && !formats.contains(styles.formatCodes[index]) {
            formats.append(styles.formatCodes[index])
        }
        return InputStructure(sheets: sheets, numberFormats: formats)
    }

    /// The `ref` of a sheet's `<dimension>`, which comes before its rows; nil without one.
    private func dimension(of sheet: WorkbookSheet) throws(FerryError) -> String? {
        guard let entry = archive.entry(sheet.part) else { return nil }
        let scanner = XMLPullScanner(
            try ZipEntryInput(archive, entry: entry, limits: limits), part: entry.name, file: file,
            maxTokenBytes: limits.maxRecordBytes)
        var text: [UInt8] = []
        while true {
            let token = try scanner.next()
            if token == .endOfDocument { return nil }
            guard token == .start else { continue }
            if scanner.nameIs("dimension") { return try WorkbookParts.value(scanner, "ref", into: &text) }
            if scanner.nameIs("sheetData") { return nil }
        }
    }
}
