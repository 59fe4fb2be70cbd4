import FerryCore

// MARK: - XML property-list codes

extension FerryError.Code {
    public static let xmlPlistUnexpectedCharacter = Self("xmlplist.unexpectedCharacter", .data)
    public static let xmlPlistUnknownTag = Self("xmlplist.unknownTag", .data)
    public static let xmlPlistUnexpectedTag = Self("xmlplist.unexpectedTag", .data)
    public static let xmlPlistMismatchedTag = Self("xmlplist.mismatchedTag", .data)
    public static let xmlPlistUnterminated = Self("xmlplist.unterminated", .data)
    public static let xmlPlistEmpty = Self("xmlplist.empty", .data)
    public static let xmlPlistInvalidEntity = Self("xmlplist.invalidEntity", .data)
    public static let xmlPlistEntityDeclaration = Self("xmlplist.entityDeclaration", .data)
    public static let xmlPlistInvalidInteger = Self("xmlplist.invalidInteger", .data)
    public static let xmlPlistIntegerOutOfRange = Self("xmlplist.integerOutOfRange", .data)
    public static let xmlPlistInvalidReal = Self("xmlplist.invalidReal", .data)
    public static let xmlPlistInvalidDate = Self("xmlplist.invalidDate", .data)
    public static let xmlPlistInvalidBase64 = Self("xmlplist.invalidBase64", .data)
    public static let xmlPlistInvalidCharacter = Self("xmlplist.invalidCharacter", .data)
    public static let xmlPlistInvalidUTF8 = Self("xmlplist.invalidUTF8", .data)
    public static let xmlPlistMissingKey = Self("xmlplist.missingKey", .data)
    public static let xmlPlistMissingValue = Self("xmlplist.missingValue", .data)
    public static let xmlPlistNullValue = Self("xmlplist.nullValue", .data)
}

// MARK: - Factories
//
// Tags and constructs are passed as the markup itself (`<dict>`, `<!--`),
// which reads the same in every language.

extension FerryError {
    /// A byte that cannot start or continue markup here, such as text between elements.
    public static func xmlPlistUnexpectedCharacter(_ byte: UInt8, at location: SourceLocation = .unknown) -> FerryError
    {
        FerryError(.xmlPlistUnexpectedCharacter, [.byte(byte)], at: location)
    }

    /// An element a property list does not have (`<foo>`).
    public static func xmlPlistUnknownTag(_ name: String, at location: SourceLocation = .unknown) -> FerryError {
        FerryError(.xmlPlistUnknownTag, [.string("<\(name)>")], at: location)
    }

    /// A property-list element where it may not stand (`<key>` in an array).
    public static func xmlPlistUnexpectedTag(_ tag: String, at location: SourceLocation = .unknown) -> FerryError {
        FerryError(.xmlPlistUnexpectedTag, [.string(tag)], at: location)
    }

    /// An end tag that does not close the element open (`</array>` for `<dict>`).
    public static func xmlPlistMismatchedTag(
        found: String, expected: String, at location: SourceLocation = .unknown
    ) -> FerryError {
        FerryError(.xmlPlistMismatchedTag, [.string(found), .string(expected)], at: location)
    }

    /// The input ends inside `construct` (`<dict>`, `<!--`, `<![CDATA[`).
    public static func xmlPlistUnterminated(_ construct: String, at location: SourceLocation = .unknown) -> FerryError {
        FerryError(.xmlPlistUnterminated, [.string(construct)], at: location)
    }

    /// The document has no value: no root element, or an empty `<plist/>`.
    public static func xmlPlistEmpty(at location: SourceLocation = .unknown) -> FerryError {
        FerryError(.xmlPlistEmpty, [], at: location)
    }

    /// An entity or character reference other than the five XML predefines
    /// and valid `&#N;`/`&#xN;`.
    public static func xmlPlistInvalidEntity(_ text: String, at location: SourceLocation = .unknown) -> FerryError {
        FerryError(.xmlPlistInvalidEntity, [.string(text)], at: location)
    }

    /// A DOCTYPE whose internal subset declares entities, which Ferry never expands.
    public static func xmlPlistEntityDeclaration(at location: SourceLocation = .unknown) -> FerryError {
        FerryError(.xmlPlistEntityDeclaration, [], at: location)
    }

    public static func xmlPlistInvalidInteger(_ text: String, at location: SourceLocation = .unknown) -> FerryError {
        FerryError(.xmlPlistInvalidInteger, [.string(text)], at: location)
    }

    /// An integer beyond the 64-bit range plists hold (below `Int64.min` or above `UInt64.max`).
    public static func xmlPlistIntegerOutOfRange(_ text: String, at location: SourceLocation = .unknown) -> FerryError {
        FerryError(.xmlPlistIntegerOutOfRange, [.string(text)], at: location)
    }

    public static func xmlPlistInvalidReal(_ text: String, at location: SourceLocation = .unknown) -> FerryError {
        FerryError(.xmlPlistInvalidReal, [.string(text)], at: location)
    }

    public static func xmlPlistInvalidDate(_ text: String, at location: SourceLocation = .unknown) -> FerryError {
        FerryError(.xmlPlistInvalidDate, [.string(text)], at: location)
    }

    public static func xmlPlistInvalidBase64(at location: SourceLocation = .unknown) -> FerryError {
        FerryError(.xmlPlistInvalidBase64, [], at: location)
    }

    /// A character XML 1.0 cannot carry, written as `U+0001`.
    public static func xmlPlistInvalidCharacter(scalar: UInt32, at location: SourceLocation = .unknown) -> FerryError {
        let hex = String(scalar, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        return FerryError(.xmlPlistInvalidCharacter, [.string(code)], at: location)
    }

    public static func xmlPlistInvalidUTF8(at location: SourceLocation = .unknown) -> FerryError {
        FerryError(.xmlPlistInvalidUTF8, [], at: location)
    }

    /// A dictionary value with no `<key>` before it; `tag` is the value's element.
    public static func xmlPlistMissingKey(before tag: String, at location: SourceLocation = .unknown) -> FerryError {
        FerryError(.xmlPlistMissingKey, [.string(tag)], at: location)
    }

    /// A `<key>` with no value after it.
    public static func xmlPlistMissingValue(key: String, at location: SourceLocation = .unknown) -> FerryError {
        FerryError(.xmlPlistMissingValue, [.string(key)], at: location)
    }

    /// The binary `null` object, which XML property lists cannot hold.
    public static func xmlPlistNullValue(at location: SourceLocation = .unknown) -> FerryError {
        FerryError(.xmlPlistNullValue, [], at: location)
    }
}
