#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FerryCore

// MARK: - Cells
//
// Each cell function appends one `<c>` element and returns its width in
// characters, for the column's width.
//
//     number   <c r="B2"><v>19.99</v></c>            the number's own text
//     bool     <c r="C2" t="b"><v>1</v></c>
//     date     <c r="D2" s="2"><v>45658.0</v></c>     serial day, 1900 system
//     text     <c r="A2" t="inlineStr"><is><t>Lamp &amp; shade</t></is></c>
//
// Two writers use them: `XLSXWriter`, for a whole sheet, and
// `EditedRowCells`, for the cells `ferry edit` changes in a workbook it
// keeps. They differ only in the cell's start (`appendReference`: the
// editor keeps the cell's style) and in the style of a date.

/// What writes cells: the start of each cell and the style of a date.
protocol CellWriting: AnyObject {
    var losses: LossTally { get }
    /// The record the current row holds, for the losses noted.
    var rowRecord: Int { get }
    /// The name of field `field` of the current record.
    func fieldName(_ field: Int) -> String
    /// Appends `<c r="B7"` and any attribute kept before the cell's type.
    func appendReference(_ column: Int, to out: inout WriteBuffer)
    /// Appends the start of a date cell, `<c r="B7" s="2"`, its style a
    /// date format (`midnight`) or a date-time one; false, appending
    /// nothing, when there is no such style to give it.
    func appendDateReference(_ column: Int, midnight: Bool, to out: inout WriteBuffer) -> Bool
}

extension XLSXWriter: CellWriting {
    /// A cell's longest text: Excel refuses longer ones.
    static let maxCellCharacters = 32_767
    /// The serial day of 1970-01-01, and the first past 9999-12-31.
    fileprivate static let serialOf1970 = 25_569.0
    fileprivate static let serialPast9999 = 2_958_466.0

    /// The name of field `field` of the current record.
    func fieldName(_ field: Int) -> String { rowFields?.names[field] ?? "" }

    /// Appends `<c r="B7"`: the cell's start, before its type and style.
    @inline(__always)
    func appendReference(_ column: Int, to out: inout WriteBuffer) {
        out.append("<c r=\"")
        letters[column].withUnsafeBufferPointer { out.append($0) }
        rowDigits.withUnsafeBufferPointer { out.append($0) }
        out.append("\"")
    }

    /// The date styles of the workbook written: `XLSXParts.Style.date` and `.dateTime`.
    func appendDateReference(_ column: Int, midnight: Bool, to out: inout WriteBuffer) -> Bool {
        appendReference(column, to: &out)
        out.append(midnight ? " s=\"2\"" : " s=\"3\"")
        return true
    }
}

extension CellWriting {
    /// Notes a loss in field `field` of the current record, its name the
    /// warning's first argument, followed by `more`.
    func noteLoss(_ code: FerryError.Code, field: Int, _ more: MessageArgument...) {
        let name = fieldName(field)
        losses.note(code, field: name, record: rowRecord, [.string(name)] + more)
    }

    /// Appends the cell of `value`, in `column` of the current row.
    func appendCell(
        _ value: Value, column: Int, field: Int, to out: inout WriteBuffer
    ) throws(FerryError) -> Int {
        switch value {
        case .null: return 0
        case .bool(let flag): return appendBool(flag, column: column, to: &out)
        case .integer(let number): return appendInteger(number, column: column, to: &out)
        case .double(let number): return try appendDouble(number, column: column, to: &out)
        case .number(let number):
            var text = number.text
            return text.withUTF8 { appendNumber($0, column: column, field: field, to: &out) }
        case .string(var text):
            return text.withUTF8 { appendText($0, column: column, field: field, to: &out) }
        case .bytes(let bytes):
            noteLoss(.xlsxPhotoAsDataURI, field: field)
            var uri = Photo.dataURI(bytes)
            return uri.withUTF8 { appendText($0, column: column, field: field, to: &out) }
        case .date(let date): return appendDate(date, column: column, field: field, to: &out)
        case .array, .object:
            noteLoss(.xlsxNestedAsJSON, field: field)
            var json = try JSONText.compact(value)
            return json.withUTF8 { appendText($0, column: column, field: field, to: &out) }
        }
    }

