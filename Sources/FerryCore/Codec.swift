/// A data format Ferry can read, write or both.
///
/// A codec is a value that describes the format and makes streaming readers
/// and writers for it. Codecs live in modules of their own, depend only on
/// `FerryCore`, and join a `CodecRegistry`; nothing else in Ferry needs to
/// know them.
public protocol Codec: Sendable {
    /// The identifier users type after `--from` and `--to`, such as `json`.
    var id: String { get }
    /// File name suffixes without the dot, most common first (`json`).
    var extensions: [String] { get }
    /// Other names `--from` and `--to` take for the codec, such as plutil's
    /// `xml1`; matched without regard to case, as `id` is.
    var aliases: [String] { get }
    /// What the codec can do.
    var capabilities: CodecCapabilities { get }
    /// The options the codec's reader and writer understand, for the CLI and its help.
    var options: [CodecOption] { get }
    /// English message templates for the codes this codec defines, for codecs
    /// that ship outside Ferry's own catalogs. Keys are codes, values templates
    /// with `%1$@` placeholders.
    var messages: [String: String] { get }
    /// Translations of those templates, by language tag (`de`, `en-GB`),
    /// for the languages Ferry has catalogs in: a code missing from one
    /// falls back to its English template in `messages`.
    var catalogs: [String: [String: String]] { get }
    /// Whether the format cannot hold a photo as a reference, so its writer
    /// needs the bytes: a keyed archive (a product's photo is a UIImage) and
    /// a bundle (its photos are files inside it). Every other format keeps
    /// references as they are unless `--embed-photos` asks for the bytes;
    /// see the README's table.
    var embedsMedia: Bool { get }

    /// How sure the codec is that `prefix`, the first bytes of an input, is in
    /// its format.
    func sniff(_ prefix: [UInt8]) -> SniffResult

    /// A reader that streams the records of `input`.
    /// - Throws: `format.cannotRead` when the codec cannot read; codec errors.
    func makeReader(_ input: any ByteInput, context: ReadContext) throws(FerryError) -> any RecordReader

    /// A writer that streams records into `output`.
    /// - Throws: `format.cannotWrite` when the codec cannot write.
    func makeWriter(_ output: any ByteOutput, context: WriteContext) throws(FerryError) -> any RecordWriter

    /// Checks that `input` is well formed, which may be looser than holding
    /// records (a JSON scalar is well formed but holds no records).
    /// - Throws: the first problem found.
    func lint(_ input: any ByteInput, context: ReadContext) throws(FerryError)

    /// This codec with the options of a run that it declares turned into
    /// its typed configuration (`CSVCodec(dialect:)`, `JSONCodec(style:)`,
    /// `ArchiveCodec(className:)`): what the command line builds from its
    /// flags, once, before it opens a file. A value the codec cannot take
    /// throws here. Options it does not declare are ignored; the run's
    /// contexts still carry every option (a shard's report records them),
    /// and a codec reads them over its configuration, so the two agree.
    /// The default returns the codec as it is.
    /// - Throws: `usage.invalidValue` and the codec's own codes for a bad value.
    func configured(by options: OptionValues) throws(FerryError) -> any Codec
}

extension Codec {
    public var options: [CodecOption] { [] }
    public var aliases: [String] { [] }
    public var messages: [String: String] { [:] }
    public var catalogs: [String: [String: String]] { [:] }
    public var embedsMedia: Bool { false }

    public func configured(by options: OptionValues) throws(FerryError) -> any Codec { self }

    public func makeReader(_ input: any ByteInput, context: ReadContext) throws(FerryError) -> any RecordReader {
        throw .formatCannotRead(id)
    }

    public func makeWriter(_ output: any ByteOutput, context: WriteContext) throws(FerryError) -> any RecordWriter {
        throw .formatCannotWrite(id)
    }

    /// By default a file is well formed when every record can be read.
    public func lint(_ input: any ByteInput, context: ReadContext) throws(FerryError) {
        let reader = try makeReader(input, context: context)
        try context.readToEnd { () throws(FerryError) in try reader.next() != nil } resumes: { reader.resumesAfterError }
    }
}

