import FerryCore

/// The text of one table cell.
///
/// | value | cell |
/// |---|---|
/// | string | the text as it is |
/// | integer, double | as Ferry's JSON writer prints them: `269`, `19.99`, `299.0` |
/// | null | empty |
/// | bool | `true` or `false` |
/// | bytes | `(N bytes)` |
/// | date | ISO 8601, `2017-10-07T12:30:00Z` |
/// | array, object | compact JSON text, `{"w":32,"h":32}` |
///
/// Every cell is escaped so it cannot break the table: `|` becomes `\|`, and
/// each line break (LF, CRLF or a lone CR) becomes `<br>`.
enum MarkdownCell {
    /// Appends the escaped cell text of `value`, without the surrounding pipes.
    static func append(_ value: Value, to out: inout [UInt8]) {
        switch value {
        case .null:
            break
        case .string(let text):
            appendEscaped(text.utf8, to: &out)
        case .bytes(let bytes):
            out.append(contentsOf: "(\(bytes.count) bytes)".utf8)
        case .date(let date):
            out.append(contentsOf: Timestamp.iso8601(date).utf8)
        case .bool, .integer, .double, .number:
            // Their JSON text has no `|` and no line breaks to escape.
            CompactJSON.append(value, to: &out)
        case .array, .object:
            var json: [UInt8] = []
            CompactJSON.append(value, to: &json)
            appendEscaped(json, to: &out)
        }
    }

    /// Appends `text` with `|` escaped and line breaks turned into `<br>`.
    static func appendEscaped(_ text: some Sequence<UInt8>, to out: inout [UInt8]) {
        var afterCR = false
        for byte in text {
            switch byte {
            case UInt8(ascii: "|"):
                out.append(UInt8(ascii: "\\"))
                out.append(byte)
            case 0x0D:
                out.append(contentsOf: "<br>".utf8)
            case 0x0A:
                // The LF of a CRLF belongs to the break the CR already wrote.
                if !afterCR { out.append(contentsOf: "<br>".utf8) }
            default:
                out.append(byte)
            }
            afterCR = byte == 0x0D
        }
    }
}
