import FerryCore

// MARK: - tar codes

extension FerryError.Code {
    public static let tarBadChecksum = Self("tar.badChecksum", .data)
    public static let tarTruncated = Self("tar.truncated", .data)
    public static let tarInvalidNumber = Self("tar.invalidNumber", .data)
    public static let tarInvalidPaxHeader = Self("tar.invalidPaxHeader", .data)
    public static let tarUnsupportedEntry = Self("tar.unsupportedEntry", .data)
}

// MARK: - bundle codes

extension FerryError.Code {
    // Entries a bundle never holds
    public static let bundleAbsolutePath = Self("bundle.absolutePath", .data)
    public static let bundleParentReference = Self("bundle.parentReference", .data)
    public static let bundleSymlink = Self("bundle.symlink", .data)
    public static let bundleHardLink = Self("bundle.hardLink", .data)
    public static let bundleSpecialFile = Self("bundle.specialFile", .data)
    public static let bundleDuplicateEntry = Self("bundle.duplicateEntry", .data)
    public static let bundleUnexpectedEntry = Self("bundle.unexpectedEntry", .data)

    // The manifest, and the content checked against it
    public static let bundleMissingManifest = Self("bundle.missingManifest", .data)
    public static let bundleNotBundle = Self("bundle.notBundle", .data)
    public static let bundleUnsupportedVersion = Self("bundle.unsupportedVersion", .data)
    public static let bundleInvalidManifest = Self("bundle.invalidManifest", .data)
    public static let bundleCountMismatch = Self("bundle.countMismatch", .data)
    public static let bundleSizeMismatch = Self("bundle.sizeMismatch", .data)
    public static let bundleCRCMismatch = Self("bundle.crcMismatch", .data)
    public static let bundleMissingEntry = Self("bundle.missingEntry", .data)
    public static let bundleUnlistedEntry = Self("bundle.unlistedEntry", .data)
    public static let bundleMissingMedia = Self("bundle.missingMedia", .data)

    // The private folder entries are spooled to
    public static let bundleSpoolFailed = Self("bundle.spoolFailed", .io)

    // Limits
    public static let tooManyEntries = Self("limit.tooManyEntries", .data)
    public static let entryTooLarge = Self("limit.entryTooLarge", .data)
}

// MARK: - Factories

extension FerryError {
    // tar headers: each names the entry and the byte offset of its header in
    // the (inflated) tar stream.

    public static func tarBadChecksum(entry: String, at location: SourceLocation) -> FerryError {
        FerryError(.tarBadChecksum, [.path(entry)], at: location)
    }

    public static func tarTruncated(entry: String, at location: SourceLocation) -> FerryError {
        FerryError(.tarTruncated, [.path(entry)], at: location)
    }

    /// A numeric header field (`size`, `chksum`) that is not octal (or base-256).
    public static func tarInvalidNumber(field: String, entry: String, at location: SourceLocation) -> FerryError {
        FerryError(.tarInvalidNumber, [.string(field), .path(entry)], at: location)
    }

    public static func tarInvalidPaxHeader(entry: String, at location: SourceLocation) -> FerryError {
        FerryError(.tarInvalidPaxHeader, [.path(entry)], at: location)
    }

    /// An entry of a type bundles do not use (GNU sparse files, volume labels, …).
    public static func tarUnsupportedEntry(entry: String, type: UInt8, at location: SourceLocation) -> FerryError {
        FerryError(.tarUnsupportedEntry, [.path(entry), .byte(type)], at: location)
    }

    public static func bundleAbsolutePath(entry: String, at location: SourceLocation) -> FerryError {
        FerryError(.bundleAbsolutePath, [.path(entry)], at: location)
    }

    public static func bundleParentReference(entry: String, at location: SourceLocation) -> FerryError {
        FerryError(.bundleParentReference, [.path(entry)], at: location)
    }

    public static func bundleSymlink(entry: String, target: String, at location: SourceLocation) -> FerryError {
        FerryError(.bundleSymlink, [.path(entry), .path(target)], at: location)
    }