    func appendBool(_ flag: Bool, column: Int, to out: inout WriteBuffer) -> Int {
        appendReference(column, to: &out)
        out.append(flag ? " t=\"b\"><v>1</v></c>" : " t=\"b\"><v>0</v></c>")
        return 5
    }

    /// Appends a number cell, `<c r="B2"><v>…</v></c>` with the value that
    /// `body` writes; returns the value's length.
    @inline(__always)
    private func appendValueCell(_ column: Int, to out: inout WriteBuffer, _ body: (inout WriteBuffer) -> Void) -> Int {
        appendReference(column, to: &out)
        return appendValue(to: &out, body)
    }

    /// Appends `><v>…</v></c>`, the end of a cell whose start is written.
    @inline(__always)
    private func appendValue(to out: inout WriteBuffer, _ body: (inout WriteBuffer) -> Void) -> Int {
        out.append("><v>")
        let start = out.count
        body(&out)
        let width = out.count - start
        out.append("</v></c>")
        return width
    }

    func appendInteger(_ number: Int64, column: Int, to out: inout WriteBuffer) -> Int {
        appendValueCell(column, to: &out) { JSONText.appendInteger(number, to: &$0) }
    }

    /// - Throws: `xlsx.nonFiniteNumber`.
    func appendDouble(_ number: Double, column: Int, to out: inout WriteBuffer) throws(FerryError) -> Int {
        guard number.isFinite else { throw .xlsxNonFiniteNumber(number) }
        return appendValueCell(column, to: &out) { JSONText.appendDouble(number, to: &$0) }
    }

    /// Appends a number kept as text, as it was written (`299.00` stays so;
    /// but see `appendExcelNumber`), unless it has an exponent or more than
    /// 15 digits: then it is the
    /// integer or double a cell stores (`LossTally.storable`, which notes a
    /// rounding), so that `1e400` is no infinite cell.
    func appendNumber(
        _ text: UnsafeBufferPointer<UInt8>, column: Int, field: Int, to out: inout WriteBuffer
    ) -> Int {
        var digits = 0
        var plain = true
        for byte in text {
            if byte &- UInt8(ascii: "0") < 10 {
                digits += 1
            } else if byte | 0x20 == UInt8(ascii: "e") {
                plain = false
            }
        }
        guard plain && digits <= 15 else {
            let number = Value.number(NumberText(unchecked: String(decoding: text, as: UTF8.self)))
            switch losses.storable(number, field: fieldName(field), record: rowRecord) {
            case .integer(let integer): return appendInteger(integer, column: column, to: &out)
            case .double(let double) where double.isFinite:
                return appendValueCell(column, to: &out) { JSONText.appendDouble(double, to: &$0) }
            default: return appendText(text, column: column, field: field, to: &out)
            }
        }
        return appendValueCell(column, to: &out) { XLSXWriter.appendExcelNumber(text, to: &$0) }
    }

