#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

// MARK: - Design
//
// The general merge (`MergeReading`) reads on one thread and keeps every
// record on tapes until the end. When the output is JSON Lines and every
// input is a file of lines (JSON Lines, CSV, TSV), a merge can instead keep
// each record as the line it will be written as, and keep of it only what
// matching needs:
//
//     input a.jsonl ─┬ part 1 ─▶ rules ─▶ writer ─▶ spool: one line a record
//                    ├ part 2 ─▶ (each by the next free core) entries: key digest,
//                    └ …                                      value digest, offset
//     input b.csv   ─┬ …
//                    └ …
//     entries in reading order ─▶ MergeIndex (the same policy as the general merge)
//     kept records ─▶ their lines, copied from the spools ─▶ output
//
// - Each input of 8 MB or more is cut into parts (`PartPlan`, four a
//   core: `PartPlan.partsPerJob`), and the parts of every input are read
//   at once, each by the next free thread (`LargeStackThread.each`), each
//   checked by the same rules and written by the same writer as the
//   general merge's records, into a spool of its own.
// - A duplicate is compared with the record kept for its key by a digest of
//   its values (`RecordEquality.digest`): equal digests are equal records;
//   different ones are taken for a conflict while matching, and once it
//   is done every such pair is read again from the files, by one reader a
//   part over the records' lines (`reread`), and compared field by field,
//   which the conflicts need for their report (`settle`). A pair found
//   equal after all (text in two normal forms) is an identical duplicate;
//   under keep-last, which moved the kept record on, the keys are matched
//   again knowing it. The pairs are settled in chunks either thread takes
//   (`SettleChunks`); under keep-first, which settling cannot change,
//   while the output is written, the writing thread helping once it is done.
//   When the report lists only the first conflicts (standard error's
//   `--show-conflicts`), a pair past those whose digests are both exact
//   (`RecordEquality.digest(of:exact:)`) differs for sure: it is counted,
//   not read again (`splitForListing`).
// - A chunk of lines the writer hands a spool that is byte for byte what
//   the input holds there is noted as that range of the input, not copied:
//   a JSON Lines input in the writer's compact form costs no spool memory,
//   and the output copies its lines from the input. A spaced line (as
//   Python's `json.dumps` writes, or ending with CR LF) that is the
//   writer's once the whitespace between its tokens is dropped
//   (`RawRecord.lineIsSpaced`) is noted so too, and compacted as the
//   output copies it (`JSONText.Compactor`, through `MergeCopyOut`): no
//   spool memory either.
// - The report's places are the records' byte offsets, as in the general
//   merge, and `SourceLines` finds their lines.
//
// Anything out of the ordinary (an error, a warning, a record without the
// preferred default key, a kind that differs, spools past the memory
// budget) drops the spools and the general merge runs instead, which
// reports it as it always has. So this is a faster way to the same output
// and report, never a different one.

/// A merge whose records wait in memory as the JSON Lines they will be
/// written as (see the design note).
final class SpooledMerge {
    private let options: MergeOptions
    private let outputCodec: any Codec
    private var inputs: [Input]
    private var parts: [Part] = []
    /// The record kept for each key, at the key's first record (1-based, 0
    /// for none): read in order, the records kept in output order.
    private var keptAt = Column<UInt32>()
    private var keptCount = 0
    private var kind: RecordKind?
    private var keyFields: [String] = []
    private var sources: [MergeReport.Source] = []
    /// The conflicts found, in the order the general merge finds them (by
    /// the later record), for `placedConflicts`.
    private(set) var conflicts: [MergeIndex.Conflict] = []
    /// Under keep-first, the pairs matching took for conflicts, settled
    /// by `settleSome` and `placedConflicts` (see `match`); nil once settled.
    private var unsettled: SettleChunks?
    /// Under a limit on the conflicts listed (`MergeOptions.listedConflicts`),
    /// the later record of the last pair that may be listed (-1 for none);
    /// nil for no limit. See `splitForListing`.
    private var listedThrough: Int?
    /// The pairs past it whose exact digests differ: conflicts counted,
    /// never read again.
    private var countedConflicts = 0
    /// The records of those pairs and their places (`placeCandidates`).
    private var candidatePlaces: Result<(records: [Int], places: [MergeReport.Place]), FerryError>?
    private var schema: Schema?

    /// An input file, and how it is read in parts.
    private struct Input {
        let path: String
        let codec: any Codec
        let layout: PartSource
        /// The bytes of each of its parts, in order (`PartPlan.ranges`).
        let ranges: [Range<Int>]
        /// The types its free columns have in the whole file, which type
        /// them in each part and in the records read again (`settleKind`).
        var inferredTypes: InferredColumnTypes?
    }

