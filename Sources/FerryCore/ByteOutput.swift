#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

/// The bytes a writer has produced but not yet handed to its output.
///
/// Writers append to `bytes` directly in their hot loops and call
/// `drainIfFull()` once per record, so the system sees few large writes.
public struct OutputBuffer {
    public var bytes: [UInt8]
    public let output: any ByteOutput
    private let threshold: Int

    /// The size at which writers hand bytes on, unless they choose another.
    public static let defaultThreshold = 1 << 18

    public init(output: any ByteOutput, threshold: Int = OutputBuffer.defaultThreshold) {
        self.output = output
        self.threshold = threshold
        bytes = []
        bytes.reserveCapacity(threshold + threshold / 4)
    }

    /// Hands the bytes to the output once there are enough of them.
    @inline(__always)
    public mutating func drainIfFull() throws(FerryError) {
        if bytes.count >= threshold { try drain() }
    }

    /// Hands every byte to the output.
    public mutating func drain() throws(FerryError) {
        guard !bytes.isEmpty else { return }
        try output.write(bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    @inline(__always)
    public mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }
}
