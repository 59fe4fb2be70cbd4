/// The reading half of a merge: each input in turn, read and checked on a
/// second thread (`BackgroundSource`, as `convert` reads), its records kept
/// in the store and added to the index as they come.
///
/// The kind is settled by the first input that has records (or `--kind`),
/// and every later input must have it. The key is `--key`, or the kind's
/// default: records are matched by the preferred key (`sku`, `isbn`) until
/// one lacks it; the index then starts over on the fallback (`name`;
/// `title` and `author`) with the records read so far, once.
final class MergeReading {
    let options: MergeOptions
    let registry: CodecRegistry
    private(set) var store = MergeStore()
    private(set) var index: MergeIndex?
    /// The index the merge started with, whose key fields the reading
    /// threads' digests are of.
    private var firstIndex: MergeIndex?
    /// The records on disk, once they outgrew the memory budget.
    private(set) var spill: MergeSpill?
    /// What the merge on disk found, once `finish` has run.
    private var spilled: MergeSpill.Outcome?
    /// Records read so far, in every input.
    private var recordsRead = 0
    private(set) var kind: RecordKind?
    /// The codec of the first input, whose format a stream output takes.
    private(set) var firstCodec: (any Codec)?
    private var defaultKey: DefaultKey?
    private var sources: [MergeReport.Source] = []
    /// The store index of each input's first record.
    private var sourceStarts: [Int] = []
    /// Whether each input can be read again to count lines: a file (not
    /// standard input) of a text format.
    private var hasLines: [Bool] = []
    private(set) var warnings: [FerryWarning] = []

    /// The output's codec, from the first input's (as `Merger` resolves it).
    private let outputCodec: (any Codec) throws(FerryError) -> any Codec
    /// How photos are read, settled at the first input: referenced ones
    /// loaded as bytes (`--embed-photos`, `--photos-dir`, or an output that
    /// embeds them), and inline ones (`data:` URIs) as bytes too for an
    /// output that writes bytes.
    private var photos: (embed: Bool, inlineAsBytes: Bool)?

    init(
        options: MergeOptions, registry: CodecRegistry,
        outputCodec: @escaping (any Codec) throws(FerryError) -> any Codec
    ) {
        self.options = options
        self.registry = registry
        self.outputCodec = outputCodec
    }

    /// How photos are read (see `photos`), given the first input's codec.
    private func photoHandling(firstCodec: any Codec) throws(FerryError) -> (embed: Bool, inlineAsBytes: Bool) {
        if let photos { return photos }
        let output = try outputCodec(firstCodec)
        let settled = (
            embed: options.embedPhotos || options.photosDirectory != nil || output.embedsMedia,
            inlineAsBytes: output.capabilities.contains(.writesBytes)
        )
        photos = settled
        return settled
    }

    /// Reads the input at `path` to its end.
    /// - Throws: what reading and checking throw, located;
    ///   `merge.kindMismatch`; `merge.keyRequired`.
    func read(_ path: String) throws(FerryError) {
        try OpenedInput.reading(path, limits: options.limits) { (opened) throws(FerryError) in
            let codec = try FormatResolver(registry: registry).inputCodec(
                path: opened.formatPath, prefix: opened.prefix, from: options.from)
            if firstCodec == nil { firstCodec = codec }
            sources.append(MergeReport.Source(path: path, format: codec.id))
            sourceStarts.append(recordsRead)
            hasLines.append(path != "-" && !codec.capabilities.contains(.writesBinary))
            let context = ReadContext(
                kind: options.kind, schema: options.schema, options: options.codecOptions, limits: options.limits)
            context.jsonValue = { JSONCodec.value($0, maxDepth: $1) }
            defer { warnings += context.takeWarnings() }
            let reader = try opened.makeReader(codec, path: path, context: context)
            let photos = try photoHandling(firstCodec: firstCodec ?? codec)
            if let raw = reader as? any RawRecordReader, !photos.embed, !photos.inlineAsBytes {
                try drain(
                    BackgroundSource(
                        raw: raw, inputPath: path, kind: options.kind, schema: options.schema,
                        counting: opened.counting, keying: Self.keying(options)),
                    path: path, tape: { $0 })
            } else {
                let source = RecordSource(
                    reader: reader, inputPath: path, kind: options.kind, schema: options.schema,
                    photos: PhotoStore(
                        inputDirectory: OutputFile.directory(of: path), outputDirectory: ".", photosDirectory: nil,
                        overwrite: false),
                    embedPhotos: photos.embed, inlineAsBytes: photos.inlineAsBytes, context: context)
                try drain(BackgroundSource(source, counting: opened.counting), path: path) { records in
                    let tape = RecordTape()
                    for record in records { RawRecord.with(record) { tape.append($0) } }
                    return tape
                }
            }
        }
    }

