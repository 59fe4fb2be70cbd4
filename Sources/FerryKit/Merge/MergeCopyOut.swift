import FerryCore

/// The output of a spooled merge as its lines are copied out: bytes are
/// gathered and written a mebibyte at a time, and the inputs are read
/// through a window of a mebibyte, so that a run of lines costs no system
/// call of its own.
///
/// What this buys: the lines of a spaced input (Python's `json.dumps`)
/// come out in runs of about twenty, between the lines with `\u` escapes
/// the writer wrote into the spool's memory. Run by run, 2 × 1M spaced
/// products with 100,000 conflicts took 137,645 `write` and 69,044
/// `pread` calls to copy out (`strace -c`), 0.2 s of the kernel's time
/// more than the same files compact; see BENCHMARKS.md ("Merge,
/// 2026-12-07") for the figures with this. A run of a mebibyte or more of
/// lines kept as read goes on being copied by the kernel, file to file.
///
/// An output that takes buffers (`BackgroundOutput`) is handed each
/// mebibyte whole, and writes it on a thread of its own while the next is
/// gathered and compacted here.
final class MergeCopyOut {
    static let size = 1 << 20

    private let output: any ByteOutput
    /// The output, when it takes whole buffers.
    private let taking: (any BufferTakingOutput)?
    /// The file the output writes to, when the kernel can copy to it.
    private let file: FileOutput?
    private var staging = WriteBuffer(capacity: MergeCopyOut.size)
    private let window: UnsafeMutableRawBufferPointer
    /// The input the window holds bytes of, from `windowStart`.
    private var windowFile: RandomAccessFile?
    private var windowStart = 0
    private var windowCount = 0

    /// - Parameter file: the file `output` writes to, if it writes to one
    ///   the kernel may copy to (its own writes drained first: `flush()`).
    init(_ output: any ByteOutput, file: FileOutput?) {
        self.output = output
        self.file = file
        taking = output as? any BufferTakingOutput
        window = .allocate(byteCount: Self.size, alignment: 16)
    }

    deinit {
        staging.release()
        window.deallocate()
    }

    /// Writes `bytes` after what was written before.
    func write(_ bytes: UnsafeRawBufferPointer) throws(FerryError) {
        if bytes.count > Self.size - staging.count { try flush() }
        if bytes.count >= Self.size { return try output.write(bytes) }
        staging.append(bytes.assumingMemoryBound(to: UInt8.self))
    }

    /// Writes `range` of `source`, compacted when `compacts` (`JSONText.Compactor`):
    /// whole lines, outside any string.
    /// - Throws: `io.inputChanged` when the source no longer has them.
    func copy(_ range: Range<Int>, of source: RandomAccessFile, compacts: Bool) throws(FerryError) {
        var offset = range.lowerBound
        if !compacts, range.count >= Self.size, let file {
            // File to file, the kernel copies its own pages, once what
            // was written before is.
            try flush()
            try output.flush()
            offset += source.copy(range, to: file)
        }
        var compactor = JSONText.Compactor()
        while offset < range.upperBound {
            let bytes = try windowBytes(of: source, in: offset..<range.upperBound)
            if compacts {
                if bytes.count > Self.size - staging.count { try flush() }
                staging.append(upTo: bytes.count) { compactor.compact(bytes, into: UnsafeMutableRawPointer($0)) }
            } else {
                try write(bytes)
            }
            offset += bytes.count
        }
    }

    /// Writes what is gathered.
    func flush() throws(FerryError) {
        guard staging.count > 0 else { return }
        if let taking { return try taking.take(&staging) }
        try output.write(staging.contents)
        staging.truncate(to: 0)
    }

    /// The bytes of `range` of `source` from its start that the window
    /// holds, read anew (a window from there) unless it holds the first.
    private func windowBytes(of source: RandomAccessFile, in range: Range<Int>) throws(FerryError) -> UnsafeRawBufferPointer {
        if windowFile !== source || range.lowerBound < windowStart || range.lowerBound >= windowStart + windowCount {
            let count = min(window.count, source.size - range.lowerBound)
            guard count > 0 else { throw .ioInputChanged(source.path) }
            let read = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: window[0..<count]), at: range.lowerBound)
            guard read == count else { throw .ioInputChanged(source.path) }
            windowFile = source
            windowStart = range.lowerBound
            windowCount = count
        }
        let from = range.lowerBound - windowStart
        return UnsafeRawBufferPointer(rebasing: window[from..<from + min(windowCount - from, range.count)])
    }
}
