import FerryCore

// MARK: - Markdown codes

extension FerryError.Code {
    /// The first record has no fields, so the table would have no columns.
    public static let markdownNoColumns = Self("markdown.noColumns", .data)
}

// MARK: - Factories

extension FerryError {
    /// - Parameter record: the 0-based index of the record without fields.
    public static func markdownNoColumns(record: Int) -> FerryError {
        FerryError(.markdownNoColumns, [], at: SourceLocation(record: record))
    }
}
