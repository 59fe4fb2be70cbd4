import FerryCore

// MARK: - CSV codes

extension FerryError.Code {
    public static let csvUnterminatedQuote = Self("csv.unterminatedQuote", .data)
    /// Warnings: a null written as an empty cell in a column nothing types,
    /// and an array or object written into a cell as JSON text.
    public static let csvNullAsEmpty = Self("csv.nullAsEmpty", .data)
    public static let csvNestedAsJSON = Self("csv.nestedAsJSON", .data)
    public static let csvUnexpectedAfterQuote = Self("csv.unexpectedAfterQuote", .data)
    public static let csvRaggedRow = Self("csv.raggedRow", .data)
    public static let csvInvalidUTF8 = Self("csv.invalidUTF8", .data)
    public static let csvNullByte = Self("csv.nullByte", .data)
    public static let csvFieldTooLarge = Self("limit.fieldTooLarge", .data)
    public static let csvInvalidNumber = Self("csv.invalidNumber", .data)
    public static let csvInvalidInteger = Self("csv.invalidInteger", .data)
    public static let csvInvalidBool = Self("csv.invalidBool", .data)
    public static let csvFieldsChanged = Self("csv.fieldsChanged", .data)
    public static let csvNonFiniteNumber = Self("csv.nonFiniteNumber", .data)
    // Warnings
    public static let csvRenamedHeader = Self("csv.renamedHeader", .data)
    public static let csvRaggedRowsFixed = Self("csv.raggedRowsFixed", .data)
    /// Rows of delimiters only, skipped: their count, at the first one.
    public static let csvDelimiterRowsSkipped = Self("csv.delimiterRowsSkipped", .data)
    /// Cells of columns whose types were inferred from a sample (standard
    /// input, a pipe) that did not fit them and were kept as text: their
    /// count, and the rows of the sample.
    public static let csvCellsKeptAsText = Self("csv.cellsKeptAsText", .data)
    /// A number under `--decimal-comma` whose thousands separators are not
    /// in groups of three (`1.23,4`).
    public static let csvInvalidGrouping = Self("csv.invalidGrouping", .data)
}
