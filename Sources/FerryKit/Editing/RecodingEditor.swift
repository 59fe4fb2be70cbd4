/// Edits a file whose bytes cannot be spliced (a binary or XML plist, a
/// bundle) by holding its records and writing them all again with the same
/// codec: the format stays, the bytes are the writer's.
final class RecodingEditor: RecordFileEditor {
    private(set) var records: [Record]
    let keepsLayout = false
    private let codec: any Codec
    private let kind: RecordKind?
    private let schema: Schema?
    private let options: OptionValues

    init(codec: any Codec, records: [Record], context: ReadContext) {
        self.codec = codec
        self.records = records
        kind = context.kind
        schema = context.schema
        options = context.options
    }

    func replace(at index: Int, with record: Record) throws(FerryError) { records[index] = record }

    func append(_ record: Record) throws(FerryError) { records.append(record) }

    func remove(at index: Int) throws(FerryError) { records.remove(at: index) }

    /// - Throws: the codec's writing errors.
    func encoded() throws(FerryError) -> [UInt8] {
        let output = MemoryOutput()
        let context = WriteContext(kind: kind, options: options)
        context.schema = schema
        let writer = try codec.makeWriter(output, context: context)
        for (index, record) in records.enumerated() {
            var numbered = record
            numbered.origin = RecordOrigin(index: index)
            try writer.write(numbered)
        }
        try writer.finish()
        return output.bytes
    }
}