    /// Keeps every batch the reading thread sends, until its end.
    private func drain<Batch>(
        _ background: BackgroundSource<Batch>, path: String, tape: (Batch) -> RecordTape
    ) throws(FerryError) {
        background.start()
        defer { background.stop() }
        while true {
            switch background.receive() {
            case .batch(let batch, let batchKind, _):
                try settle(batchKind, path: path)
                let tape = tape(batch)
                sources[sources.count - 1].records += tape.count
                recordsRead += tape.count
                if let spill {
                    try tape.forEach { (record) throws(FerryError) in
                        defaultKey?.observe(record)
                        try spill.append(record)
                    }
                    continue
                }
                try store.keep(tape) { (record, index, digest) throws(FerryError) in
                    try add(record, index: index, digest: digest)
                }
                // The store, its entries and the index's slots, roughly.
                if store.byteCount + store.count * 48 > options.memoryBudget { try startSpilling() }
            case .end(let finalKind, _):
                if sources[sources.count - 1].records > 0 { try settle(finalKind, path: path) }
                return
            case .failure(let error):
                throw error
            }
        }
    }

    /// Settles the kind at the first records, and holds every input to it.
    private func settle(_ batchKind: RecordKind?, path: String) throws(FerryError) {
        guard let batchKind else { return }
        sources[sources.count - 1].kind = batchKind
        if let kind {
            guard batchKind == kind else {
                let first = sources.first { $0.kind != nil }?.path ?? path
                throw .mergeKindMismatch(path, kind: batchKind, first: first, expected: kind)
            }
            return
        }
        kind = batchKind
        if let key = options.key {
            index = MergeIndex(fields: key, schema: schema(batchKind), policy: options.policy)
            firstIndex = index
            return
        }
        let choice = DefaultKey(kind: batchKind)
        guard let fields = choice.fields else { throw .mergeKeyRequired() }
        defaultKey = choice
        index = MergeIndex(fields: fields, schema: schema(batchKind), policy: options.policy)
        firstIndex = index
    }

    private func schema(_ kind: RecordKind) -> Schema { options.schema ?? kind.schema }

    /// Moves the records read so far to disk, and reads the rest there.
    private func startSpilling() throws(FerryError) {
        let spill = try MergeSpill()
        try store.forEach(before: store.count) { (record, _) throws(FerryError) in try spill.append(record) }
        self.spill = spill
        store = MergeStore()
        // The records on disk are matched there (`finish`): the table of
        // the keys read so far is of no more use, and its memory is the budget's.
        index = nil
        firstIndex = nil
    }

    /// Digests of the key fields a merge starts with (`--key`, or the
    /// kind's preferred key), made on a reading thread.
    private static func keying(_ options: MergeOptions) -> (RawRecord, RecordKind) -> KeyDigest? {
        var fields: KeyFields?
        return { record, kind in
            let keyFields =
                fields ?? KeyFields(options.key ?? DefaultKey(kind: kind).fields ?? [], schema: options.schema ?? kind.schema)
            fields = keyFields
            return keyFields.digest(of: record)
        }
    }

