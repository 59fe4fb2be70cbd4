#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import FerryCSV
import FerryCore
import FerryJSON

// MARK: - Design
//
// Converting CSV to JSON the general path makes each row a raw record, copies
// it onto a tape for the writing thread, checks it against the kind, and
// formats each cell from its typed value. For the plain rows that make up
// nearly all of a products file (no quotes, as many fields as the header,
// values that fit their type), most of that work changes nothing: a string
// is copied into quotes, a price like `84.99` is parsed only to be printed
// back as `84.99`.
//
// So this module, the accelerator FerryKit registers for CSV to JSON and
// JSON Lines, asks the JSON writer how it lays records out
// (`JSONRecordLayout`: the bytes before each value and after the last),
// and lays such rows out itself, with `JSONText` for the values, into
// blocks it hands to the writer. Any row it
// cannot write that way with certainty takes the general path instead, as a
// raw record, validated and written by the writer, so errors, warnings and
// unusual rows come out exactly as before; tests compare both ways.
//
//     JSONWriter    ──jsonLayout(for: header)──▶ CSVToJSONRun
//     CSVToJSONRun  ──appendLaidOut(block of plain rows)──▶ JSONWriter
//     CSVToJSONRun  ──raw record (other rows)──▶ validate ──▶ writeRaw
//
// The run reads with the CSV reader's own scanner and window (their
// `package` members), so rows it does not lay out are read exactly as
// `CSVReader.readRaw` reads them. It also owns the threads: a second one
// lays out half of a large window (`layOutInHalves`), and
// `BackgroundOutput` writes on a third.

// MARK: - Plain rows
//
// A row is plain when it ends in LF or CRLF inside the bytes at hand, has
// as many fields as the header, not all empty (a row of delimiters only,
// `;;;`, is skipped and counted by the general path), holds no other CR and
// no NUL outside quoted fields, and each cell fits its column as below;
// everything else goes the general path, as a raw record. A `sep=` line
// and the encoding are the reader's own (its header and its window).
//
//     header  name,price,photo        kind product
//     row     Wii,269.00,             plain: {"name": "Wii", "price": 269.0, "photo": null}
//     row     Wii,-1,                 not plain: the general path reports the negative price
//     row     "Wii, white",269,       not plain (a quote): the general path
//
// What each column takes, from its rule in the schema's plan (the
// `ColumnRule` that `CellTyping` and `RecordValidator` read too); a column
// whose rule has other constraints (a format, a pattern, …) is never laid
// out here:
// - no type (a field the kind does not name): any text, empty as "";
// - string or photo, optional: text, empty as null (a quoted empty one
//   takes the general path when the rule wants it not empty); a required
//   string: text, not empty when the rule says so;
// - number: empty as null unless required; text `JSONText.printsAsWritten`
//   accepts is copied (a negative number too when the rule has no minimum
//   of zero); other text is parsed as `CellTyping` parses it and printed as
//   the writer prints it, when the rule takes it;
// - integer: the same, when it parses as an integer;
// - bool: empty as null unless required; what `BoolText` accepts.
// Cells with bytes above 0x7F are checked as UTF-8 first. A kind field that
// is required and missing from the header turns the plain path off.

/// The CSV to JSON and JSON Lines accelerator: plain rows laid out as JSON
/// text as the CSV reader scans them (see the design above).
package struct CSVToJSONAccelerator: ConversionAccelerator {
    package init() {}

    package func start(
        reading reader: any RecordReader, from input: any Codec, to output: any Codec,
        destination: any ByteOutput, jobs: Int
    ) -> (any AcceleratedConversion)? {
        guard let reader = reader as? CSVReader, output is JSONCodec || output is JSONLinesCodec else { return nil }
        return CSVToJSONRun(reader, destination: destination, jobs: jobs)
    }
}

/// One CSV to JSON conversion under way: the reader, the writer once made,
/// the plans of the two threads that lay rows out, and the output thread.
final class CSVToJSONRun: AcceleratedConversion {
    let reader: CSVReader
    /// The cores to use, of those the process may run on.
    private let jobs: Int
    private let output: BackgroundOutput
    private var writer: JSONWriter?
    /// How plain rows are laid out, made on first use; nil when the header
    /// or the schema rules them out.
    private var plan: PlainRowPlan?
    private var planned = false
    /// The same for a second thread, with more than one core.
    private var helper: PlainRowPlan?
    /// The part of a window split in two that this thread lays out (see
    /// `layOutInHalves`), moved after each split whose two parts were read
    /// through toward the share that makes both threads finish together.
    private var firstHalfShare = 0.5

