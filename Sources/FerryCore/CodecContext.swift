/// Option values given on the command line or by a library caller, keyed by
/// option name without dashes. Flags hold an empty string.
public struct OptionValues: Sendable, Hashable {
    public var values: [String: String]

    public init(_ values: [String: String] = [:]) { self.values = values }

    public func flag(_ name: String) -> Bool { values[name] != nil }
    public subscript(name: String) -> String? { values[name] }
}

/// The limits every reader honours. Each is adjustable, and each has its own code.
public struct ReadLimits: Sendable, Hashable {
    /// The deepest nesting of arrays and objects (`limit.nestingTooDeep`).
    public var maxDepth = 512
    /// The most bytes one record may take in its source (`limit.recordTooLarge`).
    public var maxRecordBytes = 64 << 20
    /// The most bytes a compressed input may expand to (`limit.expandedTooLarge`).
    public var maxExpandedBytes = 64 << 30
    /// The largest ratio of expanded to compressed bytes, checked once 64 MiB
    /// have come out (`limit.ratioTooHigh`). Text data seldom passes 50:1;
    /// a gigabyte of one repeated byte is about 1,000:1.
    public var maxExpansionRatio = 250
    /// The largest input a whole-file format (binary plist, keyed archive)
    /// reads into memory (`limit.inputTooLarge`).
    public var maxInputBytes = 1 << 30
    /// The most objects a binary plist or keyed archive may hold (`limit.tooManyObjects`).
    public var maxObjects = 1 << 26
    /// The most entries a bundle (a tar archive) may hold (`limit.tooManyEntries`).
    public var maxEntries = 1 << 20
    /// The most bytes one entry of a bundle may hold (`limit.entryTooLarge`).
    public var maxEntryBytes = 1 << 32

    public init() {}
}

/// Settings and shared services for a reader.
public final class ReadContext {
    /// The kind the caller asked for, or nil to keep values as the format gives them.
    public var kind: RecordKind?
    /// The schema the records are checked against, when the caller gives
    /// one; nil for the kind's built-in schema. Readers that type their
    /// fields (CSV) type them by its rules.
    public var schema: Schema?
    public var options: OptionValues
    public var limits: ReadLimits
    /// Whether a reader that can should go on after a bad record (see
    /// `RecordReader.resumesAfterError`) instead of staying failed.
    public var resumesAfterBadRecords = false
    /// Whether a JSON Lines reader tells which lines are the bytes the
    /// JSON Lines writer writes for their records (`RawRecord.lineAsWritten`),
    /// for a merge that takes such lines as they are. Off by default: it
    /// checks every escaped string against the writer's escaping, which
    /// cost a conversion of lines that all have one about 15%.
    package var notesLinesAsWritten = false
    /// Whether readers count lines for their locations (`InputWindow.countsLines`).
    /// Only a reader whose errors and warnings are all dropped may do
    /// without: its locations then have byte offsets only.
    package var countsLines = true
    /// Where `lint` hands the problems it can read past, when set (it also
    /// makes readers resume); without it, the first problem is thrown.
    public var diagnostics: (any DiagnosticSink)? {
        didSet { resumesAfterBadRecords = diagnostics != nil }
    }
    /// Reads one JSON value from text, for a reader that finds JSON inside
    /// its own format (CSV with `--nested json`); FerryKit sets it, since a
    /// codec knows no other codec.
    package var jsonValue: (@Sendable (UnsafeBufferPointer<UInt8>, _ maxDepth: Int) -> Value?)?
    /// Warnings raised while reading, in order.
    public private(set) var warnings: [FerryWarning] = []

    public init(
        kind: RecordKind? = nil, schema: Schema? = nil, options: OptionValues = OptionValues(),
        limits: ReadLimits = ReadLimits()
    ) {
        self.kind = kind
        self.schema = schema
        self.options = options
        self.limits = limits
    }

    public func warn(_ warning: FerryWarning) { warnings.append(warning) }

    /// What the reader changed as it read (a repeated name in a JSON
    /// object keeps its last value): once per code and field, counted.
    public let losses = LossTally()
    /// Whether every such change is a warning of its own, as `validate`
    /// wants, instead of a count in `losses`.
    package var reportsEveryLoss = false
    /// What a reader that types cells (CSV) does with a cell that does not
    /// fit its field's type.
    package enum MismatchedCells: Sendable {
        /// The cell's error is the record's, thrown (`convert`).
        case fail
        /// The cell is left null and its error waits in `cellErrors` for
        /// the record's check, which reports it beside every rule the
        /// other cells break (`validate`).
        case collect
        /// The cell is read as the text it is, with no error: `list`,
        /// `edit` and `remove` read a file with invalid records this way,
        /// so every record is there to list, fix or remove, and only an
        /// edit whose result breaks the rules is refused.
        case keepText
    }
    /// What a reader that types cells does with one that does not fit.
    package var mismatchedCells = MismatchedCells.fail
    /// Whether a reader of text without types (CSV) may type the fields no
    /// kind or schema types from what they hold (Formats/csv.md, "Types
    /// without a schema"), unless its options say `--no-infer`. Validation
    /// and lint turn it off: they check no free field's type, and the
    /// look over the file would cost them a second read.
    package var infersTypes = true
    /// For a reader of one part of a file (a shard), the whole file, over
    /// which inferred types are decided, so that every part types a column
    /// alike; nil for a reader of the whole input.
    package var wholeInput: (() -> (any ByteInput)?)?
    /// The types a reader of a whole file inferred for its free columns
    /// (CSV), set once it has read its header. Given to the reader of one
    /// part of that file, they type its columns instead of its own rows,
    /// so that every part types a column as the whole file does.
    package var inferredTypes: InferredColumnTypes?
    /// Whether a reader that would type free fields from what they hold
    /// (CSV) leaves that to its caller: it reads them as text, with no look
    /// over the input first, and names them in `deferredFields`. `schema
    /// infer`, which sees every cell anyway, decides their types from the
    /// same cells (`CSVTypeInference.Column`) and reads the file once.
    package var defersTypeInference = false
    /// The fields a reader left untyped for its caller to infer, when
    /// `defersTypeInference` is set: each free column of a CSV header.
    package var deferredFields: [String] = []
    /// The errors of the cells of the record handed out last, each with its
    /// field, when `mismatchedCells` is `.collect`; the record's check takes them.
    /// Read for every record: its access is not checked at run time (one
    /// reader and its check use a context, on one thread).
    @exclusivity(unchecked) package var cellErrors: [FerryError] = []

