/// The one error type of Ferry.
///
/// It carries a stable code, typed arguments and a location, and no English:
/// the text comes from a message catalog, looked up by code when the error is
/// shown. Codecs build errors through named factories next to their codes.
public struct FerryError: Error, Sendable, Hashable {
    public var code: Code
    public var arguments: [MessageArgument]
    public var location: SourceLocation

    public init(_ code: Code, _ arguments: [MessageArgument] = [], at location: SourceLocation = .unknown) {
        self.code = code
        self.arguments = arguments
        self.location = location
    }

    /// This error with the gaps in its location filled from `location`.
    public func located(_ location: SourceLocation) -> FerryError {
        var copy = self
        copy.location = self.location.filling(from: location)
        return copy
    }
}

extension FerryError {
    /// A stable, namespaced error or warning code such as `json.unexpectedCharacter`.
    ///
    /// A released code is never renamed. The category decides the exit status.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public let category: Category

        public init(_ rawValue: String, _ category: Category) {
            self.rawValue = rawValue
            self.category = category
        }

        public var description: String { rawValue }

        public static func == (lhs: Code, rhs: Code) -> Bool { lhs.rawValue == rhs.rawValue }
        public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    }

    /// What went wrong, in the sense the exit status reports.
    public enum Category: Sendable, Hashable {
        /// The data is invalid or malformed, or over a limit.
        case data
        /// The command line is wrong.
        case usage
        /// An input could not be read or an output could not be written.
        case io
    }
}

/// A typed argument of a message. Catalogs place it with `%1$@`, `%2$@`, …,
/// after formatting it for the reader's language.
public enum MessageArgument: Sendable, Hashable {
    case string(String)
    /// A quantity, grouped by thousands as the language writes it (`1,234`,
    /// `1.234`, `1 234`).
    case integer(Int)
    /// A number of things, shown as `integer` is, that also picks the plural
    /// form of the message: the first `.count` of an error's arguments decides
    /// between `limit.recordTooLarge#one` and `limit.recordTooLarge#other`.
    case count(Int)
    /// A number that programs and people look up rather than read as a
    /// quantity (a byte offset, a status, a version, a checksum): plain ASCII
    /// digits, never grouped.
    case ungrouped(Int)
    /// A number with a fraction, with the language's decimal separator.
    case double(Double)
    /// A file path, shown as given.
    case path(String)
    /// A byte from the input, shown as a character when printable, else as hex.
    case byte(UInt8)
    /// Another catalog entry, looked up and shown in the reader's language
    /// (an errno name such as `.errnoENOENT`, a type name such as `.typeInteger`).
    case message(MessageKey)
}

extension MessageArgument: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
}

extension MessageArgument {
    /// A type's name as messages show it, in the reader's language: `integer`
    /// gives `.message(.typeInteger)` ("an integer"). The names are those of
    /// `Value.typeName`, `PlistValue.typeName` and `FieldType`; any other name
    /// is shown as it is.
    public static func typeName(_ name: String) -> MessageArgument {
        switch name {
        case "null": .message(.typeNull)
        case "bool": .message(.typeBool)
        case "integer": .message(.typeInteger)
        case "double": .message(.typeDouble)
        case "number": .message(.typeNumber)
        case "string": .message(.typeString)
        case "bytes": .message(.typeBytes)
        case "date": .message(.typeDate)
        case "array": .message(.typeArray)
        case "object": .message(.typeObject)
        case "real": .message(.typeReal)
        case "data": .message(.typeData)
        case "uid": .message(.typeUID)
        case "dict": .message(.typeDict)
        case "photo": .message(.typePhoto)
        default: .string(name)
        }
    }
}

/// A problem that does not stop a conversion. It has the shape of `FerryError`
/// and renders through the same catalogs.
public struct FerryWarning: Sendable, Hashable {
    public var code: FerryError.Code
    public var arguments: [MessageArgument]
    public var location: SourceLocation

    public init(_ code: FerryError.Code, _ arguments: [MessageArgument] = [], at location: SourceLocation = .unknown) {
        self.code = code
        self.arguments = arguments
        self.location = location
    }
}
