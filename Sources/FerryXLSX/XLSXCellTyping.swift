import FerryCore

/// Turns a cell into the value its field's rule asks for, as CSV's
/// `CellTyping` does for text: a field the kind or schema types as a
/// number, integer or bool takes a cell of that type, or text that reads
/// as one; a string field takes any cell as its text (a number's text as
/// the file stores it, a date as ISO 8601, a bool as TRUE or FALSE); a
/// field without a type keeps the cell's own type. An empty cell is null.
struct XLSXCellTyping {
    let uses1904: Bool

    enum Outcome {
        case value(Value)
        /// An error cell (`#N/A`): null, with a warning.
        case errorCell(String)
        case badSharedString(Int)
        /// A numeric cell whose text is no number.
        case badNumber(String)
        /// The cell does not fit its field's type: the code, and the cell's text.
        case mismatch(FerryError.Code, String)
    }

    /// The value of cell `index` of `row` for a field of `rule`.
    func value(of row: XLSXRow, _ index: Int, rule: ColumnRule, strings: SharedStrings) -> Outcome {
        guard row.hasValue(index) else {
            // `<c t="inlineStr"><is><t/></is></c>` and `<v></v>`: an empty string.
            return .value(.null)
        }
        let natural: Value
        switch row.types[index] {
        case .shared:
            guard let number = row.withText(index, CellReference.number), let text = strings.string(number) else {
                return .badSharedString(row.withText(index, CellReference.number) ?? -1)
            }
            natural = .string(text)
        case .inline, .formulaString, .date:
            natural = .string(row.withText(index) { String(decoding: $0, as: UTF8.self) })
        case .bool:
            natural = .bool(row.withText(index) { $0.count == 1 && $0[0] == UInt8(ascii: "1") })
        case .error:
            return .errorCell(row.withText(index) { String(decoding: $0, as: UTF8.self) })
        case .number:
            let format = row.formats[index]
            if format != .number, rule.type != .number, rule.type != .integer {
                let serial = row.withText(index) { DecimalText.parse($0) }
                let double: Double? =
                    switch serial {
                    case .integer(let whole)?: Double(whole)
                    case .double(let number)?: number
                    default: nil
                    }
                if let double, let text = ExcelDate.text(double, kind: format, uses1904: uses1904) {
                    return typed(.string(text), rule: rule)
                }
            }
            guard let number = row.withText(index, DecimalText.parsedValue) else {
                return .badNumber(row.withText(index) { String(decoding: $0, as: UTF8.self) })
            }
            natural = number
        }
        return typed(natural, rule: rule)
    }

    /// `value` as `rule`'s type wants it.
    private func typed(_ value: Value, rule: ColumnRule) -> Outcome {
        guard let type = rule.type else { return .value(value) }
        switch (type, value) {
        case (.string, _), (.photo, _):
            return .value(.string(Self.text(value)))
        case (.number, .integer), (.number, .double), (.number, .number):
            return .value(value)
        case (.integer, .integer):
            return .value(value)
        case (.integer, .double(let number)) where number.rounded() == number && abs(number) < 9.0e15:
            return .value(.integer(Int64(number)))
        case (.bool, .bool):
            return .value(value)
        case (.number, .string(var text)), (.integer, .string(var text)):
            let trimmed = text.withUTF8 { DecimalText.parsedValue($0) }
            switch (type, trimmed) {
            case (.number, let number?): return .value(number)
            case (.integer, .integer?): return .value(trimmed ?? .null)
            default: return .mismatch(type == .number ? .xlsxInvalidNumber : .xlsxInvalidInteger, text)
            }
        case (.bool, .string(let text)):
            return BoolText.value(of: text).map { .value(.bool($0)) } ?? .mismatch(.xlsxInvalidBool, text)
        case (.bool, .integer(let number)) where number == 0 || number == 1:
            return .value(.bool(number == 1))
        case (.bool, _):
            return .mismatch(.xlsxInvalidBool, Self.text(value))
        case (.integer, _):
            return .mismatch(.xlsxInvalidInteger, Self.text(value))
        default:
            return .mismatch(.xlsxInvalidNumber, Self.text(value))
        }
    }

    /// A value's text, for a string field and for the header.
    static func text(_ value: Value) -> String {
        switch value {
        case .string(let text): text
        case .bool(let flag): flag ? "TRUE" : "FALSE"
        case .integer(let number): String(number)
        case .number(let number): number.text
        case .double(let number): number.description
        default: ""
        }
    }

    /// The text of cell `index`, for a header; nil for an empty or error cell.
    func text(of row: XLSXRow, _ index: Int, strings: SharedStrings) -> String? {
        switch value(of: row, index, rule: ColumnRule(type: .string), strings: strings) {
        case .value(.string(let text)): text
        default: nil
        }
    }
}
