import FerryCore

/// CSV (RFC 4180) and TSV: one codec type, two registrations that differ in
/// their id, extension and default delimiter.
public struct CSVCodec: LineSplittingCodec {
    public let id: String
    public let extensions: [String]
    public let capabilities: CodecCapabilities = [
        .read, .write, .readsRaw, .writesRaw, .splitsAtLineEnds, .writesParts, .writesColumnsOfFirstRecord,
    ]
    public let options = CSVDialect.options
    let delimiter: UInt8
    /// The dialect this codec reads and writes by, under the options of a
    /// run; nil for the defaults (and a sniffed delimiter).
    public var dialect: CSVDialect?

    /// Comma-separated values, `.csv`.
    public static let csv = CSVCodec(id: "csv", extensions: ["csv"], delimiter: UInt8(ascii: ","))
    /// Tab-separated values, `.tsv`.
    public static let tsv = CSVCodec(id: "tsv", extensions: ["tsv", "tab"], delimiter: 0x09)

    public init(id: String, extensions: [String], delimiter: UInt8) {
        self.id = id
        self.extensions = extensions
        self.delimiter = delimiter
    }

    /// The CSV codec (`csv`, `.csv`) that reads and writes by `dialect`;
    /// with `dialect.delimiterGiven` false, a reader still guesses the
    /// delimiter from the first rows.
    public init(dialect: CSVDialect) {
        // The dialect's delimiter is the codec's own: what it writes, and
        // what a reader falls back to when its guess is unsure.
        self.init(id: "csv", extensions: ["csv"], delimiter: dialect.delimiter)
        self.dialect = dialect
    }

    /// This codec, with its id and extensions, reading and writing by
    /// `dialect`; its own delimiter when the dialect gives none.
    public func configured(_ dialect: CSVDialect) -> CSVCodec {
        var copy = self
        var dialect = dialect
        if !dialect.delimiterGiven { dialect.delimiter = delimiter }
        copy.dialect = dialect
        return copy
    }

    /// This codec reading and writing by the dialect `options` ask for over
    /// its own: the command line's `--delimiter`, `--quote`, `--encoding`….
    /// - Throws: `usage.invalidValue` for a value an option does not take.
    public func configured(by options: OptionValues) throws(FerryError) -> any Codec {
        configured(try runDialect(options))
    }

    /// The dialect of one run: `options` over the codec's own.
    func runDialect(_ options: OptionValues) throws(FerryError) -> CSVDialect {
        try CSVDialect(dialect ?? CSVDialect(delimiter: delimiter), options: options)
    }

