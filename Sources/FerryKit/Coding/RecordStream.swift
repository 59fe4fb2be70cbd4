// MARK: - Design
//
// Decoding a record into the caller's type is most of the work, and it
// must happen on the caller's thread (the type need not be `Sendable`).
// The reading (parsing, the kind's rules, warnings) runs on a second
// thread, `BackgroundSource`'s, a batch of records ahead. The records
// cross as raw records copied onto a `RecordTape`, as `convert` hands
// them from its reading to its writing thread: no `Value` per cell is made
// on one thread and freed on the other, and a string is made once, for
// the field that asks for one.
//
//     reading thread: readRaw ─▶ kind's rules ─▶ tape (or a failure) ─▶ batch
//     caller's thread: batch ─▶ tape's RawRecord ─▶ RecordDecoder.decode ─▶ Result<T, FerryError>
//
// A reader without raw records (property lists, archives, bundles) puts
// its `Record`s on the tape, whose cells then point at their values.
//
// A decode error needs its field's line and column, which only a reader
// positioned at its record can tell, and the reading thread has moved on.
// So the first decode error stops the reading thread and opens the input
// again on the caller's thread: a reader that skips to the record, locates
// the error, and reads on from there as the only reader (files with an
// error pay one more pass over what came before it; all others none).

/// One input read record by record for `FerryDecoder.Records`: the reading
/// ahead on another thread, and the decoding of each record.
///
/// A class, since the sequence's iterators share one reader, which reads
/// once.
final class RecordStream {
    /// The most warnings kept; past it they are only counted, so memory
    /// stays flat on a file with a warning on every line.
    static let keptWarnings = 1_000
    /// The bytes of records a batch's tape holds: enough to pay for the
    /// hand-over, few enough that memory stays flat.
    static let tapeBytes = 1 << 18

    /// One record of a batch: on the batch's tape, or the error that took
    /// its place.
    enum Item: Sendable {
        /// The record that starts at this offset of the tape.
        case taped(Int)
        /// A record read on the caller's thread, after a decode error.
        case record(Record)
        case failure(FerryError)
    }

    /// What the reading thread sends: records in order, each read or failed.
    struct Batch: Sendable {
        var tape: RecordTape
        var items: [Item] = []
        /// The reader's warnings, in the order it gave them.
        var warnings: [FerryWarning] = []
        /// For each item, how many of `warnings` the reader had given once
        /// it had read it: those a reader that skips to the item drops.
        var warningsByItem: [Int] = []

        init(tape: RecordTape) { self.tape = tape }

        /// Empties the batch, keeping its tape's memory.
        mutating func reset() {
            tape.reset()
            items.removeAll(keepingCapacity: true)
            warnings.removeAll()
            warningsByItem.removeAll(keepingCapacity: true)
        }

        /// Adds `record`, or the failure its rules found.
        mutating func add(_ record: RawRecord, failure: FerryError?) {
            if let failure {
                items.append(.failure(failure))
            } else {
                items.append(.taped(tape.byteCount))
                tape.append(record)
            }
        }

        var isFull: Bool { tape.byteCount >= RecordStream.tapeBytes || items.count >= 4_096 }
    }

    private let path: String
    private let reopen: () throws(FerryError) -> RecordReading
    private let rules: DecodingRules
    /// The reading thread, until a decode error stops it.
    private var background: BackgroundSource<Batch>?
    /// The reader on this thread, after a decode error.
    private var serial: RecordReading?
    /// Why no reader could go on after a decode error: the last item.
    private var lastFailure: FerryError?
    // Touched for every record, on the caller's thread only: no run-time
    // exclusivity checks (46M of 1,811M instructions on that thread, for
    // 200,000 products from JSON Lines).
    @exclusivity(unchecked) private var batch = Batch(tape: RecordTape(capacity: 0))
    /// The cells of the tape's record being decoded, kept from record to record.
    @exclusivity(unchecked) private var cells = RawCellBuffer()
    @exclusivity(unchecked) private var next = 0
    private var finished = false
    private(set) var warnings: [FerryWarning] = []
    private(set) var warningCount = 0

    /// - Parameters:
    ///   - open: opens the input from its start; called once here, and once
    ///     more at the first decode error.
    ///   - photoFolder: where photo file names are resolved; nil when the
    ///     bytes came from memory.
    /// - Throws: what opening the input, recognising the format and making its reader throw.
    init(
        path: String, photoFolder: String?, decoder: FerryDecoder, open: @escaping () throws(FerryError) -> OpenedInput
    ) throws(FerryError) {
        self.path = path
        reopen = { () throws(FerryError) in try RecordReading(opened: open(), path: path, decoder: decoder) }
        rules = DecodingRules(photoFolder: photoFolder, limits: decoder.limits)
        let reading = try reopen()
        let background = BackgroundSource<Batch>(counting: reading.opened.counting) { (source) throws(FerryError) in
            // From here on only this thread touches `reading`.
            var pool: [Batch] = []
            var ended = false
            while !ended && !source.isCancelled {
                pool += source.takeSpent()
                var batch = pool.popLast() ?? Batch(tape: RecordTape(capacity: Self.tapeBytes * 2))
                batch.reset()
                while !ended && !batch.isFull {
                    ended = !reading.read(into: &batch)
                }
                reading.takeWarnings(into: &batch.warnings)
                source.send(batch, kind: nil)
            }
            return nil
        }
        self.background = background
        background.start()
    }