    /// The merge of `paths` into JSON Lines (`outputCodec`), or nil when it
    /// is not for this way: an input that is not a file of lines, or an
    /// output in another format.
    init?(_ paths: [String], options: MergeOptions, outputCodec: any Codec, registry: CodecRegistry) {
        guard outputCodec.capabilities.isSuperset(of: [.writesLines, .writesRaw]), !paths.isEmpty else { return nil }
        var inputs: [Input] = []
        for path in paths {
            let input = try? OpenedInput.reading(path, limits: options.limits) { (opened) throws(FerryError) -> Input? in
                let codec = try FormatResolver(registry: registry).inputCodec(
                    path: opened.formatPath, prefix: opened.prefix, from: options.from)
                guard codec.capabilities.contains(.readsRaw), !opened.isEmpty,
                    let layout = PartSource.rows(
                        path: path, codec: codec, opened: opened, codecOptions: options.codecOptions)
                else { return nil }
                let plan = PartPlan(
                    layout, threshold: options.partsThreshold, jobs: options.jobs,
                    parts: min(options.jobs, Cores.usable) * PartPlan.partsPerJob)
                return Input(path: path, codec: codec, layout: layout, ranges: plan?.ranges ?? [0..<layout.file.size])
            }
            guard let input = input ?? nil else { return nil }
            inputs.append(input)
        }
        // What the spools would hold, roughly: a merge that would outgrow
        // the budget goes the general way at once, not when it gets there.
        let estimate = inputs.reduce(0) { total, input in
            total + input.layout.estimatedLines * Part.bytesPerRecord
                + (input.codec.id == outputCodec.id ? 0 : 2 * input.layout.file.size)
        }
        guard estimate <= options.memoryBudget else { return nil }
        self.options = options
        self.outputCodec = outputCodec
        self.inputs = inputs
    }

    // MARK: - Reading

    /// Reads and matches every input.
    /// - Returns: the report, or nil when the general merge should run
    ///   instead (see the design note).
    func read() -> MergeReport? {
        let budget = SpoolBudget(limit: options.memoryBudget)
        var spoolers: [PartSpooler] = []
        for number in inputs.indices {
            let input = inputs[number]
            guard let (kind, inferredTypes) = settleKind(input) else { return nil }
            inputs[number].inferredTypes = inferredTypes
            if self.kind == nil {
                self.kind = kind
                guard let fields = options.key ?? DefaultKey(kind: kind).fields else { return nil }
                keyFields = fields
            }
            guard kind == self.kind else { return nil }
            spoolers.append(
                PartSpooler(
                    options: options, codec: input.codec, layout: input.layout, inferredTypes: inferredTypes,
                    kind: kind, keyFields: keyFields, observesDefaultKey: options.key == nil, outputCodec: outputCodec))
        }
        for (number, input) in inputs.enumerated() {
            // A JSON Lines input's lines may be written as they are (see `Spool`).
            let original = input.codec.id == outputCodec.id ? input.layout.file : nil
            // The reader of each part after the first reads the CSV header first.
            parts += input.ranges.enumerated().map { index, range in
                Part(
                    input: number, range: range, prefix: index == 0 ? [] : input.layout.prefix, budget: budget,
                    source: original)
            }
        }
        // Every part of every input, each taken by the next free thread: a
        // thread the system slows reads fewer, and no thread waits for the
        // last part of an input before the next input starts.
        let parts = self.parts
        let readers = spoolers
        let failed = PartFailure()
        LargeStackThread.each(parts.count, threads: min(options.jobs, Cores.usable)) { index in
            let part = parts[index]
            guard !failed.isSet else { return }
            readers[part.input].read(part)
            if !part.succeeded { failed.set() }
        }
        guard !failed.isSet else { return nil }
        for (number, input) in inputs.enumerated() {
            var source = MergeReport.Source(path: input.path, format: input.codec.id)
            source.records = parts.reduce(0) { $0 + ($1.input == number ? $1.count : 0) }
            source.kind = source.records > 0 ? kind : nil
            sources.append(source)
        }
        guard let kind, sources.contains(where: { $0.records > 0 }) else { return nil }
        return match(kind: kind)
    }

    /// The kind of `input`'s records: asked for, declared by the format, or
    /// inferred from its first record, as the general merge settles it;
    /// nil when it has no record or cannot be read. With it, the types its
    /// reader inferred for the whole file's free columns.
    private func settleKind(_ input: Input) -> (RecordKind, InferredColumnTypes?)? {
        let context = ReadContext(
            kind: options.kind, schema: options.schema, options: input.layout.codecOptions, limits: options.limits)
        context.jsonValue = { JSONCodec.value($0, maxDepth: $1) }
        // Types inferred over every row, as the general merge's reader does, not a sample.
        context.wholeInput = { try? FileInput(path: input.path) }
        let bytes = FileRangeInput(input.layout.file, range: 0..<input.layout.file.size)
        guard let reader = try? input.codec.makeReader(bytes, context: context), let first = try? reader.next() else {
            return nil
        }
        return (options.kind ?? reader.declaredKind ?? RecordKind.infer(from: first.fields), context.inferredTypes)
    }

