#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Design
//
// A large CSV, TSV or JSON Lines file is checked in two halves at once, one
// on each core. It is cut just after a line feed near its middle (outside
// quotes, for CSV), and each half is read with `pread`:
//
//     file:   name,price,sku\n Wii,269,A\n … \n | Xbox 360,299,B\n … \n
//             ^ header line                     ^ split
//     first:  bytes 0..<split                       (a reader on this thread)
//     second: the header line, then split..<end    (a reader on another)
//
// Each half has a `FileRun` of its own, with a collector of its own. The
// halves look up no unique key: each logs them (`KeyLog`), and the
// duplicates are found in both logs at once when both are read. Then the
// file's own run adopts both, in order: the first half's diagnostics, then
// the second's, moved to the file's records, lines and bytes, with the
// duplicate keys in between, record by record, each found again in the
// file (`RecordRelocator`). The report is the one a single pass gives: the
// same diagnostics, in the same order, under the same cap.
//
// When the first half does not end cleanly at the split (a quoted field ran
// across it, or an error stopped the reading), both halves are dropped and
// the file is read in one pass.

/// Where a file is cut to be checked in two halves, and how.
struct Halves {
    /// Files below this size are checked in one pass: the second thread
    /// would cost more than it saves.
    static let threshold = 8 << 20

    let file: RandomAccessFile
    /// Where the second half starts: just after a line feed.
    let split: Int
    /// What the second half's reader reads before its bytes: the CSV header line.
    let prefix: [UInt8]
    /// The lines `prefix` ends (1 for a header line, 0 for none).
    let prefixLines: Int
    /// The codec options both halves read with: the user's, and the CSV
    /// delimiter guessed once from the file's start, so that the second
    /// half does not guess again from its own rows.
    let codecOptions: OptionValues

    /// The halves of the file at `path` for `codec`, or nil when it is read
    /// in one pass: a small, compressed or special input, a format that
    /// does not split at line ends, one core.
    init?(path: String, codec: any Codec, opened: OpenedInput, options: ValidationOptions) {
        self.init(
            path: path, codec: codec, opened: opened, codecOptions: options.codecOptions,
            threshold: options.halvesThreshold, jobs: options.jobs)
    }

    /// The halves of the file at `path`, read with `codecOptions`, when it
    /// has at least `threshold` bytes and `jobs` allows two (see above).
    init?(
        path: String, codec: any Codec, opened: OpenedInput, codecOptions: OptionValues, threshold: Int, jobs: Int
    ) {
        guard (opened.input.sizeHint ?? 0) >= threshold,
            let source = PartSource.rows(path: path, codec: codec, opened: opened, codecOptions: codecOptions)
        else { return nil }
        self.init(source, threshold: threshold, jobs: jobs)
    }

    /// The halves of `source`, when it has at least `threshold` bytes and
    /// `jobs` (`--jobs`) allows a second thread.
    init?(_ source: PartSource, threshold: Int, jobs: Int) {
        guard jobs > 1, source.file.size >= max(threshold, 2),
            let split = try? Self.split(source.file, quote: source.quote), split > source.dataStart
        else { return nil }
        self.file = source.file
        self.split = split
        self.prefix = source.prefix
        self.prefixLines = source.prefixLines
        self.codecOptions = source.codecOptions
    }

    var path: String { file.path }

    /// The offset just past a line feed near the middle of `file` that is
    /// outside quotes, as far as can be told: a stray quote can mislead it,
    /// which the first half's reader then finds (it does not end cleanly at
    /// the split, and the file is read in one pass).
    ///
    /// JSON Lines has no quotes that hide a line feed: the first after the
    /// middle. In CSV, a line feed between two lines that hold no quote is
    /// taken without reading the first half, on the bet that no quoted
    /// field runs across three lines there; else the quotes are counted
    /// from the start.
    private static func split(_ file: RandomAccessFile, quote: UInt8?) throws(FerryError) -> Int? {
        let middle = file.size / 2
        guard let quote else { return try file.lineStart(after: middle) }
        let near = try file.bytes(middle..<min(file.size, middle + (1 << 16)))
        var lineFeeds = near.indices.filter { near[$0] == 0x0A }
        lineFeeds.insert(-1, at: 0)
        for index in lineFeeds.indices.dropFirst().dropLast() {
            let before = near[(lineFeeds[index - 1] + 1)..<lineFeeds[index]]
            let after = near[(lineFeeds[index] + 1)..<lineFeeds[index + 1]]
            if index > 1 && !before.contains(quote) && !after.contains(quote) {
                return middle + lineFeeds[index] + 1
            }
        }
        var rows = RowEndScanner(quote: quote)
        try file.scan(0..<middle) { chunk, _ in
            rows.skip(chunk)
            return true
        }
        // A line feed outside quotes is near: rows are short.
        var found: Int?
        try file.scan(middle..<min(file.size, middle + (4 << 20)), chunk: 1 << 16) { chunk, offset in
            rows.scan(chunk) { end in
                found = offset + end
                return false
            }
        }
        return found.flatMap { $0 < file.size ? $0 : nil }
    }

