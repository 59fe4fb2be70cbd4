// MARK: - Design
//
// Every way Ferry reads a file in parts (the parts of a validation and of a
// spooled merge, `ferry plan` and its shards, `--combine`) opens it here
// first, once: the codec says how its records split (`LineSplitting`), and
// this finds the one header rule every part obeys.
//
//     sep=;\n \n ;;\n name;price\n Wii;269\n …
//     ^ rowsStart  ^ skipped     ^ header row   ^ dataStart
//                   (blank, delimiters only)
//
// The header row is the first row, after `rowsStart`, that the reader does
// not skip (a blank row, a row of delimiters only). Its end is found
// outside quotes (`RowEndScanner`), so a header with a quoted line break
// is one row too. A part after the first reads the header row alone before
// its own bytes (`prefix`), so that its reader takes the same columns and
// counts none of the rows skipped before it. A file whose rows end in a
// lone CR before that point is not cut: its rows end where no line feed is.

/// A file opened to be read in parts: its codec, how its records split,
/// and its header row.
struct PartSource {
    let file: RandomAccessFile
    let codec: any Codec
    let splitting: LineSplitting
    /// The header row, with the columns it names; nil without one.
    let header: ShardPlan.Header?
    /// Where the first row the reader does not skip starts: the header
    /// row, or without one the first record. A part after the first reads
    /// from here to the header's end before its own bytes.
    let headerRowStart: Int
    /// Where the rows after the header start: after the header row, or at
    /// the first record without one; 0 for a JSON array.
    let dataStart: Int
    /// CSV and TSV: whether the rows have one column, where the reader
    /// makes a record of a blank row after the first (a value of "").
    let blankRowsAreRecords: Bool
    /// What a reader of a part after the first reads before its bytes: the
    /// header row; empty for none.
    let prefix: [UInt8]
    /// The lines `prefix` ends.
    let prefixLines: Int
    /// About how many lines the file has, at the rate of its first 64 KiB.
    let estimatedLines: Int

    var codecOptions: OptionValues { splitting.options }
    var quote: UInt8? { splitting.quote }
    var delimiter: UInt8? { splitting.delimiter }
    var path: String { file.path }

    /// Opens `path`, finds its codec and reads what a part needs from its start.
    /// - Throws: `shard.compressed`, `shard.notSplittable`, `io.*`.
    init(
        path: String, registry: CodecRegistry, from: String?, codecOptions: OptionValues, limits: ReadLimits
    ) throws(FerryError) {
        let opened = try OpenedInput(path: path, limits: limits)
        let codec = try FormatResolver(registry: registry).inputCodec(
            path: opened.formatPath, prefix: opened.prefix, from: from)
        try self.init(
            path: path, codec: codec, isCompressed: opened.isCompressed, codecOptions: codecOptions,
            maxHeaderBytes: limits.maxRecordBytes)
    }

    /// The file at `path`, read by `codec` with `codecOptions`.
    /// - Throws: `shard.compressed`, `shard.notSplittable` (standard input,
    ///   a codec whose records do not split at line ends, text not in
    ///   UTF-8, rows that end in a lone CR), `io.*`.
    /// - Parameter maxHeaderBytes: the most bytes the rows up to the header's
    ///   end may take (`--max-record-bytes`): a header with a quote that is
    ///   never closed would otherwise run to the end of the file, and be read
    ///   into memory whole.
    init(
        path: String, codec: any Codec, isCompressed: Bool, codecOptions: OptionValues,
        maxHeaderBytes: Int = ReadLimits().maxRecordBytes
    ) throws(FerryError) {
        if isCompressed { throw FerryError.shardCompressed(path) }
        let notSplittable = FerryError.shardNotSplittable(path, format: codec.id)
        guard path != "-", codec.capabilities.contains(.splitsAtLineEnds), let splitter = codec as? any LineSplittingCodec,
            let file = RandomAccessFile(path)
        else { throw notSplittable }
        let start = try file.bytes(0..<min(1 << 16, file.size))
        guard
            let splitting = try splitter.lineSplitting(
                start: start, isWhole: start.count == file.size, options: codecOptions)
        else { throw notSplittable }
        self.file = file
        self.codec = codec
        self.splitting = splitting
        let sampleLines = max(start.count { $0 == 0x0A }, 1)
        estimatedLines = Int(Double(file.size) * Double(sampleLines) / Double(max(start.count, 1))) + 1
        // Rows with a header or a delimiter (CSV, TSV) have a first row to find.
        guard splitting.cut == .rows, splitting.hasHeader || splitting.delimiter != nil else {
            (header, headerRowStart, dataStart, blankRowsAreRecords, prefix, prefixLines) = (nil, 0, 0, false, [], 0)
            return
        }
        let found = try Self.header(
            file, from: splitting.rowsStart, codec: splitter, splitting: splitting, maxBytes: maxHeaderBytes)
        header = splitting.hasHeader ? found.header : nil
        headerRowStart = found.rowStart
        dataStart = header?.end ?? found.rowStart
        blankRowsAreRecords = found.header.fields.count == 1
        prefix = try header.map { header throws(FerryError) in try file.bytes(found.rowStart..<header.end) } ?? []
        prefixLines = prefix.withUnsafeBytes { LineCounter.lineEnds(in: $0) }
    }

