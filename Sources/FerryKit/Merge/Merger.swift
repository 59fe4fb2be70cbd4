/// What a merge should do, as the `merge` command's options say it.
public struct MergeOptions: Sendable {
    /// The input format; nil to sniff each input's.
    public var from: String?
    /// The output format; nil to take it from the output's extension.
    public var to: String?
    /// The kind of every input's records; nil to infer it from the first
    /// input's, which the others must then match.
    public var kind: RecordKind?
    /// The schema the records are checked against and typed by; nil for
    /// the kind's.
    public var schema: Schema?
    /// The key fields; nil for the kind's default key (see `DefaultKey`).
    public var key: [String]?
    public var policy = ConflictPolicy.keepFirst
    /// Replace an existing output.
    public var overwrite = false
    /// The memory the records of a merge may take (`--memory`).
    public var memoryBudget = MergeOptions.defaultMemoryBudget
    public var codecOptions = OptionValues()
    public var limits = ReadLimits()
    /// Read referenced photos (relative to each input's folder) and keep
    /// their bytes, as `convert --embed-photos` does: records then compare
    /// by their images, and an archive or bundle output embeds them.
    public var embedPhotos = false
    /// Write the kept records' photos as files in this folder, named by
    /// paths relative to the output's folder (`convert --photos-dir`).
    /// Photos are read as with `embedPhotos`.
    public var photosDirectory: String?

    /// 1 GiB.
    public static let defaultMemoryBudget = 1 << 30

    /// Whether a merge into JSON Lines may take the spooled way
    /// (`SpooledMerge`); tests compare it with the general one.
    var spools = true
    /// Inputs of this size or more are read in parts by a spooled merge
    /// (`PartPlan`); tests lower it.
    var partsThreshold = PartPlan.threshold
    /// A spooled merge of this many records or more matches its keys on
    /// the threads `jobs` allows, fewer on one; tests lower it.
    var sharedMatchingRecords = 1 << 16
    /// How many conflicts the report lists, the others only counted
    /// (`MergeReport.unlistedConflicts`); nil for every one. A merge may
    /// list more: only the spooled one under keep-first leaves any out.
    package var listedConflicts: Int?
    /// The cores to use (`--jobs`), at most those the process may use: one
    /// reads each input in one pass; more cut a large input into parts
    /// (`PartPlan.partsPerJob` a job), read by that many threads at once,
    /// which then match the keys, a share of their partitions each. The
    /// output and the report are the same for every number.
    public var jobs = Cores.usable

    public init() {}
}

/// Merges inputs of one kind into one output: duplicates by key merged,
/// conflicts settled by the policy, the output in first-seen order.
///
///     inputs ─▶ reader ─▶ rules ─▶ tapes, kept (MergeStore)
///                                    └▶ key digest ─▶ MergeIndex: new, identical, conflict
///            ─▶ writer, the records kept in first-seen order ─▶ temporary file ─▶ rename
///
/// See Formats/merge.md.
public struct Merger {
    public let registry: CodecRegistry

    public init(registry: CodecRegistry = .standard) { self.registry = registry }

    /// Merges `paths` (`-` for standard input) into `output` (`-` for
    /// standard output).
    /// - Returns: the report; under `fail` with conflicts, nothing was
    ///   written (`written` is false).
    /// - Throws: the first error reading, checking or writing; the output is
    ///   then left as it was.
    public func merge(_ paths: [String], into output: String, options: MergeOptions) throws(FerryError) -> MergeReport {
        if options.kind == .generic && options.key == nil && options.schema == nil { throw .mergeKeyRequired() }
        try options.codecOptions.check(against: registry.codecs)
        // Opened first, so that a wrong path fails before any reading.
        let file = output == "-" ? nil : try OutputFile(path: output, overwrite: options.overwrite)
        do throws(FerryError) {
            if let report = try spooled(paths, into: file, path: output, options: options) { return report }
            let reading = MergeReading(options: options, registry: registry) { (firstCodec) throws(FerryError) in
                try outputCodec(file: file, path: output, options: options, firstCodec: firstCodec)
            }
            for path in paths { try reading.read(path) }
            var report = try reading.finish()
            report.output = output
            report.warnings = reading.warnings
            guard report.conflicts.isEmpty || options.policy != .fail else {
                file?.discard()
                return report
            }
            report.outputFormat = try write(reading, to: file, path: output, options: options)
            report.written = true
            return report
        } catch {
            file?.discard()
            throw error
        }
    }

