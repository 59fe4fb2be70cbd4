import FerryCore

/// How a CSV or TSV file is laid out, from the codec's options.
///
/// The defaults follow RFC 4180 (comma, double quote, quotes doubled inside
/// quoted fields, a header row) except the line ending: Ferry writes LF, as
/// Miller, csvkit and most Unix tools do, and reads LF, CRLF or a lone CR.
public struct CSVDialect: Sendable, Hashable {
    public var delimiter: UInt8
    /// Whether `--delimiter` gave the delimiter; when not, a reader guesses
    /// it from the first rows (`CSVDelimiterSniffer`).
    public var delimiterGiven = false
    public var quote: UInt8 = UInt8(ascii: "\"")
    /// What ends a written row.
    public var lineEnding: [UInt8] = [0x0A]
    /// Quote every written field, not only those that need it.
    public var quoteAll = false
    /// Whether the first row names the columns.
    public var hasHeader = true
    public var ragged = RaggedRows.error
    public var encoding = TextEncoding.utf8
    /// The most bytes one field may take (`limit.fieldTooLarge`).
    public var maxFieldBytes = 16 << 20
    /// The text that stands for null (`--null`), written for null and read
    /// as null when a cell holds it unquoted; nil writes null as an empty cell.
    public var nullText: [UInt8]?
    /// Whether cells of untyped columns that hold a JSON array or object
    /// are read as that value (`--nested json`).
    public var nestedJSON = false
    /// Whether typed numbers use a decimal comma (`1,50`), as European
    /// spreadsheets export them (`--decimal-comma`), on reading and writing.
    public var decimalComma = false
    /// Whether the columns no kind or schema types are typed from what
    /// they hold (Formats/csv.md); `--no-infer` turns it off.
    public var infersTypes = true

    public init(delimiter: UInt8) { self.delimiter = delimiter }

    /// What to do with rows that have more or fewer fields than the header.
    public enum RaggedRows: String, Sendable, CaseIterable {
        /// Stop with `csv.raggedRow`.
        case error
        /// Fill short rows with empty fields; keep extra fields as `columnN`.
        case pad
        /// Fill short rows with empty fields; drop extra fields.
        case truncate
    }

    /// The dialect `options` ask for, over `delimiter` as the codec's default.
    /// - Throws: `usage.invalidValue` for a value an option does not take.
    public init(delimiter: UInt8, options: OptionValues) throws(FerryError) {
        try self.init(CSVDialect(delimiter: delimiter), options: options)
    }

    /// The dialect `options` ask for, over `base`: an option given replaces
    /// the base's setting, and the base holds for the others.
    /// - Throws: `usage.invalidValue` for a value an option does not take.
    public init(_ base: CSVDialect, options: OptionValues) throws(FerryError) {
        self = base
        if let text = options["delimiter"] {
            guard let byte = CSVDialect.delimiter(named: text) else {
                throw .usageInvalidValue(option: "delimiter", value: text, expected: .message(.expectedDelimiter))
            }
            self.delimiter = byte
            delimiterGiven = true
        }
        if let text = options["quote"] {
            guard text.utf8.count == 1, let byte = text.utf8.first, byte >= 0x21, byte < 0x7F,
                byte != self.delimiter
            else {
                throw .usageInvalidValue(option: "quote", value: text, expected: .message(.expectedPrintableCharacter))
            }
            quote = byte
        } else if self.delimiter == quote, let text = options["delimiter"] {
            throw .usageInvalidValue(option: "delimiter", value: text, expected: .message(.expectedDelimiter))
        }
        if let text = options["line-ending"] {
            switch text {
            case "lf": lineEnding = [0x0A]
            case "crlf": lineEnding = [0x0D, 0x0A]
            default: throw .usageInvalidValue(option: "line-ending", value: text, expected: .string("lf, crlf"))
            }
        }
        if let text = options["quoting"] {
            switch text {
            case "minimal": quoteAll = false
            case "all": quoteAll = true
            default: throw .usageInvalidValue(option: "quoting", value: text, expected: .string("minimal, all"))
            }
        }
        if options.flag("no-header") { hasHeader = false }
        if let text = options["ragged"] {
            guard let policy = RaggedRows(rawValue: text) else {
                throw .usageInvalidValue(option: "ragged", value: text, expected: .string("error, pad, truncate"))
            }
            ragged = policy
        }
        if let text = options["encoding"] {
            guard let chosen = TextEncoding(label: text) else {
                throw .usageInvalidValue(
                    option: "encoding", value: text, expected: .string(TextEncoding.allCases.map(\.rawValue).joined(separator: ", ")))
            }
            encoding = chosen
        }
        if let text = options["null"] { nullText = Array(text.utf8) }
        if options.flag("decimal-comma") { decimalComma = true }
        if options.flag("no-infer") { infersTypes = false }
        if let text = options["nested"] {
            guard text == "text" || text == "json" else {
                throw .usageInvalidValue(option: "nested", value: text, expected: .string("text, json"))
            }
            nestedJSON = text == "json"
        }
        if let text = options["max-field-bytes"] {
            guard let limit = Int(text), limit > 0 else {
                throw .usageInvalidValue(option: "max-field-bytes", value: text, expected: .message(.expectedPositiveNumber))
            }
            maxFieldBytes = limit
        }
    }

