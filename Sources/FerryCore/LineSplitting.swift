/// How the records of a file split at line ends, so that the file can be
/// cut into parts that are read apart, each on a core of its own (Ferry's
/// parts engine: `ferry plan`, shards, the parts of a validation and of a
/// merge).
///
/// A codec that says so in its capabilities (`.splitsAtLineEnds`) conforms
/// to `LineSplittingCodec` and describes its records with this value; code
/// outside the codec asks it, never the codec's id.
///
///     name,price\n Wii,269\n "Xbox\n360",299\n     rows, quote `"`, a header:
///                            ^ cut here             a part after the first
///                                   ^ not here      reads `name,price\n` first
public struct LineSplitting: Sendable, Hashable {
    /// Where a cut between two records may fall.
    public enum Cut: Sendable, Hashable {
        /// After a line feed that is outside quotes (CSV, TSV, JSON Lines, a
        /// plugin's line format).
        case rows
        /// At the comma between two elements of a top-level JSON array.
        case arrayElements
    }

    public var cut: Cut
    /// The quote inside which a line feed does not end a row; nil when no
    /// quote hides one (JSON Lines).
    public var quote: UInt8?
    /// The delimiter whose rows of it alone the reader skips as blank (CSV);
    /// nil where a blank row is white space only.
    public var delimiter: UInt8?
    /// Whether the first row that holds a record names the columns: every
    /// part after the first reads it before its own bytes.
    public var hasHeader: Bool
    /// Where the rows start: after a byte order mark and a line the reader
    /// takes for no row (Excel's `sep=` line), else 0.
    public var rowsStart: Int
    /// The options every part is read with: the caller's, with what the
    /// reader would guess from the file's start (the delimiter) pinned, so
    /// that no part guesses again from its own bytes.
    public var options: OptionValues

    public init(
        cut: Cut, quote: UInt8? = nil, delimiter: UInt8? = nil, hasHeader: Bool = false, rowsStart: Int = 0,
        options: OptionValues
    ) {
        self.cut = cut
        self.quote = quote
        self.delimiter = delimiter
        self.hasHeader = hasHeader
        self.rowsStart = rowsStart
        self.options = options
    }
}

/// A codec whose records split at line ends (`.splitsAtLineEnds`).
public protocol LineSplittingCodec: Codec {
    /// How a file that starts with `start` splits when read with `options`;
    /// nil when it does not (text not in UTF-8, records deeper in a JSON
    /// document than its top-level array).
    /// - Parameter isWhole: whether `start` is the whole file.
    /// - Throws: the codec's errors for bad options.
    func lineSplitting(start: [UInt8], isWhole: Bool, options: OptionValues) throws(FerryError) -> LineSplitting?

    /// The names of the columns in `header`, the bytes of a file up to the
    /// end of its header row, as the codec's reader takes them.
    /// - Throws: the codec's errors.
    func columnNames(inHeader header: any ByteInput, options: OptionValues) throws(FerryError) -> [String]
}

extension LineSplittingCodec {
    public func columnNames(inHeader header: any ByteInput, options: OptionValues) throws(FerryError) -> [String] { [] }
}
