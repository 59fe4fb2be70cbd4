#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Design
//
// A large CSV, TSV or JSON Lines file is checked in parts at once, as many
// as `--jobs` asks, on as many threads, or as many as there are cores when
// they are fewer: each thread reads the next part no thread has taken. It
// is cut just after line feeds at about k/N of its data (outside quotes,
// for CSV), and each part is read with `pread`:
//
//     file:   name,price,sku\n Wii,269,A\n … | Xbox 360,299,B\n … | PS3,399,C\n …
//             ^ header line                  ^ cuts[0]             ^ cuts[1]
//     part 0: bytes 0..<cuts[0]                      (a reader on this thread)
//     part 1: the header line, then cuts[0]..<cuts[1] (a reader on another)
//     part 2: the header line, then cuts[1]..<end     (the first thread free)
//
// Each part has a `FileCheck` of its own, with a collector of its own. The
// parts look up no unique key: each logs them (`KeyLog`), and the
// duplicates are found in all the logs at once when every part is read.
// Then the file's own run adopts the parts, in order: each one's
// diagnostics, moved to the file's records, lines and bytes, with the
// duplicate keys in between, record by record, each found again in the
// file (`RecordRelocator`). The report is the one a single pass gives: the
// same diagnostics, in the same order, under the same cap, for any number
// of parts.
//
// When a part but the last does not end cleanly at its cut (a quoted field
// ran across it, or an error stopped the reading), all the parts are
// dropped and the file is read in one pass.

/// Where a file is cut to be checked in parts, and how.
struct PartPlan {
    /// Files below this size are checked in one pass: a second thread
    /// would cost more than it saves.
    static let threshold = 8 << 20

    let file: RandomAccessFile
    /// Where each part after the first starts, each just after a line
    /// feed, in ascending order: one fewer than the parts.
    let cuts: [Int]
    /// What the reader of a part after the first reads before its bytes:
    /// the CSV header line.
    let prefix: [UInt8]
    /// The lines `prefix` ends (1 for a header line, 0 for none).
    let prefixLines: Int
    /// The codec options every part reads with: the user's, and the CSV
    /// delimiter guessed once from the file's start, so that no part
    /// guesses again from its own rows.
    let codecOptions: OptionValues

    /// The parts of the file at `path` for `codec`, or nil when it is read
    /// in one pass: a small, compressed or special input, a format that
    /// does not split at line ends, one job.
    init?(path: String, codec: any Codec, opened: OpenedInput, options: ValidationOptions) {
        self.init(
            path: path, codec: codec, opened: opened, codecOptions: options.codecOptions,
            threshold: options.partsThreshold, jobs: options.jobs, parts: options.jobs)
    }

    /// The parts of the file at `path`, read with `codecOptions`, when it
    /// has at least `threshold` bytes and `jobs` allows two (see above).
    init?(
        path: String, codec: any Codec, opened: OpenedInput, codecOptions: OptionValues, threshold: Int, jobs: Int,
        parts: Int = 2
    ) {
        guard (opened.input.sizeHint ?? 0) >= threshold,
            let source = PartSource.rows(path: path, codec: codec, opened: opened, codecOptions: codecOptions)
        else { return nil }
        self.init(source, threshold: threshold, jobs: jobs, parts: parts)
    }

    /// The most parts a file is cut into, whatever `--jobs` asks: each part
    /// keeps its key log and its report until all are read, so
    /// `--jobs 100000` must not make a part of every few rows. As many as
    /// `ParallelDeflate.maxJobs` allows workers.
    static let maxParts = 256

    /// The parts a job reads when what a part costs varies (a merge's
    /// parts): with more parts than threads, a thread the system slows
    /// (another process, the host) reads fewer, and the threads end
    /// together. See BENCHMARKS.md ("Merge in parts").
    static let partsPerJob = 4

