import FerryCore

// MARK: - Codes of the workbook editor (Formats/xlsx.md, Editing)

extension FerryError.Code {
    /// An edit or removal that would change a formula cell: Ferry edits
    /// values, and a formula's cell (and the calculation chain that lists
    /// it) stays as the workbook has it.
    public static let xlsxEditFormulaCell = Self("xlsx.editFormulaCell", .usage)
    /// Adding or removing a row of a sheet with a table or an autofilter,
    /// whose range would no longer cover the records.
    public static let xlsxEditRangeWouldBreak = Self("xlsx.editRangeWouldBreak", .usage)
    /// A record added or edited with no value in any field: its row would
    /// hold no value, and reading skips such rows.
    public static let xlsxEditEmptyRow = Self("xlsx.editEmptyRow", .usage)
}

extension FerryError {
    /// - Parameters:
    ///   - cell: the formula's cell (`D7`).
    ///   - sheet: the sheet's name.
    public static func xlsxEditFormulaCell(_ cell: String, sheet: String, record: Int) -> FerryError {
        FerryError(.xlsxEditFormulaCell, [.string(cell)], at: SourceLocation(record: record, sheet: sheet, cell: cell))
    }

    /// - Parameters:
    ///   - range: what covers the rows: `table` or `autoFilter`, the XML element's name.
    ///   - sheet: the sheet's name.
    public static func xlsxEditRangeWouldBreak(_ range: String, sheet: String, record: Int) -> FerryError {
        FerryError(.xlsxEditRangeWouldBreak, [.string(range), .string(sheet)], at: SourceLocation(record: record, sheet: sheet))
    }

    public static func xlsxEditEmptyRow(sheet: String, record: Int) -> FerryError {
        FerryError(.xlsxEditEmptyRow, [.string(sheet)], at: SourceLocation(record: record, sheet: sheet))
    }
}
