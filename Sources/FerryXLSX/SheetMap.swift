import FerryCore

// MARK: - Design
//
// Where the rows and cells of a sheet part are, as byte ranges of its XML,
// for the editor that rewrites some of them and keeps every other byte:
//
//     <dimension ref="A1:C3"/>                       dimensionRef: the value's bytes
//     <sheetData>
//       <row r="1"><c r="A1" t="s"><v>0</v></c>…</row>   the header: the first row with a value
//       <row r="2" spans="1:3">                      Row: range (from `<row` to past `</row>`),
//         <c r="A2" t="s"><v>3</v></c>                   cellsEnd (where `</row>` starts)
//         <c r="B2" s="4"><v>19.99</v></c>           Cell: range, column, style's bytes (`4`),
//         <c r="C2"><f>B2*2</f><v>39.98</v></c>            whether it has a formula
//       </row>
//     </sheetData>
//     <autoFilter ref="A1:C3"/> <tableParts count="1">…  rangesOverRows: what adding or removing a row would break
//
// A row counts as having a value as the reader counts it (text in a `<v>`,
// or in an inline string's `<t>` outside phonetic runs), so that the rows
// with values after the header are the records, in order.

/// The rows and cells of a sheet part (see the design note).
struct SheetMap {
    struct Cell {
        var range: Range<Int>
        var column: Int
        /// The bytes of its `s` attribute's value, when it has one.
        var style: Range<Int>?
        var hasFormula = false
    }

    struct Row {
        var range: Range<Int>
        /// Where the cells end: the offset of `</row>`, or of the `/>` of `<row …/>`.
        var cellsEnd: Int
        var isEmptyElement: Bool
        var number: Int
        var cells: [Cell] = []
        var hasValue = false
    }

    private(set) var rows: [Row] = []
    /// The index in `rows` of the header row, and of each record's row.
    private(set) var headerRow: Int?
    private(set) var recordRows: [Int] = []
    /// Where a row goes in a sheet without rows: past `<sheetData>`, or
    /// the `<sheetData/>` to replace.
    private(set) var sheetDataInsertion = 0
    private(set) var sheetDataEmptyElement: Range<Int>?
    /// The cells of array formulas (`<f t="array" ref="D2:D5">`): those
    /// past the first have a value and no formula of their own.
    private(set) var arrayFormulas: [CellRange] = []
    /// The value of `<dimension ref="…">`.
    private(set) var dimensionRef: Range<Int>?
    /// `tableParts` or `autoFilter` when the sheet has one: a range over
    /// its rows that adding or removing a row would leave wrong.
    private(set) var rangesOverRows: String?

    /// Maps the sheet part `xml`.
    /// - Throws: `xlsx.malformedXML`, `xlsx.badCellReference`.
    init(_ xml: [UInt8], part: String, file: String, limits: ReadLimits) throws(FerryError) {
        let scanner = XMLPullScanner(MemoryInput(xml, name: part), part: part, file: file, maxTokenBytes: limits.maxRecordBytes)
        var row: Row?
        var cell: Cell?
        var previousRow = 0
        var nextColumn = 0
        var text = CellTextState()
        while true {
            switch try scanner.next() {
            case .endOfDocument:
                guard row == nil else { throw scanner.malformed(at: scanner.tokenStart) }
                return
            case .start:
                if cell != nil {
                    text.start(scanner)
                    if scanner.nameIs("f") {
                        cell?.hasFormula = true
                        if let type = scanner.attribute("t"), scanner.equals(type, "array"),
                            let ref = scanner.attribute("ref"),
                            let range = CellRange(ArraySlice(scanner.bytes(ref)))
                        {
                            arrayFormulas.append(range)
                        }
                    }
                } else if row != nil {
                    if scanner.nameIs("c") {
                        var column = nextColumn
                        if let range = scanner.attribute("r") {
                            guard let reference = CellReference(scanner.bytes(range)), reference.column >= nextColumn else {
                                throw .xlsxBadCellReference(
                                    String(decoding: scanner.bytes(range), as: UTF8.self), at: scanner.tokenLocation)
                            }
                            column = reference.column
                        }
                        nextColumn = column + 1
                        cell = Cell(
                            range: scanner.tokenOffset..<scanner.tokenEndOffset, column: column,
                            style: scanner.attribute("s").map(scanner.offsets))
                    }
                } else if scanner.nameIs("row") {
                    var number = previousRow + 1
                    if let range = scanner.attribute("r") {
                        guard let given = CellReference.number(scanner.bytes(range)), given >= 1 else {
                            throw .xlsxBadCellReference(
                                String(decoding: scanner.bytes(range), as: UTF8.self), at: scanner.tokenLocation)
                        }
                        number = given
                    }
                    previousRow = number
                    nextColumn = 0
                    let end = scanner.tokenEndOffset
                    row = Row(
                        range: scanner.tokenOffset..<end, cellsEnd: scanner.isEmptyElement ? end - 2 : end,
                        isEmptyElement: scanner.isEmptyElement, number: number)
                } else if scanner.nameIs("sheetData") {
                    sheetDataInsertion = scanner.tokenEndOffset
                    if scanner.isEmptyElement { sheetDataEmptyElement = scanner.tokenOffset..<scanner.tokenEndOffset }
                } else if scanner.nameIs("dimension") {
                    dimensionRef = scanner.attribute("ref").map(scanner.offsets)
                } else if scanner.nameIs("autoFilter") {
                    rangesOverRows = rangesOverRows ?? "autoFilter"
                } else if scanner.nameIs("tablePart") {
                    rangesOverRows = "tableParts"
                }
            case .end:
                if var current = cell {
                    if scanner.nameIs("c") {
                        current.range = current.range.lowerBound..<scanner.tokenEndOffset
                        row?.cells.append(current)
                        cell = nil
                    } else {
                        text.end(scanner)
                    }
                } else if var current = row, scanner.nameIs("row") {
                    if !current.isEmptyElement { current.cellsEnd = scanner.tokenOffset }
                    current.range = current.range.lowerBound..<scanner.tokenEndOffset
                    if current.hasValue {
                        if headerRow == nil { headerRow = rows.count } else { recordRows.append(rows.count) }
                    }
                    rows.append(current)
                    row = nil
                }
            case .text:
                if cell != nil, text.holdsValue { row?.hasValue = true }
            }
        }
    }
}
