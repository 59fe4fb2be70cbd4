import Dispatch
import FerryCore

/// Compresses blocks of 128 KiB on other threads than the writer's, so that
/// compressing overlaps with producing the bytes.
///
/// With one job, one thread compresses the blocks in turn as one deflate
/// stream, as `gzip` would. With more, blocks are compressed on several
/// threads at once and joined into one stream, the way pigz does: each is
/// compressed on its own, primed with the last 32 KiB of the block before,
/// and ends with a sync flush at a byte boundary, so the blocks concatenate
/// into a valid stream; the last one ends the stream. At most `2 × jobs`
/// blocks (at least 3) are in flight, so memory stays flat; results are
/// written in order, on the writer's thread.
final class ParallelDeflate {
    static let blockSize = 128 << 10
    static let window = 32 << 10

    /// One block and, once compressed, its output.
    private final class Job: @unchecked Sendable {
        var input: [UInt8] = []
        var dictionary: [UInt8] = []
        var output: [UInt8] = []
        var failure: FerryError?
        let done = DispatchSemaphore(value: 0)
    }

    /// A compressor with its scratch space, used by one job at a time.
    private final class Worker: @unchecked Sendable {
        let deflater: Deflater
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 17, alignment: 16)

        init(level: Int) throws(FerryError) { deflater = try Deflater(level: level) }
        deinit { scratch.deallocate() }

        /// Compresses `job` as a block on its own, or, when `continuing`, as
        /// the next part of the stream the jobs before began.
        func compress(_ job: Job, finish: Bool, continuing: Bool) {
            if !continuing {
                deflater.reset()
                job.dictionary.withUnsafeBytes { deflater.setDictionary($0) }
            }
            var output: [UInt8] = []
            output.reserveCapacity(job.input.count / 3)
            do throws(FerryError) {
                try job.input.withUnsafeBytes { input in
                    Result { () throws(FerryError) in
                        let emit = { (chunk: UnsafeRawBufferPointer) in output.append(contentsOf: chunk) }
                        if continuing {
                            try deflater.deflate(input, finish: finish, scratch: scratch, emit: emit)
                        } else {
                            try deflater.deflateBlock(input, finish: finish, scratch: scratch, emit: emit)
                        }
                    }
                }.get()
                job.output = output
            } catch {
                job.failure = error
            }
        }
    }

    private var workers: [Worker]
    private var inFlight: [(job: Job, worker: Worker)] = []
    private var current: [UInt8] = []
    private var previousTail: [UInt8] = []
    private let queue: DispatchQueue
    private let maxInFlight: Int
    /// Whether one worker compresses every block, in order, as one stream.
    private let streaming: Bool

    /// The most threads a compression uses, whatever `--jobs` asks: each
    /// one keeps two zlib streams and blocks in flight (about 1 MiB), and
    /// past the cores there is nothing to gain. `--jobs 9223372036854775807`
    /// would otherwise overflow `jobs * 2`.
    static let maxJobs = 256

    init(level: Int, jobs: Int) throws(FerryError) {
        let jobs = min(jobs, Self.maxJobs)
        streaming = jobs <= 1
        queue = DispatchQueue(label: "ferry.gzip", attributes: streaming ? [] : .concurrent)
        maxInFlight = max(3, jobs * 2)
        workers = []
        for _ in 0..<(streaming ? 1 : maxInFlight) { workers.append(try Worker(level: level)) }
        current.reserveCapacity(ParallelDeflate.blockSize)
    }

    /// Takes `bytes` to compress.
    /// - Parameter emit: receives the compressed blocks that are done, in order.
    func write(_ bytes: UnsafeRawBufferPointer, emit: Emit) throws(FerryError) {
        var remaining = bytes[...]
        while !remaining.isEmpty {
            let take = min(ParallelDeflate.blockSize - current.count, remaining.count)
            current.append(contentsOf: remaining.prefix(take))
            remaining = remaining.dropFirst(take)
            if current.count == ParallelDeflate.blockSize { try submit(finish: false, emit: emit) }
        }
    }

    /// Compresses what is left as the last block, and waits for every block.
    /// - Parameter emit: receives the compressed blocks not yet handed out, in order.
    func finish(emit: Emit) throws(FerryError) {
        try submit(finish: true, emit: emit)
        while !inFlight.isEmpty { try collectOldest(emit: emit) }
    }

    typealias Emit = ([UInt8]) throws(FerryError) -> Void

    private func submit(finish: Bool, emit: Emit) throws(FerryError) {
        if inFlight.count == maxInFlight { try collectOldest(emit: emit) }
        let job = Job()
        swap(&job.input, &current)
        current.reserveCapacity(ParallelDeflate.blockSize)
        // One stream needs no priming: the serial queue runs the jobs in turn.
        let streaming = self.streaming
        if !streaming {
            job.dictionary = previousTail
            previousTail = Array(job.input.suffix(ParallelDeflate.window))
        }
        let worker = streaming ? workers[0] : workers.removeLast()
        inFlight.append((job, worker))
        queue.async {
            worker.compress(job, finish: finish, continuing: streaming)
            job.done.signal()
        }
    }

    private func collectOldest(emit: Emit) throws(FerryError) {
        let (job, worker) = inFlight.removeFirst()
        job.done.wait()
        if !streaming { workers.append(worker) }
        if let failure = job.failure { throw failure }
        try emit(job.output)
    }
}