    /// Matches the records of every part by key, in reading order. Each
    /// part logged its keys (`KeyLog`), in partitions by their digest's top
    /// bits, and each of the threads `--jobs` allows matches a run of the
    /// partitions (`KeyLog.inRuns`; `MergeIndex`, cleared between
    /// partitions): a partition's table stays in the core's cache.
    private func match(kind: RecordKind) -> MergeReport? {
        let schema = options.schema ?? kind.schema
        var sequence = 0
        for part in parts {
            part.firstSequence = sequence
            sequence += part.count
        }
        // Records are counted in 32 bits (`keptAt`, the conflicts' order).
        let keptAt = Column<UInt32>()
        guard sequence < 1 << 32, keptAt.zeroed(count: sequence) else { return nil }
        self.keptAt = keptAt
        let threads = sequence >= options.sharedMatchingRecords ? max(min(options.jobs, Cores.usable), 1) : 1
        let logs = parts.map(\.keys)
        // Pairs whose digests differ but which were found equal: under
        // keep-last each such pair wrongly moved its key's kept record on,
        // so the keys are matched again knowing them (rarely more than once:
        // each round learns at least one pair).
        var equalPairs = Set<UInt64>()
        while true {
            let jobs = (0..<KeyLog.runCount(threads: threads)).map { _ in
                PartitionMatcher(
                    logs: logs, firstSequences: parts.map(\.firstSequence),
                    index: MergeIndex(fields: keyFields, schema: schema, policy: options.policy),
                    equalPairs: equalPairs, keptAt: keptAt, discards: options.policy != .keepLast)
            }
            for job in jobs { job.index.reserve(keys: sequence / KeyLog.partitionCount * 5 / 4 + 1024) }
            KeyLog.inRuns(threads: threads) { jobs[$0].run($1) }
            guard jobs.allSatisfy(\.succeeded) else { return nil }
            do throws(FerryError) {
                // In the order the general merge finds them: by the later
                // record, sorted as numbers (it, then the place found) rather
                // than by moving the conflicts (750 instructions each).
                let found = jobs.flatMap(\.conflicts)
                var order = found.indices.map { UInt64(truncatingIfNeeded: found[$0].second) << 32 | UInt64($0) }
                order.sort()
                let candidates = order.map { found[Int(truncatingIfNeeded: $0 & 0xFFFF_FFFF)] }
                keptCount = jobs.reduce(0) { $0 + $1.keptCount }
                if options.policy == .keepFirst {
                    // Settling them moves no kept record and writes nothing:
                    // it is done beside the writing (`settleSome`,
                    // `placedConflicts`), off the way to the output (100,000
                    // conflicts: 1.3G instructions, on both threads).
                    let split = splitForListing(candidates)
                    unsettled = SettleChunks(split.settled)
                    countedConflicts = split.counted
                    listedThrough = split.listedThrough
                    self.schema = schema
                    releaseMatching()
                    return report(kind: kind, jobs: jobs, equalAfterAll: 0)
                }
                let settled = try settleOnBothCores(candidates, schema: schema)
                if options.policy == .keepLast && !settled.equalPairs.isEmpty {
                    equalPairs.formUnion(settled.equalPairs)
                    continue
                }
                conflicts = settled.conflicts
                releaseMatching()
                return report(kind: kind, jobs: jobs, equalAfterAll: settled.equalPairs.count)
            } catch {
                return nil
            }
        }
    }

    /// Gives back the memory only matching needed (each part's key log, 32
    /// bytes a record with its value digest), before the output is written.
    ///
    /// What this buys: pages just unmapped are the ones the kernel hands
    /// out next, so the output file's first pages come from them. On a
    /// virtual machine that returns free memory to its host (virtio-balloon
    /// free page reporting, as here), a page the guest has not touched for
    /// a few seconds costs a fault in the host: writing 95 MB to a new file
    /// took 0.30–0.46 s that way, against 0.03 s just after another file of
    /// that size was deleted (`dd`). See BENCHMARKS.md ("Merge, 2026-12-07").
    private func releaseMatching() {
        for part in parts { part.releaseMatching() }
    }

    /// The report of what was read and matched.
    private func report(kind: RecordKind, jobs: [PartitionMatcher], equalAfterAll: Int) -> MergeReport {
        var report = MergeReport()
        report.sources = sources
        report.kind = kind
        report.keyFields = keyFields
        report.keyChoice = options.key == nil ? .kindDefault : .option
        report.policy = options.policy
        report.recordsOut = keptCount
        report.linesKeptAsRead = parts.reduce(0) { $0 + $1.spool.linesInInput }
        report.identicalDuplicates = jobs.reduce(equalAfterAll) { $0 + $1.identicalDuplicates }
        report.recordsWithoutKey = jobs.reduce(0) { $0 + $1.recordsWithoutKey }
        return report
    }

    // MARK: - Conflicts

    /// The pairs matching took for conflicts that must be read again, under
    /// a limit on the conflicts listed (`MergeOptions.listedConflicts`):
    /// those up to the pair where that many had exact digests (`Part.inexactDigest`),
    /// which hold every conflict listed, and any past it whose digests are
    /// not both exact. A pair past it with exact digests is a conflict for
    /// sure (its digests differ), only counted: a price feed of 100,000
    /// changes reads two records again for the first hundred, not for each.
    /// - Returns: the pairs to settle, in their order; how many were only
    ///   counted; the later record of the last pair that may be listed
    ///   (-1 for none), nil with no limit.
    private func splitForListing(
        _ candidates: [MergeIndex.Conflict]
    ) -> (settled: [MergeIndex.Conflict], counted: Int, listedThrough: Int?) {
        guard let limit = options.listedConflicts else { return (candidates, 0, nil) }
        var settled: [MergeIndex.Conflict] = []
        var exact = 0
        var counted = 0
        var listedThrough = -1
        for candidate in candidates {
            let sure = hasExactDigest(candidate.first) && hasExactDigest(candidate.second)
            if exact < limit {
                settled.append(candidate)
                listedThrough = candidate.second
                if sure { exact += 1 }
            } else if sure {
                counted += 1
            } else {
                settled.append(candidate)
            }
        }
        return (settled, counted, listedThrough)
    }

    /// Whether record `sequence` (in reading order) has an exact value digest.
    private func hasExactDigest(_ sequence: Int) -> Bool {
        let (part, record) = locate(sequence)
        return parts[part].offsets[record] & Part.flags == 0
    }

    /// `settle` of `candidates`, by chunks on two threads when the merge may
    /// use two cores.
    private func settleOnBothCores(
        _ candidates: [MergeIndex.Conflict], schema: Schema
    ) throws(FerryError) -> SettleChunks.Settled {
        let chunks = SettleChunks(candidates)
        let work = SettleWork(merge: self, chunks: chunks, schema: schema)
        if options.jobs > 1 && chunks.count > 1 { LargeStackThread.both({ work.run() }, { work.run() }) }
        return try work.gathered()
    }