    /// Adds record `recordIndex` of the store to the index, with its key's
    /// digest when the reading thread made it for the first key fields.
    private func add(_ record: RawRecord, index recordIndex: Int, digest: KeyDigest?? = .none) throws(FerryError) {
        guard let current = index else { return }
        if defaultKey != nil {
            defaultKey?.observe(record)
            if let fields = defaultKey?.fields, let kind, fields != current.keyFields.names {
                // A record without the preferred key: the fallback, from the start.
                let fresh = MergeIndex(fields: fields, schema: schema(kind), policy: options.policy)
                index = fresh
                try store.forEach(before: recordIndex) { (earlier, earlierIndex) throws(FerryError) in
                    try fresh.add(index: earlierIndex, digest: fresh.keyFields.digest(of: earlier), records: store)
                }
                try fresh.add(index: recordIndex, digest: fresh.keyFields.digest(of: record), records: store)
                return
            }
        }
        // After a fallback the digests made while reading are of the other key.
        let made: KeyDigest?? = current === firstIndex ? digest : .none
        let keyDigest: KeyDigest? =
            switch made {
            case .some(let digest): digest
            case .none: current.keyFields.digest(of: record)
            }
        try current.add(index: recordIndex, digest: keyDigest, records: store)
    }

    // MARK: - The report

    /// The report of what was read and matched.
    func finish() throws(FerryError) -> MergeReport {
        if let spill, let kind, let fields = options.key ?? defaultKey?.fields {
            let final = MergeIndex(fields: fields, schema: schema(kind), policy: options.policy)
            index = final
            spilled = try spill.merge(with: final, budget: options.memoryBudget)
        } else {
            try index?.finish(store)
        }
        var report = MergeReport()
        report.sources = sources
        report.kind = kind ?? options.kind ?? .generic
        report.keyFields = index?.keyFields.names ?? options.key ?? []
        report.keyChoice = options.key == nil ? .kindDefault : .option
        report.policy = options.policy
        report.spilled = spilled != nil
        report.recordsOut = spilled?.recordsOut ?? index?.kept.count ?? 0
        report.identicalDuplicates = spilled?.identicalDuplicates ?? index?.identicalDuplicates ?? 0
        report.recordsWithoutKey = spilled?.recordsWithoutKey ?? index?.recordsWithoutKey ?? 0
        let conflicts = spilled?.conflicts ?? index?.conflicts ?? []
        let files = Dictionary(sources.indices.map { (sources[$0].path, hasLines[$0]) }) { first, _ in first }
        report.conflicts = try Self.conflicts(conflicts, hasLines: files, limits: options.limits) {
            (record) throws(FerryError) in try withRecord(record) { place(of: record, record: $0) }
        }
        return report
    }

    /// The conflicts of a report, each record at its place (`place` gives
    /// it by record, in reading order) with its line where its file
    /// `hasLines`.
    ///
    /// The records are placed once each, in reading order, into an array
    /// that a conflict finds its records in by binary search: a dictionary
    /// of places cost about 2,500 instructions a conflict (100,000
    /// conflicts: 0.25 billion).
    static func conflicts(
        _ conflicts: [MergeIndex.Conflict], hasLines: [String: Bool], limits: ReadLimits,
        place: (Int) throws(FerryError) -> MergeReport.Place
    ) throws(FerryError) -> [MergeReport.Conflict] {
        guard !conflicts.isEmpty else { return [] }
        let records = Self.records(of: conflicts)
        let places = try Self.places(of: records, hasLines: hasLines, limits: limits, place: place)
        return Self.conflicts(conflicts, records: records, places: places)
    }

