#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import FerryCore

// MARK: - Design
//
// Plain rows laid out as JSON by the reader (see FerryCore's JSONLayout.swift).
// A row is plain when it ends in LF or CRLF inside the bytes at hand, has
// as many fields as the header, holds no other CR and no NUL outside quoted
// fields, and each cell fits its column as below; everything else goes the
// general way, as a raw record.
//
//     header  name,price,photo        kind product
//     row     Wii,269.00,             plain: {"name": "Wii", "price": 269.0, "photo": null}
//     row     Wii,-1,                 not plain: the general way reports the negative price
//     row     "Wii, white",269,       not plain (a quote): the general way
//
// What each column takes, from its rule in the schema's plan (the
// `ColumnRule` that `CellTyping` and `RecordValidator` read too); a column
// whose rule has other constraints (a format, a pattern, …) is never laid
// out here:
// - no type (a field the kind does not name): any text, empty as "";
// - string or photo, optional: text, empty as null (a quoted empty one
//   goes the general way when the rule wants it not empty); a required
//   string: text, not empty when the rule says so;
// - number: empty as null unless required; text `JSONText.printsAsWritten`
//   accepts is copied (a negative number too when the rule has no minimum
//   of zero); other text is parsed as `CellTyping` parses it and printed as
//   the writer prints it, when the rule takes it;
// - integer: the same, when it parses as an integer;
// - bool: empty as null unless required; what `CellTyping.bool` accepts.
// Cells with bytes above 0x7F are checked as UTF-8 first. A kind field that
// is required and missing from the header turns the plain path off.

extension CSVReader: JSONLayingReader {
    public func settleKind() throws(FerryError) -> RecordKind? {
        try guarded(resuming: false) { () throws(FerryError) in
            if !started { try start() }
        }
        return header == nil ? nil : context.kind
    }

    public func readLaidOut(
        into writer: any JSONLayoutWriter, raw: (RawRecord) throws(FerryError) -> Void
    ) throws(FerryError) -> Bool {
        try guarded(resuming: false) { () throws(FerryError) -> Bool in
            if !started { try start() }
            guard !finished, let header else { return false }
            // Cells that stand for null or hold JSON take the general way.
            guard dialect.nullText == nil && !dialect.nestedJSON && !dialect.decimalComma, let plan = plainPlan(for: header, writer: writer)
            else { return try readRaw(raw) }
            var buffers = RawRecordBuffers()
            swap(&buffers, &rawBuffers)
            defer { swap(&buffers, &rawBuffers) }
            plan.anyWritten = writer.recordsWritten > 0
            var failed: FerryError?
            let columns = self.columns
            let ended = try columns.withUnsafeBufferPointer { (columns) throws(FerryError) -> Bool in
                let plainRows = { (scanner: inout CSVScanner, most: Int) -> Int in
                    let taken = plan.layOut(&scanner, most: most)
                    self.rowIndex += taken
                    return taken
                }
                let otherRow = {
                    [self] (scanner: CSVScanner, fields: UnsafeBufferPointer<CSVField>) throws(CSVScanError) -> Bool in
                    // The rows laid out before this one go first.
                    failed = try handRow(
                        scanner, fields, header: header, columns: columns, buffers: &buffers,
                        before: { () throws(FerryError) in try plan.hand(to: writer) },
                        to: { (record) throws(FerryError) in
                            try raw(record)
                            plan.anyWritten = true
                        })
                    return failed == nil
                }
                if let helper = plainHelper, window.count - position >= Self.halvesThreshold {
                    let before = position
                    try layOutInHalves(plan: plan, helper: helper, writer: writer, plain: plainRows, other: otherRow)
                    if failed != nil { return false }
                    // When rows were read, the rows left in the window, then
                    // a refill, so that the next call splits a full window
                    // again (scanning on would lay out the next rows on this
                    // thread alone). Otherwise (one long row in the window,
                    // or a quoted field across the split) and once the input
                    // has ended, the usual way below, whose refills grow
                    // with an unfinished row, so that it is not rescanned
                    // once a read.
                    if position > before && !window.isAtEnd {
                        _ = try scanRows(upTo: .max, bound: window.count, plain: plainRows, otherRow)
                        if failed != nil { return false }
                        if let dropped = try window.refill(keepingFrom: position) { position -= dropped }
                        return false
                    }
                }
                return try scanRows(plain: plainRows, otherRow)
            }
            if let failed { throw failed }
            try plan.hand(to: writer)
            if ended { finish() }
            return !ended
        }
    }

    /// How plain rows of `header` are laid out for `writer`; nil when a
    /// required field of the schema is not in the header, or the schema
    /// has rules about the record as a whole.
    private func plainPlan(for header: FieldList, writer: any JSONLayoutWriter) -> PlainRowPlan? {
        if let plan = plainRows, plan.writer == ObjectIdentifier(writer) { return plan }
        let schema = self.schema ?? RecordKind.generic.schema
        guard !schema.checksWholeRecord else { return nil }
        for rule in schema.fieldRules where rule.required && !header.contains(rule.name) { return nil }
        let signed = columns.indices.reduce(UInt64(0)) { mask, index in
            index < 64 && !columns[index].minimumZero ? mask | 1 << UInt64(index) : mask
        }
        guard
            let plan = PlainRowPlan(
                writer: ObjectIdentifier(writer), layout: writer.jsonLayout(for: header),
                cells: columns.map(PlainRowPlan.Cell.init), signed: signed, delimiter: dialect.delimiter,
                quote: dialect.quote, maxFieldBytes: dialect.maxFieldBytes)
        else { return nil }
        plainRows = plan
        plainHelper = sysconf(Int32(_SC_NPROCESSORS_ONLN)) > 1 ? plan.twin() : nil
        return plan
    }

    // MARK: - Two halves at once

    /// How many bytes of rows the window must hold for its second half to
    /// be laid out on another thread.
    static let halvesThreshold = 1 << 17
    /// How far one split moves `firstHalfShare`.
    static let shareStep = 1.0 / 32

    /// Reads the window's complete rows in two parts at once: this thread
    /// the first, the way `readLaidOut` does, and `helper` on another
    /// thread the second, guessing that it starts at the first line break
    /// past `firstHalfShare` of the rows and laying out plain rows only, up
    /// to the first other one. When this thread's part ends exactly there,
    /// the guess was right (no quoted field ran across it) and the second
    /// part's records follow; otherwise they are dropped. Either way the
    /// caller reads on from the position.
    private func layOutInHalves(
        plan: PlainRowPlan, helper: PlainRowPlan, writer: any JSONLayoutWriter,
        plain: @escaping (inout CSVScanner, Int) -> Int,
        other: (CSVScanner, UnsafeBufferPointer<CSVField>) throws(CSVScanError) -> Bool
    ) throws(FerryError) {
        let count = window.count
        let start = position
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
            _ = try scanRows(upTo: .max, bound: split, plain: plain, other)
            let helperFirst = done.wait(timeout: .now()) == .success
            if !helperFirst { done.wait() }
            waited = true
            // This thread's part ended where the helper's began.
            let aligned = position == split
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
                rowIndex += rows
                position = job.scanner.position
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