    /// The pairs matching took for conflicts (their value digests differ),
    /// compared field by field once their records are read again.
    /// - Returns: the conflicts, with their keys and differences, and the
    ///   pairs that were equal after all (`PartitionRecords.pair`).
    fileprivate func settle(
        _ candidates: ArraySlice<MergeIndex.Conflict>, schema: Schema
    ) throws(FerryError) -> SettleChunks.Settled {
        guard !candidates.isEmpty else { return ([], []) }
        let wanted = MergeReading.records(of: candidates)
        let store = try reread(wanted)
        // The position of record `sequence` in `wanted`, which is its index in `store`.
        func stored(_ sequence: Int) -> Int {
            var low = 0
            var high = wanted.count - 1
            while low < high {
                let middle = (low + high) / 2
                if wanted[middle] < sequence { low = middle + 1 } else { high = middle }
            }
            return low
        }
        let index = MergeIndex(fields: keyFields, schema: schema, policy: options.policy)
        var conflicts: [MergeIndex.Conflict] = []
        conflicts.reserveCapacity(candidates.count)
        var equalPairs = Set<UInt64>()
        for candidate in candidates {
            let conflict = try store.withRecords(stored(candidate.first), stored(candidate.second)) { earlier, later in
                index.likelyConflict(earlier, later, first: candidate.first, second: candidate.second)
            }
            if let conflict {
                conflicts.append(conflict)
            } else {
                equalPairs.insert(PartitionRecords.pair(candidate.first, candidate.second))
            }
        }
        return (conflicts, equalPairs)
    }

    /// Records `sequences` (in reading order, ascending, each once), read
    /// again: by one reader a part, over the records' lines one after
    /// another (`FileRangeInput`), so that they share their field lists
    /// as the records of one file do.
    /// - Returns: the records, record `sequences[i]` at index `i`.
    /// - Throws: `io.inputChanged` when a part no longer has them.
    private func reread(_ sequences: [Int]) throws(FerryError) -> MergeStore {
        let store = MergeStore()
        var next = 0
        while next < sequences.count {
            let part = parts[locate(sequences[next]).part]
            let input = inputs[part.input]
            var ranges: [Range<Int>] = []
            var wanted = 0
            while next < sequences.count, sequences[next] < part.firstSequence + part.count {
                let record = sequences[next] - part.firstSequence
                // A record ends where the next one starts, or with its part.
                let start = part.byteOffset(record)
                let end = record + 1 < part.count ? part.byteOffset(record + 1) : part.range.upperBound
                if let last = ranges.last, last.upperBound == start {
                    ranges[ranges.count - 1] = last.lowerBound..<end
                } else {
                    ranges.append(start..<end)
                }
                wanted += 1
                next += 1
            }
            let context = ReadContext(
                kind: options.kind, schema: options.schema, options: input.layout.codecOptions, limits: options.limits)
            context.jsonValue = { JSONCodec.value($0, maxDepth: $1) }
            context.countsLines = false
            context.inferredTypes = input.inferredTypes
            let bytes = FileRangeInput(input.layout.file, ranges: ranges, prefix: input.layout.prefix)
            guard let reader = try input.codec.makeReader(bytes, context: context) as? any RawRecordReader else {
                throw .ioInputChanged(input.path)
            }
            let tape = RecordTape()
            while try reader.readRaw({ tape.append($0) }) {}
            guard tape.count == wanted else { throw .ioInputChanged(input.path) }
            try store.keep(tape) { _, _, _ in }
        }
        return store
    }

    /// Settles chunks of the pairs matching left unsettled (keep-first)
    /// until none is left to take: each thread free while the output is
    /// written calls it, the writing one once it is done. Only reads what
    /// `write` reads, so it may run beside it.
    func settleSome() {
        guard let unsettled, let schema else { return }
        SettleWork(merge: self, chunks: unsettled, schema: schema).run()
    }

    /// The conflicts, each with where its records are in their files
    /// (their lines counted anew: `SourceLines`), the pairs matching left
    /// unsettled settled first (what `settleSome` did not); under a limit
    /// on those listed (`MergeOptions.listedConflicts`), the first ones.
    /// - Returns: the conflicts listed; how many more there are, counted
    ///   only; and how many pairs taken for conflicts it found equal after
    ///   all: identical duplicates the report has yet to count.
    /// - Throws: `io.inputChanged` when an input no longer has its records.
    func placedConflicts() throws(FerryError) -> (conflicts: [MergeReport.Conflict], unlisted: Int, equalAfterAll: Int) {
        var equalAfterAll = 0
        var unlisted = 0
        let early = candidatePlaces
        candidatePlaces = nil
        if let unsettled, let schema {
            let settled = try SettleWork(merge: self, chunks: unsettled, schema: schema).gathered()
            conflicts = settled.conflicts
            equalAfterAll = settled.equalPairs.count
            self.unsettled = nil
            if let listedThrough, let limit = options.listedConflicts {
                // In the candidates' order: those that may be listed come first.
                let listable = conflicts.prefix { $0.second <= listedThrough }.count
                let listed = min(limit, listable)
                unlisted = conflicts.count - listed + countedConflicts
                conflicts.removeSubrange(listed...)
            }
        }
        guard let early, !conflicts.isEmpty else {
            return (
                try MergeReading.conflicts(conflicts, hasLines: hasLines, limits: options.limits, place: place(of:)),
                unlisted, equalAfterAll
            )
        }
        let (records, places) = try early.get()
        return (MergeReading.conflicts(conflicts, records: records, places: places), unlisted, equalAfterAll)
    }

