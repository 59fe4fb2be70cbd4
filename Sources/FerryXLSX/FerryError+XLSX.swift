import FerryCore

// MARK: - Workbook reading codes

extension FerryError.Code {
    // The zip package
    /// No end of central directory record: not a zip, or cut short.
    public static let xlsxNotZip = Self("xlsx.notZip", .data)
    /// The zip's records point outside the file, or end early.
    public static let xlsxTruncated = Self("xlsx.truncated", .data)
    /// A central directory or local header that cannot be read.
    public static let xlsxCorruptZip = Self("xlsx.corruptZip", .data)
    /// A local header that says something else than the central directory.
    public static let xlsxHeaderMismatch = Self("xlsx.headerMismatch", .data)
    /// A compression method other than stored and deflate, or encryption.
    public static let xlsxUnsupportedEntry = Self("xlsx.unsupportedEntry", .data)
    public static let xlsxCRCMismatch = Self("xlsx.crcMismatch", .data)
    /// A part whose bytes are more or fewer than the directory says.
    public static let xlsxSizeMismatch = Self("xlsx.sizeMismatch", .data)
    /// Deflate data zlib refuses.
    public static let xlsxCorruptPart = Self("xlsx.corruptPart", .data)
    /// Limits: entries, bytes of one part, expansion ratio (a bomb).
    public static let xlsxTooManyEntries = Self("xlsx.tooManyEntries", .data)
    public static let xlsxPartTooLarge = Self("xlsx.partTooLarge", .data)
    public static let xlsxRatioTooHigh = Self("xlsx.ratioTooHigh", .data)
    /// The shared strings take more than the input limit.
    public static let xlsxSharedStringsTooLarge = Self("xlsx.sharedStringsTooLarge", .data)
    /// The styles part's number formats and cell styles take more than the input limit.
    public static let xlsxStylesTooLarge = Self("xlsx.stylesTooLarge", .data)

    // The workbook
    /// A part the workbook needs (the workbook, a sheet) is not in the zip.
    public static let xlsxMissingPart = Self("xlsx.missingPart", .data)
    /// `--sheet` names no sheet of the workbook.
    public static let xlsxNoSuchSheet = Self("xlsx.noSuchSheet", .data)
    /// A workbook without a sheet.
    public static let xlsxNoSheets = Self("xlsx.noSheets", .data)

    // XML
    public static let xlsxMalformedXML = Self("xlsx.malformedXML", .data)
    /// A DTD or an entity declaration: refused, as entity expansion is the
    /// way of the "billion laughs".
    public static let xlsxDTDRefused = Self("xlsx.dtdRefused", .data)
    /// An entity reference other than the five predefined and numeric ones.
    public static let xlsxUnknownEntity = Self("xlsx.unknownEntity", .data)

    // Cells
    /// A cell reference (`r="B12"`) that cannot be read, or goes backwards.
    public static let xlsxBadCellReference = Self("xlsx.badCellReference", .data)
    /// A shared string index past the table.
    public static let xlsxBadSharedString = Self("xlsx.badSharedString", .data)
    /// A numeric cell whose value is not a number.
    public static let xlsxBadNumber = Self("xlsx.badNumber", .data)
    /// A cell that does not fit its field's type (by kind or schema).
    public static let xlsxInvalidNumber = Self("xlsx.invalidNumber", .data)
    public static let xlsxInvalidInteger = Self("xlsx.invalidInteger", .data)
    public static let xlsxInvalidBool = Self("xlsx.invalidBool", .data)
    // Warnings
    /// An error cell (`#N/A`), read as null.
    public static let xlsxErrorCell = Self("xlsx.errorCell", .data)
    /// Cells right of the header's last column, left out.
    public static let xlsxCellsOutsideHeader = Self("xlsx.cellsOutsideHeader", .data)
}

// MARK: - Factories

extension FerryError {
    static func xlsxNotZip(at location: SourceLocation) -> FerryError {
        FerryError(.xlsxNotZip, at: location)
    }

    static func xlsxTruncated(at location: SourceLocation) -> FerryError {
        FerryError(.xlsxTruncated, at: location)
    }