    /// The parts of `source`, at most `parts` of them (and `maxParts`), when it has at least
    /// `threshold` bytes and `jobs` (`--jobs`) allows a second thread. A
    /// part smaller than `threshold / parts` joins the one before it (the
    /// last joins the one before it too); nil when one part is left.
    init?(_ source: PartSource, threshold: Int, jobs: Int, parts asked: Int = 2) {
        let parts = min(asked, Self.maxParts)
        guard jobs > 1, parts > 1, source.file.size >= max(threshold, 2) else { return nil }
        let file = source.file
        let smallest = max(threshold / parts, 1)
        let data = file.size - source.dataStart
        var cuts: [Int] = []
        // Where the quotes are counted from: the last cut, a row start.
        var from = 0
        for part in 1..<parts {
            let target = source.dataStart + Int((Double(data) * Double(part) / Double(parts)).rounded(.down))
            guard let cut = try? Self.cut(file, near: max(target, from), from: from, quote: source.quote) else {
                continue
            }
            from = cut
            guard cut > (cuts.last ?? source.dataStart), cut - (cuts.last ?? 0) >= smallest else { continue }
            cuts.append(cut)
        }
        while let last = cuts.last, file.size - last < smallest { cuts.removeLast() }
        guard !cuts.isEmpty else { return nil }
        self.file = file
        self.cuts = cuts
        self.prefix = source.prefix
        self.prefixLines = source.prefixLines
        self.codecOptions = source.codecOptions
    }

    var path: String { file.path }

    /// Where the second part starts: the two halves of a merge or a
    /// decoding, which ask for two parts.
    var split: Int { cuts[0] }

    /// The bytes of each part of the file, in order.
    var ranges: [Range<Int>] {
        let starts = [0] + cuts
        let ends = cuts + [file.size]
        return zip(starts, ends).map { $0..<$1 }
    }

    /// The offset just past a line feed at or after `target` of `file`
    /// that is outside quotes, as far as can be told: a stray quote can
    /// mislead it, which the reader of the part before it then finds (it
    /// does not end cleanly at the cut, and the file is read in one pass).
    ///
    /// JSON Lines has no quotes that hide a line feed: the first after
    /// `target`. In CSV, a line feed between two lines that hold no quote
    /// is taken without reading the bytes before, on the bet that no
    /// quoted field runs across three lines there; else the quotes are
    /// counted from `from`, the start or the cut before: a row start (if
    /// that cut was wrong, the part before it does not end cleanly either).
    private static func cut(
        _ file: RandomAccessFile, near target: Int, from: Int, quote: UInt8?
    ) throws(FerryError) -> Int? {
        guard let quote else { return try file.lineStart(after: target) }
        let near = try file.bytes(target..<min(file.size, target + (1 << 16)))
        var lineFeeds = near.indices.filter { near[$0] == 0x0A }
        lineFeeds.insert(-1, at: 0)
        for index in lineFeeds.indices.dropFirst().dropLast() {
            let before = near[(lineFeeds[index - 1] + 1)..<lineFeeds[index]]
            let after = near[(lineFeeds[index] + 1)..<lineFeeds[index + 1]]
            if index > 1 && !before.contains(quote) && !after.contains(quote) {
                return target + lineFeeds[index] + 1
            }
        }
        var rows = RowEndScanner(quote: quote)
        try file.scan(from..<target) { chunk, _ in
            rows.skip(chunk)
            return true
        }
        // A line feed outside quotes is near: rows are short.
        var found: Int?
        try file.scan(target..<min(file.size, target + (4 << 20)), chunk: 1 << 16) { chunk, offset in
            rows.scan(chunk) { end in
                found = offset + end
                return false
            }
        }
        return found.flatMap { $0 < file.size ? $0 : nil }
    }

