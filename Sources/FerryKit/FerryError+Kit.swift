// MARK: - Codes of the conversion pipeline

extension FerryError.Code {
    public static let ioTemporaryFile = Self("io.temporaryFile", .io)
    public static let ioRenameFailed = Self("io.renameFailed", .io)
}

extension FerryError {
    public static func ioTemporaryFile(_ directory: String, errno number: Int32) -> FerryError {
        FerryError(.ioTemporaryFile, [.path(directory), reason(errno: number)], at: SourceLocation(file: directory))
    }

    public static func ioRenameFailed(_ path: String, errno number: Int32) -> FerryError {
        FerryError(.ioRenameFailed, [.path(path), reason(errno: number)], at: SourceLocation(file: path))
    }

    public static func photoOutsideFolder(_ reference: String, at location: SourceLocation) -> FerryError {
        FerryError(.photoOutsideFolder, [.path(reference)], at: location)
    }

    public static func photoUnreadable(_ reference: String, errno number: Int32, at location: SourceLocation) -> FerryError {
        FerryError(.photoUnreadable, [.path(reference), reason(errno: number)], at: location)
    }

    public static func photoInvalidDataURI(at location: SourceLocation) -> FerryError {
        FerryError(.photoInvalidDataURI, [], at: location)
    }

    public static func photoTooLarge(_ reference: String, limit: Int, at location: SourceLocation) -> FerryError {
        FerryError(.photoTooLarge, [.path(reference), .count(limit)], at: location)
    }
}

// MARK: - Codes of validation

extension FerryError.Code {
    /// A value of a unique field (`x-ferry-unique`) that an earlier record has.
    public static let recordDuplicateKey = Self("record.duplicateKey", .data)
    /// A photo whose bytes are not a PNG or a JPEG.
    public static let photoNotImage = Self("photo.notImage", .data)
    /// Photo references in a folder that does not exist, so not checked (a warning).
    public static let photoNotChecked = Self("photo.notChecked", .data)
}