    /// How the second half's records, lines and bytes move to the file's.
    struct Shift {
        var records: Int
        var lines: Int
        var bytes: Int
        /// Columns added on the reader's line `columnsLine` (1-based; 0 for
        /// none): a shard that starts inside a line (a JSON array on one
        /// line) reads its first bytes at another column than the file has them.
        var columns = 0
        var columnsLine = 0

        func apply(to location: SourceLocation) -> SourceLocation {
            var moved = location
            if columnsLine > 0, location.line == columnsLine { moved.column = location.column.map { $0 + columns } }
            moved.record = location.record.map { $0 + records }
            moved.line = location.line.map { $0 + lines }
            moved.byteOffset = location.byteOffset.map { $0 + bytes }
            return moved
        }

        func apply(to diagnostic: Diagnostic) -> Diagnostic {
            var moved = diagnostic
            moved.location = apply(to: diagnostic.location)
            return moved
        }
    }
}

// MARK: - Checking

extension Validator {
    /// Checks the file in `halves` on two threads into `run`.
    /// - Returns: false when the halves were dropped (see the design note),
    ///   and `run` is as it was: the caller then reads the file in one pass.
    func check(_ halves: Halves, into run: inout FileRun, codec: any Codec, options asked: ValidationOptions) -> Bool {
        var options = asked
        options.codecOptions = halves.codecOptions
        // Both halves check their records as one kind: the first record's.
        var kind = options.kind
        if options.schema == nil && kind == nil {
            let probe = halfContext(options, kind: nil)
            let input = FileRangeInput(halves.file, range: 0..<halves.file.size)
            guard let reader = try? codec.makeReader(input, context: probe), let first = try? reader.next() else {
                return false
            }
            kind = reader.declaredKind ?? RecordKind.infer(from: first.fields)
        }
        let remaining = options.maxErrors.map { $0 - run.sink.errorCount }
        if let remaining, remaining <= 0 { return false }
        let second = HalfJob(
            self, halves, codec: codec, options: options, kind: kind, maxErrors: remaining,
            range: halves.split..<halves.file.size, prefix: halves.prefix)
        second.run.ordinals = []
        second.run.keyLog = KeyLog()
        let first = HalfJob(
            self, halves, codec: codec, options: options, kind: kind, maxErrors: remaining, range: 0..<halves.split,
            prefix: [])
        first.run.ordinals = []
        first.run.keyLog = KeyLog()
        LargeStackThread.both({ first.check() }, { second.check() })
        guard first.run.file.complete, first.run.file.records > 0, let endLine = first.endLine else { return false }
        // The first half's reader counted the lines it read (its window
        // counts what it drops): the line ends before the split.
        let linesBeforeSplit = endLine - 1
        let shift = Halves.Shift(
            records: first.run.file.records, lines: linesBeforeSplit - halves.prefixLines,
            bytes: halves.split - halves.prefix.count)
        let duplicates = KeyLog.duplicates(
            first: first.run.keyLog ?? KeyLog(), second: second.run.keyLog ?? KeyLog(), records: shift.records,
            bytes: shift.bytes)
        // A relocator for each half: each counts lines onwards from where
        // it last looked, and the duplicates come in the file's order.
        func relocator(from lineEnd: (offset: Int, line: Int)) -> RecordRelocator {
            RecordRelocator(
                file: halves.file, prefix: halves.prefix, prefixLines: halves.prefixLines, codec: codec,
                context: { halfContext(options, kind: kind) }, lineEnd: lineEnd)
        }
        var relocators = (relocator(from: (0, 1)), relocator(from: (halves.split, linesBeforeSplit + 1)))
        run.adopt(
            first: first.run, first.collector, second: second.run, second.collector, shift: shift,
            duplicates: duplicates
        ) { field, offset in
            offset < halves.split
                ? relocators.0.location(of: field, inRecordAt: offset) : relocators.1.location(of: field, inRecordAt: offset)
        }
        // One pass reads on past the cap, and a read that fails there still
        // decides the exit status.
        if let failure = second.failure { run.sink.noteCategories([failure]) }
        return true
    }