    /// How the records, lines and bytes of a part after the first move to the file's.
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
    /// Checks the file in `plan`, its parts on up to `--jobs` threads, into `run`.
    /// - Returns: false when the parts were dropped (see the design note),
    ///   and `run` is as it was: the caller then reads the file in one pass.
    func check(_ plan: PartPlan, into run: inout FileCheck, codec: any Codec, options asked: ValidationOptions) -> Bool {
        var options = asked
        options.codecOptions = plan.codecOptions
        // Every part checks its records as one kind: the first record's.
        var kind = options.kind
        if options.schema == nil && kind == nil {
            let probe = partContext(options, kind: nil)
            let input = FileRangeInput(plan.file, range: 0..<plan.file.size)
            guard let reader = try? codec.makeReader(input, context: probe), let first = try? reader.next() else {
                return false
            }
            kind = reader.declaredKind ?? RecordKind.infer(from: first.fields)
        }
        let remaining = options.maxErrors.map { $0 - run.sink.errorCount }
        if let remaining, remaining <= 0 { return false }
        let jobs = plan.ranges.enumerated().map { index, range in
            let job = PartCheck(
                self, plan, codec: codec, options: options, kind: kind, maxErrors: remaining, range: range,
                prefix: index == 0 ? [] : plan.prefix)
            job.run.ordinals = []
            job.run.keyLog = KeyLog()
            return job
        }
        // No more threads than cores: a part waits for a core, not a core
        // for a part (the parts are read in order, each by the next free).
        LargeStackThread.each(jobs.count, threads: min(options.jobs, Cores.usable)) { jobs[$0].check() }
        // Each part's shift to the file: the records, lines and bytes
        // before it. Each reader counted the lines it read (its window
        // counts what it drops): the line ends before its end.
        var shifts = [PartPlan.Shift(records: 0, lines: 0, bytes: 0)]
        for (index, job) in jobs.enumerated().dropLast() {
            guard job.run.file.complete, job.run.file.records > 0, let endLine = job.endLine else { return false }
            let linesBeforeCut = shifts[index].lines + endLine - 1
            shifts.append(
                PartPlan.Shift(
                    records: shifts[index].records + job.run.file.records, lines: linesBeforeCut - plan.prefixLines,
                    bytes: plan.cuts[index] - plan.prefix.count))
        }
        let duplicates = KeyLog.duplicates(
            in: jobs.map { $0.run.keyLog ?? KeyLog() }, records: shifts.map(\.records), bytes: shifts.map(\.bytes),
            threads: min(options.jobs, Cores.usable))
        // A relocator for each part: each counts lines onwards from where
        // it last looked, and the duplicates come in the file's order.
        var relocators = zip(plan.ranges, shifts).enumerated().map { index, part in
            RecordRelocator(
                file: plan.file, prefix: plan.prefix, prefixLines: plan.prefixLines, codec: codec,
                context: { partContext(options, kind: kind) },
                lineEnd: (part.0.lowerBound, index == 0 ? 1 : part.1.lines + plan.prefixLines + 1))
        }
        let parts = zip(jobs, shifts).map { (run: $0.run, collector: $0.collector, shift: $1) }
        run.adopt(parts, duplicates: duplicates) { field, offset in
            let index = plan.cuts.firstIndex { offset < $0 } ?? plan.cuts.count
            return relocators[index].location(of: field, inRecordAt: offset)
        }
        // One pass reads on past the cap, and a read that fails there still
        // decides the exit status.
        if let failure = jobs.last?.failure { run.sink.noteCategories([failure]) }
        return true
    }

    /// The read context of a part or a shard: resuming after a bad record, as the
    /// single pass does.
    func partContext(_ options: ValidationOptions, kind: RecordKind?) -> ReadContext {
        let context = ReadContext(
            kind: options.schema == nil ? kind : .generic, schema: options.schema, options: options.codecOptions,
            limits: options.limits)
        context.infersTypes = false
        context.reportsEveryProblem()
        return context
    }
}

/// One part of a file, checked on the thread that calls `check`. Only that
/// thread touches it until it is done.
private final class PartCheck: @unchecked Sendable {
    let collector: DiagnosticCollector
    var run: FileCheck
    /// The line the reader was on at the end of the range (1-based): for a
    /// part but the last, just after its cut's line feed.
    private(set) var endLine: Int?
    /// The category of the error that stopped the reading, if one did.
    private(set) var failure: FerryError.Category?
    private let validator: Validator
    private let plan: PartPlan
    private let codec: any Codec
    private let options: ValidationOptions
    private let kind: RecordKind?
    private let range: Range<Int>
    private let prefix: [UInt8]

