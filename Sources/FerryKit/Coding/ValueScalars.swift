#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What each value may become when a `Decodable` asks for a scalar.
///
/// A value becomes the type asked for when it holds that type's value
/// exactly, whichever format it came from:
///
/// | asked | from |
/// |---|---|
/// | `String` | a string; an integer or a number as its text |
/// | `Bool` | a boolean; the strings `true` and `false` |
/// | integers | an integer, a number or a string that is a whole number in range |
/// | `Double`, `Float` | any number; a string that is one |
/// | `Decimal` | any number, from its text (`19.99` stays 19.99); a string that is one |
/// | `Date` | a date (plist); an ISO 8601 string |
/// | `Data` | bytes (a photo); a `data:` URI; a photo's file name, when the decoding resolves them |
/// | `URL` | a string that parses as a URL |
///
/// Strings count because CSV's cells are text unless a kind or schema
/// types them. Anything else is `record.wrongType`, or
/// `decode.invalidValue` for a value of the right type the Swift type
/// cannot hold (300 as an `Int8`, `12abc` as a `Decimal`).
enum ValueScalars {
    static func string(_ value: Value, decoder: RecordDecoder, key: (any CodingKey)?) throws(FerryError) -> String {
        switch value {
        case .string(let text): return text
        case .integer(let number): return String(number)
        case .number(let number): return number.text
        default: throw decoder.mismatch(expected: "string", found: value, key: key)
        }
    }

    static func bool(_ value: Value, decoder: RecordDecoder, key: (any CodingKey)?) throws(FerryError) -> Bool {
        switch value {
        case .bool(let flag): return flag
        case .string("true"): return true
        case .string("false"): return false
        default: throw decoder.mismatch(expected: "bool", found: value, key: key)
        }
    }

    static func integer<I: FixedWidthInteger>(
        _ value: Value, decoder: RecordDecoder, key: (any CodingKey)?
    ) throws(FerryError) -> I {
        let result: I?
        switch number(value) {
        case .integer(let number)?: result = I(exactly: number)
        case .double(let number)?: result = I(exactly: number)
        case .number(let number)?:
            result = number.unsignedInteger.flatMap { I(exactly: $0) }
        default: throw decoder.mismatch(expected: "integer", found: value, key: key)
        }
        guard let result else { throw invalid(value, as: "\(I.self)", decoder: decoder, key: key) }
        return result
    }

    static func double(_ value: Value, decoder: RecordDecoder, key: (any CodingKey)?) throws(FerryError) -> Double {
        switch number(value) {
        case .integer(let number)?: return Double(number)
        case .double(let number)?: return number
        case .number(let number)?: return Double(number.text) ?? .nan
        default: throw decoder.mismatch(expected: "number", found: value, key: key)
        }
    }

    static func float(_ value: Value, decoder: RecordDecoder, key: (any CodingKey)?) throws(FerryError) -> Float {
        let number = try double(value, decoder: decoder, key: key)
        guard !number.isFinite || abs(number) <= Double(Float.greatestFiniteMagnitude) else {
            throw invalid(value, as: "Float", decoder: decoder, key: key)
        }
        return Float(number)
    }

    /// `value` as a number: itself, or the number a string spells.
    private static func number(_ value: Value) -> Value? {
        switch value {
        case .integer, .double: return value
        case .number(let number):
            // An integer too large for Int64 keeps its text, which
            // `unsignedInteger` reads; anything else by its value.
            return number.unsignedInteger == nil ? number.value : value
        case .string(var text):
            return text.withUTF8 { DecimalText.parse($0) }
        default: return nil
        }
    }

    /// The types Foundation's coders treat as scalars, when `T` is one;
    /// nil when it is not, and `T` decodes itself.
    static func special<T: Decodable>(
        _ type: T.Type, from value: Value, rules: DecodingRules, at path: () -> FieldPath
    ) throws(FerryError) -> T? {
        if T.self == Decimal.self {
            return same(try decimal(value, path), as: T.self)
        } else if T.self == Date.self {
            return same(try date(value, path), as: T.self)
        } else if T.self == Data.self {
            return same(Data(try bytes(value, rules: rules, path)), as: T.self)
        } else if T.self == URL.self {
            guard case .string(let text) = value else { throw wrongType("string", value, path()) }
            guard let url = URL(string: text) else { throw invalid(value, as: "URL", path()) }
            return same(url, as: T.self)
        }
        return nil
    }

    /// `value` as `T`, which the caller has found to be its type: without
    /// the dynamic cast `as? T` would run (about 250 instructions, an
    /// eighth of decoding a `Decimal?` field).
    @inline(__always)
    private static func same<Scalar, T>(_ value: Scalar, as type: T.Type) -> T? {
        guard Scalar.self == T.self else { return nil }
        return withUnsafePointer(to: value) { UnsafeRawPointer($0).assumingMemoryBound(to: T.self).pointee }
    }

