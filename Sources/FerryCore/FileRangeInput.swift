#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CFerrySystem

/// A regular file open for reading at any offset (`pread(2)`), which
/// several inputs and threads can share.
package final class RandomAccessFile: @unchecked Sendable {
    package let path: String
    /// The size when it was opened.
    package let size: Int
    private let descriptor: Int32

    /// Opens `path`; nil unless it is a regular file that can be opened.
    package init?(_ path: String) {
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else { return nil }
        var info = stat()
        guard fstat(opened, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            systemClose(opened)
            return nil
        }
        self.path = path
        size = Int(info.st_size)
        descriptor = opened
    }

    deinit { systemClose(descriptor) }

    /// Copies bytes `range` to `output` at its position inside the kernel,
    /// where the system and both files allow it.
    /// - Returns: how many bytes were copied, from the range's start; the
    ///   caller copies the rest.
    package func copy(_ range: Range<Int>, to output: FileOutput) -> Int {
        Int(ferry_copy_range(descriptor, Int64(range.lowerBound), output.descriptor, Int64(range.count)))
    }

    /// Reads up to `buffer.count` bytes at `offset`.
    /// - Returns: how many were read; fewer only at the file's end.
    /// - Throws: `io.readFailed`.
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(FerryError) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var got = 0
        while got < buffer.count {
            let count = pread(descriptor, base + got, buffer.count - got, off_t(offset + got))
            if count > 0 {
                got += count
            } else if count == 0 {
                break
            } else if errno != EINTR {
                throw .ioReadFailed(path, errno: errno)
            }
        }
        return got
    }

    /// Calls `body` with the bytes of `range` in order, a chunk of at most
    /// `chunk` bytes at a time; it stops early when `body` returns false.
    /// - Throws: `io.readFailed`.
    package func scan(
        _ range: Range<Int>, chunk: Int = 1 << 20, _ body: (UnsafeRawBufferPointer, _ offset: Int) -> Bool
    ) throws(FerryError) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var offset = range.lowerBound
        while offset < range.upperBound {
            let wanted = min(chunk, range.upperBound - offset)
            let got = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]), at: offset)
            guard got > 0, body(UnsafeRawBufferPointer(rebasing: buffer[0..<got]), offset) else { return }
            offset += got
        }
    }
}