    /// Places the records of every pair left unsettled that may be listed,
    /// before they are settled (their places do not depend on it): the
    /// thread that does not write does it first, so that no line counting
    /// is left for after the writing.
    func placeCandidates() {
        guard let unsettled, candidatePlaces == nil else { return }
        let listable = listedThrough.map { last in unsettled.candidates.prefix { $0.second <= last } }
        candidatePlaces = Result { () throws(FerryError) in
            let records = MergeReading.records(of: listable ?? unsettled.candidates[...])
            return (records, try MergeReading.places(of: records, hasLines: hasLines, limits: options.limits, place: place(of:)))
        }
    }

    /// Every input has lines (a file of lines).
    private var hasLines: [String: Bool] { Dictionary(inputs.map { ($0.path, true) }) { first, _ in first } }

    /// Where record `sequence` (in reading order) came from.
    private func place(of sequence: Int) -> MergeReport.Place {
        let (number, offset) = locate(sequence)
        let part = parts[number]
        // The records of its input before it: those of its parts before it.
        let before = parts[..<number].reduce(0) { $0 + ($1.input == part.input ? $1.count : 0) }
        return MergeReport.Place(
            file: inputs[part.input].path, line: nil, record: before + offset, byteOffset: part.byteOffset(offset))
    }

    /// The part that holds record `sequence` (its number in `parts`), and
    /// the record's place in it.
    private func locate(_ sequence: Int) -> (part: Int, record: Int) {
        var low = 0
        var high = parts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if parts[middle].firstSequence <= sequence { low = middle } else { high = middle - 1 }
        }
        return (low, sequence - parts[low].firstSequence)
    }

    // MARK: - Writing

    /// Writes the records kept, in first-seen order, as their lines.
    /// - Parameter file: the file `output` writes to, when the kernel may
    ///   copy lines kept as read to it (`MergeCopyOut`).
    func write(to output: any ByteOutput, file: FileOutput?) throws(FerryError) {
        let copyOut = MergeCopyOut(output, file: file)
        // Parts by number and lines as ranges: a kept record counts no reference.
        var run: (part: Int, lines: Range<Int>)?
        func flush() throws(FerryError) {
            guard let (part, lines) = run else { return }
            try parts[part].spool.write(lines: lines, to: copyOut)
        }
        // Kept records come mostly in reading order: the part of the one
        // before is tried first.
        var part = 0
        var first = parts[0].firstSequence
        var end = first + parts[0].count
        try keptAt.withElements { (keptAt) throws(FerryError) in
            for record in keptAt where record != 0 {
                let sequence = Int(record - 1)
                if sequence < first || sequence >= end {
                    part = locate(sequence).part
                    first = parts[part].firstSequence
                    end = first + parts[part].count
                }
                let line = sequence - first
                if let current = run, current.part == part, current.lines.upperBound == line {
                    run = (part, current.lines.lowerBound..<(line + 1))
                    continue
                }
                try flush()
                run = (part, line..<(line + 1))
            }
        }
        try flush()
        try copyOut.flush()
    }
}

// MARK: - Settling on two threads

/// The pairs matching took for conflicts, in chunks that whichever thread
/// is free settles next (`SpooledMerge.settle`); each chunk's result is
/// kept in its place, so the conflicts come out in the candidates' order
/// whichever thread settled what. At 100,000 conflicts settling is 1.3G
/// instructions (2 × 1M spaced products; reading the records again and
/// comparing them): the thread that writes the output takes chunks once it
/// is done, the other from the start.
final class SettleChunks: @unchecked Sendable {
    typealias Settled = (conflicts: [MergeIndex.Conflict], equalPairs: Set<UInt64>)

    /// Pairs a chunk: small enough that the two threads end close
    /// together, large enough that its readers (one a part) cost little.
    static let pairs = 8192

    let candidates: [MergeIndex.Conflict]
    let count: Int
    private let next = Atomic<Int>(0)
    /// Each chunk's result, written by the thread that took it.
    private let results: UnsafeMutablePointer<Result<Settled, FerryError>?>

    init(_ candidates: [MergeIndex.Conflict]) {
        self.candidates = candidates
        count = (candidates.count + Self.pairs - 1) / Self.pairs
        results = .allocate(capacity: max(count, 1))
        results.initialize(repeating: nil, count: max(count, 1))
    }

    deinit {
        results.deinitialize(count: max(count, 1))
        results.deallocate()
    }

    /// Settles chunks by `settle` until none is left to take.
    func work(_ settle: (ArraySlice<MergeIndex.Conflict>) throws(FerryError) -> Settled) {
        while true {
            let chunk = next.add(1, ordering: .relaxed).oldValue
            guard chunk < count else { return }
            results[chunk] = Result { () throws(FerryError) in try settle(candidatesOf(chunk)) }
        }
    }

    private func candidatesOf(_ chunk: Int) -> ArraySlice<MergeIndex.Conflict> {
        candidates[chunk * Self.pairs..<min((chunk + 1) * Self.pairs, candidates.count)]
    }

    /// Every chunk's result, in order, the chunks left settled first by
    /// `settle`; once every other thread's `work` returned.
    /// - Throws: the first chunk's error.
    func gathered(_ settle: (ArraySlice<MergeIndex.Conflict>) throws(FerryError) -> Settled) throws(FerryError) -> Settled {
        work(settle)
        var conflicts: [MergeIndex.Conflict] = []
        conflicts.reserveCapacity(candidates.count)
        var equalPairs = Set<UInt64>()
        for chunk in 0..<count {
            let settled = try (results[chunk] ?? Result { () throws(FerryError) in try settle(candidatesOf(chunk)) }).get()
            conflicts += settled.conflicts
            equalPairs.formUnion(settled.equalPairs)
        }
        return (conflicts, equalPairs)
    }
}

