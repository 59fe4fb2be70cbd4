// MARK: - Codes of decoding and encoding your own types

extension FerryError.Code {
    /// A field's value is of the right type, but the Swift type asked for
    /// cannot hold it (300 as an `Int8`, `12abc` as a `Decimal`).
    public static let decodeInvalidValue = Self("decode.invalidValue", .data)
    /// A type's own `init(from:)` refused a record (a `DecodingError` it threw).
    public static let decodeFailed = Self("decode.failed", .data)
    /// A value encodes as something other than a keyed container (an
    /// `Int`, an array), which cannot be a record.
    public static let encodeNotARecord = Self("encode.notARecord", .usage)
}

extension FerryError {
    /// - Parameters:
    ///   - field: the field's path, `price` or `dimensions.width`.
    ///   - value: the value as the file spells it.
    ///   - type: the Swift type asked for.
    public static func decodeInvalidValue(
        _ field: String, value: String, type: String, at location: SourceLocation
    ) -> FerryError {
        FerryError(.decodeInvalidValue, [.string(field), .string(value), .string(type)], at: location)
    }

    /// - Parameters:
    ///   - field: the path where the type's own code failed, empty for the record.
    ///   - reason: the `DecodingError`'s description, in the words of the type's author.
    public static func decodeFailed(_ field: String, reason: String, at location: SourceLocation) -> FerryError {
        FerryError(.decodeFailed, [.string(field), .string(reason)], at: location)
    }

    /// - Parameter type: the Swift type that does not encode as a record.
    public static func encodeNotARecord(_ type: String) -> FerryError {
        FerryError(.encodeNotARecord, [.string(type)])
    }
}