/// A part of a file as an input of its own, after a few bytes of its own:
/// the second half of a CSV file, say, after the file's header line, so
/// that a reader of that half knows the columns.
///
///     file:    name,price\nWii,269\nXbox 360,299\nWireless Controller,19.99\n
///                                   ^ range.lowerBound
///     input:   name,price\nXbox 360,299\nWireless Controller,19.99\n
///              ^^^^^^^^^^^ prefix
///
/// Offsets and lines a reader of it gives are its own: the caller moves
/// them to the file's (`byteOffset + range.lowerBound - prefix.count`).
/// A `suffix` follows the range's bytes: the `]` that closes a shard of a
/// JSON array (see Formats/shards.md).
///
/// It may hold several ranges, one after another: a few records' lines
/// picked from the file, read again by one reader (a merge's conflicts).
package final class FileRangeInput: ByteInput {
    package var name: String { file.path }
    package var sizeHint: Int? { prefix.count + ranges.reduce(0) { $0 + $1.count } + suffix.count }
    private let file: RandomAccessFile
    private let ranges: [Range<Int>]
    private let prefix: [UInt8]
    private let suffix: [UInt8]
    /// Bytes of the prefix handed out so far.
    private var prefixRead = 0
    /// The range being read, and where in the file it is.
    private var rangeIndex = 0
    private var offset: Int
    /// Bytes of the suffix handed out so far.
    private var suffixRead = 0
    /// Set once the file ended before a range did (it changed): the input
    /// ends there too.
    private var endedEarly = false
    /// Of several short ranges, those that lie close together are read
    /// by one `pread` into this window (see `windowed`); nil until then.
    private var window: UnsafeMutableRawBufferPointer?
    /// Where in the file the window's bytes start, and how many it holds.
    private var windowStart = 0
    private var windowCount = 0
    /// The window's size. What it buys: a merge reads its 200,000
    /// conflicting records again (2 × 1M spaced products, 100,000
    /// conflicts), a line of 100 bytes every 300; one `pread` a range took
    /// 200,000 calls (`strace -c`), one a window takes ~2,000.
    static let windowSize = 64 << 10

    /// - Parameter range: the bytes of `file` the input holds after `prefix`.
    package convenience init(_ file: RandomAccessFile, range: Range<Int>, prefix: [UInt8] = [], suffix: [UInt8] = []) {
        self.init(file, ranges: [range], prefix: prefix, suffix: suffix)
    }

    /// - Parameter ranges: the bytes of `file` the input holds after
    ///   `prefix`, in this order.
    package init(_ file: RandomAccessFile, ranges: [Range<Int>], prefix: [UInt8] = [], suffix: [UInt8] = []) {
        self.file = file
        self.ranges = ranges
        self.prefix = prefix
        self.suffix = suffix
        offset = ranges.first?.lowerBound ?? 0
    }

    deinit { window?.deallocate() }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int {
        guard !endedEarly else { return 0 }
        if prefixRead < prefix.count {
            let count = Self.copy(prefix, from: prefixRead, into: buffer)
            prefixRead += count
            return count
        }
        // As many ranges as the buffer holds: a reader's window is filled
        // once for many short ranges (records' lines), not once a range.
        var filled = 0
        while rangeIndex < ranges.count && filled < buffer.count {
            let count = min(buffer.count - filled, ranges[rangeIndex].upperBound - offset)
            guard count > 0 else {
                rangeIndex += 1
                if rangeIndex < ranges.count { offset = ranges[rangeIndex].lowerBound }
                continue
            }
            let into = UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<filled + count])
            let got = ranges.count > 1 ? try windowed(into: into) : try file.read(into: into, at: offset)
            offset += got
            filled += got
            if got < count {
                // The file ended before the range (it changed): so does the input.
                endedEarly = true
                return filled
            }
        }
        if filled > 0 { return filled }
        let count = Self.copy(suffix, from: suffixRead, into: buffer)
        suffixRead += count
        return count
    }

    /// Reads `buffer.count` bytes of the range being read at `offset`
    /// through the window, which is read anew, when it does not hold the
    /// byte at `offset`, from there to the end of the last range that ends
    /// within `windowSize` (ranges longer than that are read directly).
    /// - Returns: how many were read; fewer only at the file's end.
    private func windowed(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int {
        if offset < windowStart || offset >= windowStart + windowCount {
            var end = ranges[rangeIndex].upperBound
            guard end - offset <= Self.windowSize else { return try file.read(into: buffer, at: offset) }
            var next = rangeIndex + 1
            while next < ranges.count, ranges[next].lowerBound >= end, ranges[next].upperBound - offset <= Self.windowSize {
                end = ranges[next].upperBound
                next += 1
            }
            let window = self.window ?? .allocate(byteCount: Self.windowSize, alignment: 16)
            self.window = window
            windowStart = offset
            windowCount = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: window[0..<end - offset]), at: offset)
            guard windowCount > 0 else { return 0 }
        }
        let from = offset - windowStart
        let count = min(buffer.count, windowCount - from)
        guard let window, let to = buffer.baseAddress, let source = window.baseAddress else { return 0 }
        to.copyMemory(from: source + from, byteCount: count)
        return count
    }

    /// Copies what `buffer` holds of `bytes` from `index` on.
    private static func copy(_ bytes: [UInt8], from index: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(buffer.count, bytes.count - index)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[index..<index + count]))
        }
        return count
    }
}

extension LineCounter {
    /// How many lines `bytes` end (an LF, a CRLF or a lone CR each end one),
    /// as reported locations count them.
    package static func lineEnds(in bytes: UnsafeRawBufferPointer) -> Int {
        var counter = LineCounter()
        counter.consume(bytes)
        return counter.lines
    }

    /// How many characters (Unicode scalars) `bytes` hold after their last line end.
    package static func column(after bytes: UnsafeRawBufferPointer) -> Int {
        var counter = LineCounter()
        counter.consume(bytes)
        return counter.column
    }

    /// How many lines the bytes of `range` in `file` end.
    /// - Throws: `io.readFailed`.
    package static func lineEnds(in file: RandomAccessFile, range: Range<Int>) throws(FerryError) -> Int {
        var counter = LineCounter()
        try file.scan(range) { chunk, _ in
            counter.consume(chunk)
            return true
        }
        return counter.lines
    }
}