/// What a codec can do.
public struct CodecCapabilities: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let read = CodecCapabilities(rawValue: 1)
    public static let write = CodecCapabilities(rawValue: 2)
    public static let readWrite: CodecCapabilities = [.read, .write]
    /// The codec's readers are `RawRecordReader`s. A conversion from such a
    /// codec to one that `writesRaw` skips `Record`s (see `RawRecord`).
    public static let readsRaw = CodecCapabilities(rawValue: 4)
    /// The codec's writers are `RawRecordWriter`s.
    public static let writesRaw = CodecCapabilities(rawValue: 8)
    /// The codec's output is gzip-compressed already (a bundle): asking for
    /// compression refuses to add a second layer.
    public static let writesGzip = CodecCapabilities(rawValue: 16)
    /// The codec writes bytes that are not text (a binary plist, an archive,
    /// a bundle): the command line refuses to send them to a terminal.
    public static let writesBinary = CodecCapabilities(rawValue: 32)
    /// The format has a type for bytes (a plist's `<data>`): an inline photo
    /// (a `data:` URI read from text) is written as its bytes. References
    /// stay references all the same.
    public static let writesBytes = CodecCapabilities(rawValue: 64)
    /// The codec's records split at line ends, so that a file can be cut
    /// into parts read apart: the codec conforms to `LineSplittingCodec`.
    public static let splitsAtLineEnds = CodecCapabilities(rawValue: 128)
    /// The codec's writers write the part of a document that
    /// `WriteContext.part` names: the outputs of shards, joined in order,
    /// are one document.
    public static let writesParts = CodecCapabilities(rawValue: 256)
    /// Each record written is one line of its own, with nothing before,
    /// between or after the records: lines written apart and joined are
    /// one document (JSON Lines).
    public static let writesLines = CodecCapabilities(rawValue: 512)
    /// The writer takes its columns from the first record it writes (a CSV
    /// header row): that record must name every field the others have.
    public static let writesColumnsOfFirstRecord = CodecCapabilities(rawValue: 1024)
}

/// How well some bytes match a format. Larger wins.
public enum SniffResult: Int, Sendable, Comparable {
    case no = 0
    /// The bytes could be this format, among others (`{` for JSON or JSON Lines).
    case possible = 1
    /// The bytes are very likely this format (`[` after optional space for JSON).
    case likely = 2
    /// A magic number matched.
    case certain = 3

    public static func < (lhs: SniffResult, rhs: SniffResult) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// An option a codec understands, such as `--compact` for JSON.
public struct CodecOption: Sendable, Hashable {
    /// The long name without dashes.
    public let name: String
    /// The catalog key of its help text.
    public let helpKey: MessageKey
    /// The placeholder for its value in help (`CHAR`), or nil for a flag.
    public let valueName: String?
    /// Whether the option affects reading, writing or both.
    public let applies: CodecCapabilities
    /// The values allowed, when the set is closed; help lists them and the
    /// command line refuses others.
    public let allowed: [String]?
    /// Other names of allowed values, in lower case, to the allowed value
    /// each stands for (`latin1` for `windows-1252`).
    public let aliases: [String: String]

