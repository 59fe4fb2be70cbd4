/// Finds the cell of a record again, by its byte offset in the file, for a
/// key that proves to repeat an earlier part's: the second half of a
/// validation, or a later shard when their reports are combined. A reader
/// of the record alone finds its field's line and column; the lines before
/// it are counted from the last one found, so that all of them together
/// cost one pass over the part.
struct RecordRelocator {
    let file: RandomAccessFile
    /// What a reader reads before the record: the CSV header row, or the
    /// `[` of a JSON array.
    let prefix: [UInt8]
    /// The lines `prefix` ends.
    let prefixLines: Int
    let codec: any Codec
    let context: () -> ReadContext
    /// The last line end counted: the byte after it, and its line (1-based).
    var lineEnd: (offset: Int, line: Int)

    /// The location of `field` in the record at `offset` of the file, and
    /// the field's value as a key's text.
    mutating func location(of field: String, inRecordAt offset: Int) -> (location: SourceLocation, text: String?) {
        // An offset past the end (a shard report of a file that has since
        // shrunk) has no record to read again.
        guard offset >= 0, offset <= file.size else { return (SourceLocation(file: file.path, byteOffset: offset), nil) }
        if offset > lineEnd.offset, let lines = try? LineCounter.lineEnds(in: file, range: lineEnd.offset..<offset) {
            lineEnd = (offset, lineEnd.line + lines)
        }
        let here = SourceLocation(file: file.path, byteOffset: offset, line: lineEnd.line)
        let input = FileRangeInput(file, range: offset..<file.size, prefix: prefix)
        guard let reader = try? codec.makeReader(input, context: context()), let record = try? reader.next() else {
            return (here, nil)
        }
        let text = record[field].flatMap(FileCheck.keyText)
        guard let found = reader.location(ofField: field, inRecordAt: prefix.count) else { return (here, text) }
        var shift = PartPlan.Shift(records: 0, lines: lineEnd.line - 1 - prefixLines, bytes: offset - prefix.count)
        if !prefix.isEmpty && prefix.last != 0x0A, let column = try? file.column(of: offset) {
            // A record inside a line (a JSON array on one line).
            shift.columns = column - prefix.withUnsafeBytes { LineCounter.column(after: $0) }
            shift.columnsLine = prefixLines + 1
        }
        return (shift.apply(to: found).filling(from: here), text)
    }
}
