import FerryCore

// MARK: - Types without a schema
//
// When the header is read, the columns no kind or schema types are typed
// by what they hold (`CSVTypeInference`), looked over in the first of
// these ways that applies:
//
// 1. the window, filled to `inferenceSample` bytes, holds the whole input:
//    its rows are all the rows;
// 2. the input can be read again (`ByteInput.reopened`: a regular file,
//    also through `--encoding`): a first pass reads it to the end with a
//    second reader of the same dialect, which only scans (no cell is
//    typed or copied); a shard's reader always reads the whole file so
//    (`ReadContext.wholeInput`), its header then its rows, whose first
//    starts where the shard's reader's rows start after its header;
// 3. otherwise (standard input, a pipe, gzip): the rows in the window are
//    a sample, and each later cell of an inferred column is checked by
//    inference's own rule before it is typed; one that does not fit is
//    kept as text, and one warning, `csv.cellsKeptAsText`, counts them.
//
// A caller that sees every cell itself (`schema infer`) may take the
// inference over instead (`ReadContext.defersTypeInference`): the free
// columns are then read as text, with no look over the input first, and
// named in `ReadContext.deferredFields`; the caller types them by the
// same rule, cell by cell (`CSVTypeInference.Column`).
//
// An inferred column then reads as one a schema types, with one
// difference: a cell that does not fit is kept as text rather than an
// error (in case 2 only when the file changed between the two reads).

extension CSVReader {
    /// How many bytes of rows inference looks at before it reads the whole
    /// input again, and the sample it decides by when it cannot.
    static let inferenceSample = 1 << 20

    /// Types the columns that `free` marks, from their cells.
    func inferTypes(free: [Bool]) throws(FerryError) {
        // A decimal comma reads `1.500` as 1500: such numbers need a schema.
        guard !dialect.decimalComma else { return }
        // A part of a file takes the whole file's types (`ReadContext.inferredTypes`).
        if let given = context.inferredTypes, given.types.count == free.count {
            apply(given)
            return
        }
        let dataStart = window.baseOffset + position
        // The window holds at most `--max-record-bytes` from where it keeps: a smaller limit makes a smaller sample.
        let sample = max(0, min(Self.inferenceSample, window.limit - position))
        try window.fill(atLeast: position + sample)
        var inference = CSVTypeInference(free: free, nullText: dialect.nullText)
        // A part of a file (a shard) is typed by the whole file.
        let whole = context.wholeInput.map { read in
            read().map { dialect.encoding == .utf8 ? $0 : TranscodingInput($0, encoding: dialect.encoding) }
        }
        var complete =
            whole == nil && observeWindow(&inference) && window.isAtEnd
            && window.count - position <= sample
        if !complete && !inference.settled, let again = whole ?? window.input.reopened() {
            var whole = CSVTypeInference(free: free, nullText: dialect.nullText)
            if observeAll(again, from: dataStart, into: &whole) {
                inference = whole
                complete = true
            }
        }
        let inferred = InferredColumnTypes(types: inference.types(), complete: complete, rows: inference.rows)
        context.inferredTypes = inferred
        apply(inferred)
    }

    /// Types the columns as `inferred` says.
    private func apply(_ inferred: InferredColumnTypes) {
        inferredColumns = inferred.types.map { $0 != nil }
        for (index, type) in inferred.types.enumerated() where type != nil {
            columns[index] = ColumnRule(type: type)
        }
        checksInferredCells = !inferred.complete && inferredColumns.contains(true)
        sampledRows = inferred.rows
    }

    /// Leaves the columns that `free` marks as text, for the caller to
    /// type from the cells it reads (`ReadContext.defersTypeInference`),
    /// where `inferTypes` would type them.
    func deferInference(free: [Bool]) {
        // A decimal comma reads `1.500` as 1500: such numbers need a schema.
        guard !dialect.decimalComma, let header else { return }
        context.deferredFields = zip(header.names, free).filter(\.1).map(\.0)
    }

    /// Whether inference typed column `index`.
    @inline(__always)
    func isInferred(_ index: Int) -> Bool { index < inferredColumns.count && inferredColumns[index] }

    /// Keeps the cell of an inferred column that does not fit its type as
    /// text, and counts it for the warning.
    func keepAsText(_ field: CSVField, scanner: CSVScanner, into buffers: inout RawRecordBuffers) {
        cellsKeptAsText += 1
        buffers.append(other: .string(scanner.text(of: field)))
    }

    /// Looks at the complete rows in the sample, the window's first
    /// `inferenceSample` bytes from the position on (which stays where it
    /// is): the same rows however the input's reads were cut.
    /// - Returns: whether they were read through with no error.
    private func observeWindow(_ inference: inout CSVTypeInference) -> Bool {
        var fields = CSVFieldBuffer()
        defer { fields.deallocate() }
        let end = min(window.count, position + Self.inferenceSample)
        return window.bytes.withUnsafeBufferPointer { buffer -> Bool in
            var scanner = CSVScanner(
                bytes: UnsafeBufferPointer(rebasing: buffer[0..<end]), baseOffset: window.baseOffset,
                position: position, isFinal: window.isAtEnd && end == window.count, delimiter: dialect.delimiter,
                quote: dialect.quote, maxFieldBytes: dialect.maxFieldBytes)
            while !inference.settled {
                do throws(CSVScanError) {
                    guard try scanner.scanRow(into: &fields) else { return true }
                } catch {
                    return false
                }
                inference.observe(scanner, fields.fields)
            }
            return true
        }
    }

    /// Looks at every row of `input`, the same bytes as this reader's read
    /// again, with a reader of the same dialect that only scans.
    /// - Returns: false when the rows could not all be read (an error the
    ///   reader will meet too), or did not start where this reader's do.
    private func observeAll(
        _ input: any ByteInput, from dataStart: Int, into inference: inout CSVTypeInference
    ) -> Bool {
        var passDialect = dialect
        passDialect.infersTypes = false
        let passContext = ReadContext(kind: .generic, options: context.options, limits: context.limits)
        passContext.countsLines = false
        let pass = CSVReader(input, dialect: passDialect, context: passContext)
        do throws(FerryError) {
            try pass.start()
            // A shard's rows start after a header row the shard was given
            // alone (Formats/shards.md), not where the file's do.
            guard pass.header != nil, context.wholeInput != nil || pass.window.baseOffset + pass.position == dataStart
            else { return false }
            while !inference.settled {
                let ended = try pass.scanRows(upTo: .max) { (scanner, fields) throws(CSVScanError) -> Bool in
                    inference.observe(scanner, fields)
                    return !inference.settled
                }
                if ended { break }
            }
            return true
        } catch {
            return false
        }
    }
}
