import Dispatch
import Synchronization

/// Reads on another thread and hands the records over in batches, so that
/// reading and writing use both cores.
///
/// A batch is either `[Record]`s from a `RecordSource` or a `RecordTape` of
/// raw records. At most `depth` batches wait at a time, so memory stays flat
/// whatever the input's size. Everything the reading side touches (reader,
/// photos) stays on its thread until it has sent its last message.
final class BackgroundSource<Batch: Sendable>: @unchecked Sendable {
    /// What the reading thread sends.
    enum Message {
        case batch(Batch, kind: RecordKind?, bytesRead: Int)
        case end(kind: RecordKind?, bytesRead: Int)
        case failure(FerryError)
    }

    /// What the reading thread runs: it sends batches through the source and
    /// returns the kind it settled on.
    typealias Produce = (BackgroundSource<Batch>) throws(FerryError) -> RecordKind?

    private let produce: Produce
    private let counting: CountingInput
    private let queue = Mutex<[Message]>([])
    /// Batches the writing thread is done with, back on the reading thread:
    /// freed there (memory returns to the allocator arena it came from, so
    /// the two threads do not contend for its lock) or filled again.
    private let spent = Mutex<[Batch]>([])
    private let filled = DispatchSemaphore(value: 0)
    /// Room for batches (`DispatchSemaphore.room(for:)`).
    private let free: DispatchSemaphore
    private let cancelled = Atomic<Bool>(false)
    private var finished = false

    init(counting: CountingInput, depth: Int = 4, produce: @escaping Produce) {
        self.counting = counting
        self.produce = produce
        free = .room(for: depth)
    }

    /// Starts reading on another thread, with a stack deep enough for any
    /// nesting the limits allow.
    func start() {
        LargeStackThread.detach { self.run() }
    }

    // MARK: - The writing thread

    /// The next message; blocks until there is one.
    func receive() -> Message {
        filled.wait()
        let message = queue.withLock { $0.removeFirst() }
        free.signal()
        if case .batch = message {} else { finished = true }
        return message
    }

    /// Hands a written batch back to the reading thread.
    func recycle(_ batch: Batch) {
        spent.withLock { $0.append(batch) }
    }

    /// Stops the reading thread after its current batch and waits until it
    /// has, so that its files can be cleaned up safely.
    func stop() {
        cancelled.store(true, ordering: .relaxed)
        while !finished { _ = receive() }
    }

    // MARK: - The reading thread

    /// Whether the writing side has given up.
    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Sends a batch; blocks while `depth` batches wait.
    func send(_ batch: Batch, kind: RecordKind?) {
        send(.batch(batch, kind: kind, bytesRead: counting.bytesRead))
    }

    /// The batches handed back since the last call.
    func takeSpent() -> [Batch] {
        var batches: [Batch] = []
        spent.withLock { swap(&batches, &$0) }
        return batches
    }

    private func send(_ message: Message) {
        free.wait()
        queue.withLock { $0.append(message) }
        filled.signal()
    }

    private func run() {
        do throws(FerryError) {
            let kind = try produce(self)
            send(.end(kind: kind, bytesRead: counting.bytesRead))
        } catch {
            send(.failure(error))
        }
    }
}

extension BackgroundSource where Batch == [Record] {
    /// Reads `source` in batches of `batchSize` records.
    convenience init(_ source: RecordSource, counting: CountingInput, batchSize: Int = 1024) {
        self.init(counting: counting) { (background) throws(FerryError) -> RecordKind? in
            while !background.isCancelled {
                _ = background.takeSpent()  // freed here, on the thread that made them
                var batch: [Record] = []
                batch.reserveCapacity(batchSize)
                var copies = FieldListCopies()
                while batch.count < batchSize, let record = try source.next() {
                    batch.append(Record(fields: copies.copy(of: record.fields), values: record.values, origin: record.origin))
                }
                if batch.isEmpty { break }
                let full = batch.count == batchSize
                background.send(batch, kind: source.kind)
                if !full { break }
            }
            return source.kind
        }
    }
}

extension BackgroundSource where Batch == RecordTape {
    /// Reads raw records from `reader`, checks them against `schema` (nil:
    /// the kind's), and copies them onto tapes of about `tapeBytes` each;
    /// with `keying`, each record's key digest too (`RecordTape.digests`),
    /// made here on the reading thread while the record is in its cache.
    convenience init(
        raw reader: any RawRecordReader, inputPath: String, kind: RecordKind?, schema: Schema?,
        counting: CountingInput, tapeBytes: Int = 1 << 18,
        keying: ((RawRecord, RecordKind) -> KeyDigest?)? = nil
    ) {
        self.init(counting: counting) { (background) throws(FerryError) -> RecordKind? in
            var kind = kind
            var validator: RecordValidator?
            var tape = RecordTape(capacity: tapeBytes * 2)
            var pool: [RecordTape] = []
            var more = true
            while more && !background.isCancelled {
                more = try reader.readRaw { (record) throws(FerryError) in
                    if validator == nil {
                        let settled = kind ?? reader.declaredKind ?? RecordKind.infer(from: record.fields)
                        kind = settled
                        validator = RecordValidator(schema: schema ?? settled.schema)
                    }
                    do throws(FerryError) {
                        try validator?.validate(record)
                    } catch {
                        throw error.located(SourceLocation(file: inputPath, record: record.origin.index))
                            .located(reader.location(of: error.location.field, inRecordAt: record.origin.byteOffset))
                    }
                    tape.append(record)
                    if let keying, let kind { tape.digests.append(keying(record, kind)) }
                    if tape.byteCount >= tapeBytes {
                        background.send(tape, kind: kind)
                        pool += background.takeSpent()
                        tape = pool.popLast() ?? RecordTape(capacity: tapeBytes * 2)
                        tape.reset()
                    }
                }
            }
            if tape.count > 0 { background.send(tape, kind: kind) }
            return kind
        }
    }
}