    /// - Parameter jobs: the cores to use; with 2 or more (of those the
    ///   process may run on), a second thread lays out half of each window.
    init(_ reader: CSVReader, destination: any ByteOutput, jobs: Int) {
        self.reader = reader
        self.jobs = min(jobs, Cores.usable)
        output = BackgroundOutput(destination)
    }

    var destination: any ByteOutput { output }

    var recordsWritten: Int { writer?.recordsWritten ?? 0 }

    func close() { output.close() }

    func settleKind() throws(FerryError) -> RecordKind? {
        try reader.settleKind()
    }

    func begin(with writer: any RecordWriter) -> Bool {
        guard let writer = writer as? JSONWriter else { return false }
        self.writer = writer
        output.start()
        return true
    }

    func step(general raw: (RawRecord) throws(FerryError) -> Void) throws(FerryError) -> Bool {
        guard let writer else { return try reader.readRaw(raw) }
        let reader = self.reader
        return try reader.guarded(resuming: false) { () throws(FerryError) -> Bool in
            if !reader.started { try reader.start() }
            guard !reader.finished, let header = reader.header else { return false }
            guard let plan = plainPlan(for: header, writer: writer) else { return try reader.readRaw(raw) }
            var buffers = RawRecordBuffers()
            swap(&buffers, &reader.rawBuffers)
            defer { swap(&buffers, &reader.rawBuffers) }
            plan.anyWritten = writer.recordsWritten > 0
            var failed: FerryError?
            let columns = reader.columns
            let ended = try columns.withUnsafeBufferPointer { (columns) throws(FerryError) -> Bool in
                let plainRows = { (scanner: inout CSVScanner, most: Int) -> Int in
                    let taken = plan.layOut(&scanner, most: most)
                    reader.rowIndex += taken
                    return taken
                }
                let otherRow = { (scanner: CSVScanner, fields: UnsafeBufferPointer<CSVField>) throws(CSVScanError) -> Bool in
                    // The rows laid out before this one go first.
                    try reader.handRow(
                        scanner, fields, header: header, columns: columns, buffers: &buffers,
                        before: { () throws(FerryError) in try plan.hand(to: writer) },
                        to: { (record) throws(FerryError) in
                            try raw(record)
                            plan.anyWritten = true
                        }, failure: &failed)
                }
                let window = reader.window
                if let helper, window.count - reader.position >= Self.halvesThreshold {
                    let before = reader.position
                    try layOutInHalves(plan: plan, helper: helper, writer: writer, plain: plainRows, other: otherRow)
                    if failed != nil { return false }
                    // When rows were read, the rows left in the window, then
                    // a refill, so that the next call splits a full window
                    // again (scanning on would lay out the next rows on this
                    // thread alone). Otherwise (one long row in the window,
                    // or a quoted field across the split) and once the input
                    // has ended, the one-thread scan below, whose refills grow
                    // with an unfinished row, so that it is not rescanned
                    // once a read.
                    if reader.position > before && !window.isAtEnd {
                        _ = try reader.scanRows(upTo: .max, bound: window.count, plain: plainRows, otherRow)
                        if failed != nil { return false }
                        if let dropped = try window.refill(keepingFrom: reader.position) { reader.position -= dropped }
                        return false
                    }
                }
                return try reader.scanRows(plain: plainRows, otherRow)
            }
            if let failed { throw failed }
            try plan.hand(to: writer)
            if ended { reader.finish() }
            return !ended
        }
    }

    /// How plain rows of `header` are laid out for `writer`; nil when cells
    /// may stand for null or hold JSON or decimal commas, when a required
    /// field of the schema is not in the header, or when the schema has
    /// rules about the record as a whole.
    private func plainPlan(for header: FieldList, writer: JSONWriter) -> PlainRowPlan? {
        if planned { return plan }
        planned = true
        let dialect = reader.dialect
        guard dialect.nullText == nil && !dialect.nestedJSON && !dialect.decimalComma else { return nil }
        // Types inferred from a sample: each cell is checked by inference's
        // rule (`CSVTypeInference.fits`), which only the general path does.
        guard !reader.checksInferredCells else { return nil }
        let schema = reader.schema ?? RecordKind.generic.schema
        guard !schema.checksWholeRecord else { return nil }
        for rule in schema.fieldRules where rule.required && !header.contains(rule.name) { return nil }
        let columns = reader.columns
        let signed = columns.indices.reduce(UInt64(0)) { mask, index in
            index < 64 && !columns[index].minimumZero ? mask | 1 << UInt64(index) : mask
        }
        let nonBlank = columns.indices.reduce(UInt64(0)) { mask, index in
            index < 64 && columns[index].nonBlank ? mask | 1 << UInt64(index) : mask
        }
        plan = PlainRowPlan(
            layout: writer.jsonLayout(for: header), cells: columns.map(PlainRowPlan.Cell.init), signed: signed,
            nonBlank: nonBlank, delimiter: dialect.delimiter, quote: dialect.quote, maxFieldBytes: dialect.maxFieldBytes)
        helper = jobs > 1 ? plan?.twin() : nil
        return plan
    }

