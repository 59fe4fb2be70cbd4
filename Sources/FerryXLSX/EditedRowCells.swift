import FerryCore

/// Writes the cells `ferry edit` and `add` put into a workbook they keep,
/// with the cell functions of the workbook writer (`CellWriting`): a cell
/// keeps the style its old cell had (`s="4"`), except a date style on a
/// value that is no date (the number would read back as a date); a date
/// takes its old cell's date style, else the workbook's first date (or
/// date-time) style, else it is ISO 8601 text (`xlsx.dateAsText`).
///
///     <c r="B7" s="4"><v>24.5</v></c>      a price edited in a cell of style 4
final class EditedRowCells: CellWriting {
    /// Losses are noted here and not reported: the editor has no warnings to give.
    let losses = LossTally()
    private(set) var rowRecord = 0
    /// The header's fields, by column from `firstColumn`.
    private let names: [String]
    private let firstColumn: Int
    private let styles: CellStyles
    private var rowDigits: [UInt8] = []
    /// The style kept for the cell being written: its `s` value.
    private var keptStyle: [UInt8]?

    init(names: [String], firstColumn: Int, styles: CellStyles) {
        self.names = names
        self.firstColumn = firstColumn
        self.styles = styles
    }

    func fieldName(_ field: Int) -> String { field >= 0 && field < names.count ? names[field] : "" }

    /// The cell of `value` at `column` of row `row`, for record `record`,
    /// keeping `style` (the old cell's `s` value) as the type note says.
    /// - Throws: `xlsx.nonFiniteNumber`.
    func cell(_ value: Value, column: Int, row: Int, record: Int, style: [UInt8]?) throws(FerryError) -> [UInt8] {
        rowRecord = record
        rowDigits = Array(String(row).utf8)
        // A style is a number: anything else (entities, quotes) is not written back.
        keptStyle = style.flatMap { $0.withUnsafeBufferPointer(CellReference.number) == nil ? nil : $0 }
        if let kept = keptStyle, !Self.isDate(value), styleKind(kept) != .number { keptStyle = nil }
        var out = WriteBuffer(capacity: 256)
        defer { out.release() }
        _ = try appendCell(value, column: column, field: column - firstColumn, to: &out)
        return out.bytes
    }

    func appendReference(_ column: Int, to out: inout WriteBuffer) {
        appendStart(column, to: &out)
        if let keptStyle { appendStyle(keptStyle, to: &out) }
    }

    func appendDateReference(_ column: Int, midnight: Bool, to out: inout WriteBuffer) -> Bool {
        if let keptStyle, styleKind(keptStyle) == .date || styleKind(keptStyle) == .dateTime {
            appendStart(column, to: &out)
            appendStyle(keptStyle, to: &out)
            return true
        }
        let first = styles.kinds.firstIndex(of: midnight ? .date : .dateTime)
        guard let style = first ?? styles.kinds.firstIndex(of: midnight ? .dateTime : .date) else { return false }
        appendStart(column, to: &out)
        appendStyle(Array(String(style).utf8), to: &out)
        return true
    }

    // MARK: - Helpers

    /// `<c r="B7"`.
    private func appendStart(_ column: Int, to out: inout WriteBuffer) {
        out.append("<c r=\"")
        XLSXWriter.columnLetters(column).withUnsafeBufferPointer { out.append($0) }
        rowDigits.withUnsafeBufferPointer { out.append($0) }
        out.append("\"")
    }

    /// ` s="4"`: the bytes of a value read from the sheet, which need no escaping.
    private func appendStyle(_ style: [UInt8], to out: inout WriteBuffer) {
        out.append(" s=\"")
        style.withUnsafeBufferPointer { out.append($0) }
        out.append("\"")
    }

    private func styleKind(_ style: [UInt8]) -> NumberFormatKind {
        style.withUnsafeBufferPointer { CellReference.number($0) }.map(styles.kind) ?? .number
    }

    private static func isDate(_ value: Value) -> Bool {
        if case .date = value { return true }
        return false
    }
}
