// MARK: - Design
//
// Converting CSV to JSON the general way makes each row a raw record, copies
// it onto a tape for the writing thread, checks it against the kind, and
// formats each cell from its typed value. For the plain rows that make up
// nearly all of a products file (no quotes, as many fields as the header,
// values that fit their type), most of that work changes nothing: a string
// is copied into quotes, a price like `84.99` is parsed only to be printed
// back as `84.99`.
//
// So a writer that lays records out as JSON text tells a reader how
// (`JSONRecordLayout`: the bytes before each value and after the last), and
// a reader that can (`JSONLayingReader`) writes such rows itself, with
// `JSONText` for the values, into blocks it hands to the writer. Any row it
// cannot write that way with certainty goes the general way instead, as a
// raw record, validated and written by the writer, so errors, warnings and
// unusual rows come out exactly as before; tests compare both ways.
//
//     JSONWriter ──layout(for: header)──▶ CSVReader
//     CSVReader  ──appendLaidOut(block of plain rows)──▶ JSONWriter
//     CSVReader  ──raw record (other rows)──▶ validate ──▶ writeRaw

/// How a writer lays out JSON records of one field list: what goes before
/// the first value (the separator from the record before, the brace and the
/// first key), before each later value (a comma and its key), and after the
/// last one.
public struct JSONRecordLayout: Sendable {
    /// Before the first value of the first record of the output.
    public let firstOpening: [UInt8]
    /// Before the first value of any later record.
    public let opening: [UInt8]
    /// `separators[i]` goes before value `i`; `separators[0]` is empty (the
    /// openings hold it).
    public let separators: [[UInt8]]
    /// After the last value.
    public let closing: [UInt8]

    public init(firstOpening: [UInt8], opening: [UInt8], separators: [[UInt8]], closing: [UInt8]) {
        self.firstOpening = firstOpening
        self.opening = opening
        self.separators = separators
        self.closing = closing
    }
}

/// A writer of JSON text that can take records laid out by the reader.
public protocol JSONLayoutWriter: RawRecordWriter {
    /// The layout of records with these fields (at least one).
    func jsonLayout(for fields: FieldList) -> JSONRecordLayout
    /// How many records the writer has written or taken so far.
    var recordsWritten: Int { get }
    /// Takes the `records` records laid out in `block` with
    /// `jsonLayout(for:)`, in order, as if each had been written, and leaves
    /// `block` empty; the first uses `firstOpening` exactly when
    /// `recordsWritten` was 0.
    func appendLaidOut(_ block: inout WriteBuffer, records: Int) throws(FerryError)
}

/// A reader that can lay its plain records out as JSON itself.
public protocol JSONLayingReader: RawRecordReader {
    /// Reads what comes before the records (a header) and returns the kind
    /// they will be read as; nil when that is not known before a record.
    func settleKind() throws(FerryError) -> RecordKind?

    /// Reads the records the reader has at hand, as `readRaw` does: those it
    /// can lay out exactly as `writer` would write them, after checks that
    /// imply the kind's validation passes, go to `writer.appendLaidOut`;
    /// every other one goes to `raw`, in order, which validates and writes
    /// it.
    /// - Returns: false when the input has ended.
    func readLaidOut(
        into writer: any JSONLayoutWriter, raw: (RawRecord) throws(FerryError) -> Void
    ) throws(FerryError) -> Bool
}
