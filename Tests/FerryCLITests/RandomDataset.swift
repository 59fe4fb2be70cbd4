import Foundation

/// JSON text written by hand, independently of Ferry's writer, with the
/// escapes and number spellings chosen at random.
indirect enum SampleValue {
    case null
    case bool(Bool)
    /// A number as it appears in the text.
    case number(String)
    case string(String)
    case array([SampleValue])
    case object([(String, SampleValue)])

    func write(to text: inout String, using random: inout SeededGenerator) {
        switch self {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .number(let spelling): text += spelling
        case .string(let string): SampleValue.writeString(string, to: &text, using: &random)
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                text += index > 0 ? (Bool.random(using: &random) ? "," : " ,\n ") : ""
                element.write(to: &text, using: &random)
            }
            text += "]"
        case .object(let pairs):
            text += Bool.random(using: &random) ? "{" : "{ "
            for (index, (key, value)) in pairs.enumerated() {
                if index > 0 { text += Bool.random(using: &random) ? "," : ",\r\n\t" }
                SampleValue.writeString(key, to: &text, using: &random)
                text += Bool.random(using: &random) ? ":" : " : "
                value.write(to: &text, using: &random)
            }
            text += "}"
        }
    }

    /// A quoted string whose characters are spelled raw, as short escapes or
    /// as `\u` escapes (surrogate pairs above the BMP), at random.
    static func writeString(_ string: String, to text: inout String, using random: inout SeededGenerator) {
        text += "\""
        for scalar in string.unicodeScalars {
            let spelling = Int.random(in: 0..<4, using: &random)
            switch scalar {
            case "\"": text += spelling == 0 ? "\\u0022" : "\\\""
            case "\\": text += spelling == 0 ? "\\u005C" : "\\\\"
            case "/": text += spelling == 0 ? "\\/" : "/"
            case "\u{08}": text += spelling == 0 ? "\\u0008" : "\\b"
            case "\u{0C}": text += spelling == 0 ? "\\u000c" : "\\f"
            case "\n": text += spelling == 0 ? "\\u000A" : "\\n"
            case "\r": text += spelling == 0 ? "\\u000d" : "\\r"
            case "\t": text += spelling == 0 ? "\\u0009" : "\\t"
            case _ where scalar.value < 0x20: text += unicodeEscape(scalar.value, upper: spelling == 1)
            case _ where scalar.value >= 0x80 && spelling == 0:
                if scalar.value >= 0x10000 {
                    let offset = scalar.value - 0x10000
                    text += unicodeEscape(0xD800 + (offset >> 10), upper: false)
                    text += unicodeEscape(0xDC00 + (offset & 0x3FF), upper: true)
                } else {
                    text += unicodeEscape(scalar.value, upper: Bool.random(using: &random))
                }
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }

    private static func unicodeEscape(_ value: UInt32, upper: Bool) -> String {
        let digits = String(value, radix: 16, uppercase: upper)
        return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
    }
}

/// Random products and books, with the awkward values a converter must keep.
struct DatasetGenerator {
    var random: SeededGenerator

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    static let pieces: [String] = [
        "Xbox", "Wii", " ", "café", "naïve", "日本語", "Ελληνικά", "Привет", "\u{2028}", "\u{2029}",
        "😀", "👨‍👩‍👧", "🇫🇷", "e\u{301}", "\"", "\\", "/", "\n", "\r\n", "\t", "\u{0}", "\u{1}", "\u{1F}",
        "\u{7F}", "\u{FEFF}", "\u{FFFD}", "\u{10FFFF}", "<tag attr='x'>", "{\"not\":\"json\"}", "\\u0041",
    ]

    static let doubles: [String] = [
        "19.99", "67.0", "1e-7", "1E-7", "1.7976931348623157e308", "5e-324", "2.2250738585072014e-308",
        "0.1", "0.30000000000000004", "1e2", "1E+2", "12345.678e-3", "9007199254740993.0", "0.0",
        "123456789012345678901234567890.5", "4.9406564584124654e-324",
    ]

    mutating func string(maxPieces: Int = 6) -> String {
        (0..<Int.random(in: 1...maxPieces, using: &random)).map { _ in
            Int.random(in: 0..<3, using: &random) == 0
                ? String(Int.random(in: 0...999, using: &random)) : Self.pieces.randomElement(using: &random)!
        }.joined()
    }

    /// A non-negative number: an integer up to Int64.max or a double spelling.
    mutating func price() -> SampleValue {
        switch Int.random(in: 0..<5, using: &random) {
        case 0: .number(String(Int64.random(in: 0...Int64.max, using: &random)))
        case 1: .number(["0", "9223372036854775807", "299"].randomElement(using: &random)!)
        case 2: .number(randomDouble())
        default: .number(Self.doubles.randomElement(using: &random)!)
        }
    }

    /// The shortest spelling of a random finite, non-negative double.
    mutating func randomDouble() -> String {
        while true {
            let value = Double(bitPattern: random.next() >> 1)
            if value.isFinite { return "\(value)" }
        }
    }

    mutating func integer() -> SampleValue {
        let edges: [Int64] = [Int64.min, Int64.max, Int64.min + 1, -1, 0, 1 << 53 + 1]
        return .number(String(Bool.random(using: &random) ? edges.randomElement(using: &random)! : Int64.random(in: .min ... .max, using: &random)))
    }

    mutating func nested(depth: Int) -> SampleValue {
        switch Int.random(in: 0..<(depth > 3 ? 5 : 7), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return integer()
        case 3: return .number(Bool.random(using: &random) ? "-0.0" : "-" + randomDouble())
        case 4: return .string(string())
        case 5: return .array((0..<Int.random(in: 0...4, using: &random)).map { _ in nested(depth: depth + 1) })
        default:
            return .object((0..<Int.random(in: 0...4, using: &random)).map { index in ("k\(index)" + string(maxPieces: 1), nested(depth: depth + 1)) })
        }
    }

    mutating func photo() -> SampleValue {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += (0..<Int.random(in: 0...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        return .string("data:image/png;base64," + Data(bytes).base64EncodedString())
    }

    /// Extra fields, some in a shuffled order, and now and then a duplicate key
    /// (the last value wins, in the first key's place, as in Python).
    mutating func extras() -> [(String, SampleValue)] {
        var pairs: [(String, SampleValue)] = [("stock", integer()), ("tags", nested(depth: 3)), ("meta", nested(depth: 0))]
        pairs.shuffle(using: &random)
        pairs = Array(pairs.prefix(Int.random(in: 0...3, using: &random)))
        if Int.random(in: 0..<20, using: &random) == 0, let first = pairs.first { pairs.append((first.0, .string(string()))) }
        return pairs
    }

    mutating func product() -> SampleValue {
        var pairs: [(String, SampleValue)] = [("name", .string(CSVDatasetGenerator.nonBlank(string()))), ("price", price())]
        switch Int.random(in: 0..<4, using: &random) {
        case 0: break
        case 1: pairs.append(("photo", .null))
        default: pairs.append(("photo", photo()))
        }
        return .object(pairs + extras())
    }

    mutating func book() -> SampleValue {
        var pairs: [(String, SampleValue)] = [("title", .string(CSVDatasetGenerator.nonBlank(string())))]
        pairs.append(("author", Int.random(in: 0..<10, using: &random) == 0 ? .null : .string(string())))
        pairs.append(("description", .string(string(maxPieces: 20))))
        pairs.append(("pages", .number(String(Int64.random(in: 0...Int64.max, using: &random) >> Int64.random(in: 0...62, using: &random)))))
        pairs.append(("readThisBook", .bool(Bool.random(using: &random))))
        pairs.append(("price", price()))
        pairs.append(("isbn", .string(validISBN13(using: &random))))
        if Bool.random(using: &random) { pairs.swapAt(2, 3) }
        return .object(pairs + extras())
    }

    /// `count` records of `kind` as a JSON array, laid out unevenly.
    mutating func document(kind: String, count: Int) -> String {
        var text = "[\n"
        for index in 0..<count {
            if index > 0 { text += Bool.random(using: &random) ? ",\n" : " , " }
            let record = kind == "book" ? book() : product()
            record.write(to: &text, using: &random)
        }
        text += "\n]\n"
        return text
    }
}

/// A random ISBN-13 whose check digit is right (the book schema checks it):
/// 978 or 979, nine random digits, and the digit that makes the sum of the
/// digits weighted 1, 3, 1, … a multiple of 10.
func validISBN13<G: RandomNumberGenerator>(using random: inout G) -> String {
    var digits = [9, 7, Bool.random(using: &random) ? 8 : 9] + (0..<9).map { _ in Int.random(in: 0...9, using: &random) }
    let sum = digits.enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 1 : 3) }
    digits.append((10 - sum % 10) % 10)
    return digits.map(String.init).joined()
}
