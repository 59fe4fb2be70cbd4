import Dispatch
import FerryCore

/// Compresses independent blocks on several threads and joins them into one
/// deflate stream, the way pigz does.
///
/// Each block of 128 KiB is compressed on its own, primed with the last
/// 32 KiB of the block before, and ends with a sync flush at a byte
/// boundary, so the blocks concatenate into a valid stream; the last one
/// ends the stream. At most `2 × jobs` blocks are in flight, so memory stays
/// flat; results are written in order.
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

        func compress(_ job: Job, finish: Bool) {
            deflater.reset()
            job.dictionary.withUnsafeBytes { deflater.setDictionary($0) }
            var output: [UInt8] = []
            output.reserveCapacity(job.input.count / 3)
            do throws(FerryError) {
                try job.input.withUnsafeBytes { input in
                    Result { () throws(FerryError) in
                        try deflater.deflateBlock(input, finish: finish, scratch: scratch) { chunk in
                            output.append(contentsOf: chunk)
                        }
                    }
                }.get()
                job.output = output
            } catch {
                job.failure = error
            }
        }
    }

    private let emit: ([UInt8]) throws(FerryError) -> Void
    private var workers: [Worker]
    private var inFlight: [(job: Job, worker: Worker)] = []
    private var current: [UInt8] = []
    private var previousTail: [UInt8] = []
    private let queue = DispatchQueue(label: "ferry.gzip", attributes: .concurrent)
    private let maxInFlight: Int

    /// - Parameter emit: receives the compressed blocks, in order, on the calling thread.
    init(level: Int, jobs: Int, emit: @escaping ([UInt8]) throws(FerryError) -> Void) throws(FerryError) {
        self.emit = emit
        maxInFlight = max(2, jobs * 2)
        workers = []
        for _ in 0..<maxInFlight { workers.append(try Worker(level: level)) }
        current.reserveCapacity(ParallelDeflate.blockSize)
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(FerryError) {
        var remaining = bytes[...]
        while !remaining.isEmpty {
            let take = min(ParallelDeflate.blockSize - current.count, remaining.count)
            current.append(contentsOf: remaining.prefix(take))
            remaining = remaining.dropFirst(take)
            if current.count == ParallelDeflate.blockSize { try submit(finish: false) }
        }
    }

    /// Compresses what is left as the last block and writes every block.
    func finish() throws(FerryError) {
        try submit(finish: true)
        while !inFlight.isEmpty { try collectOldest() }
    }

    private func submit(finish: Bool) throws(FerryError) {
        if inFlight.count == maxInFlight { try collectOldest() }
        let job = Job()
        swap(&job.input, &current)
        current.reserveCapacity(ParallelDeflate.blockSize)
        job.dictionary = previousTail
        previousTail = Array(job.input.suffix(ParallelDeflate.window))
        let worker = workers.removeLast()
        inFlight.append((job, worker))
        queue.async {
            worker.compress(job, finish: finish)
            job.done.signal()
        }
    }

    private func collectOldest() throws(FerryError) {
        let (job, worker) = inFlight.removeFirst()
        job.done.wait()
        workers.append(worker)
        if let failure = job.failure { throw failure }
        try emit(job.output)
    }
}
