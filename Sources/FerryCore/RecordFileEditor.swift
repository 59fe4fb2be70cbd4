/// Edits the records of one file held in memory, for `ferry add`, `edit`
/// and `remove`: the caller reads the file whole, asks its codec for an
/// editor, changes records, and saves `encoded()` in the file's place.
///
/// An editor that splices (JSON, JSON Lines, CSV, a workbook's sheet)
/// changes only the bytes of what was edited and keeps every other byte of
/// the file; one that cannot (a binary plist) encodes all the records again
/// with the same codec.
///
///     let editor = try codec.makeEditor(bytes, records: records, context: context)
///     try editor.replace(at: 2, with: edited)
///     let saved = try editor.encoded()   // the file, with only record 2's changed bytes
///
/// A record handed in keeps the field order of the one it replaces; fields
/// it lacks are removed, fields it adds are added after the others.
public protocol RecordFileEditor: AnyObject {
    /// The records as they are now, in file order.
    var records: [Record] { get }
    /// Whether the bytes outside the edited records are kept as they were.
    var keepsLayout: Bool { get }
    /// Replaces record `index` (0-based).
    /// - Throws: a codec's code when the file cannot hold the change.
    func replace(at index: Int, with record: Record) throws(FerryError)
    /// Adds `record` after the last record.
    func append(_ record: Record) throws(FerryError)
    /// Removes record `index` (0-based).
    func remove(at index: Int) throws(FerryError)
    /// The file's bytes with the edits made so far.
    func encoded() throws(FerryError) -> [UInt8]
}

/// A codec that edits its files in place (see `RecordFileEditor`).
public protocol EditableCodec: Codec {
    /// An editor of the file whose bytes (inflated, when it was gzip) are
    /// `bytes` and whose records, read by this codec's reader with
    /// `context`, are `records`.
    /// - Throws: `edit.formatNotEditable` when this file's shape cannot be
    ///   edited in place (a CSV file in another encoding than UTF-8).
    func makeEditor(_ bytes: [UInt8], records: [Record], context: ReadContext) throws(FerryError) -> any RecordFileEditor
}

// MARK: - Codes

extension FerryError.Code {
    /// A file of a format that `add`, `edit` and `remove` do not change.
    public static let editFormatNotEditable = Self("edit.formatNotEditable", .usage)
    /// Records read at a pointer (`--records-at`), which the editors do
    /// not splice: they change a document whose top level holds the records.
    public static let editRecordsAtNotEditable = Self("edit.recordsAtNotEditable", .usage)
    /// A field a CSV file has no column for.
    public static let editNewColumn = Self("edit.newColumn", .usage)
    /// Adding or removing a record of a JSON document that is one object.
    public static let editSingleObject = Self("edit.singleObject", .usage)
}

extension FerryError {
    public static func editFormatNotEditable(_ format: String) -> FerryError {
        FerryError(.editFormatNotEditable, [.string(format)])
    }

    /// - Parameter pointer: the pointer as `--records-at` gave it.
    public static func editRecordsAtNotEditable(_ pointer: String) -> FerryError {
        FerryError(.editRecordsAtNotEditable, [.string(pointer)])
    }

    public static func editNewColumn(_ field: String, record: Int) -> FerryError {
        FerryError(.editNewColumn, [.string(field)], at: SourceLocation(record: record, field: field))
    }

    public static func editSingleObject() -> FerryError {
        FerryError(.editSingleObject, [])
    }
}
