import Dispatch
import Synchronization

/// Runs a `RecordSource` on another thread and hands its records over in
/// batches, so that reading and writing use both cores.
///
/// At most `depth` batches wait at a time, so memory stays flat whatever the
/// input's size. Everything the source touches (reader, photos) stays on its
/// thread until it has sent its last message.
final class BackgroundSource: @unchecked Sendable {
    /// What the reading thread sends.
    enum Message {
        case batch([Record], kind: RecordKind?, bytesRead: Int)
        case end(kind: RecordKind?, bytesRead: Int)
        case failure(FerryError)
    }

    private let source: RecordSource
    private let counting: CountingInput
    private let batchSize: Int
    private let queue = Mutex<[Message]>([])
    /// Batches the writing thread is done with, freed back on the reading
    /// thread: memory returns to the allocator arena it came from, so the two
    /// threads do not contend for its lock.
    private let spent = Mutex<[[Record]]>([])
    private let filled = DispatchSemaphore(value: 0)
    private let free: DispatchSemaphore
    private let cancelled = Atomic<Bool>(false)
    private var finished = false

    init(_ source: RecordSource, counting: CountingInput, batchSize: Int = 1024, depth: Int = 4) {
        self.source = source
        self.counting = counting
        self.batchSize = batchSize
        free = DispatchSemaphore(value: depth)
    }

    /// Starts reading on another thread, with a stack deep enough for any
    /// nesting the limits allow.
    func start() {
        LargeStackThread.detach { self.run() }
    }

    /// The next message; blocks until the reading thread sends one.
    func receive() -> Message {
        filled.wait()
        let message = queue.withLock { $0.removeFirst() }
        free.signal()
        if case .batch = message {} else { finished = true }
        return message
    }

    /// Hands back a batch that has been written, to be freed by the reading thread.
    func recycle(_ records: [Record]) {
        spent.withLock { $0.append(records) }
    }

    /// Asks the reading thread to stop and waits until it has, so that its
    /// files can be cleaned up safely.
    func stop() {
        cancelled.store(true, ordering: .relaxed)
        while !finished { _ = receive() }
    }

    private func send(_ message: Message) {
        free.wait()
        queue.withLock { $0.append(message) }
        filled.signal()
    }

    private func run() {
        do throws(FerryError) {
            while !cancelled.load(ordering: .relaxed) {
                var written: [[Record]] = []
                spent.withLock { swap(&written, &$0) }
                written.removeAll()
                var batch: [Record] = []
                batch.reserveCapacity(batchSize)
                while batch.count < batchSize, let record = try source.next() { batch.append(record) }
                if batch.isEmpty { break }
                let full = batch.count == batchSize
                send(.batch(batch, kind: source.kind, bytesRead: counting.bytesRead))
                if !full { break }
            }
            send(.end(kind: source.kind, bytesRead: counting.bytesRead))
        } catch {
            send(.failure(error))
        }
    }
}
