import FerryCore

/// `KeyedArchiveEditor` as a `RecordFileEditor`, for `ferry add`, `edit`
/// and `remove`: an archive is edited in its `$objects`, keeping its class
/// names, `$classes` chains, image keys and plist form (binary or XML).
final class KeyedArchiveFileEditor: RecordFileEditor {
    private(set) var records: [Record]
    /// The objects outside the edit are kept; the plist is written again.
    let keepsLayout = false
    private var editor: KeyedArchiveEditor

    init(_ editor: KeyedArchiveEditor, records: [Record]) {
        self.editor = editor
        self.records = records
    }

    func replace(at index: Int, with record: Record) throws(FerryError) {
        try editor.replace(at: index, with: record)
        records[index] = try editor.record(at: index)
    }

    func append(_ record: Record) throws(FerryError) {
        try editor.append(record)
        records.append(try editor.record(at: editor.count - 1))
    }

    func remove(at index: Int) throws(FerryError) {
        try editor.remove(at: index)
        records.remove(at: index)
    }

    func encoded() throws(FerryError) -> [UInt8] { try editor.encoded() }
}

extension ArchiveCodec: EditableCodec {
    public func makeEditor(_ bytes: [UInt8], records: [Record], context: ReadContext) throws(FerryError) -> any RecordFileEditor {
        var editor = try KeyedArchiveEditor(bytes: bytes, context: context)
        // The edit layer checks each record before it reaches the editor.
        editor.checksRecords = false
        return KeyedArchiveFileEditor(editor, records: records)
    }
}