    /// Text whose first line holds more of this codec's delimiter than of the
    /// other's may be this format; JSON and binary formats are not. A first
    /// line `sep=;` (Excel's) makes it likely: TSV for `sep=` and a tab,
    /// CSV for any other delimiter.
    public func sniff(_ prefix: [UInt8]) -> SniffResult {
        var bytes = prefix[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        if let line = CSVSepLine(bytes, isWhole: false, quote: UInt8(ascii: "\"")) {
            return (line.delimiter == 0x09) == (delimiter == 0x09) ? .likely : .no
        }
        if TextEncoding.startsWithUTF16Mark(bytes) { return .possible }
        guard let first = bytes.first, first != UInt8(ascii: "{"), first != UInt8(ascii: "["), first != UInt8(ascii: "<")
        else { return .no }
        let line = bytes.prefix { $0 != 0x0A && $0 != 0x0D }
        if line.contains(0) { return .no }
        let mine = line.filter { $0 == delimiter }.count
        let other = line.filter { $0 == (delimiter == 0x09 ? UInt8(ascii: ",") : 0x09) }.count
        return mine > 0 && mine >= other ? .possible : .no
    }

    /// A reader of `input`; without `--delimiter`, the delimiter is guessed
    /// from the first rows (`CSVDelimiterSniffer`).
    public func makeReader(_ input: any ByteInput, context: ReadContext) throws(FerryError) -> any RecordReader {
        var dialect = try runDialect(context.options)
        let decoded = try CSVCodec.decoded(input, encoding: dialect.encoding)
        if !dialect.delimiterGiven {
            let sample = try decoded.peek(CSVDelimiterSniffer.sampleLength)
            dialect.delimiter = CSVDelimiterSniffer.sniff(
                sample, isWhole: sample.count < CSVDelimiterSniffer.sampleLength, quote: dialect.quote,
                preferred: delimiter)
        }
        return CSVReader(decoded, dialect: dialect, context: context)
    }

    public func makeWriter(_ output: any ByteOutput, context: WriteContext) throws(FerryError) -> any RecordWriter {
        var dialect = try runDialect(context.options)
        // A shard after the first writes no header (Formats/shards.md).
        dialect.hasHeader = dialect.hasHeader && context.part.writesHeader
        return CSVWriter(output, dialect: dialect, schema: context.schema ?? context.kind?.schema, losses: context.losses)
    }

    /// Checks the structure only (quotes, ragged rows, encoding): cells are
    /// read as text, whatever kind the header suggests.
    public func lint(_ input: any ByteInput, context: ReadContext) throws(FerryError) {
        context.kind = .generic
        context.infersTypes = false
        let reader = try makeReader(input, context: context)
        try context.readToEnd { () throws(FerryError) in try reader.next() != nil } resumes: { reader.resumesAfterError }
    }

    /// `input` as UTF-8: transcoded when an encoding is asked for, or when it
    /// starts with a UTF-16 byte order mark.
    static func decoded(_ input: any ByteInput, encoding: TextEncoding) throws(FerryError) -> PeekableInput {
        if encoding != .utf8 { return PeekableInput(TranscodingInput(input, encoding: encoding)) }
        let peekable = PeekableInput(input)
        let start = try peekable.peek(2)
        if TextEncoding.startsWithUTF16Mark(start) {
            return PeekableInput(TranscodingInput(peekable, encoding: .utf16))
        }
        return peekable
    }

    // MARK: - Parts

    /// Rows that end at a line feed outside quotes, with the delimiter
    /// guessed once from `start` and pinned in the options, after the
    /// byte order mark and Excel's `sep=` line; nil for text not in UTF-8.
    public func lineSplitting(start: [UInt8], isWhole: Bool, options: OptionValues) throws(FerryError)
        -> LineSplitting?
    {
        // The dialect the parts' readers take (`makeReader`): a configured
        // codec's quote, header and given delimiter hold here too.
        let dialect = try runDialect(options)
        guard dialect.encoding == .utf8, !TextEncoding.startsWithUTF16Mark(start) else {
            return nil
        }
        var pinned = options
        var chosen = dialect.delimiter
        if !dialect.delimiterGiven {
            let sample = Array(start.prefix(CSVDelimiterSniffer.sampleLength))
            chosen = CSVDelimiterSniffer.sniff(
                sample, isWhole: sample.count < CSVDelimiterSniffer.sampleLength, quote: dialect.quote,
                preferred: delimiter)
        }
        pinned.values["delimiter"] = "\\x" + (chosen < 0x10 ? "0" : "") + String(chosen, radix: 16)
        return LineSplitting(
            cut: .rows, quote: dialect.quote, delimiter: chosen, hasHeader: dialect.hasHeader,
            rowsStart: CSVSepLine.length(in: start, isWhole: isWhole, quote: dialect.quote), options: pinned)
    }

    /// The names the reader takes from the header row (`columnN` without one).
    public func columnNames(inHeader header: any ByteInput, options: OptionValues) throws(FerryError) -> [String] {
        let context = ReadContext(kind: .generic, options: options)
        guard let reader = try makeReader(header, context: context) as? CSVReader else { return [] }
        try reader.start()
        return reader.header?.names ?? []
    }
}
