// MARK: - Design
//
// `ferry validate --combine` reads the json reports of a file's shards, in
// order, and gives the report one run over the whole file gives:
//
//     shard 0: errors at records 3, 9      keys A-1 (record 1), B-2 (record 9)
//     shard 1: errors at records 14        keys B-2 (record 12), C-3 (record 15)
//     whole:   errors at records 3, 9, 12 (B-2 repeats record 9), 14
//
// Each shard's diagnostics are already at the file's lines, records and
// bytes. A key a shard saw first that an earlier shard had is a duplicate
// the shards could not see: it is reported among that shard's diagnostics
// at its record, after the record's rules and before its other keys and
// its photo, as one pass orders them, at the cell found again by reading
// that record from the file (`RecordRelocator`). A shard's own duplicates
// name the first record of the key in the whole file. The cap on errors
// and the counts are then those of one pass: the diagnostics go through
// one `FileCheck`, in order.

/// Combines the json reports of a file's shards into the report of the file.
package struct ReportCombiner {
    package let registry: CodecRegistry

    package init(registry: CodecRegistry = .standard) { self.registry = registry }

    /// - Parameters:
    ///   - paths: the shards' json reports, in the order of their shards.
    ///   - maxErrors: the cap on errors of the combined report.
    ///   - strict: whether the shards' warnings are reported as errors (`--strict`).
    /// - Throws: `shard.badReport`, `shard.reportsNotContiguous`, `io.*`.
    package func combine(_ paths: [String], maxErrors: Int?, strict: Bool = false) throws(FerryError)
        -> ValidationReport
    {
        var shards: [ShardReport] = []
        for path in paths { shards.append(try ShardReport(path: path)) }
        var expected = 0
        for shard in shards {
            guard shard.trace.range.start == expected, shard.trace.input == shards[0].trace.input else {
                throw .shardReportsNotContiguous(shard.path, expected: expected)
            }
            expected = shard.trace.range.end
        }
        guard let first = shards.first, expected == first.trace.size else {
            throw .shardReportsNotContiguous(paths.last ?? "", expected: expected)
        }
        let input = first.trace.input
        var report = ValidationReport()
        report.maxErrors = maxErrors
        report.rulesChoice = first.rulesChoice
        let sink = DiagnosticCollector(maxErrors: maxErrors)
        var run = FileCheck(path: input, sink: sink, file: ValidationReport.File(path: input))
        run.countsWarningsAsErrors = strict
        run.file.format = first.trace.format
        run.file.kind = shards.lazy.compactMap(\.kind).first
        let crossings = try Self.crossings(shards)
        // Counts for the whole file (rows of delimiters only, rows padded),
        // which one pass reports at its end whatever the cap: every shard's,
        // added up, also those of shards after the cap.
        let fileWarnings = shards.flatMap { $0.diagnostics.filter(\.isFileLevel) }
        var capRecord: Int?
        var relocator: RecordRelocator?
        for (number, shard) in shards.enumerated() {
            // Counts of reports that add up past Int.max are no shards'.
            let (records, overflow) = run.file.records.addingReportingOverflow(shard.records)
            guard !overflow else { throw .shardBadReport(shard.path) }
            run.file.records = records
            run.file.complete = run.file.complete && shard.complete
            if sink.reachedCap { continue }
            var next = 0
            let diagnostics = shard.diagnostics
            func report(_ diagnostic: Diagnostic) {
                let wasCapped = sink.reachedCap
                run.report(diagnostic)
                if !wasCapped && sink.reachedCap { capRecord = diagnostic.location.record }
            }
            /// The shard's diagnostics up to record `record` (only those of
            /// its rules at that record, for `rulesOnly`).
            func reportShard(through record: Int, rulesOnly: Bool) {
                while next < diagnostics.count, !sink.reachedCap {
                    let diagnostic = diagnostics[next]
                    let at = diagnostic.location.record ?? record
                    guard at < record || (at == record && (!rulesOnly || diagnostic.isOfRules)) else { return }
                    next += 1
                    if diagnostic.isFileLevel {
                        continue
                    } else if diagnostic.code == .recordDuplicateKey {
                        report(crossings.firstOfKey(diagnostic, in: shard))
                    } else {
                        report(diagnostic)
                    }
                }
            }
            for crossing in crossings.of(shard: number) {
                reportShard(through: crossing.record, rulesOnly: true)
                if sink.reachedCap { break }
                if relocator == nil || relocator?.lineEnd.offset ?? 0 > crossing.byteOffset {
                    relocator = try relocatorFor(shard)
                }
                let field = crossings.fields[crossing.key]
                let found = relocator?.location(of: field, inRecordAt: crossing.byteOffset)
                let text = found?.text ?? ""
                report(
                    Diagnostic(
                        .error, .recordDuplicateKey, [.string(field), .string(text), .integer(crossing.first + 1)],
                        at: SourceLocation(file: input, record: crossing.record, field: field), value: text,
                        rule: "/properties/\(field)/x-ferry-unique"
                    ).located(found?.location ?? SourceLocation()))
            }
            reportShard(through: .max, rulesOnly: false)
            relocator = nil
        }
        for warning in Self.combined(fileWarnings) { run.report(warning) }
        if let capRecord {
            // Both are at least 0; a key's record may be Int.max in a damaged
            // report, so 1 is taken away last.
            run.file.uncheckedRecords = max(run.file.records - capRecord - 1, 0)
        } else {
            var unchecked = 0
            for shard in shards {
                let (sum, overflow) = unchecked.addingReportingOverflow(shard.uncheckedRecords)
                guard !overflow else { throw .shardBadReport(shard.path) }
                unchecked = sum
            }
            run.file.uncheckedRecords = unchecked
        }
        report.files = [run.file]
        report.diagnostics = sink.diagnostics
        report.reachedCap = sink.reachedCap
        report.errorCategories = sink.errorCategories
        for shard in shards { report.errorCategories.formUnion(shard.errorCategories) }
        report.rules = first.rules
        return report
    }

    /// A reader of records of `shard` again, from its start.
    private func relocatorFor(_ shard: ShardReport) throws(FerryError) -> RecordRelocator {
        let source = try PartSource(
            path: shard.trace.input, registry: registry, from: shard.trace.format,
            codecOptions: shard.trace.codecOptions, limits: ReadLimits())
        let prefix: [UInt8]
        if let header = source.header {
            prefix = try source.file.bytes(0..<header.end)
        } else {
            prefix = source.splitting.cut == .arrayElements ? [UInt8(ascii: "[")] : []
        }
        let kind = shard.kind ?? .generic
        let options = source.codecOptions
        return RecordRelocator(
            file: source.file, prefix: prefix, prefixLines: source.header?.lines ?? 0, codec: source.codec,
            context: { ReadContext(kind: kind, options: options) },
            lineEnd: (offset: shard.trace.range.start, line: shard.trace.range.firstLine))
    }

    /// The keys of each shard that an earlier shard had, found as validate
    /// finds the keys its parts share (`KeyLog`): each shard's keys logged,
    /// then matched partition by partition, the earliest shard's first,
    /// on as many threads as there are cores (`--combine` has no `--jobs`).
    private static func crossings(_ shards: [ShardReport]) throws(FerryError) -> Crossings {
        var fields: [String] = []
        var numbers: [String: Int] = [:]
        let logs = try shards.map { (shard) throws(FerryError) in
            let log = KeyLog()
            let fieldNumbers = shard.trace.uniqueFields.map { field in
                if let number = numbers[field] { return number }
                numbers[field] = fields.count
                fields.append(field)
                return fields.count - 1
            }
            for key in shard.trace.keys {
                try log.append(key.digest, key: fieldNumbers[key.field], record: key.record, byteOffset: key.byteOffset)
            }
            return log
        }
        let zeros = [Int](repeating: 0, count: shards.count)
        return Crossings(
            duplicates: KeyLog.duplicates(in: logs, records: zeros, bytes: zeros, threads: Cores.usable),
            fields: fields, numbers: numbers)
    }

    /// The keys that cross from one shard to a later one.
    private struct Crossings {
        /// The unique fields of every shard, numbered as the duplicates' keys.
        let fields: [String]
        let numbers: [String: Int]
        /// Each crossing key's first record in the file, by field and digest.
        private let firsts: [FieldKey: Int]
        /// The crossings into each shard, in its records' order (the
        /// fields' within a record), as `KeyLog.duplicates` gives them.
        private let byShard: [Int: [KeyLog.Duplicate]]

        private struct FieldKey: Hashable {
            var field: Int
            var digest: KeyDigest
        }

        init(duplicates: [KeyLog.Duplicate], fields: [String], numbers: [String: Int]) {
            self.fields = fields
            self.numbers = numbers
            var firsts: [FieldKey: Int] = [:]
            for duplicate in duplicates { firsts[FieldKey(field: duplicate.key, digest: duplicate.digest)] = duplicate.first }
            self.firsts = firsts
            byShard = Dictionary(grouping: duplicates, by: \.part)
        }

        /// The crossings into shard `number`, in its records' order.
        func of(shard number: Int) -> [KeyLog.Duplicate] { byShard[number] ?? [] }

        /// A shard's own duplicate, naming the key's first record in the
        /// file: an earlier shard's, when the key crossed into it; else
        /// the shard's own first, which it names counting from its first
        /// record.
        func firstOfKey(_ diagnostic: Diagnostic, in shard: ShardReport) -> Diagnostic {
            guard diagnostic.arguments.count == 3, case .string(let field) = diagnostic.arguments[0],
                case .string(var text) = diagnostic.arguments[1], case .integer(let inShard) = diagnostic.arguments[2]
            else { return diagnostic }
            let digest = text.withUTF8 { KeyDigest(UnsafeRawBufferPointer($0)) }
            var moved = diagnostic
            if let number = numbers[field], let first = firsts[FieldKey(field: number, digest: digest)] {
                moved.arguments[2] = .integer(first + 1)
            } else {
                // Both 1-based. A damaged report's numbers may add up past
                // Int.max: left as they are.
                let (before, below) = shard.trace.range.firstRecord.subtractingReportingOverflow(1)
                let (inFile, past) = inShard.addingReportingOverflow(before)
                if !below && !past { moved.arguments[2] = .integer(inFile) }
            }
            return moved
        }
    }

    /// File-level warnings with the same code, one each, their counts added.
    private static func combined(_ warnings: [Diagnostic]) -> [Diagnostic] {
        FileCheck.merged(warnings)
    }
}