    deinit {
        background?.stop()
        cells.deallocate()
    }

    /// The next record as a `T`, or its error; nil at the end.
    func next<T: Decodable>(_ type: T.Type) -> Result<T, FerryError>? {
        guard let item = nextItem() else { return nil }
        var origin = RecordOrigin()
        do throws(FerryError) {
            switch item {
            case .failure(let error):
                return .failure(error)
            case .taped(let offset):
                return .success(
                    try batch.tape.withRecord(at: offset, cells: &cells) { (record) throws(FerryError) in
                        origin = record.origin
                        return try RecordDecoder.decode(T.self, from: record, rules: rules)
                    })
            case .record(let record):
                origin = record.origin
                return .success(try RecordDecoder.decode(T.self, from: record, rules: rules))
            }
        } catch {
            return .failure(locate(error, in: origin))
        }
    }

    private func nextItem() -> Item? {
        if let lastFailure {
            self.lastFailure = nil
            finished = true
            return .failure(lastFailure)
        }
        if let serial {
            let item = serial.next()
            collect(serial.takeWarnings())
            switch item {
            case .record(let record)?: return .record(record)
            case .failure(let error)?: return .failure(error)
            case nil: return nil
            }
        }
        while next == batch.items.count {
            collect(batch.warnings)
            next = 0
            guard !finished, let background else { return nil }
            // The reading thread fills the tape again.
            background.recycle(batch)
            batch = Batch(tape: RecordTape(capacity: 0))
            switch background.receive() {
            case .batch(let received, _, _):
                batch = received
            case .end:
                finished = true
                return nil
            case .failure(let error):
                finished = true
                return .failure(error)
            }
        }
        next += 1
        return batch.items[next - 1]
    }

    /// `error`, a decode error of the record at `origin`, with its field's
    /// line and column. The first one stops the reading thread: a reader
    /// on this thread skips to the record and reads on after it.
    private func locate(_ error: FerryError, in origin: RecordOrigin) -> FerryError {
        let located = error.located(SourceLocation(file: path, record: origin.index))
        if let background {
            background.stop()
            self.background = nil
            // The batch's warnings until this record was read: the reader
            // that goes on drops those and makes all after them again
            // (`RecordReading.skip(to:)`), a warning of no record too.
            let read = batch.warningsByItem.indices.contains(next - 1) ? batch.warningsByItem[next - 1] : 0
            collect(Array(batch.warnings.prefix(read)))
            // The tape's records are decoded no more.
            batch.reset()
            next = 0
            do throws(FerryError) {
                let reading = try reopen()
                guard reading.skip(to: origin.index) else { throw .ioInputChanged(path) }
                serial = reading
            } catch {
                // The input changed since: the records after this one are
                // not there to read, which the sequence says before it ends.
                lastFailure = error
                return located
            }
        }
        guard let serial else { return located }
        return located.located(serial.location(of: error.location.field, inRecordAt: origin.byteOffset))
    }

    private func collect(_ found: [FerryWarning]) {
        for warning in found {
            warningCount += 1
            if warnings.count < Self.keptWarnings {
                var warning = warning
                warning.location = warning.location.filling(from: SourceLocation(file: path))
                warnings.append(warning)
            }
        }
    }
}

/// The reading of one input for `RecordStream`: its reader, the kind's
/// rules, and the warnings, on whichever thread reads.
final class RecordReading: @unchecked Sendable {
    /// One record read, or the error that took its place.
    enum Item: Sendable {
        case record(Record)
        case failure(FerryError)
    }

    let opened: OpenedInput
    private let reader: any RecordReader
    /// The reader, when it hands out raw records.
    private let raw: (any RawRecordReader)?
    private let context: ReadContext
    private let path: String
    private let validates: Bool
    private var kind: RecordKind?
    private var validator: RecordValidator?
    private var finished = false

