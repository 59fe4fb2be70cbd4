#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import CFerrySystem

/// A destination for bytes: a file, standard output, memory, or a compressor
/// wrapped around another output.
public protocol ByteOutput: AnyObject {
    /// The name messages show: the path as given, or `-` for standard output.
    var name: String { get }
    /// Writes all of `bytes`.
    /// - Throws: `io.writeFailed`.
    func write(_ bytes: UnsafeRawBufferPointer) throws(FerryError)
    /// Pushes anything buffered below this output to its destination.
    func flush() throws(FerryError)
}

extension ByteOutput {
    public func flush() throws(FerryError) {}

    public func write(_ bytes: [UInt8]) throws(FerryError) {
        try bytes.withUnsafeBytes { buffer in Result { () throws(FerryError) in try write(buffer) } }.get()
    }
}

// MARK: - File descriptors

/// An open file descriptor, written with `write(2)`.
public final class FileOutput: ByteOutput {
    public let name: String
    public let descriptor: Int32
    private let ownsDescriptor: Bool
    private var closed = false
    /// Whether to start writing finished stretches of a file to the disk
    /// while more is written, for an output that will be synced: the sync at
    /// the end then waits for the last stretch only.
    public var writesBackEarly = false
    private var bytesWritten = 0
    private var bytesWrittenBack = 0
    private static let writeBackStretch = 8 << 20

    /// Wraps `descriptor`; when `owns` is true, `close()` and `deinit` close it.
    public init(descriptor: Int32, name: String, owns: Bool) {
        self.descriptor = descriptor
        self.name = name
        ownsDescriptor = owns
    }

    /// Standard output.
    public static func standardOutput() -> FileOutput {
        FileOutput(descriptor: 1, name: "-", owns: false)
    }

    deinit { close() }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(FerryError) {
        guard var pointer = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let written = systemWrite(descriptor, pointer, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                throw .ioWriteFailed(name, errno: errno)
            }
            remaining -= written
            pointer += written
        }
        guard writesBackEarly else { return }
        bytesWritten += bytes.count
        if bytesWritten - bytesWrittenBack >= FileOutput.writeBackStretch {
            // A hint only: a real failure shows at the sync.
            _ = ferry_start_writeback(descriptor, Int64(bytesWrittenBack), Int64(bytesWritten - bytesWrittenBack))
            bytesWrittenBack = bytesWritten
        }
    }

    /// Forces written data to the disk.
    /// - Throws: `io.writeFailed`.
    public func sync() throws(FerryError) {
        if fsync(descriptor) != 0 && errno != EINVAL && errno != EROFS {
            throw .ioWriteFailed(name, errno: errno)
        }
    }

    /// Closes the descriptor; closing twice is harmless.
    public func close() {
        guard !closed else { return }
        closed = true
        if ownsDescriptor { systemClose(descriptor) }
    }
}

// MARK: - Memory

/// Collects everything written, for tests and library callers.
public final class MemoryOutput: ByteOutput {
    public let name: String
    public private(set) var bytes: [UInt8] = []

    public init(name: String = "-") { self.name = name }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(FerryError) {
        self.bytes.append(contentsOf: bytes)
    }