/// A spooled merge's chunks to settle, handed to a thread.
private struct SettleWork: @unchecked Sendable {
    let merge: SpooledMerge
    let chunks: SettleChunks
    let schema: Schema

    func run() { chunks.work(settle) }

    /// What every chunk settled, once the other threads are done.
    func gathered() throws(FerryError) -> SettleChunks.Settled { try chunks.gathered(settle) }

    private func settle(_ chunk: ArraySlice<MergeIndex.Conflict>) throws(FerryError) -> SettleChunks.Settled {
        try merge.settle(chunk, schema: schema)
    }
}

// MARK: - Parts

/// A range of an input file, read on one thread: its records' lines in a
/// spool; per record its value digest and byte offset, in reading order;
/// and its key, in its key's partition of a log (`KeyLog`).
private final class Part: @unchecked Sendable {
    /// The memory a record takes besides its line: its key's entry (32
    /// bytes, with its value digest), offset and a share of the spool's tables.
    static let bytesPerRecord = 48
    static let noValueDigest: UInt64 = 1 << 63
    /// A record whose value digest is not exact (`RecordEquality.digest(of:exact:)`).
    static let inexactDigest: UInt64 = 1 << 62
    /// The bits of an offset that are no part of it.
    static let flags = noValueDigest | inexactDigest

    let input: Int
    let range: Range<Int>
    let prefix: [UInt8]
    let spool: Spool
    /// Its records' keys, each entry with the record's value digest in
    /// place of its byte offset (`offsets` has those).
    let keys = KeyLog()
    /// Each record's byte offset in the file, with `flags`.
    let offsets = Column<UInt64>()
    @exclusivity(unchecked) var succeeded = false
    /// The sequence of its first record among all records read.
    @exclusivity(unchecked) var firstSequence = 0

    init(input: Int, range: Range<Int>, prefix: [UInt8], budget: SpoolBudget, source: RandomAccessFile?) {
        self.input = input
        self.range = range
        self.prefix = prefix
        spool = Spool(budget: budget, source: source, offsets: offsets)
    }

    var count: Int { offsets.count }

    func byteOffset(_ record: Int) -> Int { Int(offsets[record] & ~Self.flags) }

    /// Gives back its key log (entries with their value digests), once
    /// matched.
    func releaseMatching() { keys.removeAll() }

    /// Keeps what matching needs of the next record.
    /// - Throws: `io.outOfMemory` when there is no memory for it.
    @inline(__always)
    func append(key: KeyDigest?, value: UInt64?, exact: Bool, byteOffset: Int) throws(FerryError) {
        let flags = value == nil ? Self.flags : exact ? 0 : Self.inexactDigest
        let digest = Int(Int64(bitPattern: value ?? 0))
        if let key {
            try keys.append(
                key, key: Int(value == nil ? PartitionRecords.withoutValueDigest : 0), record: count, byteOffset: digest)
        } else {
            try keys.appendWithoutKey(record: count, byteOffset: digest)
        }
        guard offsets.append(UInt64(byteOffset) | flags) else { throw .ioOutOfMemory() }
    }
}

/// How the parts of one input are read: what they all share.
private struct PartSpooler: @unchecked Sendable {
    let options: MergeOptions
    let codec: any Codec
    let layout: PartSource
    let inferredTypes: InferredColumnTypes?
    let kind: RecordKind
    let keyFields: [String]
    let observesDefaultKey: Bool
    let outputCodec: any Codec

    /// Reads `part`; it has `succeeded` when every record passed the rules
    /// with no warning, had the preferred key when that is observed, and
    /// fit the budget.
    func read(_ part: Part) {
        let input = FileRangeInput(layout.file, range: part.range, prefix: part.prefix)
        // The reader's offsets are in the part; the file's are this much on.
        let shift = part.range.lowerBound - part.prefix.count
        do throws(FerryError) {
            let context = ReadContext(
                kind: options.kind, schema: options.schema, options: layout.codecOptions, limits: options.limits)
            context.jsonValue = { JSONCodec.value($0, maxDepth: $1) }
            context.inferredTypes = inferredTypes
            context.notesLinesAsWritten = true
            // Any error or warning drops the spools (see the design note):
            // no location is ever shown, and lines need not be counted.
            context.countsLines = false
            guard let reader = try codec.makeReader(input, context: context) as? any RawRecordReader else { return }
            let schema = options.schema ?? kind.schema
            var validator = RecordValidator(schema: schema)
            let keys = KeyFields(keyFields, schema: schema)
            let preferred = observesDefaultKey ? keys : nil
            let equality = RecordEquality(schema: schema, keyFields: keyFields)
            let writeContext = WriteContext(kind: kind, options: options.codecOptions)
            writeContext.schema = options.schema
            guard let writer = try outputCodec.makeWriter(part.spool, context: writeContext) as? any RawRecordWriter
            else { return }
            // An input line the writer would write as it is read goes to
            // the spool as the input's bytes, with no writing and no
            // comparing (`RawRecord.lineAsWritten`).
            let linesWriter = (writer as? any LineCopyingWriter).flatMap { $0.copiesLinesAsWritten ? $0 : nil }
            let copiesLines = linesWriter != nil
            // Held here, so that no record counts a reference to it.
            let spool = part.spool
            var lacksKey = false
            while try reader.readRaw({ (record) throws(FerryError) in
                try validator.validate(record)
                let key = keys.digest(of: record)
                // The default key holds only when every record has it.
                if preferred != nil && key == nil { lacksKey = true }
                // Before the record is written: the spool looks up where the
                // records of a chunk start.
                var exact = true
                let value = equality.digest(of: record, exact: &exact)
                try part.append(key: key, value: value, exact: exact, byteOffset: record.origin.byteOffset + shift)
                // What is kept of each record counts against the budget too.
                if part.count & 4095 == 0 { spool.charge(4096 * Part.bytesPerRecord) }
                if copiesLines && record.lineAsWritten > 0 {
                    try linesWriter.unsafelyUnwrapped.drain()
                    if spool.keepInputLine(
                        at: record.origin.byteOffset + shift, length: record.lineAsWritten, spaced: record.lineIsSpaced)
                    {
                        return
                    }
                }
                try writer.writeRaw(record)
            }) {
                if lacksKey || part.spool.isFull { return }
            }
            try writer.finish()
            part.spool.settle()
            guard !lacksKey, !part.spool.isFull, context.takeWarnings().isEmpty,
                part.spool.endsWithLine, part.spool.lineCount == part.count, part.count < 1 << 31
            else { return }
            part.succeeded = true
        } catch {
            return
        }
    }
}

