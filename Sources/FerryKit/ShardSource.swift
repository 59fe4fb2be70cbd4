import FerryCSV

/// A file opened to be planned or read a shard at a time: its codec, and
/// for CSV and TSV the quote, the delimiter (guessed once, from the file's
/// start, so that no shard guesses from its own rows) and the header row.
struct ShardSource {
    let file: RandomAccessFile
    let codec: any Codec
    /// CSV and TSV: the quote; nil for JSON Lines and JSON.
    let quote: UInt8?
    let delimiter: UInt8?
    let header: ShardPlan.Header?
    /// Where the rows after the header start: after the header row, or
    /// after Excel's `sep=` line without one (CSVSepLine.swift), else 0.
    let dataStart: Int
    /// Where the header row itself starts: after the `sep=` line, and
    /// after blank rows and rows of delimiters only before it. A later
    /// shard reads the header row alone before its own bytes, so that its
    /// reader counts none of the rows skipped before it (as the halves of
    /// a validation do).
    let headerRowStart: Int
    /// CSV and TSV: whether the rows have one column, where the reader
    /// makes a record of a blank row after the first (a value of "").
    let blankRowsAreRecords: Bool
    /// The codec options every shard reads with: the user's, and the delimiter.
    let codecOptions: OptionValues

    /// Opens `path` and reads what a shard needs from its start.
    /// - Throws: `shard.compressed`, `shard.notSplittable`, `io.*`.
    init(
        path: String, registry: CodecRegistry, from: String?, codecOptions asked: OptionValues, limits: ReadLimits
    ) throws(FerryError) {
        let opened = try OpenedInput(path: path, limits: limits)
        codec = try FormatResolver(registry: registry).inputCodec(
            path: opened.formatPath, prefix: opened.prefix, from: from)
        if opened.isCompressed { throw FerryError.shardCompressed(path) }
        // Shards of JSON cut its top-level array, not one at `--records-at`.
        guard ["csv", "tsv", "jsonl", "json"].contains(codec.id), asked[JSONCodec.recordsAt] == nil || codec.id != "json",
            let file = RandomAccessFile(path)
        else {
            throw FerryError.shardNotSplittable(path, format: codec.id)
        }
        self.file = file
        var codecOptions = asked
        guard codec.id == "csv" || codec.id == "tsv" else {
            (quote, delimiter, header, self.codecOptions, dataStart, headerRowStart, blankRowsAreRecords) = (
                nil, nil, nil, codecOptions, 0, 0, false
            )
            return
        }
        let preferred = codec.id == "tsv" ? UInt8(0x09) : UInt8(ascii: ",")
        let dialect = try CSVDialect(delimiter: preferred, options: asked)
        guard dialect.encoding == .utf8 else { throw FerryError.shardNotSplittable(path, format: codec.id) }
        quote = dialect.quote
        let start = try file.bytes(0..<min(CSVDelimiterSniffer.sampleLength, file.size))
        let delimiter =
            codecOptions["delimiter"] == nil
            ? CSVDelimiterSniffer.sniff(
                start, isWhole: start.count < CSVDelimiterSniffer.sampleLength, quote: dialect.quote,
                preferred: preferred)
            : dialect.delimiter
        codecOptions.values["delimiter"] = Self.option(delimiter)
        self.delimiter = delimiter
        self.codecOptions = codecOptions
        let sepLine = CSVSepLine.length(in: start, isWhole: start.count == file.size, quote: dialect.quote)
        // The first row the reader does not skip: the header, or without
        // one the first record, whose width the reader takes too.
        let found = try Self.header(
            file, from: sepLine, codec: codec, quote: dialect.quote, delimiter: delimiter, options: codecOptions)
        header = dialect.hasHeader ? found.header : nil
        headerRowStart = found.rowStart
        dataStart = header?.end ?? found.rowStart
        blankRowsAreRecords = found.header.fields.count == 1
    }

    /// A byte as the value of `--delimiter`.
    static func option(_ delimiter: UInt8) -> String {
        "\\x" + (delimiter < 0x10 ? "0" : "") + String(delimiter, radix: 16)
    }