    public init(
        name: String, helpKey: MessageKey, valueName: String? = nil, applies: CodecCapabilities,
        allowed: [String]? = nil, aliases: [String: String] = [:]
    ) {
        self.name = name
        self.helpKey = helpKey
        self.valueName = valueName
        self.applies = applies
        self.allowed = allowed
        self.aliases = aliases
    }
}

// MARK: - Readers and writers

/// Streams records from an input, one at a time.
///
/// Once `next()` has thrown, the reader stays failed and every later call
/// throws the same error, unless the caller asked it to go on
/// (`ReadContext.resumesAfterBadRecords`) and the error spoilt one record
/// only: then `resumesAfterError` is true and the next call reads the record
/// after the bad one (the next CSV row, the next JSON Lines line).
public protocol RecordReader: AnyObject {
    /// The next record, or nil at the end of the input.
    func next() throws(FerryError) -> Record?
    /// The location of a byte offset the reader has reached, with line and
    /// column when the reader can still work them out.
    func location(ofByteOffset offset: Int) -> SourceLocation
    /// The kind the format itself gives the records, as a keyed archive's
    /// class names do, once the first record has been read; nil when the
    /// format says nothing and the kind is inferred from the fields.
    var declaredKind: RecordKind? { get }
    /// After `next()` has thrown: whether the error ended one record only,
    /// so that the next call goes on with the record after it.
    var resumesAfterError: Bool { get }
    /// Where the value of field `name` is, in the record that starts at
    /// `byteOffset`: its line and column where the format has lines. Only
    /// while the reader still holds that record's bytes (until the next
    /// `next()`, or during `readRaw`'s call); nil otherwise, or when the
    /// record has no such field. Worked out only when a problem is
    /// reported there, by scanning the record again.
    func location(ofField name: String, inRecordAt byteOffset: Int) -> SourceLocation?
}

extension RecordReader {
    public var resumesAfterError: Bool { false }
    public func location(ofField name: String, inRecordAt byteOffset: Int) -> SourceLocation? { nil }

    /// Where a problem of the record that starts at `byteOffset` is: the
    /// cell of `field` when the reader can find it, else the record's start.
    public func location(of field: String?, inRecordAt byteOffset: Int) -> SourceLocation {
        field.flatMap { location(ofField: $0, inRecordAt: byteOffset) } ?? location(ofByteOffset: byteOffset)
    }

    public func location(ofByteOffset offset: Int) -> SourceLocation {
        SourceLocation(byteOffset: offset)
    }

    public var declaredKind: RecordKind? { nil }
}

/// Streams records into an output. `finish()` must be called once, after the
/// last record, to close the document and flush.
public protocol RecordWriter: AnyObject {
    func write(_ record: Record) throws(FerryError)
    func finish() throws(FerryError)
}

// MARK: - Structure

/// What a reader can tell about a file beyond its records, for `ferry inspect`:
/// a keyed archive's objects and classes, say.
public struct InputStructure: Sendable {
    /// The objects the file holds, for formats made of objects.
    public var objectCount: Int?
    /// Class names with how many objects of each the file holds, most first.
    public var classes: [(name: String, count: Int)]
    /// A workbook's sheets, in its order.
    public var sheets: [Sheet]
    /// The number formats the cells read use (`0.00`, `yyyy-mm-dd`), in
    /// the order of their styles.
    public var numberFormats: [String]

    /// One sheet of a workbook.
    public struct Sheet: Sendable, Hashable {
        public var name: String
        /// The range the sheet says it covers (`A1:D11`), when it says.
        public var dimension: String?
        /// Whether the sheet shows in the workbook's tabs.
        public var state: State
        /// Whether its rows were the records read.
        public var isRead: Bool
        /// For the sheet read: how many of its rows are hidden (they are read all the same).
        public var hiddenRows: Int?

        /// A sheet's visibility, as SpreadsheetML names it (`state`).
        public enum State: String, Sendable, Hashable {
            case visible
            /// Hidden, and shown again from the workbook's menu.
            case hidden
            /// Hidden, and shown again only by a program.
            case veryHidden
        }

        public init(name: String, dimension: String?, state: State, isRead: Bool, hiddenRows: Int? = nil) {
            self.name = name
            self.dimension = dimension
            self.state = state
            self.isRead = isRead
            self.hiddenRows = hiddenRows
        }
    }

    public init(
        objectCount: Int? = nil, classes: [(name: String, count: Int)] = [], sheets: [Sheet] = [],
        numberFormats: [String] = []
    ) {
        self.objectCount = objectCount
        self.classes = classes
        self.sheets = sheets
        self.numberFormats = numberFormats
    }
}

/// A reader that can describe its file's structure.
public protocol StructureReporting: RecordReader {
    /// The structure of the whole file; may read it all.
    /// - Throws: the format's errors.
    func structure() throws(FerryError) -> InputStructure
}