/// Set once a part of a merge failed: the parts not yet begun are not read.
private final class PartFailure: Sendable {
    private let value = Atomic<Bool>(false)

    var isSet: Bool { value.load(ordering: .relaxed) }

    func set() { value.store(true, ordering: .relaxed) }
}

// MARK: - Spools

/// The memory every spool of a merge may take together.
private final class SpoolBudget: Sendable {
    let limit: Int
    let used = Atomic<Int>(0)

    init(limit: Int) { self.limit = limit }
}

/// The lines of a part's records, in the order the writer wrote them. A
/// chunk of whole lines the writer hands over that is, byte for byte, what
/// the input has at the chunk's first record (a JSON Lines input written as
/// it was read) is kept as that range of the input, its lines starting at
/// their records' offsets; any other is copied into the spool's memory,
/// with where each line starts.
private final class Spool: ByteOutput, @unchecked Sendable {
    let name = "-"
    private let budget: SpoolBudget
    /// The input, when its bytes may be the writer's.
    private let source: RandomAccessFile?
    /// The part's record offsets (`Part.offsets`), one a line.
    private let offsets: Column<UInt64>
    /// Mapped memory, grown by remapping (`LargeBuffer`).
    @exclusivity(unchecked) private var memory = LargeBuffer()
    @exclusivity(unchecked) private var count = 0

    /// Chunks that end at least one line, in order.
    private struct Chunk {
        /// The first line the chunk ends.
        var firstLine: Int
        var inInput: Bool
        /// For a chunk in the input: its lines are spaced, and are
        /// compacted as they are copied (`JSONText.Compactor`).
        var spaced = false
        /// For a chunk in the input, where it ends there; for one in
        /// memory, its first line's place in `memoryStarts`.
        var end: Int
    }

    @exclusivity(unchecked) private var chunks: [Chunk] = []
    /// Where the last chunk, of the input, really ends while lines kept as
    /// read make it longer (`keepInputLine`); nil once `chunks` says.
    /// Changing the array a line cost a uniqueness check and more.
    @exclusivity(unchecked) private var growingEnd: Int?
    /// Whether the lines of that chunk are spaced.
    @exclusivity(unchecked) private var growingSpaced = false
    /// Where each line kept in memory starts there.
    private let memoryStarts = Column<UInt64>()
    /// The lines ended so far.
    @exclusivity(unchecked) private(set) var lineCount = 0
    /// Where in memory the line a chunk ended inside starts.
    @exclusivity(unchecked) private var openLine: Int?
    /// The input's bytes, read to compare with a chunk.
    @exclusivity(unchecked) private var scratch = LargeBuffer()
    /// Chunks in a row that were not the input's: after a few, no more are compared.
    @exclusivity(unchecked) private var misses = 0
    /// Set once the spools together passed the budget: what is written then
    /// is dropped.
    @exclusivity(unchecked) private(set) var isFull = false
    /// How many lines are the input's own bytes.
    @exclusivity(unchecked) private(set) var linesInInput = 0

    init(budget: SpoolBudget, source: RandomAccessFile?, offsets: Column<UInt64>) {
        self.budget = budget
        self.source = source
        self.offsets = offsets
    }

    deinit {
        memory.release()
        scratch.release()
    }

    /// Whether every line written has ended.
    var endsWithLine: Bool { openLine == nil }

