import FerryCore

// MARK: - Keyed-archive codes

extension FerryError.Code {
    public static let archiveNotArchive = Self("archive.notArchive", .data)
    public static let archiveMissingHeader = Self("archive.missingHeader", .data)
    public static let archiveHeaderWrongType = Self("archive.headerWrongType", .data)
    public static let archiveUnknownArchiver = Self("archive.unknownArchiver", .data)
    public static let archiveUnsupportedVersion = Self("archive.unsupportedVersion", .data)
    public static let archiveUIDOutOfRange = Self("archive.uidOutOfRange", .data)
    public static let archiveCycle = Self("archive.cycle", .data)
    public static let archiveInvalidClass = Self("archive.invalidClass", .data)
    public static let archiveMissingClass = Self("archive.missingClass", .data)
    public static let archiveWrongType = Self("archive.wrongType", .data)
    public static let archiveRecordNotObject = Self("archive.recordNotObject", .data)
    /// A warning: an image named by the app, with no bytes in the archive.
    public static let archiveNamedImage = Self("archive.namedImage", .data)
    /// Writing: a record's `$class` is no string, or its `$classes` no array of strings.
    public static let archiveClassFieldWrongType = Self("archive.classFieldWrongType", .data)
}

extension FerryError {
    public static func archiveNotArchive(at location: SourceLocation) -> FerryError {
        FerryError(.archiveNotArchive, [], at: location)
    }

    /// - Parameter key: `$archiver`, `$version`, `$top`, `$top.root` or `$objects`.
    public static func archiveMissingHeader(_ key: String, at location: SourceLocation) -> FerryError {
        FerryError(.archiveMissingHeader, [.string(key)], at: location)
    }

    /// - Parameter expected: a plist type name (`dict`, `array`, `uid`).
    public static func archiveHeaderWrongType(_ key: String, expected: String, at location: SourceLocation) -> FerryError {
        FerryError(.archiveHeaderWrongType, [.string(key), .typeName(expected)], at: location)
    }

    /// - Parameter found: the header's value, as `KeyedArchiveObjects.describe` shows it.
    public static func archiveUnknownArchiver(_ found: MessageArgument, at location: SourceLocation) -> FerryError {
        FerryError(.archiveUnknownArchiver, [found], at: location)
    }

    /// - Parameter found: the header's value, as `KeyedArchiveObjects.describe` shows it.
    public static func archiveUnsupportedVersion(_ found: MessageArgument, at location: SourceLocation) -> FerryError {
        FerryError(.archiveUnsupportedVersion, [found], at: location)
    }

    public static func archiveUIDOutOfRange(_ uid: Int, count: Int, at location: SourceLocation) -> FerryError {
        FerryError(.archiveUIDOutOfRange, [.integer(uid), .count(count)], at: location)
    }

    public static func archiveCycle(_ object: Int, at location: SourceLocation) -> FerryError {
        FerryError(.archiveCycle, [.integer(object)], at: location)
    }

    public static func archiveInvalidClass(_ object: Int, at location: SourceLocation) -> FerryError {
        FerryError(.archiveInvalidClass, [.integer(object)], at: location)
    }

    public static func archiveMissingClass(_ object: Int, at location: SourceLocation) -> FerryError {
        FerryError(.archiveMissingClass, [.integer(object)], at: location)
    }

    /// - Parameter expected: the catalog entry of a type, such as `.typeArray`.
    public static func archiveWrongType(_ object: Int, field key: String, expected: MessageKey, at location: SourceLocation) -> FerryError {
        FerryError(.archiveWrongType, [.integer(object), .string(key), .message(expected)], at: location)
    }

    public static func archiveRecordNotObject(_ object: Int, found: String, at location: SourceLocation) -> FerryError {
        FerryError(.archiveRecordNotObject, [.integer(object), .typeName(found)], at: location)
    }

    /// A record's `$class` or `$classes` field cannot name its class.
    /// - Parameters:
    ///   - field: `$class` or `$classes`.
    ///   - expected: `.typeString` for `$class`, `.typeArray` (of strings) for `$classes`.
    public static func archiveClassFieldWrongType(field: String, expected: MessageKey) -> FerryError {
        FerryError(.archiveClassFieldWrongType, [.string(field), .message(expected)])
    }
}