    /// The merge done the spooled way (`SpooledMerge`), when it is for
    /// this merge and its inputs held no surprise; else nil, and nothing
    /// was written.
    private func spooled(
        _ paths: [String], into file: OutputFile?, path: String, options: MergeOptions
    ) throws(FerryError) -> MergeReport? {
        // The output's format, as `write` resolves it, from the first input's.
        guard options.spools, !options.embedPhotos, options.photosDirectory == nil, let first = paths.first, first != "-",
            let firstCodec = try? OpenedInput.reading(first, limits: options.limits, { (opened) throws(FerryError) in
                try FormatResolver(registry: registry).inputCodec(
                    path: opened.formatPath, prefix: opened.prefix, from: options.from)
            }),
            let codec = try? outputCodec(file: file, path: path, options: options, firstCodec: firstCodec),
            let merge = SpooledMerge(paths, options: options, outputCodec: codec, registry: registry),
            var report = merge.read()
        else { return nil }
        report.output = path
        report.wasSpooled = true
        guard merge.conflicts.isEmpty || options.policy != .fail else {
            report.conflicts = try merge.placedConflicts().conflicts
            file?.discard()
            return report
        }
        let (destination, gzip) = try destinations(file: file, path: path)
        // The output is gathered on this thread while another places the
        // records of the pairs matching took for conflicts (their files'
        // lines counted) and settles the pairs (it reads their records
        // again), which this one helps with once the output is written.
        // The system calls that copy it out run on a thread of their own.
        let background = BackgroundOutput(gzip ?? destination)
        background.start()
        defer { background.close() }
        let placing = ConflictPlacing(merge)
        LargeStackThread.both(
            {
                placing.written = Result { () throws(FerryError) in
                    try merge.write(to: background, file: gzip == nil ? destination as? FileOutput : nil)
                    try background.flush()
                }
                if case .success = placing.written { placing.settle() }
            }, placing.placeAndSettle)
        try placing.written.get()
        let placed = try merge.placedConflicts()
        report.conflicts = placed.conflicts
        report.unlistedConflicts = placed.unlisted
        report.identicalDuplicates += placed.equalAfterAll
        try gzip?.finish()
        try file?.commit()
        report.outputFormat = codec.id
        report.written = true
        return report
    }

    /// A spooled merge whose conflicts are settled on two threads while
    /// the output is written; only the writing one touches `written`.
    private final class ConflictPlacing: @unchecked Sendable {
        let merge: SpooledMerge
        var written: Result<Void, FerryError> = .success(())

        init(_ merge: SpooledMerge) { self.merge = merge }

        func settle() { merge.settleSome() }

        func placeAndSettle() {
            merge.placeCandidates()
            merge.settleSome()
        }
    }

    /// The output's codec: named by the output's path or `--to`, else the
    /// first input's.
    private func outputCodec(
        file: OutputFile?, path: String, options: MergeOptions, firstCodec: any Codec
    ) throws(FerryError) -> any Codec {
        let formatPath = path.lowercased().hasSuffix(".gz") ? String(path.dropLast(3)) : path
        let namesFormat = file != nil && (!OutputFile.writesDirectly(path) || registry.codec(forPath: formatPath) != nil)
        return try FormatResolver(registry: registry).outputCodec(
            path: namesFormat ? path : nil, to: options.to, inputCodec: firstCodec)
    }