    init(
        _ validator: Validator, _ plan: PartPlan, codec: any Codec, options: ValidationOptions, kind: RecordKind?,
        maxErrors: Int?, range: Range<Int>, prefix: [UInt8]
    ) {
        collector = DiagnosticCollector(maxErrors: maxErrors, keepsWarningsOfNoRecord: true)
        run = FileCheck(path: plan.path, sink: collector, file: ValidationReport.File(path: plan.path))
        run.expectedBytes = range.count + prefix.count
        self.validator = validator
        self.plan = plan
        self.codec = codec
        self.options = options
        self.kind = kind
        self.range = range
        self.prefix = prefix
    }

    func check() {
        let path = plan.path
        let input = FileRangeInput(plan.file, range: range, prefix: prefix)
        do throws(FerryError) {
            let context = validator.partContext(options, kind: kind)
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

// MARK: - Adopting the parts

extension FileCheck {
    /// Takes in the parts of this run's file, in order: their diagnostics,
    /// the duplicate keys found in all (`KeyLog`) and their counts, in the
    /// order and under the cap one pass would give. See the design note.
    /// - Parameters:
    ///   - parts: each part's run, collector and shift to the file.
    ///   - relocate: the location of a field in the record at a byte offset
    ///     of the file, and its key's text.
    mutating func adopt(
        _ parts: [(run: FileCheck, collector: DiagnosticCollector, shift: PartPlan.Shift)],
        duplicates: [KeyLog.Duplicate], relocate: (String, Int) -> (location: SourceLocation, text: String?)
    ) {
        guard let first = parts.first, let last = parts.last else { return }
        file.kind = first.run.file.kind
        file.partCount = parts.count
        rules = first.run.rules
        file.records = parts.reduce(0) { $0 + $1.run.file.records }
        // Every part's diagnostics, each with its record in the file (that
        // of the record read when it was reported, for those of none): a
        // part's records all come before the next one's.
        var diagnostics: [(record: Int, diagnostic: Diagnostic)] = []
        diagnostics.reserveCapacity(parts.reduce(0) { $0 + $1.collector.diagnostics.count })
        for index in parts.indices {
            // Read out of the part once: read in the loop, each diagnostic
            // of a later part copied the part's run (its schema, its
            // arrays): 1,950 instructions an error, 2.7M of 100,000
            // products against shop.schema.json.
            let collected = parts[index].collector.diagnostics
            let ordinals = parts[index].run.ordinals ?? []
            let shift = parts[index].shift
            for (diagnostic, ordinal) in zip(collected, ordinals) {
                let at = diagnostic.location.record ?? ordinal
                if index == 0 {
                    diagnostics.append((at, diagnostic))
                    continue
                }
                // Warnings about the header line, which the first part reported.
                if at < 0 && diagnostic.severity == .warning { continue }
                diagnostics.append((at + shift.records, shift.apply(to: diagnostic)))
            }
        }
        // File-level warnings (a count for the whole file, such as the rows
        // padded under `--ragged`) come once, at the end, with all counts.
        // All of them, whatever the cap: one pass reads to the end and
        // reports them, counted over the whole file, after the cap too.
        let fileWarnings = diagnostics.filter(\.diagnostic.isFileLevel).map(\.diagnostic)
        var next = 0
        // Reports the diagnostics up to record `record` (only those of its
        // rules, for `rulesOnly`); false once the cap is reached.
        func reportParts(through record: Int, rulesOnly: Bool) -> Bool {
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
            guard reportParts(through: duplicate.record, rulesOnly: true) else {
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
        if !capped { _ = reportParts(through: .max, rulesOnly: false) }
        // Records after the one whose diagnostic reached the cap are not checked.
        if let capRecord { file.uncheckedRecords = max(file.records - (capRecord + 1), 0) }
        file.complete = last.run.file.complete
        for warning in Self.merged(fileWarnings) { report(warning) }
        // The errors of the parts are those reported here, and, past the
        // cap, the others of the record that reached it, as one pass sees them.
        for part in parts {
            if let partCap = part.run.capRecord, partCap + part.shift.records == capRecord {
                sink.noteCategories(part.collector.categoriesPastCap)
            }
        }
        // The warnings the parts counted and did not keep (those of records
        // past the cap on warnings, which one pass counts too); past the cap
        // on errors, warnings that count as errors are not counted.
        if !countsWarningsAsErrors { file.warnings += parts.reduce(0) { $0 + $1.collector.droppedWarnings } }
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