    static func xlsxCorruptZip(_ what: String, at location: SourceLocation) -> FerryError {
        FerryError(.xlsxCorruptZip, [.string(what)], at: location)
    }

    static func xlsxHeaderMismatch(part: String, at location: SourceLocation) -> FerryError {
        FerryError(.xlsxHeaderMismatch, [.path(part)], at: location)
    }

    static func xlsxUnsupportedEntry(part: String, method: Int, at location: SourceLocation) -> FerryError {
        FerryError(.xlsxUnsupportedEntry, [.path(part), .ungrouped(method)], at: location)
    }

    static func xlsxCRCMismatch(part: String, at location: SourceLocation) -> FerryError {
        FerryError(.xlsxCRCMismatch, [.path(part)], at: location)
    }

    static func xlsxSizeMismatch(part: String, at location: SourceLocation) -> FerryError {
        FerryError(.xlsxSizeMismatch, [.path(part)], at: location)
    }

    static func xlsxCorruptPart(part: String, reason: MessageArgument, at location: SourceLocation) -> FerryError {
        FerryError(.xlsxCorruptPart, [.path(part), reason], at: location)
    }

    static func xlsxTooManyEntries(limit: Int, at location: SourceLocation) -> FerryError {
        FerryError(.xlsxTooManyEntries, [.integer(limit)], at: location)
    }

    static func xlsxPartTooLarge(part: String, limit: Int, at location: SourceLocation) -> FerryError {
        FerryError(.xlsxPartTooLarge, [.integer(limit), .path(part)], at: location)
    }

    static func xlsxRatioTooHigh(part: String, limit: Int, at location: SourceLocation) -> FerryError {
        FerryError(.xlsxRatioTooHigh, [.integer(limit), .path(part)], at: location)
    }

    static func xlsxSharedStringsTooLarge(limit: Int, at location: SourceLocation) -> FerryError {
        FerryError(.xlsxSharedStringsTooLarge, [.integer(limit)], at: location)
    }

    static func xlsxStylesTooLarge(limit: Int, at location: SourceLocation) -> FerryError {
        FerryError(.xlsxStylesTooLarge, [.integer(limit)], at: location)
    }

    static func xlsxMissingPart(_ part: String, at location: SourceLocation) -> FerryError {
        FerryError(.xlsxMissingPart, [.path(part)], at: location)
    }

    static func xlsxNoSuchSheet(_ sheet: String, available: [String], at location: SourceLocation) -> FerryError {
        FerryError(.xlsxNoSuchSheet, [.string(sheet), .string(available.joined(separator: ", "))], at: location)
    }

    static func xlsxNoSheets(at location: SourceLocation) -> FerryError {
        FerryError(.xlsxNoSheets, at: location)
    }

    static func xlsxMalformedXML(part: String, at location: SourceLocation) -> FerryError {
        FerryError(.xlsxMalformedXML, [.path(part)], at: location)
    }

    static func xlsxDTDRefused(part: String, at location: SourceLocation) -> FerryError {
        FerryError(.xlsxDTDRefused, [.path(part)], at: location)
    }

    static func xlsxUnknownEntity(_ name: String, part: String, at location: SourceLocation) -> FerryError {
        FerryError(.xlsxUnknownEntity, [.string(name), .path(part)], at: location)
    }

    static func xlsxBadCellReference(_ reference: String, at location: SourceLocation) -> FerryError {
        FerryError(.xlsxBadCellReference, [.string(reference)], at: location)
    }

    static func xlsxBadSharedString(index: Int, count: Int, at location: SourceLocation) -> FerryError {
        FerryError(.xlsxBadSharedString, [.ungrouped(index), .integer(count)], at: location)
    }

    static func xlsxBadNumber(_ text: String, at location: SourceLocation) -> FerryError {
        FerryError(.xlsxBadNumber, [.string(text)], at: location)
    }
}

extension FerryWarning {
    static func xlsxErrorCell(_ text: String, at location: SourceLocation) -> FerryWarning {
        FerryWarning(.xlsxErrorCell, [.string(text)], at: location)
    }

    static func xlsxCellsOutsideHeader(count: Int, at location: SourceLocation) -> FerryWarning {
        FerryWarning(.xlsxCellsOutsideHeader, [.integer(count)], at: location)
    }
}