    /// What was written, decoded as UTF-8.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}

// MARK: - Buffering

/// The bytes a writer has produced but not yet handed to its output, in
/// memory the buffer manages itself, so that appending a byte is a store and
/// appending a run is one `memcpy`.
///
/// A writer owns one buffer. While it writes a record it works on a local
/// copy and stores it back afterwards, so its hot loop makes no access
/// checks on class storage; it calls `drain(to:)` once `count` passes its
/// threshold, and `release()` in its `deinit`.
package struct WriteBuffer {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    @usableFromInline var used = 0

    /// The number of bytes in the buffer.
    package var count: Int { used }

    /// - Parameter capacity: the first size. Small by default, as many
    ///   outputs are: a large one grows to its writer's drain threshold in a
    ///   few doublings.
    package init(capacity: Int = 1 << 12) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    /// Makes room for `extra` more bytes.
    @inlinable @inline(__always)
    package mutating func reserve(_ extra: Int) {
        if used + extra > capacity { grow(used + extra) }
    }

    @usableFromInline
    mutating func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: base, count: used)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    /// The bytes appended so far, valid until the next change.
    @inlinable
    package var contents: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: used) }

    /// Drops what was appended after the first `count` bytes.
    @inlinable @inline(__always)
    package mutating func truncate(to count: Int) {
        if count < used { used = max(count, 0) }
    }

    @inlinable @inline(__always)
    package mutating func append(_ byte: UInt8) {
        if used == capacity { grow(used + 1) }
        base[used] = byte
        used += 1
    }

    /// Appends a byte without checking for room; call `reserve` first.
    @inlinable @inline(__always)
    package mutating func appendUnchecked(_ byte: UInt8) {
        base[used] = byte
        used += 1
    }

    /// Appends the `count` (at most 32) bytes at `source` by copying 32:
    /// one fixed copy instead of one that depends on the length, for a
    /// caller whose `source` has 32 readable bytes and that has reserved 32
    /// bytes of room.
    @inlinable @inline(__always)
    package mutating func appendUnchecked(padded source: UnsafeRawPointer, count: Int) {
        WriteBuffer.copy32(to: UnsafeMutableRawPointer(base + used), from: source)
        used += count
    }

    /// Copies 32 bytes, whatever the length that matters: `source` must have
    /// 32 readable bytes and `target` room for 32.
    @inlinable @inline(__always)
    package static func copy32(to target: UnsafeMutableRawPointer, from source: UnsafeRawPointer) {
        target.storeBytes(of: source.loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
        target.storeBytes(
            of: source.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self), toByteOffset: 16,
            as: SIMD16<UInt8>.self)
    }

    /// Appends `bytes` where `reserve` has made room for them.
    @inlinable @inline(__always)
    package mutating func appendUnchecked(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        WriteBuffer.copy(to: UnsafeMutableRawPointer(base + used), from: UnsafeRawPointer(source), count: bytes.count)
        used += bytes.count
    }

    @inlinable @inline(__always)
    package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        let count = bytes.count
        reserve(count)
        WriteBuffer.copy(to: UnsafeMutableRawPointer(base + used), from: UnsafeRawPointer(source), count: count)
        used += count
    }

    @inlinable @inline(__always)
    package mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    @inlinable @inline(__always)
    package mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends what `body` writes in place: at most `maximum` bytes, at the
    /// address it is given; it returns how many it wrote.
    @inlinable @inline(__always)
    package mutating func append(upTo maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(maximum)
        used += body(base + used)
    }

    /// Appends `count` copies of `byte`.
    @inlinable
    package mutating func append(repeating byte: UInt8, count repeats: Int) {
        reserve(repeats)
        (base + used).initialize(repeating: byte, count: repeats)
        used += repeats
    }

    /// Hands every byte to `output` and empties the buffer.
    /// - Throws: `io.writeFailed`.
    package mutating func drain(to output: any ByteOutput) throws(FerryError) {
        guard used > 0 else { return }
        if let taking = output as? any BufferTakingOutput { return try taking.take(&self) }
        let bytes = UnsafeRawBufferPointer(start: base, count: used)
        used = 0
        try output.write(bytes)
    }

    /// The bytes written so far.
    package var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: used)) }

    /// Frees the memory. The buffer must not be used afterwards.
    package func release() { base.deallocate() }

    /// Copies `count` bytes. Keys and most values are short: 8 to 16 bytes
    /// move as two overlapping words, without a call to memcpy.
    @inlinable @inline(__always)
    package static func copy(to target: UnsafeMutableRawPointer, from source: UnsafeRawPointer, count: Int) {
        // Short copies, most of what writers append, as overlapping loads
        // and stores rather than a call.
        switch count {
        case 8...16:
            let head = source.loadUnaligned(as: UInt64.self)
            let tail = source.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            target.storeBytes(of: head, as: UInt64.self)
            target.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
        case 17...32:
            let first = source.loadUnaligned(as: UInt64.self)
            let second = source.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            let third = source.loadUnaligned(fromByteOffset: count - 16, as: UInt64.self)
            let fourth = source.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            target.storeBytes(of: first, as: UInt64.self)
            target.storeBytes(of: second, toByteOffset: 8, as: UInt64.self)
            target.storeBytes(of: third, toByteOffset: count - 16, as: UInt64.self)
            target.storeBytes(of: fourth, toByteOffset: count - 8, as: UInt64.self)
        case 4..<8:
            let head = source.loadUnaligned(as: UInt32.self)
            let tail = source.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            target.storeBytes(of: head, as: UInt32.self)
            target.storeBytes(of: tail, toByteOffset: count - 4, as: UInt32.self)
        case 1..<4:
            let bytes = source.assumingMemoryBound(to: UInt8.self)
            let into = target.assumingMemoryBound(to: UInt8.self)
            into[0] = bytes[0]
            into[count / 2] = bytes[count / 2]
            into[count - 1] = bytes[count - 1]
        default:
            target.copyMemory(from: source, byteCount: count)
        }
    }
}

/// An output that takes whole buffers from `WriteBuffer.drain(to:)` instead
/// of having their bytes copied out.
package protocol BufferTakingOutput: ByteOutput {
    /// Takes the bytes of `buffer` and leaves it empty (possibly another
    /// buffer's memory).
    func take(_ buffer: inout WriteBuffer) throws(FerryError)
}