    public static func bundleHardLink(entry: String, target: String, at location: SourceLocation) -> FerryError {
        FerryError(.bundleHardLink, [.path(entry), .path(target)], at: location)
    }

    /// A character or block device, or a FIFO; `type` is the tar type flag.
    public static func bundleSpecialFile(entry: String, type: UInt8, at location: SourceLocation) -> FerryError {
        FerryError(.bundleSpecialFile, [.path(entry), .byte(type)], at: location)
    }

    public static func bundleDuplicateEntry(entry: String, at location: SourceLocation) -> FerryError {
        FerryError(.bundleDuplicateEntry, [.path(entry)], at: location)
    }

    /// An entry that is neither the manifest, the records nor under `media/`.
    public static func bundleUnexpectedEntry(entry: String, at location: SourceLocation) -> FerryError {
        FerryError(.bundleUnexpectedEntry, [.path(entry)], at: location)
    }

    /// The first file is not `manifest.json`; `found` is what came instead, empty for none.
    public static func bundleMissingManifest(found: String, at location: SourceLocation) -> FerryError {
        FerryError(.bundleMissingManifest, [.path(found)], at: location)
    }

    public static func bundleNotBundle(format: String, at location: SourceLocation) -> FerryError {
        FerryError(.bundleNotBundle, [.string(format)], at: location)
    }

    public static func bundleUnsupportedVersion(_ version: Int64, at location: SourceLocation) -> FerryError {
        FerryError(.bundleUnsupportedVersion, [.ungrouped(Int(clamping: version))], at: location)
    }

    /// A manifest field is missing or not what it must be; `expected` names a
    /// catalog entry (`.typeInteger`, `.bundleExpectedMediaPath`).
    public static func bundleInvalidManifest(field: String, expected: MessageKey, at location: SourceLocation)
        -> FerryError
    {
        FerryError(.bundleInvalidManifest, [.string(field), .message(expected)], at: location)
    }

    public static func bundleCountMismatch(expected: Int, found: Int, at location: SourceLocation) -> FerryError {
        FerryError(.bundleCountMismatch, [.count(expected), .integer(found)], at: location)
    }

    public static func bundleSizeMismatch(entry: String, expected: Int, found: Int, at location: SourceLocation)
        -> FerryError
    {
        FerryError(.bundleSizeMismatch, [.path(entry), .count(expected), .integer(found)], at: location)
    }

    public static func bundleCRCMismatch(entry: String, expected: UInt32, found: UInt32, at location: SourceLocation)
        -> FerryError
    {
        FerryError(.bundleCRCMismatch, [.path(entry), .ungrouped(Int(expected)), .ungrouped(Int(found))], at: location)
    }

    /// The manifest names an entry the bundle does not hold.
    public static func bundleMissingEntry(entry: String, at location: SourceLocation) -> FerryError {
        FerryError(.bundleMissingEntry, [.path(entry)], at: location)
    }

    /// The bundle holds a media file the manifest does not list.
    public static func bundleUnlistedEntry(entry: String, at location: SourceLocation) -> FerryError {
        FerryError(.bundleUnlistedEntry, [.path(entry)], at: location)
    }

    /// A record's photo names a `media/` file the bundle does not hold.
    public static func bundleMissingMedia(reference: String, at location: SourceLocation) -> FerryError {
        FerryError(.bundleMissingMedia, [.path(reference)], at: location)
    }

    public static func bundleSpoolFailed(_ directory: String, errno number: Int32) -> FerryError {
        FerryError(.bundleSpoolFailed, [.path(directory), reason(errno: number)], at: SourceLocation(file: directory))
    }

    public static func tooManyEntries(limit: Int, at location: SourceLocation) -> FerryError {
        FerryError(.tooManyEntries, [.count(limit)], at: location)
    }

    public static func entryTooLarge(entry: String, limit: Int, at location: SourceLocation) -> FerryError {
        FerryError(.entryTooLarge, [.path(entry), .count(limit)], at: location)
    }
}