    /// - Parameters:
    ///   - codec: the codec that reads the input; nil to recognise it.
    ///   - part: the codec options and type inference of one part of a
    ///     file (`DecodingParts`); nil for a whole input.
    /// - Throws: what recognising the format and making its reader throw.
    init(
        opened: OpenedInput, path: String, decoder: FerryDecoder, codec chosen: (any Codec)? = nil,
        part: OptionValues? = nil
    ) throws(FerryError) {
        self.opened = opened
        self.path = path
        validates = decoder.validates
        kind = decoder.kind
        do throws(FerryError) {
            let codec: any Codec
            if let chosen {
                codec = chosen
            } else {
                codec = try FormatResolver(registry: try decoder.configuredRegistry()).inputCodec(
                    path: opened.formatPath, prefix: opened.prefix, from: decoder.format?.rawValue)
            }
            context = ReadContext(kind: decoder.kind, options: part ?? OptionValues())
            context.limits = decoder.limits
            // A part cannot see the whole file's columns: its cells keep the
            // types the kind gives them, as validate's halves do.
            if part != nil { context.infersTypes = false }
            context.resumesAfterBadRecords = true
            context.jsonValue = { JSONCodec.value($0, maxDepth: $1) }
            reader = try opened.makeReader(codec, path: path, context: context)
            raw = codec.capabilities.contains(.readsRaw) ? reader as? any RawRecordReader : nil
        } catch {
            throw opened.input.unlessChanged(error).located(SourceLocation(file: path))
        }
    }

    /// Reads the records the reader has at hand onto `batch`, each checked
    /// by the kind's rules, or the error that took its place.
    /// - Returns: false at the end.
    func read(into batch: inout RecordStream.Batch) -> Bool {
        guard !finished else { return false }
        guard let raw else {
            guard let item = next() else { return false }
            switch item {
            case .record(let record): RawRecord.with(record) { batch.add($0, failure: nil) }
            case .failure(let error): batch.items.append(.failure(error))
            }
            takeWarnings(into: &batch.warnings)
            batch.warningsByItem.append(batch.warnings.count)
            return true
        }
        do throws(FerryError) {
            let more = try raw.readRaw { (record) throws(FerryError) in
                batch.add(record, failure: check(record))
                takeWarnings(into: &batch.warnings)
                batch.warningsByItem.append(batch.warnings.count)
            }
            if !more {
                finished = true
                try opened.input.checkIntact()
            }
        } catch {
            if !reader.resumesAfterError { finished = true }
            batch.items.append(.failure(opened.input.unlessChanged(error).located(SourceLocation(file: path))))
            takeWarnings(into: &batch.warnings)
            batch.warningsByItem.append(batch.warnings.count)
        }
        return !finished
    }

    /// The error the kind's rules find in `record`, located; nil when it passes.
    private func check(_ record: RawRecord) -> FerryError? {
        guard validates else { return nil }
        do throws(FerryError) {
            if validator == nil {
                let kind = self.kind ?? reader.declaredKind ?? RecordKind.infer(from: record.fields)
                self.kind = kind
                validator = RecordValidator(kind: kind)
            }
            try validator?.validate(record)
            return nil
        } catch {
            return error.located(SourceLocation(file: path, record: record.origin.index))
                .located(location(of: error.location.field, inRecordAt: record.origin.byteOffset))
        }
    }

    /// The kind of the records: the reader's declared one, else the one
    /// the first record's fields make; nil when no record can be read.
    func firstKind() -> RecordKind? {
        guard let record = try? reader.next() else { return nil }
        return kind ?? reader.declaredKind ?? RecordKind.infer(from: record.fields)
    }

    /// The next record, checked by the kind's rules, or its error; nil at the end.
    func next() -> Item? {
        guard !finished else { return nil }
        let record: Record
        do throws(FerryError) {
            guard let read = try reader.next() else {
                finished = true
                try opened.input.checkIntact()
                return nil
            }
            record = read
        } catch {
            if !reader.resumesAfterError { finished = true }
            return .failure(opened.input.unlessChanged(error).located(SourceLocation(file: path)))
        }
        guard validates else { return .record(record) }
        do throws(FerryError) {
            if validator == nil {
                let kind = self.kind ?? reader.declaredKind ?? RecordKind.infer(from: record.fields)
                self.kind = kind
                validator = RecordValidator(kind: kind)
            }
            try validator?.validate(record, at: SourceLocation(file: path, record: record.origin.index))
            return .record(record)
        } catch {
            return .failure(
                error.located(SourceLocation(file: path, record: record.origin.index))
                    .located(location(of: error.location.field, inRecordAt: record.origin.byteOffset)))
        }
    }

    /// Reads on to the record numbered `index` (0-based), which the reader
    /// has just read; the warnings on the way are dropped.
    /// - Returns: false when the input ended first (it changed since).
    func skip(to index: Int) -> Bool {
        while let item = next() {
            if case .record(let record) = item, record.origin.index == index {
                _ = context.takeWarnings()
                return true
            }
            if case .failure(let error) = item, error.location.record == index {
                // The rules failed it this time: the file changed since.
                return false
            }
        }
        return false
    }

    /// Where `field` is in the record that starts at `offset`, which the
    /// reader has just read.
    func location(of field: String?, inRecordAt offset: Int) -> SourceLocation {
        reader.location(of: field, inRecordAt: offset)
    }

    func takeWarnings() -> [FerryWarning] { context.takeWarnings() }

    /// Appends the warnings given since the last take to `warnings`; for
    /// every record, so it costs nothing when there are none.
    func takeWarnings(into warnings: inout [FerryWarning]) {
        if !context.warnings.isEmpty { warnings += context.takeWarnings() }
    }
}