    // MARK: - Two halves at once

    /// How many bytes of rows the window must hold for its second half to
    /// be laid out on another thread.
    static let halvesThreshold = 1 << 17
    /// How far one split moves `firstHalfShare`.
    static let shareStep = 1.0 / 32

    /// Reads the window's complete rows in two parts at once: this thread
    /// the first, the way `step` does, and `helper` on another
    /// thread the second, guessing that it starts at the first line break
    /// past `firstHalfShare` of the rows and laying out plain rows only, up
    /// to the first other one. When this thread's part ends exactly there,
    /// the guess was right (no quoted field ran across it) and the second
    /// part's records follow; otherwise they are dropped. Either way the
    /// caller reads on from the position.
    private func layOutInHalves(
        plan: PlainRowPlan, helper: PlainRowPlan, writer: JSONWriter,
        plain: @escaping (inout CSVScanner, Int) -> Int,
        other: (CSVScanner, UnsafeBufferPointer<CSVField>) throws(CSVScanError) -> Bool
    ) throws(FerryError) {
        let reader = self.reader
        let window = reader.window
        let dialect = reader.dialect
        let count = window.count
        let start = reader.position
        try window.bytes.withUnsafeBufferPointer { (buffer) throws(FerryError) in
            guard let base = buffer.baseAddress else { return }
            // The window ends a few bytes into a row: its last LF is near.
            var end = count
            while end > start && base[end - 1] != 0x0A { end -= 1 }
            guard end > start else { return }
            let middle = start + Int(Double(end - start) * firstHalfShare)
            guard let found = memchr(base + middle, 0x0A, end - middle) else { return }
            let split = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base + 1
            guard split < end else { return }
            // The window's bytes stay as they are until the helper is done:
            // this thread reads only up to `split` and never refills meanwhile.
            let job = HalfJob(
                plan: helper,
                scanner: CSVScanner(
                    bytes: UnsafeBufferPointer(start: base, count: end), baseOffset: window.baseOffset, position: split,
                    isFinal: false, delimiter: dialect.delimiter, quote: dialect.quote,
                    maxFieldBytes: dialect.maxFieldBytes))
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                job.run()
                done.signal()
            }
            var waited = false
            defer { if !waited { done.wait() } }
            _ = try reader.scanRows(upTo: .max, bound: split, plain: plain, other)
            let helperFirst = done.wait(timeout: .now()) == .success
            if !helperFirst { done.wait() }
            waited = true
            // This thread's part ended where the helper's began.
            let aligned = reader.position == split
            if aligned && job.scanner.position == end {
                // Both parts were read through. This thread also reads the
                // input, counts lines and hands blocks on: when the helper
                // was done first, this thread takes less next time, else
                // more.
                firstHalfShare += helperFirst ? -Self.shareStep : Self.shareStep
                firstHalfShare = min(max(firstHalfShare, 0.25), 0.75)
            }
            if aligned && helper.blockRecords > 0 {
                try plan.hand(to: writer)
                let rows = helper.blockRecords
                try plan.adopt(helper, to: writer)
                reader.rowIndex += rows
                reader.position = job.scanner.position
            } else {
                helper.discard()
            }
        }
    }
}

/// The second half of a window, laid out on another thread (see
/// `layOutInHalves`). Only that thread touches it until it signals.
private final class HalfJob: @unchecked Sendable {
    let plan: PlainRowPlan
    var scanner: CSVScanner

    init(plan: PlainRowPlan, scanner: CSVScanner) {
        self.plan = plan
        self.scanner = scanner
    }

    /// Lays out plain rows from the scanner's position, up to the first
    /// other one or the end of its bytes.
    func run() {
        plan.anyWritten = true
        // A local copy: the property would be checked for exclusive access
        // on every row.
        var scanner = self.scanner
        _ = plan.layOut(&scanner, most: .max)
        self.scanner = scanner
    }
}