    /// Sets the delimiter to `character`, as given (no guess from the rows).
    /// - Throws: `usage.invalidValue` for a character `delimiter(named:)`
    ///   refuses (not ASCII, a line break, NUL).
    public mutating func setDelimiter(_ character: Character) throws(FerryError) {
        guard let byte = CSVDialect.delimiter(named: String(character)) else {
            throw .usageInvalidValue(option: "delimiter", value: String(character), expected: .message(.expectedDelimiter))
        }
        delimiter = byte
        delimiterGiven = true
    }

    /// The byte `--delimiter` names: one ASCII character, `tab` or `\t`, or
    /// `\xHH` (`\x1f`, the unit separator); never a line break, NUL or a
    /// byte of a longer UTF-8 character.
    public static func delimiter(named text: String) -> UInt8? {
        let byte: UInt8?
        switch text.lowercased() {
        case "tab", "\\t": byte = 0x09
        case let hex where hex.hasPrefix("\\x") && hex.utf8.count == 4: byte = UInt8(hex.dropFirst(2), radix: 16)
        default: byte = text.utf8.count == 1 ? text.utf8.first : nil
        }
        guard let byte, byte > 0, byte < 0x80, byte != 0x0A, byte != 0x0D else { return nil }
        return byte
    }

    /// The delimiter as messages show it: the character in quotes, or its
    /// name (tab, space), or `\xHH` for other control bytes.
    public var delimiterArgument: MessageArgument {
        switch delimiter {
        case 0x09: .message(.csvDelimiterTab)
        case 0x20: .message(.csvDelimiterSpace)
        case 0x21..<0x7F: .string("'" + String(UnicodeScalar(delimiter)) + "'")
        default: .string("\\x" + (delimiter < 0x10 ? "0" : "") + String(delimiter, radix: 16))
        }
    }

    /// The options CSV and TSV understand.
    static let options: [CodecOption] = [
        CodecOption(
            name: "delimiter", helpKey: .optionCSVDelimiter, valueName: "char", applies: .readWrite),
        CodecOption(name: "quote", helpKey: .optionCSVQuote, valueName: "char", applies: .readWrite),
        CodecOption(name: "no-header", helpKey: .optionCSVNoHeader, applies: .readWrite),
        CodecOption(
            name: "encoding", helpKey: .optionCSVEncoding, valueName: "encoding", applies: .read,
            allowed: TextEncoding.allCases.map(\.rawValue), aliases: TextEncoding.aliases.mapValues(\.rawValue)),
        CodecOption(
            name: "ragged", helpKey: .optionCSVRagged, valueName: "policy", applies: .read,
            allowed: RaggedRows.allCases.map(\.rawValue)),
        CodecOption(name: "max-field-bytes", helpKey: .optionCSVMaxFieldBytes, valueName: "n", applies: .read),
        CodecOption(name: "null", helpKey: .optionCSVNull, valueName: "text", applies: .readWrite),
        CodecOption(name: "decimal-comma", helpKey: .optionCSVDecimalComma, applies: .readWrite),
        CodecOption(name: "no-infer", helpKey: .optionCSVNoInfer, applies: .read),
        CodecOption(
            name: "nested", helpKey: .optionCSVNested, valueName: "form", applies: .readWrite, allowed: ["text", "json"]),
        CodecOption(
            name: "line-ending", helpKey: .optionCSVLineEnding, valueName: "ending", applies: .write,
            allowed: ["lf", "crlf"]),
        CodecOption(
            name: "quoting", helpKey: .optionCSVQuoting, valueName: "style", applies: .write,
            allowed: ["minimal", "all"]),
    ]
}
