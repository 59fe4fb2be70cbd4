/// Where something happened: in which file, at which byte, line and column,
/// in which record and field. Every part is optional; a message shows what is
/// known.
public struct SourceLocation: Sendable, Hashable {
    /// The path as the user gave it, or `-` for standard input.
    public var file: String?
    /// The 0-based offset of the byte in the (decompressed) input.
    public var byteOffset: Int?
    /// 1-based line.
    public var line: Int?
    /// 1-based column, counted in Unicode scalars from the line start.
    public var column: Int?
    /// 0-based record index; shown 1-based.
    public var record: Int?
    public var field: String?
    /// The sheet of a workbook the place is in (`Sheet1`).
    public var sheet: String?
    /// The cell of that sheet, in A1 notation (`B12`).
    public var cell: String?

    public init(
        file: String? = nil, byteOffset: Int? = nil, line: Int? = nil, column: Int? = nil,
        record: Int? = nil, field: String? = nil, sheet: String? = nil, cell: String? = nil
    ) {
        self.file = file
        self.byteOffset = byteOffset
        self.line = line
        self.column = column
        self.record = record
        self.field = field
        self.sheet = sheet
        self.cell = cell
    }

    /// A location that knows nothing.
    public static let unknown = SourceLocation()

    /// This location with the gaps filled from `other`.
    public func filling(from other: SourceLocation) -> SourceLocation {
        var filled = self
        filled.fill(from: other)
        return filled
    }

    /// Fills the gaps of this location from `other`, in place: the parts
    /// already known are neither copied nor counted again.
    public mutating func fill(from other: SourceLocation) {
        if file == nil { file = other.file }
        if byteOffset == nil { byteOffset = other.byteOffset }
        if line == nil { line = other.line }
        if column == nil { column = other.column }
        if record == nil { record = other.record }
        if field == nil { field = other.field }
        if sheet == nil { sheet = other.sheet }
        if cell == nil { cell = other.cell }
    }

    /// The sheet and cell as a spreadsheet's formula names them
    /// (`Sheet1!B12`, `Sheet1` without a cell); nil outside a workbook.
    public var sheetAndCell: String? {
        guard let sheet else { return nil }
        return cell.map { sheet + "!" + $0 } ?? sheet
    }

    /// The file with the sheet and cell, as spreadsheets write a place:
    /// `book.xlsx[Sheet1]!B12`; the file alone when there is no sheet.
    public var fileAndCell: String? {
        guard let sheet else { return file }
        var text = (file ?? "") + "[" + sheet + "]"
        if let cell { text += "!" + cell }
        return text
    }
}
