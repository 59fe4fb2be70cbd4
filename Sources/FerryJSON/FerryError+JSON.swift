import FerryCore

// MARK: - JSON codes

extension FerryError.Code {
    public static let jsonUnexpectedCharacter = Self("json.unexpectedCharacter", .data)
    public static let jsonUnexpectedEnd = Self("json.unexpectedEnd", .data)
    public static let jsonEmpty = Self("json.empty", .data)
    public static let jsonInvalidNumber = Self("json.invalidNumber", .data)
    public static let jsonNumberOutOfRange = Self("json.numberOutOfRange", .data)
    public static let jsonInvalidEscape = Self("json.invalidEscape", .data)
    public static let jsonInvalidSurrogate = Self("json.invalidSurrogate", .data)
    public static let jsonControlCharacter = Self("json.controlCharacter", .data)
    public static let jsonInvalidUTF8 = Self("json.invalidUTF8", .data)
    public static let jsonTrailingData = Self("json.trailingData", .data)
    public static let jsonExpectedNewline = Self("json.expectedNewline", .data)
    /// A NUL byte where JSON text should be: UTF-16 or a binary file, as
    /// `csv.nullByte` says for CSV.
    public static let jsonNullByte = Self("json.nullByte", .data)
    /// A warning in `convert`, an error in `validate`: RFC 8259 says the
    /// names in an object should be unique.
    public static let jsonDuplicateName = Self("json.duplicateName", .data)
}