    /// `cellErrors`, taken (and emptied): what the record's check reads for
    /// every record. A call, rather than the property touched from another
    /// module, where its access was checked at run time all the same (12.6M
    /// of 518M instructions validating 200,000 products from CSV).
    package func takeCellErrors() -> [FerryError] {
        if cellErrors.isEmpty { return [] }
        defer { cellErrors.removeAll() }
        return cellErrors
    }

    /// Notes a change of `code` to field `field` of record `record`, at
    /// `location` when the reader knows it (a line and column).
    public func noteLoss(
        _ code: FerryError.Code, field: String, record: Int, _ arguments: [MessageArgument],
        at location: SourceLocation? = nil
    ) {
        if reportsEveryLoss {
            let here = SourceLocation(record: record, field: field)
            warn(FerryWarning(code, arguments, at: location.map { here.filling(from: $0) } ?? here))
        } else {
            losses.note(code, field: field, record: record, arguments)
        }
    }

    /// Returns the warnings raised since the last call and forgets them.
    public func takeWarnings() -> [FerryWarning] {
        defer { warnings.removeAll() }
        return warnings
    }
}

/// Settings for a writer.
public final class WriteContext {
    public var kind: RecordKind?
    /// The schema the records were checked against, when the caller gave
    /// one; nil for the kind's. Writers that can lose what a schema would
    /// type back (CSV's null) look at it.
    public var schema: Schema?
    public var options: OptionValues
    /// The values the writer could not write as they came, for the summary.
    public let losses = LossTally()
    /// Which part of the document the writer writes: all of it, or one
    /// shard's, whose outputs are concatenated (Formats/shards.md).
    public var part = DocumentPart.whole

    public init(kind: RecordKind? = nil, options: OptionValues = OptionValues()) {
        self.kind = kind
        self.options = options
    }
}

extension ReadContext {
    /// Calls `step` until it returns false. A problem the reader can read
    /// past (`resumes()` is true after it) goes to `diagnostics`, and the
    /// reading goes on while the sink takes more; any other is thrown.
    /// - Throws: the problems that end the reading.
    public func readToEnd(
        _ step: () throws(FerryError) -> Bool, resumes: () -> Bool
    ) throws(FerryError) {
        while true {
            do throws(FerryError) {
                guard try step() else { return }
            } catch {
                guard let diagnostics, resumes() else { throw error }
                guard diagnostics.report(Diagnostic(error)) else { return }
            }
        }
    }
}

/// The part of an output document one writer writes. A document cut into
/// shards is written a part per shard, and the parts concatenated in order
/// give the document one writer would have written.
///
///     JSON, pretty:  "[\n  {…}"   ",\n  {…}"   ""   ",\n  {…}\n]\n"
///                    continues:no  continues:yes  (no records)  closes:yes
public struct DocumentPart: Sendable, Hashable {
    /// Whether records of the document come before this part's: its first
    /// record follows them (a JSON array's comma, no opening bracket).
    public var continues: Bool
    /// Whether the document ends with this part (a JSON array's `]`, or
    /// `[]` for a document of no records).
    public var closes: Bool
    /// Whether a CSV or TSV header row is written before the part's first record.
    public var writesHeader: Bool

    public init(continues: Bool, closes: Bool, writesHeader: Bool) {
        self.continues = continues
        self.closes = closes
        self.writesHeader = writesHeader
    }

    /// The whole document.
    public static let whole = DocumentPart(continues: false, closes: true, writesHeader: true)
}

/// What type inference decided for the columns of a header (see
/// `ReadContext.inferredTypes`).
package struct InferredColumnTypes: Sendable {
    /// Each column's type; nil for one read as the kind or schema types it, or as text.
    package let types: [FieldType?]
    /// Whether they come from every row, not a sample whose later cells
    /// must still be checked.
    package let complete: Bool
    /// The rows they come from.
    package let rows: Int

    package init(types: [FieldType?], complete: Bool, rows: Int) {
        self.types = types
        self.complete = complete
        self.rows = rows
    }
}
