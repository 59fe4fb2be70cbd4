import FerryCore

// MARK: - Codes of the workbook writer (Formats/xlsx.md, Writing)

extension FerryError.Code {
    /// A `--sheet` name Excel refuses: empty, over 31 characters, with one
    /// of `[ ] : * ? / \`, or starting or ending with an apostrophe.
    public static let xlsxSheetNameInvalid = Self("xlsx.sheetNameInvalid", .usage)
    /// More records than a sheet's 1,048,576 rows hold, with the header.
    public static let xlsxTooManyRows = Self("xlsx.tooManyRows", .data)
    /// More fields than a sheet's 16,384 columns.
    public static let xlsxTooManyColumns = Self("xlsx.tooManyColumns", .data)
    /// An infinite or NaN double, which a cell cannot hold.
    public static let xlsxNonFiniteNumber = Self("xlsx.nonFiniteNumber", .data)
    // Warnings (losses, counted per field)
    /// A character XML 1.0 forbids (a control character, U+FFFE, U+FFFF), left out.
    public static let xlsxCharacterDropped = Self("xlsx.characterDropped", .data)
    /// Text over a cell's 32,767 characters, cut there.
    public static let xlsxTextTruncated = Self("xlsx.textTruncated", .data)
    /// An array or object, written as JSON text.
    public static let xlsxNestedAsJSON = Self("xlsx.nestedAsJSON", .data)
    /// A photo's bytes, written as a `data:` URI.
    public static let xlsxPhotoAsDataURI = Self("xlsx.photoAsDataURI", .data)
    /// A date outside Excel's 1900-01-01 to 9999-12-31, written as ISO 8601 text.
    public static let xlsxDateAsText = Self("xlsx.dateAsText", .data)
}

extension FerryError {
    public static func xlsxSheetNameInvalid(_ name: String) -> FerryError {
        FerryError(.xlsxSheetNameInvalid, [.string(name)])
    }

    /// - Parameter record: the first record that has no row left.
    public static func xlsxTooManyRows(record: Int) -> FerryError {
        FerryError(.xlsxTooManyRows, [.count(XLSXWriter.maxRows)], at: SourceLocation(record: record))
    }

    /// - Parameters:
    ///   - field: the first field that has no column left.
    public static func xlsxTooManyColumns(record: Int, field: String) -> FerryError {
        FerryError(
            .xlsxTooManyColumns, [.count(XLSXWriter.maxColumns), .string(field)],
            at: SourceLocation(record: record, field: field))
    }

    public static func xlsxNonFiniteNumber(_ number: Double) -> FerryError {
        FerryError(.xlsxNonFiniteNumber, [.double(number)])
    }
}