    /// The places of `records` (in reading order, each once), as
    /// `conflicts(_:hasLines:limits:place:)` finds them.
    static func places(
        of records: [Int], hasLines: [String: Bool], limits: ReadLimits,
        place: (Int) throws(FerryError) -> MergeReport.Place
    ) throws(FerryError) -> [MergeReport.Place] {
        var places: [MergeReport.Place] = []
        places.reserveCapacity(records.count)
        for record in records { places.append(try place(record)) }
        try SourceLines.fill(&places, hasLines: hasLines, limits: limits)
        return places
    }

    /// The conflicts, each record at its place in `places`, which are
    /// those of `records` (in reading order, each once, a superset of the
    /// conflicts' records).
    static func conflicts(
        _ conflicts: [MergeIndex.Conflict], records: [Int], places: [MergeReport.Place]
    ) -> [MergeReport.Conflict] {
        records.withUnsafeBufferPointer { records in
            // The place of `record`, which is one of `records`.
            func placed(_ record: Int) -> MergeReport.Place {
                var low = 0
                var high = records.count - 1
                while low < high {
                    let middle = (low + high) / 2
                    if records[middle] < record { low = middle + 1 } else { high = middle }
                }
                return places[low]
            }
            return conflicts.map { conflict in
                MergeReport.Conflict(
                    key: conflict.key, first: placed(conflict.first), second: placed(conflict.second),
                    keptSecond: conflict.keptSecond, differences: conflict.differences)
            }
        }
    }

    /// Every record of `conflicts`, once each, in reading order.
    static func records(of conflicts: some Collection<MergeIndex.Conflict>) -> [Int] {
        var records: [Int] = []
        records.reserveCapacity(2 * conflicts.count)
        for conflict in conflicts {
            records.append(conflict.first)
            records.append(conflict.second)
        }
        records.sort()
        var unique = 0
        for record in records where unique == 0 || records[unique - 1] != record {
            records[unique] = record
            unique += 1
        }
        records.removeLast(records.count - unique)
        return records
    }

    /// Calls `body` with record `sequence` (0-based, in reading order) of a
    /// conflict, in memory or on disk.
    private func withRecord<Result>(
        _ sequence: Int, _ body: (RawRecord) throws(FerryError) -> Result
    ) throws(FerryError) -> Result {
        guard let spill, let offset = spilled?.offsets[sequence] else { return try store.withRecord(sequence, body) }
        return try spill.withRecord(at: offset, body)
    }

    /// Calls `body` with each record kept, in first-seen order, and its
    /// sequence; after `finish`.
    func forEachKept(_ body: (RawRecord, Int) throws(FerryError) -> Void) throws(FerryError) {
        guard let spill, let spilled else {
            let kept = index?.kept ?? []
            // In reading order unless keep-last moved a record up.
            if zip(kept, kept.dropFirst()).allSatisfy({ $0 < $1 }) { return try store.forEach(ascending: kept, body) }
            for index in kept {
                try store.withRecord(Int(index)) { (record) throws(FerryError) in try body(record, Int(index)) }
            }
            return
        }
        try spill.forEach { (record, sequence, _) throws(FerryError) in
            guard spilled.keptBits[sequence >> 6] & (1 << UInt64(sequence & 63)) != 0 else { return }
            if let replacement = spilled.replacements[sequence] {
                try spill.withRecord(at: replacement.offset) { (record) throws(FerryError) in
                    try body(record, replacement.sequence)
                }
            } else {
                try body(record, sequence)
            }
        }
    }

    /// The names of every field, in the order they were first seen.
    var fieldUnion: [String] { MergeStore.union(of: spill?.shapes ?? store.shapes) }

    /// Where record `index` of the store, which is `record`, came from
    /// (without its line, which `SourceLines` adds).
    func place(of index: Int, record: RawRecord) -> MergeReport.Place {
        var low = 0
        var high = sourceStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if sourceStarts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return MergeReport.Place(file: sources[low].path, line: nil, record: record.origin.index, byteOffset: record.origin.byteOffset)
    }
}
