import FerryCore

/// Streams records out of CSV or TSV, typed by the kind of the records.
///
/// The first row names the fields (or `--no-header` names them `column1…N`).
/// Each later row becomes a record that shares the header's `FieldList`.
/// Fields the schema types (a product's price, a book's pages; the kind's
/// built-in schema, or the caller's `ReadContext.schema`) are parsed, and a
/// cell that does not fit is a located error; other fields stay strings.
package final class CSVReader: RecordReader {
    package let window: InputWindow
    package let dialect: CSVDialect
    package let context: ReadContext
    /// What the context says of cells that do not fit their types, read
    /// once when the reader is made (the context is set up before): read in
    /// the cell loop, the context's properties were checked for
    /// exclusivity at run time, three a row: 8% of validating a CSV file
    /// (46M of 607M instructions on 200,000 products).
    private let mismatchedCells: ReadContext.MismatchedCells
    // Touched for every row; a reader is never shared between threads, so
    // the run-time exclusivity checks are left out.
    @exclusivity(unchecked) package var position = 0
    @exclusivity(unchecked) private var fields = CSVFieldBuffer()
    /// The cells of the row being built, reused from one row to the next.
    @exclusivity(unchecked) package var rawBuffers = RawRecordBuffers()
    package var header: FieldList?
    /// The schema's rule of each of the header's columns (unconstrained
    /// for a column it does not name), by which cells are typed.
    package var columns: [ColumnRule] = []
    /// The schema the rules come from: the caller's, else the kind's.
    package var schema: Schema?
    private var widerLists: [Int: FieldList] = [:]
    /// Which columns inference typed (see `CSVReader+Inference.swift`).
    var inferredColumns: [Bool] = []
    /// Whether the types were inferred from a sample, so that each cell of
    /// an inferred column is checked against inference's own rule before
    /// it is typed; read once a row.
    @exclusivity(unchecked) package internal(set) var checksInferredCells = false
    /// The cells of inferred columns kept as text because they did not fit.
    var cellsKeptAsText = 0
    /// The rows the sample held, for the warning about them.
    var sampledRows = 0
    @exclusivity(unchecked) package var rowIndex = 0
    @exclusivity(unchecked) var raggedRowsFixed = 0
    /// The rows of delimiters only skipped (`;;;`), and where the first was.
    var delimiterRowsSkipped = 0
    var firstDelimiterRow: SourceLocation?
    package var started = false
    package var finished = false
    var failure: FerryError?
    /// Whether the last error spoilt one row only and reading goes on (see
    /// `ReadContext.resumesAfterBadRecords`); set while the error is thrown.
    var lastErrorResumes = false
    /// Set by `scanRows` when a row's own error left the position past it.
    private var skippedBadRow = false

    /// What one scanned row turned out to be.
    private enum Row {
        case record(Record, ragged: Bool)
        case blank
    }

    /// - Parameters:
    ///   - input: UTF-8 text (wrap other encodings in a `TranscodingInput`).
    ///   - dialect: delimiter, quote, header and ragged-row policy.
    ///   - context: the kind (nil to infer it from the header), limits and warnings.
    package init(_ input: any ByteInput, dialect: CSVDialect, context: ReadContext) {
        window = InputWindow(input, limit: context.limits.maxRecordBytes)
        window.countsLines = context.countsLines
        self.dialect = dialect
        self.context = context
        mismatchedCells = context.mismatchedCells
    }

    deinit {
        rawBuffers.deallocate()
        fields.deallocate()
    }

    package var resumesAfterError: Bool { lastErrorResumes }

    /// Reads the header, and returns the kind the records will be read as;
    /// nil for an input without rows.
    package func settleKind() throws(FerryError) -> RecordKind? {
        try guarded(resuming: false) { () throws(FerryError) in
            if !started { try start() }
        }
        return header == nil ? nil : context.kind
    }

    package func next() throws(FerryError) -> Record? {
        try guarded(resuming: true) { () throws(FerryError) -> Record? in
            if !started { try start() }
            while !finished {
                guard let row = try scanRow(build: buildRecord) else {
                    finish()
                    return nil
                }
                switch row {
                case .blank: continue
                case .record(let record, let ragged):
                    if ragged { raggedRowsFixed += 1 }
                    rowIndex += 1
                    return record
                }
            }
            return nil
        }
    }

    /// Runs one step of reading, the reader's failure kept: a reader that
    /// has failed throws the same error again, and an error thrown by
    /// `body` makes it fail, except that with `resuming`, after a ragged
    /// row or a cell of the wrong type that the caller asked to go on
    /// after, the next call reads the row after it.
    package func guarded<Result>(
        resuming: Bool, _ body: () throws(FerryError) -> Result
    ) throws(FerryError) -> Result {
        if let failure { throw failure }
        if resuming { lastErrorResumes = false }
        do throws(FerryError) {
            return try body()
        } catch {
            if resuming && skippedBadRow {
                skippedBadRow = false
                lastErrorResumes = true
                rowIndex += 1
            } else {
                failure = error
            }
            throw error
        }
    }

    /// Types a scanned row into `buffers` and hands it to `body` as a raw
    /// record; `before` runs first, once the row is known not to be blank.
    /// - Returns: false when `body` (or `before`) threw, which ends the
    ///   scan, with the error in `failure`; true when the row was handed on
    ///   or was blank.
    @inline(__always)
    package func handRow(
        _ scanner: CSVScanner, _ fields: UnsafeBufferPointer<CSVField>, header: FieldList,
        columns: UnsafeBufferPointer<ColumnRule>, buffers: inout RawRecordBuffers,
        before: () throws(FerryError) -> Void = {}, to body: (RawRecord) throws(FerryError) -> Void,
        failure: inout FerryError?
    ) throws(CSVScanError) -> Bool {
        guard let shape = try fillRow(scanner, fields, header: header, columns: columns, into: &buffers) else {
            return true
        }
        do throws(FerryError) {
            try before()
            if shape.ragged { raggedRowsFixed += 1 }
            let origin = RecordOrigin(index: rowIndex, byteOffset: scanner.baseOffset + shape.start)
            rowIndex += 1
            try buffers.withRecord(fields: shape.fields, origin: origin, body)
            return true
        } catch {
            // Set only here: an optional error written for every row was
            // a copy and a release of one (4% of validating a CSV).
            failure = error
            return false
        }
    }

    package func location(ofByteOffset offset: Int) -> SourceLocation {
        guard offset >= window.baseOffset else { return SourceLocation(file: window.input.name, byteOffset: offset) }
        return window.location(of: offset - window.baseOffset)
    }

    package func location(ofField name: String, inRecordAt byteOffset: Int) -> SourceLocation? {
        let start = byteOffset - window.baseOffset
        guard let header, start >= 0, start < window.count else { return nil }
        let column = header.index(of: name) ?? widerLists.values.lazy.compactMap { $0.index(of: name) }.first
        guard let column else { return nil }
        var found = CSVFieldBuffer()
        defer { found.deallocate() }
        let fieldStart = window.bytes.withUnsafeBufferPointer { buffer -> Int? in
            var scanner = CSVScanner(
                bytes: UnsafeBufferPointer(rebasing: buffer[0..<window.count]), baseOffset: window.baseOffset,
                position: start, isFinal: true, delimiter: dialect.delimiter, quote: dialect.quote,
                maxFieldBytes: dialect.maxFieldBytes)
            guard (try? scanner.scanRow(into: &found)) == true, column < found.count else { return nil }
            let field = found.fields[column]
            return field.start - (field.quoted ? 1 : 0)
        }
        return fieldStart.map { window.location(of: $0) }
    }

    // MARK: - Header

    package func start() throws(FerryError) {
        started = true
        try window.fill(atLeast: 3 + CSVSepLine.maxLength)
        if window.count >= 3 && window.bytes[0] == 0xEF && window.bytes[1] == 0xBB && window.bytes[2] == 0xBF {
            position = 3
        }
        // Excel's `sep=;` line is no record (CSVSepLine.swift).
        if let line = CSVSepLine(window.bytes[position..<window.count], isWhole: window.isAtEnd, quote: dialect.quote) {
            position += line.length
        }
        // Where the first row starts in the input: scanning it may move the
        // window's bytes (a refill drops what comes before the row). Blank
        // rows and rows of delimiters only before it are skipped.
        var firstRow = window.baseOffset + position
        var names: [String]?
        while names == nil {
            firstRow = window.baseOffset + position
            let row = try scanRow(build: { (scanner, fields) throws(CSVScanError) -> [String]? in
                if CSVField.isBlank(fields) { return nil }
                if CSVField.isDelimitersOnly(fields) {
                    skipDelimiterRow(at: fields[0].start)
                    return nil
                }
                return fields.map { scanner.text(of: $0) }
            })
            guard let row else {
                finished = true
                finish()
                return
            }
            names = row
        }
        guard let names else { return }
        var columns: [String]
        if dialect.hasHeader {
            columns = names
        } else {
            columns = (1...max(names.count, 1)).map { "column\($0)" }
            position = firstRow - window.baseOffset  // the first row is data
        }
        columns = uniqueNames(columns)
        let list = FieldList(columns)
        header = list
        let kind = context.kind ?? RecordKind.infer(from: list)
        context.kind = kind
        let schema = context.schema ?? kind.schema
        self.schema = schema
        let rules = columns.map { schema.rule(for: $0) }
        self.columns = rules.map { $0 ?? ColumnRule(type: nil) }
        if dialect.infersTypes && context.infersTypes && rules.contains(where: { $0 == nil }) {
            if context.defersTypeInference {
                deferInference(free: rules.map { $0 == nil })
            } else {
                try inferTypes(free: rules.map { $0 == nil })
            }
        }
    }

    /// Names for the header: empty ones become `columnN`, repeated ones get
    /// `_2`, `_3`, … with a warning.
    private func uniqueNames(_ names: [String]) -> [String] {
        HeaderNames.unique(names) { name, renamed, _ in
            context.warn(
                FerryWarning(
                    .csvRenamedHeader, [.string(name), .string(renamed)],
                    at: SourceLocation(file: window.input.name, line: 1, column: nil, field: renamed)))
        }
    }

    package func finish() {
        finished = true
        if delimiterRowsSkipped > 0, let first = firstDelimiterRow {
            context.warn(FerryWarning(.csvDelimiterRowsSkipped, [.count(delimiterRowsSkipped)], at: first))
            delimiterRowsSkipped = 0
        }
        if cellsKeptAsText > 0 {
            context.warn(
                FerryWarning(
                    .csvCellsKeptAsText, [.count(cellsKeptAsText), .count(sampledRows)],
                    at: SourceLocation(file: window.input.name)))
            cellsKeptAsText = 0
        }
        if raggedRowsFixed > 0 {
            context.warn(
                FerryWarning(
                    .csvRaggedRowsFixed, [.integer(raggedRowsFixed), .string(dialect.ragged.rawValue)],
                    at: SourceLocation(file: window.input.name)))
        }
    }

    // MARK: - Rows

    /// Builds the record of one scanned row.
    private func buildRecord(_ scanner: CSVScanner, _ fields: UnsafeBufferPointer<CSVField>) throws(CSVScanError) -> Row {
        // The buffers move into locals for the loop, and back after it.
        var buffers = RawRecordBuffers()
        swap(&buffers, &rawBuffers)
        defer { swap(&buffers, &rawBuffers) }
        guard let header else { return .blank }
        let shape = try columns.withUnsafeBufferPointer { (columns) throws(CSVScanError) in
            try fillRow(scanner, fields, header: header, columns: columns, into: &buffers)
        }
        guard let shape else { return .blank }
        let origin = RecordOrigin(index: rowIndex, byteOffset: scanner.baseOffset + shape.start)
        let record = buffers.withRecord(fields: shape.fields, origin: origin) { $0.record() }
        return .record(record, ragged: shape.ragged)
    }

    /// What `fillRow` found besides the cells.
    struct RowShape {
        var fields: FieldList
        /// Where the row starts in the window.
        var start: Int
        var ragged: Bool
    }

    /// Types the cells of a row into `buffers`, following `header`, whose
    /// columns are typed by `columns` (both handed in by the caller, once
    /// for many rows).
    /// - Returns: nil for a blank row.
    @inline(__always)
    func fillRow(
        _ scanner: CSVScanner, _ fields: UnsafeBufferPointer<CSVField>, header: FieldList,
        columns: UnsafeBufferPointer<ColumnRule>, into buffers: inout RawRecordBuffers
    ) throws(CSVScanError) -> RowShape? {
        if fields.count == 1 && fields[0].start == fields[0].end && !fields[0].quoted && header.count > 1 {
            return nil
        }
        if CSVField.isDelimitersOnly(fields) {
            skipDelimiterRow(at: fields[0].start)
            return nil
        }
        let rowStart = fields.first.map { $0.start - ($0.quoted ? 1 : 0) } ?? scanner.position
        var ragged = false
        var list = header
        if fields.count != header.count {
            switch dialect.ragged {
            case .error:
                throw .failed(
                    .csvRaggedRow, [.integer(header.count), .count(fields.count), dialect.delimiterArgument],
                    index: rowStart)
            case .pad:
                ragged = true
                if fields.count > header.count { list = widerList(fields.count) }
            case .truncate:
                ragged = true
            }
        }
        buffers.removeAll()
        let typed = min(fields.count, list.count)
        let checksInferred = checksInferredCells
        for index in 0..<typed {
            let field = fields[index]
            let column = index < columns.count ? columns[index] : ColumnRule(type: nil)
            let bytes = UnsafeBufferPointer(rebasing: scanner.bytes[field.start..<field.end])
            if let nullText = dialect.nullText, !field.quoted, bytes.elementsEqual(nullText) {
                buffers.cells.append(.null)
                continue
            }
            if checksInferred, let type = column.type, isInferred(index), !CSVTypeInference.fits(bytes, type) {
                keepAsText(field, scanner: scanner, into: &buffers)
                continue
            }
            if dialect.nestedJSON, column.type == nil, let first = bytes.first,
                first == UInt8(ascii: "[") || first == UInt8(ascii: "{"), let value = nestedValue(bytes, field: field, scanner: scanner)
            {
                buffers.append(other: value)
                continue
            }
            if dialect.decimalComma, column.type == .number || column.type == .integer,
                DecimalCommaText.mayHoldSeparators(bytes)
            {
                // `1.234,50`: read without the separators, a point for the comma.
                let code: FerryError.Code
                switch DecimalCommaText.read(bytes) {
                case .number(let value):
                    if column.type == .number || DecimalCommaText.isWhole(value) {
                        buffers.append(other: value)
                        continue
                    }
                    code = .csvInvalidInteger
                case .notANumber: code = column.type == .number ? .csvInvalidNumber : .csvInvalidInteger
                case .badGrouping: code = .csvInvalidGrouping
                }
                switch mismatchedCells {
                case .keepText:
                    buffers.append(other: .string(scanner.text(of: field)))
                    continue
                case .collect:
                    collect(code, name: list.names[index], text: scanner.text(of: field), into: &buffers)
                    continue
                case .fail: break
                }
                throw .failed(
                    code, [.string(list.names[index]), .string(scanner.text(of: field))],
                    index: field.start - (field.quoted ? 1 : 0), field: list.names[index])
            }
            switch CellTyping.value(bytes, field: field, scanner: scanner, rule: column) {
            case .cell(let cell):
                buffers.cells.append(cell)
            case .value(let value):
                buffers.append(other: value)
            case .mismatch(_) where isInferred(index):
                // The file changed since inference looked at it.
                keepAsText(field, scanner: scanner, into: &buffers)
            case .mismatch(_) where mismatchedCells == .keepText:
                buffers.append(other: .string(scanner.text(of: field)))
            case .mismatch(let code) where mismatchedCells == .collect:
                collect(code, name: list.names[index], text: scanner.text(of: field), into: &buffers)
            case .mismatch(let code):
                throw .failed(
                    code, [.string(list.names[index]), .string(scanner.text(of: field))],
                    index: field.start - (field.quoted ? 1 : 0), field: list.names[index])
            }
        }
        while buffers.cells.count < list.count {
            if columns[buffers.cells.count].type == nil {
                buffers.append(other: .string(""))
            } else {
                buffers.cells.append(.null)
            }
        }
        return RowShape(fields: list, start: rowStart, ragged: ragged)
    }

    /// Counts a row of delimiters only, which is skipped as a blank row is,
    /// starting at window index `index`; the first one's place goes into
    /// the warning `finish` gives.
    private func skipDelimiterRow(at index: Int) {
        if firstDelimiterRow == nil {
            var location = window.location(of: index)
            location.column = nil
            firstDelimiterRow = location
        }
        delimiterRowsSkipped += 1
    }

    /// Leaves a cell that does not fit its type null, and keeps its error
    /// for the record's check (`ReadContext.mismatchedCells`).
    private func collect(_ code: FerryError.Code, name: String, text: String, into buffers: inout RawRecordBuffers) {
        context.cellErrors.append(FerryError(code, [.string(name), .string(text)], at: SourceLocation(field: name)))
        buffers.cells.append(.null)
    }

    /// The JSON value a cell holds (its doubled quotes undone), for `--nested json`.
    /// Never inlined: inlined, its reads of the context were hoisted to the
    /// start of every row and checked for exclusivity there (25M of 530M
    /// instructions validating 200,000 products from CSV).
    @inline(never)
    private func nestedValue(_ bytes: UnsafeBufferPointer<UInt8>, field: CSVField, scanner: CSVScanner) -> Value? {
        guard let parse = context.jsonValue else { return nil }
        guard field.hasDoubledQuotes else { return parse(bytes, context.limits.maxDepth) }
        var text = scanner.text(of: field)
        return text.withUTF8 { parse($0, context.limits.maxDepth) }
    }

    /// The header widened with `columnN` names to `count` fields, for long rows under `--ragged pad`.
    func widerList(_ count: Int) -> FieldList {
        if let known = widerLists[count] { return known }
        let names = (header?.names ?? []) + ((header?.count ?? 0)..<count).map { "column\($0 + 1)" }
        let made = FieldList(names)
        widerLists[count] = made
        return made
    }

    /// Scans the rows that follow in the window, up to `limit`, and calls
    /// `handle` with each in turn while it returns true, refilling the window
    /// and scanning again from a row's start when the row is cut off. The
    /// position moves past each row before `handle` sees it.
    /// - Returns: true at the end of the input.
    ///
    /// `plain`, when given, is offered the rows first, with the most it may
    /// take: the rows it takes (it returns how many, with the scanner's
    /// position past them) count as handled and `handle` does not see them;
    /// the row it stops at goes to `handle`. With a `bound`, only
    /// the window's bytes before it are scanned, and scanning stops instead
    /// of refilling at a row that runs past it.
    package func scanRows(
        upTo limit: Int = 4096, bound: Int? = nil, plain: ((inout CSVScanner, Int) -> Int)? = nil,
        _ handle: (CSVScanner, UnsafeBufferPointer<CSVField>) throws(CSVScanError) -> Bool
    ) throws(FerryError) -> Bool {
        var rowFields = CSVFieldBuffer()
        swap(&rowFields, &fields)
        defer { swap(&rowFields, &fields) }
        let resumes = context.resumesAfterBadRecords
        while true {
            let outcome = window.bytes.withUnsafeBufferPointer { buffer -> Swift.Result<Bool, CSVScanError> in
                var scanner = CSVScanner(
                    bytes: UnsafeBufferPointer(rebasing: buffer[0..<(bound ?? window.count)]),
                    baseOffset: window.baseOffset, position: position, isFinal: bound == nil && window.isAtEnd,
                    delimiter: dialect.delimiter, quote: dialect.quote, maxFieldBytes: dialect.maxFieldBytes)
                var handled = 0
                do throws(CSVScanError) {
                    while handled < limit {
                        if let plain {
                            let taken = plain(&scanner, limit - handled)
                            if taken > 0 {
                                position = scanner.position
                                handled += taken
                                continue
                            }
                        }
                        guard try scanner.scanRow(into: &rowFields) else { return .success(true) }
                        let resume = position
                        position = scanner.position
                        do throws(CSVScanError) {
                            guard try handle(scanner, rowFields.fields) else { break }
                        } catch {
                            // The row's own error, located below; reading
                            // goes on past the row when the caller asked.
                            if resumes { skippedBadRow = true } else { position = resume }
                            throw error
                        }
                        handled += 1
                    }
                    return .success(false)
                } catch {
                    if case .needMore = error, handled > 0 { return .success(false) }
                    return .failure(error)
                }
            }
            switch outcome {
            case .success(let ended):
                return ended
            case .failure(.needMore):
                if bound != nil { return false }
                if let dropped = try window.refillForRescan(keepingFrom: position) { position -= dropped }
            case .failure(.failed(let code, let arguments, let index, let field)):
                var location = window.location(of: index)
                if header != nil { location.record = rowIndex }
                location.field = field
                // Bytes after a closing quote spoil their row only: reading
                // goes on at the next row, when the caller asked and the
                // row's end is at hand.
                if resumes, header != nil, code == .csvUnexpectedAfterQuote, let end = rowEnd(after: index) {
                    position = end
                    skippedBadRow = true
                }
                throw FerryError(code, arguments, at: location)
            }
        }
    }

    /// Where the row that holds window index `index`, outside quotes, ends:
    /// past its line feed (quotes opened after `index` are followed), or at
    /// the input's end; nil when the window does not reach that far.
    private func rowEnd(after index: Int) -> Int? {
        window.bytes.withUnsafeBufferPointer { bytes -> Int? in
            var inQuotes = false
            var cursor = index
            while cursor < window.count {
                switch bytes[cursor] {
                case dialect.quote: inQuotes.toggle()
                case 0x0A where !inQuotes: return cursor + 1
                default: break
                }
                cursor += 1
            }
            return window.isAtEnd && !inQuotes ? window.count : nil
        }
    }

    /// Scans one row and hands it to `build`.
    /// - Returns: nil at the end of the input.
    private func scanRow<Result>(
        build: (CSVScanner, UnsafeBufferPointer<CSVField>) throws(CSVScanError) -> Result
    ) throws(FerryError) -> Result? {
        var result: Result?
        _ = try scanRows(upTo: 1) { (scanner, fields) throws(CSVScanError) -> Bool in
            result = try build(scanner, fields)
            return true
        }
        return result
    }
}

// MARK: - Raw records

extension CSVReader: RawRecordReader {
    /// Hands out the rows the window holds, up to a few thousand, in place
    /// (see `RawRecord`).
    package func readRaw(_ body: (RawRecord) throws(FerryError) -> Void) throws(FerryError) -> Bool {
        try guarded(resuming: true) { () throws(FerryError) -> Bool in
            if !started { try start() }
            guard !finished, let header else { return false }
            // The buffers move into locals for the loop, and back after it.
            var buffers = RawRecordBuffers()
            swap(&buffers, &rawBuffers)
            defer { swap(&buffers, &rawBuffers) }
            var failed: FerryError?
            // The columns' types are read through a buffer taken once here,
            // not from the array for every cell.
            let columns = self.columns
            let ended = try columns.withUnsafeBufferPointer { (columns) throws(FerryError) in
                try scanRows { (scanner, fields) throws(CSVScanError) -> Bool in
                    try handRow(
                        scanner, fields, header: header, columns: columns, buffers: &buffers, to: body, failure: &failed)
                }
            }
            if let failed { throw failed }
            if ended { finish() }
            return !ended
        }
    }
}