    /// The read context of a half: resuming after a bad record, as the
    /// single pass does.
    func halfContext(_ options: ValidationOptions, kind: RecordKind?) -> ReadContext {
        let context = ReadContext(
            kind: options.schema == nil ? kind : .generic, schema: options.schema, options: options.codecOptions,
            limits: options.limits)
        context.infersTypes = false
        context.reportsEveryProblem()
        return context
    }
}

/// One half of a file, checked on the thread that calls `check`. Only that
/// thread touches it until it is done.
private final class HalfJob: @unchecked Sendable {
    let collector: DiagnosticCollector
    var run: FileRun
    /// The line the reader was on at the end of the range (1-based): for
    /// the first half, just after the split's line feed.
    private(set) var endLine: Int?
    /// The category of the error that stopped the reading, if one did.
    private(set) var failure: FerryError.Category?
    private let validator: Validator
    private let halves: Halves
    private let codec: any Codec
    private let options: ValidationOptions
    private let kind: RecordKind?
    private let range: Range<Int>
    private let prefix: [UInt8]

    init(
        _ validator: Validator, _ halves: Halves, codec: any Codec, options: ValidationOptions, kind: RecordKind?,
        maxErrors: Int?, range: Range<Int>, prefix: [UInt8]
    ) {
        collector = DiagnosticCollector(maxErrors: maxErrors, keepsWarningsOfNoRecord: true)
        run = FileRun(path: halves.path, sink: collector, file: ValidationReport.File(path: halves.path))
        run.expectedBytes = range.count + prefix.count
        self.validator = validator
        self.halves = halves
        self.codec = codec
        self.options = options
        self.kind = kind
        self.range = range
        self.prefix = prefix
    }

    func check() {
        let path = halves.path
        let input = FileRangeInput(halves.file, range: range, prefix: prefix)
        do throws(FerryError) {
            let context = validator.halfContext(options, kind: kind)
            let reader = try codec.makeReader(input, context: context)
            try run.check(
                reader, context: context, kind: kind, schema: options.schema,
                photos: Validator.photoStore(for: path, options: options))
            endLine = reader.location(ofByteOffset: range.count + prefix.count).line
        } catch {
            run.file.complete = false
            failure = error.code.category
            run.report(Diagnostic(error.located(SourceLocation(file: path))))
        }
    }
}

// MARK: - Adopting the halves

