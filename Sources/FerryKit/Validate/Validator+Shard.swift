// MARK: - Design
//
// One shard of a file is checked as the file would be, from its first
// record to its last, by a `FileCheck` of its own over the shard's bytes
// (`ShardReading`: the header row or a bracket before them). Its
// diagnostics then move to the file's records, lines and bytes. The keys
// of unique fields the shard saw first go into its report (`ShardTrace`),
// each with its record and byte offset, so that `--combine` can find the
// keys that repeat one of an earlier shard, and the cell a whole-file run
// would name for them.

/// What the validation of one shard adds to its json report, for
/// `ferry validate --combine` (Formats/shards.md).
package struct ShardTrace: Sendable {
    /// A key of a unique field, as the shard saw it first.
    package struct Key: Sendable, Hashable {
        /// Its field, by index in `uniqueFields`.
        package var field: Int
        package var digest: KeyDigest
        /// Its record, 0-based, in the whole file.
        package var record: Int
        /// Where that record starts in the file.
        package var byteOffset: Int
    }

    package var input: String
    /// The file's size.
    package var size: Int
    package var format: String
    package var range: ShardRange
    /// The options the shard was read with: the user's and the delimiter.
    package var codecOptions: OptionValues
    package var uniqueFields: [String] = []
    package var keys: [Key] = []
}

extension Validator {
    /// Checks shard `range` of the file at `path` into `run`.
    /// - Returns: the trace its json report carries.
    func check(
        shard range: ShardRange, path: String, into run: inout FileCheck, options: ValidationOptions
    ) throws(FerryError) -> ShardTrace {
        let source = try PartSource(
            path: path, registry: registry, from: options.from, codecOptions: options.codecOptions,
            limits: options.limits)
        run.file.format = source.codec.id
        let reading = try ShardReading(source, range: range)
        var trace = ShardTrace(
            input: path, size: source.file.size, format: source.codec.id, range: range,
            codecOptions: source.codecOptions)
        var shardOptions = options
        shardOptions.codecOptions = source.codecOptions
        let collector = DiagnosticCollector(maxErrors: options.maxErrors)
        var shard = FileCheck(path: path, sink: collector, file: ValidationReport.File(path: path))
        shard.recordOffsets = []
        shard.expectedBytes = reading.input.sizeHint
        let context = partContext(shardOptions, kind: options.kind)
        do throws(FerryError) {
            let reader = try source.codec.makeReader(reading.input, context: context)
            try shard.check(
                reader, context: context, kind: options.kind, schema: options.schema,
                photos: Self.photoStore(for: path, options: options))
        } catch {
            shard.file.complete = false
            shard.report(Diagnostic(error.located(SourceLocation(file: path))))
        }
        run.rules = shard.rules
        run.file.kind = shard.file.kind
        run.sink.noteCategories(of: collector)
        for diagnostic in collector.diagnostics {
            // Warnings about the header row, which the first shard reports.
            if reading.prefixLines > 0 && diagnostic.location.record == nil && diagnostic.severity == .warning,
                let line = diagnostic.location.line, line <= reading.prefixLines
            {
                continue
            }
            run.report(reading.shift.apply(to: diagnostic))
        }
        run.file.records = shard.file.records
        run.file.uncheckedRecords = shard.file.uncheckedRecords
        run.file.complete = shard.file.complete
        trace.uniqueFields = shard.rules?.uniqueFields ?? []
        let offsets = shard.recordOffsets ?? []
        for (field, table) in shard.uniqueKeys.enumerated() {
            table.forEach { digest, record in
                trace.keys.append(
                    ShardTrace.Key(
                        field: field, digest: digest,
                        record: record + reading.shift.records,
                        byteOffset: (record < offsets.count ? offsets[record] : 0) + reading.shift.bytes))
            }
        }
        trace.keys.sort { ($0.record, $0.field) < ($1.record, $1.field) }
        return trace
    }
}