    /// The file at `path`, opened as `opened`, when its records are rows cut
    /// at line feeds; nil for any other file (see above), or a JSON array.
    static func rows(path: String, codec: any Codec, opened: OpenedInput, codecOptions: OptionValues) -> PartSource? {
        guard let source = try? PartSource(path: path, codec: codec, isCompressed: opened.isCompressed, codecOptions: codecOptions),
            source.splitting.cut == .rows
        else { return nil }
        return source
    }

    /// The header row, the first row after `start` that the reader does not
    /// skip as blank or as delimiters only: where it starts and ends (its
    /// row end outside quotes), the lines it takes with the bytes before
    /// it, and the columns it names (`columnN` with `--no-header`, one a
    /// field of that first record).
    /// - Throws: `shard.notSplittable` for rows that end in a lone CR;
    ///   `limit.recordTooLarge` when the header ends more than `maxBytes`
    ///   after `start`; `io.*`.
    private static func header(
        _ file: RandomAccessFile, from start: Int, codec: any LineSplittingCodec, splitting: LineSplitting,
        maxBytes: Int
    ) throws(FerryError) -> (header: ShardPlan.Header, rowStart: Int) {
        var rows = RowEndScanner(quote: splitting.quote)
        var end = file.size
        var rowStart = start
        var tooLong = false
        let delimiter = splitting.delimiter
        try file.scan(start..<file.size, chunk: 1 << 16) { chunk, offset in
            guard offset - start <= maxBytes else {
                tooLong = true
                return false
            }
            return rows.scan(chunk) { found in
                let holdsRecord =
                    rowStart >= offset
                    ? ShardPlanner.holdsRecord(
                        UnsafeRawBufferPointer(rebasing: chunk[(rowStart - offset)..<found]), delimiter: delimiter)
                    : ShardPlanner.holdsRecord((try? file.bytes(rowStart..<offset + found)) ?? [], delimiter: delimiter)
                guard holdsRecord else {
                    rowStart = offset + found
                    return true
                }
                end = offset + found
                return false
            }
        }
        if tooLong || end - start > maxBytes {
            throw FerryError.recordTooLarge(limit: maxBytes, at: SourceLocation(file: file.path, byteOffset: rowStart))
        }
        // Rows that end in a lone CR (classic Mac OS) are rows to the reader
        // but no cuts here, where parts are cut at line feeds.
        let bytes = try file.bytes(0..<end)
        if zip(bytes, bytes.dropFirst() + [0]).contains(where: { $0 == 0x0D && $1 != 0x0A }) {
            throw FerryError.shardNotSplittable(file.path, format: codec.id + " (CR line ends)")
        }
        let lines = bytes.withUnsafeBytes { LineCounter.lineEnds(in: $0) }
        let fields = try codec.columnNames(inHeader: FileRangeInput(file, range: 0..<end), options: splitting.options)
        return (ShardPlan.Header(end: end, lines: lines, fields: fields), min(rowStart, end))
    }
}