extension FileRun {
    /// Takes in the two halves of this run's file: their diagnostics, the
    /// duplicate keys found in both (`KeyLog`) and their counts, in the
    /// order and under the cap one pass would give. See the design note.
    /// - Parameter relocate: the location of a field in the record at a
    ///   byte offset of the file, and its key's text.
    mutating func adopt(
        first: FileRun, _ firstCollector: DiagnosticCollector, second: FileRun, _ secondCollector: DiagnosticCollector,
        shift: Halves.Shift, duplicates: [KeyLog.Duplicate],
        relocate: (String, Int) -> (location: SourceLocation, text: String?)
    ) {
        file.kind = first.file.kind
        file.readInHalves = true
        rules = first.rules
        file.records = first.file.records + second.file.records
        // Both halves' diagnostics, each with its record in the file (that
        // of the record read when it was reported, for those of none): the
        // first's records all come before the second's.
        var diagnostics: [(record: Int, diagnostic: Diagnostic)] = []
        for (diagnostic, ordinal) in zip(firstCollector.diagnostics, first.ordinals ?? []) {
            diagnostics.append((diagnostic.location.record ?? ordinal, diagnostic))
        }
        for (diagnostic, ordinal) in zip(secondCollector.diagnostics, second.ordinals ?? []) {
            let at = diagnostic.location.record ?? ordinal
            // Warnings about the header line, which the first half reported.
            if at < 0 && diagnostic.severity == .warning { continue }
            diagnostics.append((at + shift.records, shift.apply(to: diagnostic)))
        }
        // File-level warnings (a count for the whole file, such as the rows
        // padded under `--ragged`) come once, at the end, with both counts.
        // All of them, whatever the cap: one pass reads to the end and
        // reports them, counted over the whole file, after the cap too.
        let fileWarnings = diagnostics.map(\.diagnostic).filter(\.isFileLevel)
        var next = 0
        // Reports the diagnostics up to record `record` (only those of its
        // rules, for `rulesOnly`); false once the cap is reached.
        func reportHalves(through record: Int, rulesOnly: Bool) -> Bool {
            while next < diagnostics.count,
                diagnostics[next].record < record
                    || (diagnostics[next].record == record && (!rulesOnly || diagnostics[next].diagnostic.isOfRules))
            {
                let diagnostic = diagnostics[next].diagnostic
                next += 1
                if diagnostic.isFileLevel { continue }
                report(diagnostic, ordinal: diagnostics[next - 1].record)
                if sink.reachedCap { return false }
            }
            return true
        }
        var capped = false
        for duplicate in duplicates {
            guard reportHalves(through: duplicate.record, rulesOnly: true) else {
                capped = true
                break
            }
            guard let rules else { continue }
            let field = rules.uniqueFields[duplicate.key]
            let found = relocate(field, duplicate.byteOffset)
            report(
                self.duplicate(field: field, text: found.text ?? "", record: duplicate.record, first: duplicate.first)
                    .located(found.location))
            if sink.reachedCap {
                capped = true
                break
            }
        }
        if !capped { _ = reportHalves(through: .max, rulesOnly: false) }
        // Records after the one whose diagnostic reached the cap are not checked.
        if let capRecord { file.uncheckedRecords = max(file.records - (capRecord + 1), 0) }
        file.complete = second.file.complete
        for warning in Self.merged(fileWarnings) { report(warning) }
        // The errors of the halves are those reported here, and, past the
        // cap, the others of the record that reached it, as one pass sees them.
        for (half, collector, records) in [(first, firstCollector, 0), (second, secondCollector, shift.records)] {
            if let halfCap = half.capRecord, halfCap + records == capRecord {
                sink.noteCategories(collector.categoriesPastCap)
            }
        }
        // The warnings the halves counted and did not keep (those of records
        // past the cap on warnings, which one pass counts too); past the cap
        // on errors, warnings that count as errors are not counted.
        if !countsWarningsAsErrors { file.warnings += firstCollector.droppedWarnings + secondCollector.droppedWarnings }
    }

    /// File-level warnings with the same code, one each, their counts added
    /// (the first one's place kept).
    static func merged(_ warnings: [Diagnostic]) -> [Diagnostic] {
        var result: [Diagnostic] = []
        for warning in warnings {
            if let index = result.firstIndex(where: { $0.code == warning.code }),
                let added = result[index].arguments.first?.adding(warning.arguments.first)
            {
                result[index].arguments[0] = added
            } else {
                result.append(warning)
            }
        }
        return result
    }
}

extension Diagnostic {
    /// Whether it is about the file as a whole (a count, at no record or line).
    var isFileLevel: Bool {
        guard severity == .warning else { return false }
        // Rows of delimiters only: counted for the file, at the first one.
        return location.record == nil && (location.line == nil || code == .csvDelimiterRowsSkipped)
    }

    /// Whether it comes from a record's rules or its reading, which one pass
    /// reports before the record's unique keys and photo.
    var isOfRules: Bool {
        code != .recordDuplicateKey && rule != "photo.format"
    }
}

extension MessageArgument {
    /// This number and `other` added, when both are numbers of one case
    /// (`.integer`, or `.count`, which picks a message's plural form).
    fileprivate func adding(_ other: MessageArgument?) -> MessageArgument? {
        switch (self, other) {
        case (.integer(let a), .integer(let b)?): .integer(a + b)
        case (.count(let a), .count(let b)?): .count(a + b)
        default: nil
        }
    }
}