    /// Counts `bytes` more against the budget.
    func charge(_ bytes: Int) {
        if budget.used.add(bytes, ordering: .relaxed).newValue > budget.limit { isFull = true }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(FerryError) {
        guard !isFull, bytes.count > 0, let first = bytes.baseAddress else { return }
        if openLine == nil, bytes[bytes.count - 1] == 0x0A, misses < 4, let (offset, lines) = inInput(bytes) {
            misses = 0
            settle()
            chunks.append(Chunk(firstLine: lineCount, inInput: true, end: offset + bytes.count))
            lineCount += lines
            linesInInput += lines
            return
        }
        if source != nil { misses += 1 }
        charge(bytes.count)
        guard !isFull, memory.grow(to: count + bytes.count), let base = memory.base else {
            isFull = true
            return
        }
        (base + count).copyMemory(from: first, byteCount: bytes.count)
        let firstMemoryLine = memoryStarts.count
        var lineStart = openLine ?? count
        var position = 0
        while position < bytes.count, let found = memchr(first + position, 0x0A, bytes.count - position) {
            position = UnsafeRawPointer(found) - first + 1
            guard memoryStarts.append(UInt64(lineStart)) else {
                isFull = true
                return
            }
            lineStart = count + position
        }
        if memoryStarts.count > firstMemoryLine {
            settle()
            chunks.append(Chunk(firstLine: lineCount, inInput: false, end: firstMemoryLine))
            lineCount += memoryStarts.count - firstMemoryLine
        }
        count += bytes.count
        openLine = lineStart < count ? lineStart : nil
    }

    /// Takes the input's `length` bytes at `offset`, a whole line, as the
    /// next line, when the input is a file and no line is open; a `spaced`
    /// one is compacted as it is copied out.
    /// - Returns: false when it did not: the line must be written.
    func keepInputLine(at offset: Int, length: Int, spaced: Bool) -> Bool {
        guard !isFull, source != nil, openLine == nil else { return false }
        if let end = growingEnd, end == offset, growingSpaced == spaced {
            growingEnd = end + length
        } else {
            settle()
            chunks.append(Chunk(firstLine: lineCount, inInput: true, spaced: spaced, end: offset + length))
            growingEnd = offset + length
            growingSpaced = spaced
        }
        lineCount += 1
        linesInInput += 1
        return true
    }

    /// Writes the end of a chunk that lines kept as read made longer into
    /// `chunks`; before anything else is appended, and once the reading ends.
    func settle() {
        guard let end = growingEnd else { return }
        chunks[chunks.count - 1].end = end
        growingEnd = nil
    }

    /// Where the input has `bytes`, which are whole lines, and how many
    /// lines they are: at the offset of the record of their first line,
    /// each line at its own record's offset; nil when it does not.
    private func inInput(_ bytes: UnsafeRawBufferPointer) -> (offset: Int, lines: Int)? {
        guard let source, lineCount < offsets.count, scratch.grow(to: bytes.count), let buffer = scratch.base else {
            return nil
        }
        let offset = Int(offsets[lineCount] & ~Part.flags)
        guard offset + bytes.count <= source.size,
            let read = try? source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: bytes.count), at: offset),
            read == bytes.count, memcmp(buffer, bytes.baseAddress!, bytes.count) == 0
        else { return nil }
        // Each line's record starts where the line does (no blank line,
        // no space before a record), so the offsets find the lines.
        var line = lineCount
        var position = 0
        while position < bytes.count, let found = memchr(bytes.baseAddress! + position, 0x0A, bytes.count - position) {
            guard line < offsets.count, Int(offsets[line] & ~Part.flags) == offset + position else { return nil }
            position = UnsafeRawPointer(found) - bytes.baseAddress! + 1
            line += 1
        }
        return (offset, line - lineCount)
    }

    /// Where lines `lines` (0-based) are, in the input or in memory, for
    /// as far as they lie in one chunk: their bytes, one range, and the
    /// end of the lines that holds. `chunk` is where to look first, and is
    /// left at the chunk found.
    @inline(__always)
    private func place(of lines: Range<Int>, chunk: inout Int) -> (copy: Copy, bytes: Range<Int>, end: Int) {
        let line = lines.lowerBound
        if chunk + 1 < chunks.count && chunks[chunk + 1].firstLine <= line || chunks[chunk].firstLine > line {
            var low = 0
            var high = chunks.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if chunks[middle].firstLine <= line { low = middle } else { high = middle - 1 }
            }
            chunk = low
        }
        let found = chunks[chunk]
        let next = chunk + 1 < chunks.count ? chunks[chunk + 1].firstLine : lineCount
        let end = min(next, lines.upperBound)
        if found.inInput {
            // A chunk's lines in the input follow one another, each at its record's offset.
            let start = Int(offsets[line] & ~Part.flags)
            let stop = end < next ? Int(offsets[end] & ~Part.flags) : found.end
            return (found.spaced ? .compacted : .input, start..<stop, end)
        }
        // So do those in memory, whatever chunks of the input lie between.
        let first = found.end + (line - found.firstLine)
        let last = first + (end - line)
        let start = Int(memoryStarts[first])
        let stop = last < memoryStarts.count ? Int(memoryStarts[last]) : count
        return (.memory, start..<stop, end)
    }

    /// Where lines are copied out from.
    private enum Copy {
        /// The spool's memory.
        case memory
        /// The input, as they are.
        case input
        /// The input, compacted (spaced lines).
        case compacted
    }

    /// Writes lines `lines` (0-based) to `output`, spaced ones compacted.
    func write(lines: Range<Int>, to output: MergeCopyOut) throws(FerryError) {
        assert(growingEnd == nil, "a spool is written out once settled")
        var run: (copy: Copy, bytes: Range<Int>)?
        func flush() throws(FerryError) {
            guard let (copy, bytes) = run else { return }
            guard copy != .memory else {
                return try output.write(UnsafeRawBufferPointer(start: memory.base! + bytes.lowerBound, count: bytes.count))
            }
            guard let source else { return }
            try output.copy(bytes, of: source, compacts: copy == .compacted)
        }
        var chunk = 0
        var line = lines.lowerBound
        while line < lines.upperBound {
            let place = place(of: line..<lines.upperBound, chunk: &chunk)
            line = place.end
            if let current = run, current.copy == place.copy, current.bytes.upperBound == place.bytes.lowerBound {
                run = (place.copy, current.bytes.lowerBound..<place.bytes.upperBound)
                continue
            }
            try flush()
            run = (place.copy, place.bytes)
        }
        try flush()
    }
}