    /// Appends a plain number's text (digits, a sign, a point) as Excel
    /// writes numbers, in JSON's grammar: no `+`, no leading zeros, a digit
    /// on each side of the point (`+3` is `3`, `00012` `12`, `.5` `0.5`, `1.`
    /// `1`); the value is the same, and text already so (`299.00`) is copied
    /// whole. The schema takes any `xsd:double`, but Excel 2013 called a
    /// workbook corrupt for `<v>+41…</v>` (xlsx.js issue 30).
    static func appendExcelNumber(_ text: UnsafeBufferPointer<UInt8>, to out: inout WriteBuffer) {
        var start = 0
        if let sign = text.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            if sign == UInt8(ascii: "-") { out.append(sign) }
            start = 1
        }
        var end = text.count
        if end > start, text[end - 1] == UInt8(ascii: ".") { end -= 1 }
        // Leading zeros go, but for one before the point or the end.
        while start + 1 < end, text[start] == UInt8(ascii: "0"), text[start + 1] != UInt8(ascii: ".") { start += 1 }
        if start == end || text[start] == UInt8(ascii: ".") { out.append(UInt8(ascii: "0")) }
        out.append(UnsafeBufferPointer(rebasing: text[start..<end]))
    }

    /// Appends a timestamp as its serial day in the 1900 system, with the
    /// date format at midnight UTC and the date-time one otherwise. Excel
    /// counts a 1900-02-29 that never was: days before March 1900 are one
    /// less. A date before 1900 or after 9999 is ISO 8601 text
    /// (`xlsx.dateAsText`).
    func appendDate(_ date: Date, column: Int, field: Int, to out: inout WriteBuffer) -> Int {
        let seconds = date.timeIntervalSince1970
        var serial = seconds / 86_400 + XLSXWriter.serialOf1970
        if serial < 61 { serial -= 1 }
        let midnight = seconds.truncatingRemainder(dividingBy: 86_400) == 0
        guard serial >= 1, serial < XLSXWriter.serialPast9999,
            appendDateReference(column, midnight: midnight, to: &out)
        else {
            noteLoss(.xlsxDateAsText, field: field)
            var text = Timestamp.iso8601(date)
            return text.withUTF8 { appendText($0, column: column, field: field, to: &out) }
        }
        _ = appendValue(to: &out) { JSONText.appendDouble(serial, to: &$0) }
        return midnight ? 10 : 19
    }

    /// Appends text as an inline string, cut at a cell's 32,767 characters
    /// (`xlsx.textTruncated`), without the characters XML cannot hold
    /// (`xlsx.characterDropped`).
    func appendText(
        _ utf8: UnsafeBufferPointer<UInt8>, column: Int, field: Int, to out: inout WriteBuffer
    ) -> Int {
        // UTF-16 is never longer than UTF-8.
        if utf8.count > XLSXWriter.maxCellCharacters,
            let cut = XLSXWriter.truncated(utf8, toUTF16: XLSXWriter.maxCellCharacters)
        {
            noteLoss(.xlsxTextTruncated, field: field, .count(XLSXWriter.maxCellCharacters))
            var cut = cut
            return cut.withUTF8 { appendText($0, column: column, field: field, to: &out) }
        }
        appendReference(column, to: &out)
        let (width, dropped) = appendInlineString(utf8, to: &out)
        if dropped { noteLoss(.xlsxCharacterDropped, field: field) }
        return width
    }

    /// Appends ` t="inlineStr"><is><t>…</t></is></c>`, the text escaped;
    /// returns its width in characters and whether characters were dropped.
    @discardableResult
    func appendInlineString(_ utf8: UnsafeBufferPointer<UInt8>, to out: inout WriteBuffer) -> (Int, Bool) {
        let spaced = utf8.first.map(XLSXWriter.isSpace) == true || utf8.last.map(XLSXWriter.isSpace) == true
        out.append(spaced ? " t=\"inlineStr\"><is><t xml:space=\"preserve\">" : " t=\"inlineStr\"><is><t>")
        let result = XLSXWriter.appendEscaped(utf8, to: &out)
        out.append("</t></is></c>")
        return result
    }
}

extension XLSXWriter {
    fileprivate static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The text of `utf8` cut to at most `limit` UTF-16 units, at a
    /// character's end; nil when it is no longer than that.
    static func truncated(_ utf8: UnsafeBufferPointer<UInt8>, toUTF16 limit: Int) -> String? {
        let text = String(decoding: utf8, as: UTF8.self)
        guard text.utf16.count > limit else { return nil }
        var units = 0
        var end = text.startIndex
        for character in text {
            let size = character.utf16.count
            guard units + size <= limit else { break }
            units += size
            end = text.index(after: end)
        }
        return String(text[..<end])
    }
}