    /// The header row, the first row after `start` (after a `sep=` line)
    /// that the reader does not skip as blank or as delimiters only: where
    /// it starts and ends (its row end outside quotes), the lines it takes
    /// with the bytes before it, and the columns it names (`columnN` with
    /// `--no-header`, one a field of that first record).
    private static func header(
        _ file: RandomAccessFile, from start: Int, codec: any Codec, quote: UInt8, delimiter: UInt8,
        options: OptionValues
    ) throws(FerryError) -> (header: ShardPlan.Header, rowStart: Int) {
        var rows = RowEndScanner(quote: quote)
        var end = file.size
        var rowStart = start
        try file.scan(start..<file.size, chunk: 1 << 16) { chunk, offset in
            rows.scan(chunk) { found in
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
        // Rows that end in a lone CR (classic Mac OS) are rows to the reader
        // but no cuts to the planner, which cuts at line feeds.
        let bytes = try file.bytes(0..<end)
        if zip(bytes, bytes.dropFirst() + [0]).contains(where: { $0 == 0x0D && $1 != 0x0A }) {
            throw FerryError.shardNotSplittable(file.path, format: "csv (CR line ends)")
        }
        let lines = bytes.withUnsafeBytes { LineCounter.lineEnds(in: $0) }
        let context = ReadContext(kind: .generic, options: options)
        var fields: [String] = []
        if let reader = try codec.makeReader(FileRangeInput(file, range: 0..<end), context: context) as? CSVReader {
            try reader.start()
            fields = reader.header?.names ?? []
        }
        return (ShardPlan.Header(end: end, lines: lines, fields: fields), min(rowStart, end))
    }
}

// MARK: - One shard

/// Which bytes of the file one shard is, as `--plan PLAN --shard K` or
/// `--range START:END --first-record R --first-line L` give them.
public struct ShardRange: Sendable, Hashable {
    public var start: Int
    public var end: Int
    public var firstRecord: Int
    public var firstLine: Int
    /// CSV output: `--header auto|always|never`; nil is auto (the first shard's only).
    public var writesHeader: Bool?

    public init(start: Int, end: Int, firstRecord: Int, firstLine: Int, writesHeader: Bool? = nil) {
        self.start = start
        self.end = end
        self.firstRecord = firstRecord
        self.firstLine = firstLine
        self.writesHeader = writesHeader
    }

    /// Shard `index` of `plan`.
    /// - Throws: `shard.noSuchShard`.
    public init(_ plan: ShardPlan, shard index: Int) throws(FerryError) {
        guard plan.shards.indices.contains(index) else { throw FerryError.shardNoSuchShard(index, count: plan.shards.count) }
        let shard = plan.shards[index]
        self.init(start: shard.start, end: shard.end, firstRecord: shard.firstRecord, firstLine: shard.firstLine)
    }

    /// The part of the output document this shard writes (Formats/shards.md).
    func part(fileSize: Int) -> DocumentPart {
        DocumentPart(
            continues: firstRecord > 1, closes: end == fileSize && (start < end || start == 0),
            writesHeader: writesHeader ?? (firstRecord == 1))
    }
}

/// What a reader of one shard reads, and how the places it names move to
/// the file's: the shard's bytes after the header row (CSV and TSV) or an
/// opening bracket (a JSON array's shard after the first, which starts at
/// the comma before its first element, read as the bracket), and a closing
/// bracket after a JSON shard that is not the last.
struct ShardReading {
    let input: FileRangeInput
    private(set) var shift: Halves.Shift
    /// The lines the bytes read before the shard's own take.
    let prefixLines: Int
    let isEmpty: Bool

    init(_ source: ShardSource, range: ShardRange) throws(FerryError) {
        let file = source.file
        guard range.start >= 0, range.start <= range.end, range.end <= file.size else {
            throw FerryError.shardBadRange("\(range.start):\(range.end)", size: file.size)
        }
        var prefix: [UInt8] = []
        var from = range.start
        var suffix: [UInt8] = []
        if let header = source.header, range.start > 0 {
            prefix = try file.bytes(source.headerRowStart..<header.end)
            prefixLines = prefix.withUnsafeBytes { LineCounter.lineEnds(in: $0) }
        } else {
            prefixLines = 0
        }
        if source.codec.id == "json" {
            if range.start > 0 {
                prefix = [UInt8(ascii: "[")]
                from += 1
            }
            // An empty shard at the end reads as `[]` too.
            if range.end < file.size || (range.start > 0 && range.start == range.end) { suffix = [UInt8(ascii: "]")] }
        }
        isEmpty = range.start == range.end
        input = FileRangeInput(file, range: min(from, range.end)..<range.end, prefix: prefix, suffix: suffix)
        var shift = Halves.Shift(
            records: range.firstRecord - 1, lines: range.firstLine - 1 - prefixLines, bytes: from - prefix.count)
        if from > 0 && from < range.end {
            // The reader has the first byte at the column after the prefix's last line.
            let prefixColumn = prefix.last == 0x0A ? 0 : prefix.withUnsafeBytes { LineCounter.column(after: $0) }
            shift.columns = try file.column(of: from) - prefixColumn
            shift.columnsLine = prefixLines + 1
        }
        self.shift = shift
    }
}

extension RandomAccessFile {
    /// The bytes of `range`, read.
    /// - Throws: `io.readFailed`.
    public func bytes(_ range: Range<Int>) throws(FerryError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(range.count)
        try scan(range) { chunk, _ in
            bytes.append(contentsOf: chunk)
            return true
        }
        return bytes
    }

    /// The offset just after the first line feed at or after `offset`,
    /// where a line starts: where the halves of a validation cut JSON Lines
    /// (no quote hides a line feed there), and the planner's halves cut any
    /// file, on a bet its first half checks. Nil when
    /// there is none within 4 MiB (lines with photos inline are long, but
    /// not that long), or when it ends the file.
    /// - Throws: `io.readFailed`.
    func lineStart(after offset: Int) throws(FerryError) -> Int? {
        var found: Int?
        try scan(offset..<min(size, offset + (4 << 20)), chunk: 1 << 16) { chunk, at in
            guard let index = chunk.firstIndex(of: 0x0A) else { return true }
            found = at + index + 1
            return false
        }
        return found.flatMap { $0 < size ? $0 : nil }
    }

    /// How many characters come before `offset` on its line.
    /// - Throws: `io.readFailed`.
    func column(of offset: Int) throws(FerryError) -> Int {
        var lineStart = offset
        let chunk = 1 << 16
        while lineStart > 0 {
            let bytes = try bytes(max(0, lineStart - chunk)..<lineStart)
            if let lineFeed = bytes.lastIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
                lineStart -= bytes.count - lineFeed - 1
                break
            }
            lineStart -= bytes.count
        }
        return try bytes(lineStart..<offset).withUnsafeBytes { LineCounter.column(after: $0) }
    }
}
