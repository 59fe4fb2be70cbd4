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
    /// `--records-at`: a malformed RFC 6901 pointer (a usage error), one
    /// that names nothing in the document, and one that names no array.
    public static let jsonInvalidPointer = Self("json.invalidPointer", .usage)
    public static let jsonPointerNotFound = Self("json.pointerNotFound", .data)
    public static let jsonPointerNotArray = Self("json.pointerNotArray", .data)
    /// A warning in `convert`, an error in `validate`: RFC 8259 says the
    /// names in an object should be unique.
    public static let jsonDuplicateName = Self("json.duplicateName", .data)
}

// MARK: - Factories

extension FerryError {
    public static func jsonInvalidPointer(_ pointer: String) -> FerryError {
        FerryError(.jsonInvalidPointer, [.string(pointer)])
    }

    /// Nothing in the document is at `pointer`; `location` is where the
    /// container that lacks its next token ends, or the value that has none.
    public static func jsonPointerNotFound(_ pointer: String, at location: SourceLocation) -> FerryError {
        FerryError(.jsonPointerNotFound, [.string(pointer)], at: location)
    }

    /// The value at `pointer`, at `location`, is a `found`, not an array.
    public static func jsonPointerNotArray(_ pointer: String, found: String, at location: SourceLocation) -> FerryError {
        FerryError(.jsonPointerNotArray, [.string(pointer), .typeName(found)], at: location)
    }
}
