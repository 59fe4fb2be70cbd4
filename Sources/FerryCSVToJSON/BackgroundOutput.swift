import Dispatch
import FerryCore
import Synchronization

/// Writes to `base` on a thread of its own once `start()` is called, so that
/// a conversion that does all its other work on one thread (a reader laying
/// records out as JSON) spends the other core on the system calls that copy
/// its output; before that, and after `close()`, it writes straight through.
///
/// Buffers drained into it are taken whole, not copied, and written in
/// order; at most `depth` wait, so memory stays flat. An error writing comes
/// back from the next call. `close()` must be called before the base output
/// is closed or removed: it waits for the writes under way.
package final class BackgroundOutput: BufferTakingOutput, @unchecked Sendable {
    package var name: String { base.name }
    private let base: any ByteOutput
    private let queue = DispatchQueue(label: "ferry.background-output")
    /// Room for batches (`DispatchSemaphore.room(for:)`).
    private let free: DispatchSemaphore
    /// Emptied buffers, back from the writing thread for reuse.
    private let spares = Mutex<[Block]>([])
    private let failure = Mutex<FerryError?>(nil)
    private var threaded = false

    /// A buffer on its way to the writing thread and back.
    private final class Block: @unchecked Sendable {
        var buffer: WriteBuffer
        init(_ buffer: WriteBuffer) { self.buffer = buffer }
    }

    package init(_ base: any ByteOutput, depth: Int = 4) {
        self.base = base
        free = .room(for: depth)
    }

    deinit { close() }

    package func take(_ buffer: inout WriteBuffer) throws(FerryError) {
        try rethrowFailure()
        guard buffer.count > 0 else { return }
        if !threaded {
            try base.write(buffer.contents)
            buffer.truncate(to: 0)
            return
        }
        free.wait()
        let block = spares.withLock { $0.popLast() } ?? Block(WriteBuffer(capacity: buffer.count))
        swap(&block.buffer, &buffer)
        queue.async { [self] in
            if failure.withLock({ $0 == nil }) {
                do throws(FerryError) {
                    try base.write(block.buffer.contents)
                } catch {
                    failure.withLock { $0 = error }
                }
            }
            block.buffer.truncate(to: 0)
            spares.withLock { $0.append(block) }
            free.signal()
        }
    }

    package func write(_ bytes: UnsafeRawBufferPointer) throws(FerryError) {
        guard !bytes.isEmpty else { return }
        if !threaded { return try base.write(bytes) }
        var copy = WriteBuffer(capacity: bytes.count)
        copy.append(bytes.assumingMemoryBound(to: UInt8.self))
        defer { copy.release() }
        try take(&copy)
    }

    /// Waits for every write handed over so far, then flushes the base.
    package func flush() throws(FerryError) {
        queue.sync {}
        try rethrowFailure()
        try base.flush()
    }

    /// Writes on the thread from now on.
    package func start() { threaded = true }

    /// Waits for the writes under way and frees the buffers; later writes
    /// go straight to the base. Closing twice is harmless.
    package func close() {
        guard threaded else { return }
        threaded = false
        queue.sync {}
        for block in spares.withLock({ $0 }) { block.buffer.release() }
        spares.withLock { $0.removeAll() }
    }

    private func rethrowFailure() throws(FerryError) {
        if let error = failure.withLock({ $0 }) { throw error }
    }
}
