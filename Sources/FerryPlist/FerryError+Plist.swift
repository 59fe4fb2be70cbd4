import FerryCore

// MARK: - Property-list codes shared by the binary and XML forms

extension FerryError.Code {
    public static let plistIntegerOutOfRange = Self("plist.integerOutOfRange", .data)
    public static let plistNullInArray = Self("plist.nullInArray", .data)
    public static let plistInvalidDate = Self("plist.invalidDate", .data)
}

extension FerryError {
    public static func plistIntegerOutOfRange(_ digits: String, at location: SourceLocation = .unknown) -> FerryError {
        FerryError(.plistIntegerOutOfRange, [.string(digits)], at: location)
    }

    public static func plistNullInArray(at location: SourceLocation = .unknown) -> FerryError {
        FerryError(.plistNullInArray, [], at: location)
    }

    /// A date no calendar date can show (`Timestamp.isWritable`): NaN, an
    /// infinity, or millions of years away.
    /// - Parameters:
    ///   - object: the object number (binary plists) or UID (archives).
    ///   - seconds: the date as seconds since 2001-01-01, as the file has it.
    public static func plistInvalidDate(_ object: Int, seconds: Double, at location: SourceLocation) -> FerryError {
        FerryError(.plistInvalidDate, [.integer(object), .string(String(seconds))], at: location)
    }
}

// MARK: - Binary property-list codes

extension FerryError.Code {
    public static let bplistNotBinaryPlist = Self("bplist.notBinaryPlist", .data)
    public static let bplistInvalidTrailer = Self("bplist.invalidTrailer", .data)
    public static let bplistReferenceOutOfRange = Self("bplist.referenceOutOfRange", .data)
    public static let bplistOffsetOutOfRange = Self("bplist.offsetOutOfRange", .data)
    public static let bplistInvalidObject = Self("bplist.invalidObject", .data)
    public static let bplistObjectOutOfBounds = Self("bplist.objectOutOfBounds", .data)
    public static let bplistInvalidString = Self("bplist.invalidString", .data)
    public static let bplistExpectedString = Self("bplist.expectedString", .data)
    public static let bplistKeyNotString = Self("bplist.keyNotString", .data)
    public static let bplistCycle = Self("bplist.cycle", .data)
    public static let bplistRecordNotDictionary = Self("bplist.recordNotDictionary", .data)
}

extension FerryError {
    public static func bplistNotBinaryPlist(at location: SourceLocation) -> FerryError {
        FerryError(.bplistNotBinaryPlist, [], at: location)
    }

    /// - Parameter field: the trailer field that is wrong (`offsetSize`, `objectCount`, …).
    public static func bplistInvalidTrailer(_ field: String, at location: SourceLocation) -> FerryError {
        FerryError(.bplistInvalidTrailer, [.string(field)], at: location)
    }

    public static func bplistReferenceOutOfRange(_ reference: Int, count: Int, at location: SourceLocation) -> FerryError {
        FerryError(.bplistReferenceOutOfRange, [.integer(reference), .count(count)], at: location)
    }

    public static func bplistOffsetOutOfRange(_ object: Int, at location: SourceLocation) -> FerryError {
        FerryError(.bplistOffsetOutOfRange, [.integer(object)], at: location)
    }

    public static func bplistInvalidObject(_ object: Int, marker: UInt8, at location: SourceLocation) -> FerryError {
        FerryError(.bplistInvalidObject, [.integer(object), .byte(marker)], at: location)
    }

    public static func bplistObjectOutOfBounds(_ object: Int, at location: SourceLocation) -> FerryError {
        FerryError(.bplistObjectOutOfBounds, [.integer(object)], at: location)
    }

    public static func bplistInvalidString(_ object: Int, at location: SourceLocation) -> FerryError {
        FerryError(.bplistInvalidString, [.integer(object)], at: location)
    }

    public static func bplistExpectedString(_ object: Int, at location: SourceLocation) -> FerryError {
        FerryError(.bplistExpectedString, [.integer(object)], at: location)
    }

    public static func bplistKeyNotString(_ dictionary: Int, at location: SourceLocation) -> FerryError {
        FerryError(.bplistKeyNotString, [.integer(dictionary)], at: location)
    }

    public static func bplistCycle(_ object: Int, at location: SourceLocation) -> FerryError {
        FerryError(.bplistCycle, [.integer(object)], at: location)
    }

    public static func bplistRecordNotDictionary(_ object: Int, type: String, at location: SourceLocation) -> FerryError {
        FerryError(.bplistRecordNotDictionary, [.integer(object), .typeName(type)], at: location)
    }
}