    private static func decimal(_ value: Value, _ path: () -> FieldPath) throws(FerryError) -> Decimal {
        let text: String
        switch value {
        case .integer(let number): return Decimal(number)
        case .double(let number) where number.isFinite:
            if let exact = decimal(scaling: number) { return exact }
            // Readers hand out a double only when it prints as written, so
            // its shortest text is the file's.
            text = "\(number)"
        case .number(let number): text = number.text
        case .string(let string):
            // `decimal(text:)` reads the whole text, and refuses what is not a number.
            text = string
        case .double: throw invalid(value, as: "Decimal", path())
        default: throw wrongType("number", value, path())
        }
        guard let decimal = decimal(text: text) else { throw invalid(value, as: "Decimal", path()) }
        return decimal
    }

    /// The decimal with the fewest fraction digits (up to 15) whose nearest
    /// double is `number`: 19.99 for the double nearest 19.99, as its
    /// shortest text would say, without printing it. An integer `m` below
    /// 2⁵³ and a power of ten are exact doubles, so `m / 10ᵏ` is the
    /// double nearest m × 10⁻ᵏ, and equal to `number` when that decimal
    /// is the one it was read from.
    static func decimal(scaling number: Double) -> Decimal? {
        var scale = 1.0
        for digits in 0...15 {
            let scaled = (number * scale).rounded()
            guard abs(scaled) < 9_007_199_254_740_992 else { return nil }
            if scaled / scale == number {
                return Decimal(
                    sign: scaled < 0 ? .minus : .plus, exponent: -digits, significand: Decimal(UInt64(abs(scaled))))
            }
            scale *= 10
        }
        return nil
    }

    /// The decimal a number's text spells, exactly: `19.99` is 1999 × 10⁻².
    ///
    /// Up to 19 significant digits, `DecimalText`'s scan gives the digits
    /// as an integer and the point as an exponent, which costs about 300
    /// instructions; longer numbers go to `Decimal(string:)`, which costs
    /// fifteen times as much.
    static func decimal(text: String) -> Decimal? {
        var text = text
        guard let scanned = text.withUTF8({ DecimalText.scan($0) }) else { return nil }
        // Decimal holds 38 digits and exponents of -128 through 127; past
        // what the fast way holds, Foundation's parser decides.
        guard !scanned.truncated, scanned.exponent >= -128, scanned.exponent <= 127 else {
            return scanned.mantissa == 0 && !scanned.truncated ? Decimal(0) : Decimal(string: text)
        }
        return Decimal(
            sign: scanned.negative ? .minus : .plus, exponent: scanned.exponent,
            significand: Decimal(scanned.mantissa))
    }

    private static func date(_ value: Value, _ path: () -> FieldPath) throws(FerryError) -> Date {
        switch value {
        case .date(let date): return date
        case .string(let text):
            guard let date = Timestamp.date(iso8601: text) else { throw invalid(value, as: "Date", path()) }
            return date
        default: throw wrongType("date", value, path())
        }
    }

    private static func bytes(_ value: Value, rules: DecodingRules, _ path: () -> FieldPath) throws(FerryError) -> [UInt8] {
        switch value {
        case .bytes(let bytes): return bytes
        case .string(let text) where Photo.isDataURI(text):
            guard let bytes = Photo.bytes(fromDataURI: text) else {
                throw .photoInvalidDataURI(at: path().location)
            }
            return bytes
        case .string(let name):
            guard let photo = rules.photo else { throw wrongType("bytes", value, path()) }
            do throws(FerryError) {
                return try photo(name)
            } catch {
                throw error.located(path().location)
            }
        default: throw wrongType("bytes", value, path())
        }
    }

    // MARK: Errors

    private static func wrongType(_ expected: String, _ value: Value, _ path: FieldPath) -> FerryError {
        .recordWrongType(path.text, expected: expected, found: value.typeName, at: path.location)
    }

    private static func invalid(_ value: Value, as type: String, _ path: FieldPath) -> FerryError {
        .decodeInvalidValue(path.text, value: display(value), type: type, at: path.location)
    }

    /// A scalar's text for a message, as the file spells it.
    private static func display(_ value: Value) -> String {
        switch value {
        case .string(let text): text
        case .integer(let number): String(number)
        case .double(let number): "\(number)"
        case .number(let number): number.text
        case .bool(let flag): flag ? "true" : "false"
        default: value.typeName
        }
    }

    private static func invalid(
        _ value: Value, as type: String, decoder: RecordDecoder, key: (any CodingKey)?
    ) -> FerryError {
        invalid(value, as: type, decoder.path(appending: key))
    }
}
