import Dispatch
import Synchronization

/// Reads its input on another thread, a few blocks ahead of the reader.
///
/// For inputs that cost CPU to read, such as a gzip stream being inflated:
/// the inflating then overlaps the parsing instead of taking turns with it.
/// At most `depth` blocks of `blockSize` bytes wait at a time. An error of
/// the input reaches the reader after the bytes that came before it, as it
/// would without the thread.
///
/// The thread starts at the first read. Once it has, the input is touched
/// only by that thread, until the end, an error, or the read-ahead input is
/// freed, which stops it.
package final class ReadAheadInput: ByteInput {
    package let name: String
    package let sizeHint: Int?
    private let state: State
    private var current: [UInt8] = []
    private var offset = 0
    private var started = false
    private var finished = false

    package init(_ input: any ByteInput, blockSize: Int = 1 << 20, depth: Int = 3) {
        name = input.name
        sizeHint = input.sizeHint
        state = State(input: input, blockSize: blockSize, depth: depth)
    }

    deinit { state.cancel() }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int {
        guard buffer.count > 0, !finished else { return 0 }
        if !started {
            started = true
            let state = self.state
            LargeStackThread.detach { state.run() }
        }
        while offset == current.count {
            switch state.next() {
            case .block(let block):
                current = block
                offset = 0
            case .end:
                finished = true
                return 0
            case .failure(let error):
                finished = true
                throw error
            }
        }
        let count = min(buffer.count, current.count - offset)
        current.withUnsafeBytes { bytes in
            buffer.baseAddress?.copyMemory(from: bytes.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }

    /// What the reading thread and the reader share.
    private final class State: @unchecked Sendable {
        enum Message {
            case block([UInt8])
            case end
            case failure(FerryError)
        }

        private let input: any ByteInput
        private let blockSize: Int
        private let queue = Mutex<[Message]>([])
        private let filled = DispatchSemaphore(value: 0)
        /// Room for blocks (`DispatchSemaphore.room(for:)`).
        private let free: DispatchSemaphore
        private let cancelled = Atomic<Bool>(false)

        init(input: any ByteInput, blockSize: Int, depth: Int) {
            self.input = input
            self.blockSize = blockSize
            free = .room(for: depth)
        }

        /// The reader's side: the next message, waiting for it.
        func next() -> Message {
            filled.wait()
            let message = queue.withLock { $0.removeFirst() }
            free.signal()
            return message
        }

        /// Stops the thread at its next block; it may be waiting for room,
        /// so room is made.
        func cancel() {
            cancelled.store(true, ordering: .relaxed)
            free.signal()
        }

        /// The thread's side: reads blocks until the end, an error, or a cancel.
        func run() {
            while true {
                free.wait()
                if cancelled.load(ordering: .relaxed) { return }
                var block = [UInt8](repeating: 0, count: blockSize)
                var filledBytes = 0
                var failure: FerryError?
                // Fill the block, so that small reads (the end of a gzip
                // member) do not cost a handoff each.
                while filledBytes < blockSize {
                    let got = block.withUnsafeMutableBytes { bytes in
                        Result { () throws(FerryError) -> Int in
                            try input.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[filledBytes...]))
                        }
                    }
                    switch got {
                    case .success(let count) where count > 0: filledBytes += count
                    case .success: break
                    case .failure(let error): failure = error
                    }
                    if failure != nil || got == .success(0) { break }
                }
                var messages: [Message] = []
                if filledBytes > 0 {
                    block.removeLast(blockSize - filledBytes)
                    messages.append(.block(block))
                }
                if let failure {
                    messages.append(.failure(failure))  // after the bytes that came before it
                } else if filledBytes < blockSize {
                    messages.append(.end)
                }
                queue.withLock { $0.append(contentsOf: messages) }
                for _ in messages { filled.signal() }
                if failure != nil || filledBytes < blockSize { return }
            }
        }
    }
}
