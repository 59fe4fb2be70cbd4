// MARK: - Codes of the conversion pipeline

extension FerryError.Code {
    public static let ioRenameFailed = Self("io.renameFailed", .io)
    public static let ioOutOfMemory = Self("io.outOfMemory", .io)
}

extension FerryError {
    public static func ioRenameFailed(_ path: String, errno number: Int32) -> FerryError {
        FerryError(.ioRenameFailed, [.path(path), reason(errno: number)], at: SourceLocation(file: path))
    }

    /// The table of unique keys (`UniqueKeys`) needed to grow and the
    /// system had no memory for it.
    public static func ioOutOfMemory(at location: SourceLocation = .unknown) -> FerryError {
        FerryError(.ioOutOfMemory, [], at: location)
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
    /// A photo converted whose bytes are no common image type (a warning).
    public static let photoUnknownType = Self("photo.unknownType", .data)
}

extension FerryWarning {
    /// - Parameter type: what the bytes look like (`image/tiff`, or
    ///   `application/octet-stream` for nothing known).
    public static func photoUnknownType(_ type: ImageType, at location: SourceLocation) -> FerryWarning {
        FerryWarning(.photoUnknownType, [.string(type.mediaType)], at: location)
    }
}

// MARK: - Codes of inspection

extension FerryError.Code {
    /// A hint: the file is one record whose one member holds an array of
    /// objects, which `--records-at` would read as the records.
    public static let inspectRecordsInMember = Self("inspect.recordsInMember", .data)
}

extension FerryWarning {
    public static func inspectRecordsInMember(_ member: String, pointer: String, path: String) -> FerryWarning {
        FerryWarning(.inspectRecordsInMember, [.string(member), .string(pointer)], at: SourceLocation(file: path))
    }
}

// MARK: - Codes of outputs

extension FerryError.Code {
    /// An output name whose extension no codec claims, without `--to`.
    public static let outputUnknownExtension = Self("output.unknownExtension", .usage)
    /// `--gzip` or a `.gz` suffix on a format that is gzip'd already (a bundle).
    public static let outputAlreadyCompressed = Self("output.alreadyCompressed", .usage)
    /// `--level` when the output is not compressed.
    public static let outputLevelWithoutGzip = Self("output.levelWithoutGzip", .usage)
    /// Binary output (a binary plist, an archive, gzip, a bundle) to a terminal, without `--force`.
    public static let outputBinaryToTerminal = Self("output.binaryToTerminal", .usage)
    /// An output in a folder that does not exist.
    public static let outputFolderMissing = Self("output.folderMissing", .io)
    /// An output (or a side file: a report) that is one of the inputs, the
    /// same file by device and inode, through links: it would replace the data.
    public static let outputIsInput = Self("output.isInput", .usage)
}

extension FerryError {
    /// - Parameters:
    ///   - path: the output as given.
    ///   - formats: the ids `--to` takes.
    public static func outputUnknownExtension(_ path: String, formats: [String]) -> FerryError {
        FerryError(
            .outputUnknownExtension, [.path(path), .string(formats.joined(separator: ", "))],
            at: SourceLocation(file: path))
    }

    /// - Parameter format: the id of the codec that compresses its output itself.
    public static func outputAlreadyCompressed(_ format: String) -> FerryError {
        FerryError(.outputAlreadyCompressed, [.string(format)])
    }

    public static func outputLevelWithoutGzip() -> FerryError {
        FerryError(.outputLevelWithoutGzip, [.string("--level")])
    }

    /// - Parameter format: the output's format (`gzip` for compressed text).
    public static func outputBinaryToTerminal(_ format: String) -> FerryError {
        FerryError(.outputBinaryToTerminal, [.string(format)])
    }

    /// - Parameters:
    ///   - folder: the folder that does not exist.
    ///   - path: the output as given.
    public static func outputFolderMissing(_ folder: String, for path: String) -> FerryError {
        FerryError(.outputFolderMissing, [.path(folder), .path(path)], at: SourceLocation(file: path))
    }

    /// - Parameters:
    ///   - output: the output as given.
    ///   - input: the input it is, as given.
    public static func outputIsInput(_ output: String, input: String) -> FerryError {
        FerryError(.outputIsInput, [.path(output), .path(input)], at: SourceLocation(file: output))
    }
}
