import FerryCore

/// Compact JSON text of a value, for cells that hold arrays and objects.
///
/// It follows what Ferry's JSON writer prints, without depending on that
/// codec (codecs depend on `FerryCore` only): integers stay integers, doubles
/// take their shortest round-trip form (`19.99`, `299.0`), bytes become
/// `data:` URIs and dates ISO 8601 strings. JSON has no NaN or infinities;
/// they are shown as `NaN`, `Infinity` and `-Infinity`, the spelling most
/// JSON libraries accept as an extension.
enum CompactJSON {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    static func append(_ value: Value, to out: inout [UInt8]) {
        switch value {
        case .null:
            out.append(contentsOf: "null".utf8)
        case .bool(let flag):
            out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .integer(let number):
            out.append(contentsOf: String(number).utf8)
        case .double(let number):
            out.append(contentsOf: text(of: number).utf8)
        case .number(let number):
            // A number kept as it was written (`1.10`, `1E2`, 30 digits).
            out.append(contentsOf: number.text.utf8)
        case .string(let text):
            appendString(text, to: &out)
        case .bytes(let bytes):
            appendString(Photo.dataURI(bytes), to: &out)
        case .date(let date):
            appendString(Timestamp.iso8601(date), to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                append(element, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (index, (key, member)) in zip(object.keys, object.values).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                appendString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                append(member, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// The shortest text that reads back as `number`.
    static func text(of number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        return number.description
    }

    /// Appends `text` quoted, with `"`, `\` and control characters escaped
    /// (RFC 8259, section 7).
    static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                out.append(UInt8(ascii: "\\"))
                out.append(byte)
            case 0x0A: out.append(contentsOf: "\\n".utf8)
            case 0x0D: out.append(contentsOf: "\\r".utf8)
            case 0x09: out.append(contentsOf: "\\t".utf8)
            case 0x08: out.append(contentsOf: "\\b".utf8)
            case 0x0C: out.append(contentsOf: "\\f".utf8)
            case 0..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