    /// Where the output's bytes go: the file or standard output, and a gzip
    /// stream on top for a `.gz` path.
    private func destinations(file: OutputFile?, path: String) throws(FerryError) -> (any ByteOutput, GzipOutput?) {
        let destination: any ByteOutput = file?.output ?? FileOutput.standardOutput()
        guard path.lowercased().hasSuffix(".gz") else { return (destination, nil) }
        let formatPath = String(path.dropLast(3))
        let gzip = try GzipOutput(
            destination, level: 6, jobs: 1, fileName: formatPath.split(separator: "/").last.map(String.init),
            modified: 0)
        return (destination, gzip)
    }

    /// Writes the records kept, in first-seen order.
    /// - Returns: the output's format.
    private func write(
        _ reading: MergeReading, to file: OutputFile?, path: String, options: MergeOptions
    ) throws(FerryError) -> String {
        let codec = try outputCodec(
            file: file, path: path, options: options, firstCodec: reading.firstCodec ?? JSONLinesCodec())
        let (destination, gzip) = try destinations(file: file, path: path)
        let context = WriteContext(kind: reading.kind, options: options.codecOptions)
        context.schema = options.schema
        // The system calls that copy the output go to the other core: by now
        // the reading is done.
        let background = BackgroundOutput(gzip ?? destination)
        background.start()
        defer { background.close() }
        let writer = try codec.makeWriter(background, context: context)
        // Under --photos-dir, the kept records' photos become files as they are written.
        let photos = options.photosDirectory.map {
            PhotoStore(
                inputDirectory: ".", outputDirectory: OutputFile.directory(of: file == nil ? "." : path),
                photosDirectory: $0, overwrite: options.overwrite)
        }
        let rawWriter = photos == nil ? writer as? any RawRecordWriter : nil
        // A CSV header is the first record's fields: the first one written
        // has every field, null where it has none.
        var union = codec.capabilities.contains(.writesColumnsOfFirstRecord) ? FieldList(reading.fieldUnion) : nil
        func emit(_ record: RawRecord) throws(FerryError) {
            if let rawWriter { return try rawWriter.writeRaw(record) }
            var whole = record.record()
            if let photos, reading.kind == .product { try Self.writePhoto(of: &whole, to: photos) }
            try writer.write(whole)
        }
        do throws(FerryError) {
            try reading.forEachKept { (record, index) throws(FerryError) in
                do throws(FerryError) {
                    if let fields = union {
                        union = nil
                        try Self.padded(record, to: fields, emit)
                    } else {
                        try emit(record)
                    }
                } catch {
                    let place = reading.place(of: index, record: record)
                    throw error.located(SourceLocation(file: place.file, record: place.record))
                }
            }
            try writer.finish()
            // Any write that failed on the other thread is thrown here.
            try background.flush()
            background.close()
            try gzip?.finish()
            try file?.commit()
        } catch {
            photos?.removeWrittenFiles()
            throw error
        }
        return codec.id
    }

    /// Writes a product's photo bytes as a file of `photos`, and puts the
    /// file's path in their place.
    private static func writePhoto(of record: inout Record, to photos: PhotoStore) throws(FerryError) {
        guard case .bytes(let bytes)? = record["photo"] else { return }
        let name = record["name"]?.stringValue ?? "photo"
        record.set("photo", to: .string(try photos.write(bytes, named: name)))
    }

    /// Calls `body` with `record` laid out on `fields`, null where it has no value.
    private static func padded(
        _ record: RawRecord, to fields: FieldList, _ body: (RawRecord) throws(FerryError) -> Void
    ) throws(FerryError) {
        let cells = fields.names.map { name in record.fields.index(of: name).map { record.values[$0] } ?? .null }
        try cells.withUnsafeBufferPointer { (cells) throws(FerryError) in
            try body(RawRecord(fields: fields, values: cells, others: record.others, origin: record.origin))
        }
    }
}
