import Foundation

/// Random products and books for the CSV interoperability tests: every record
/// has the same fields (a CSV file has one header), the text is full of what
/// CSV must quote, and the values stay inside what both Ferry's CSV and
/// Python's `csv` can say (no NUL; prices with at most two decimals).
///
/// Products have `name`, `price`, `photo` and `sku`; books `title`,
/// `author`, `description`, `pages`, `readThisBook`, `price`, `isbn` (a
/// valid ISBN-13) and the generic, nested `tags` (the interop script's
/// `FIELDS`).
///
/// The JSON text is written by `SampleValue`, with its random escapes and
/// layout, so it is independent of Ferry's writer.
struct CSVDatasetGenerator {
    var random: SeededGenerator

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    /// Text pieces: delimiters, quotes, LF, tabs, spaces at either end, and
    /// non-ASCII text (2-, 3- and 4-byte UTF-8, combining marks, a
    /// zero-width no-break space).
    static let pieces: [String] = [
        "Xbox", "Wii", "Halo 3", "café", "é", "naïve", "日本", "日本語", "Привет", "😀", "🎮", "👨‍👩‍👧", "🇫🇷",
        "e\u{301}", "\u{FEFF}", "\u{A0}", ",", ", ", ";", "|", "\"", "\"\"", "12\"", "\"quoted\"", "'", "\\",
        "\n", "\t", " ", "  ", "x,y", "a\tb", "=1+2", "#", "null", "true", "00123",
    ]

    /// Pieces with a CR, rarer than the others, as in real data.
    static let carriageReturns: [String] = ["\r", "\r\n", "\n\r", "a\rb", "\r\n\r\n"]

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    /// Text of 1 to `maxPieces` pieces and numbers; never empty.
    mutating func text(maxPieces: Int = 6) -> String {
        (0..<Int.random(in: 1...maxPieces, using: &random)).map { _ in
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<30: String(Int.random(in: 0...999, using: &random))
            case 30..<33: Self.carriageReturns.randomElement(using: &random)!
            default: Self.pieces.randomElement(using: &random)!
            }
        }.joined()
    }

    /// `text`, or `text` and a letter when it is only white space (line
    /// breaks alone): the kinds want a name or title with something else.
    /// `text`, with an `x` after it when it is all white space as ECMA-262's
    /// `\s` has it (the kinds' `\S` pattern): U+FEFF too, U+0085 not.
    static func nonBlank(_ text: String) -> String {
        let blank = text.unicodeScalars.allSatisfy {
            $0 == "\u{FEFF}" || ($0.properties.isWhitespace && $0 != "\u{85}")
        }
        return blank ? text + "x" : text
    }

    /// Text, or now and then an empty string or null.
    mutating func optionalText(maxPieces: Int = 6) -> SampleValue {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<10: .null
        case 10..<16: .string("")
        default: .string(text(maxPieces: maxPieces))
        }
    }

    /// A price: null, an integer, or a double with at most two decimals,
    /// spelled shortest (`19.99`, `299.0`) or otherwise (`19.90`, `1.5e1`).
    mutating func price() -> SampleValue {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<8: return .null
        case 8..<25: return .number(String(Int.random(in: 0...100_000, using: &random)))
        case 25..<28: return .number(["0", "0.0", "0.01", "99999.99", "1.5e1", "2E2", "1000000"].randomElement(using: &random)!)
        default:
            let cents = Int.random(in: 0...10_000_000, using: &random)
            let value = Double(cents) / 100
            if chance(15) { return .number(String(format: "%.2f", value)) }
            return .number("\(value)")
        }
    }

    mutating func pages() -> SampleValue {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<8: .null
        case 8..<10: .number(["0", "9007199254740993", "9223372036854775807"].randomElement(using: &random)!)
        default: .number(String(Int.random(in: 1...5_000, using: &random)))
        }
    }

    /// A PNG data URI (a comma inside, so CSV quotes it), a reference with
    /// awkward characters, an empty string or null.
    mutating func photo() -> SampleValue {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<15:
            return .null
        case 15..<18:
            return .string("")
        case 18..<55:
            return .string("photos/" + text(maxPieces: 3) + ".png")
        default:
            var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            bytes += (0..<Int.random(in: 0...48, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            return .string("data:image/png;base64," + Data(bytes).base64EncodedString())
        }
    }

    /// A generic nested value, or null.
    mutating func tags() -> SampleValue {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<15: return .null
        case 15..<20: return .array([])
        case 20..<30: return .object([("k", .string(text(maxPieces: 2))), ("n", .number("7")), ("ok", .bool(false)), ("z", .null)])
        default:
            return .array((0..<Int.random(in: 1...4, using: &random)).map { _ in
                switch Int.random(in: 0..<4, using: &random) {
                case 0: .number(String(Int.random(in: -999...999, using: &random)))
                case 1: .bool(chance(50))
                default: .string(text(maxPieces: 2))
                }
            })
        }
    }

    mutating func product() -> [(String, SampleValue)] {
        // A sku is text that is not empty (the product schema's `minLength: 1`),
        // so that Python's QUOTE_ALL rows never turn a null into "".
        [("name", .string(Self.nonBlank(text()))), ("price", price()), ("photo", photo()), ("sku", .string(text(maxPieces: 3)))]
    }

    mutating func book() -> [(String, SampleValue)] {
        let read: SampleValue = chance(8) ? .null : .bool(chance(50))
        return [
            ("title", .string(Self.nonBlank(text()))), ("author", optionalText(maxPieces: 4)), ("description", optionalText(maxPieces: 16)),
            ("pages", pages()), ("readThisBook", read), ("price", price()),
            // Always a valid ISBN (the book schema checks its check digit),
            // so that Python's QUOTE_ALL rows never turn a null into "".
            ("isbn", .string(validISBN13(using: &random))),
            ("tags", tags()),
        ]
    }

    /// `count` records of `kind` as a JSON array. After the first record,
    /// about one in ten has its keys in another order, so a writer must
    /// place cells by name.
    mutating func document(kind: String, count: Int) -> String {
        var text = "[\n"
        text.reserveCapacity(count * 200)
        for index in 0..<count {
            if index > 0 { text += chance(50) ? ",\n" : " , " }
            var pairs = kind == "book" ? book() : product()
            if index > 0 && chance(10) { pairs.shuffle(using: &random) }
            SampleValue.object(pairs).write(to: &text, using: &random)
        }
        text += "\n]\n"
        return text
    }
}
