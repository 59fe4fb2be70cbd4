#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// A source of bytes that readers pull from: a file, standard input, memory,
/// or a decompressor wrapped around another input.
public protocol ByteInput: AnyObject {
    /// The name messages show: the path as given, or `-` for standard input.
    var name: String { get }
    /// The total size when it is known in advance (a regular file), for progress.
    var sizeHint: Int? { get }
    /// Reads up to `buffer.count` bytes.
    /// - Returns: the number of bytes read; 0 only at the end of the input.
    /// - Throws: `io.readFailed`.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int
    /// Reads the rest of the input into `buffer` at once, on several threads
    /// when that is faster, for formats read whole. Inputs that can only be
    /// read in order answer nil without reading anything (the default).
    /// - Returns: the number of bytes read, which the caller checks against
    ///   the room it gave; nil when the caller must use `read(into:)`.
    /// - Throws: `io.readFailed`.
    func readRemainder(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int?
    /// The rest of the input mapped into memory instead of read, for formats
    /// read whole, when it is a regular file of a megabyte or more: the
    /// bytes are `mapping.bytes[start...]`, and count as read. `unread` is
    /// how many bytes just before the input's position a wrapper still
    /// holds unread (peeked): the mapping starts with them. Nil (the
    /// default) when the input must be read.
    func mapRemainder(holding unread: Int) -> (mapping: FileMapping, start: Int)?
    /// Throws `io.inputChanged` when a mapping of the input could not be
    /// read whole (see `FileMapping`). Whoever reads an input that may be
    /// mapped calls it once done, and before reporting an error, which the
    /// change may have caused. The default does nothing.
    func checkIntact() throws(FerryError)
    /// A second input that reads the same bytes from the start, for a reader
    /// that looks over the whole input before it reads it (CSV's type
    /// inference); nil (the default) when the bytes can be read only once
    /// (standard input, a pipe) or only at a cost (gzip).
    func reopened() -> (any ByteInput)?
}

extension ByteInput {
    public func readRemainder(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int? { nil }

    public func mapRemainder(holding unread: Int) -> (mapping: FileMapping, start: Int)? { nil }

    public func checkIntact() throws(FerryError) {}

    public func reopened() -> (any ByteInput)? { nil }

    /// `error`, or `io.inputChanged` when the input changed while it was
    /// read, which may have caused the error.
    public func unlessChanged(_ failure: FerryError) -> FerryError {
        do throws(FerryError) {
            try checkIntact()
        } catch {
            return error
        }
        return failure
    }
}

// MARK: - Files

/// A file or standard input, read with `read(2)`.
public final class FileInput: ByteInput {
    public let name: String
    public let sizeHint: Int?
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private var closed = false
    /// The mappings handed out, kept for `checkIntact()`.
    private var mappings: [FileMapping] = []

    /// Opens `path` for reading; `-` means standard input.
    /// - Throws: `io.cannotOpen`, `io.isDirectory`.
    public init(path: String) throws(FerryError) {
        name = path
        if path == "-" {
            descriptor = 0
            ownsDescriptor = false
        } else {
            let opened = open(path, O_RDONLY | O_CLOEXEC)
            guard opened >= 0 else { throw .ioCannotOpen(path, errno: errno) }
            descriptor = opened
            ownsDescriptor = true
        }
        var info = stat()
        if fstat(descriptor, &info) == 0 {
            let type = info.st_mode & S_IFMT
            if type == S_IFDIR {
                if ownsDescriptor { systemClose(descriptor) }
                throw .ioIsDirectory(path)
            }
            sizeHint = type == S_IFREG ? Int(info.st_size) : nil
        } else {
            sizeHint = nil
        }
    }

    deinit { close() }

    /// The file opened again, when it is a regular file.
    public func reopened() -> (any ByteInput)? {
        guard ownsDescriptor, sizeHint != nil else { return nil }
        return try? FileInput(path: name)
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int {
        guard !closed, let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let count = systemRead(descriptor, base, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw .ioReadFailed(name, errno: errno)
        }
    }

    /// The rest of a regular file of some megabytes is read in equal slices
    /// of about 4 MiB with `pread(2)`, in parallel: copying out of the page
    /// cache is most of the cost of reading a file whole, and two cores copy
    /// it nearly twice as fast (40 ms instead of 70 for 76 MB here). The file
    /// offset then moves past what was read, as `read` would move it.
    public func readRemainder(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int? {
        guard !closed, let size = sizeHint, let base = buffer.baseAddress else { return nil }
        let start = lseek(descriptor, 0, SEEK_CUR)
        guard start >= 0 else { return nil }
        let remaining = size - Int(start)
        // Small files gain nothing; a buffer without room leaves the growing to the caller.
        guard remaining >= 2 << 20, remaining <= buffer.count else { return nil }
        let slices = min(max(remaining >> 22, 2), 64)
        let sliceBytes = (remaining + slices - 1) / slices
        // What each slice got, or minus errno; slices write only their own entry.
        let outcomes = UnsafeMutableBufferPointer<Int>.allocate(capacity: slices)
        defer { outcomes.deallocate() }
        let job = SliceRead(
            descriptor: descriptor, start: Int(start), remaining: remaining, sliceBytes: sliceBytes, base: base,
            outcomes: outcomes)
        DispatchQueue.concurrentPerform(iterations: slices) { job.read(slice: $0) }
        // The bytes count up to the first short slice: a file that shrank
        // meanwhile ends there.
        var count = 0
        for slice in 0..<slices {
            let got = outcomes[slice]
            if got < 0 { throw .ioReadFailed(name, errno: Int32(-got)) }
            count += got
            if got < min(sliceBytes, remaining - slice * sliceBytes) { break }
        }
        guard lseek(descriptor, start + off_t(count), SEEK_SET) >= 0 else { throw .ioReadFailed(name, errno: errno) }
        return count
    }

    /// Maps the file from `unread` bytes before the current position to its
    /// present end (which may have moved since it was opened), and moves
    /// the position there, as reading it all would.
    public func mapRemainder(holding unread: Int) -> (mapping: FileMapping, start: Int)? {
        guard !closed, sizeHint != nil else { return nil }
        var info = stat()
        let position = Int(lseek(descriptor, 0, SEEK_CUR))
        guard fstat(descriptor, &info) == 0, position >= unread else { return nil }
        let size = Int(info.st_size)
        guard size - position >= 1 << 20, let mapping = FileMapping(descriptor: descriptor, count: size),
            lseek(descriptor, off_t(size), SEEK_SET) >= 0
        else { return nil }
        mappings.append(mapping)
        return (mapping, position - unread)
    }

    public func checkIntact() throws(FerryError) {
        if mappings.contains(where: \.isDamaged) { throw .ioInputChanged(name) }
    }

    /// One parallel read: each slice reads its own part of the file into its
    /// own part of the buffer, and records its outcome in its own entry.
    private struct SliceRead: @unchecked Sendable {
        let descriptor: Int32
        let start: Int
        let remaining: Int
        let sliceBytes: Int
        let base: UnsafeMutableRawPointer
        let outcomes: UnsafeMutableBufferPointer<Int>

        func read(slice: Int) {
            let offset = slice * sliceBytes
            let wanted = min(sliceBytes, remaining - offset)
            var got = 0
            while got < wanted {
                let count = pread(descriptor, base + offset + got, wanted - got, off_t(start + offset + got))
                if count > 0 {
                    got += count
                } else if count == 0 {
                    break
                } else if errno != EINTR {
                    outcomes[slice] = -Int(errno)
                    return
                }
            }
            outcomes[slice] = got
        }
    }

    /// Closes the file; closing twice is harmless.
    public func close() {
        guard !closed else { return }
        closed = true
        if ownsDescriptor { systemClose(descriptor) }
    }
}

// MARK: - Memory

/// Bytes already in memory, as an input; for tests and library callers.
public final class MemoryInput: ByteInput {
    public let name: String
    public let sizeHint: Int?
    private let bytes: [UInt8]
    private var position = 0
    private let readSizes: (() -> Int)?

    /// - Parameter readSizes: when given, each read returns at most as many
    ///   bytes as it says, and the size is not announced, as with a pipe; tests
    ///   and fuzzers use it to cut the input at every place.
    public init(_ bytes: [UInt8], name: String = "-", readSizes: (() -> Int)? = nil) {
        self.bytes = bytes
        self.name = name
        self.readSizes = readSizes
        sizeHint = readSizes == nil ? bytes.count : nil
    }

    /// The same bytes again, unless the input plays a pipe (`readSizes`).
    public func reopened() -> (any ByteInput)? {
        readSizes == nil ? MemoryInput(bytes, name: name) : nil
    }

    public convenience init(_ text: String, name: String = "-", readSizes: (() -> Int)? = nil) {
        self.init(Array(text.utf8), name: name, readSizes: readSizes)
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int {
        let wanted = readSizes.map { max($0(), 1) } ?? buffer.count
        let count = min(buffer.count, wanted, bytes.count - position)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[position..<position + count]))
        }
        position += count
        return count
    }
}

// MARK: - Peeking

/// An input whose first bytes can be looked at before reading starts, so a
/// format can be sniffed from content, even on a pipe.
public final class PeekableInput: ByteInput {
    private let base: any ByteInput
    private var prefix: [UInt8] = []
    private var prefixPosition = 0
    private var baseEnded = false

    public init(_ base: any ByteInput) { self.base = base }

    public var name: String { base.name }
    public var sizeHint: Int? { base.sizeHint }

    public func reopened() -> (any ByteInput)? { base.reopened() }

    /// The first `count` bytes, or fewer when the input is shorter; empty once
    /// reading has started.
    /// - Throws: `io.readFailed`.
    public func peek(_ count: Int) throws(FerryError) -> [UInt8] {
        guard prefixPosition == 0 else { return [] }
        while prefix.count < count && !baseEnded {
            var chunk = [UInt8](repeating: 0, count: count - prefix.count)
            let got = try chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(FerryError) in try base.read(into: buffer) }
            }.get()
            if got == 0 { baseEnded = true } else { prefix.append(contentsOf: chunk[0..<got]) }
        }
        return Array(prefix.prefix(count))
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int {
        if prefixPosition < prefix.count {
            let count = min(buffer.count, prefix.count - prefixPosition)
            prefix.withUnsafeBytes { source in
                buffer.copyMemory(
                    from: UnsafeRawBufferPointer(rebasing: source[prefixPosition..<prefixPosition + count]))
            }
            prefixPosition += count
            return count
        }
        return try base.read(into: buffer)
    }

    /// Passes the call on, with the peeked bytes not yet read.
    public func mapRemainder(holding unread: Int) -> (mapping: FileMapping, start: Int)? {
        guard let mapped = base.mapRemainder(holding: unread + prefix.count - prefixPosition) else { return nil }
        prefixPosition = prefix.count
        return mapped
    }

    public func checkIntact() throws(FerryError) { try base.checkIntact() }

    /// Passes the call on once the peeked bytes have all been read.
    public func readRemainder(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int? {
        guard prefixPosition == prefix.count else { return nil }
        return try base.readRemainder(into: buffer)
    }
}

// MARK: - Whole inputs

extension ByteInput {
    /// Every remaining byte, for formats that must see the whole file (a
    /// binary plist's offset table is at its end).
    /// - Parameter limit: the most bytes to accept.
    /// - Throws: `limit.inputTooLarge` as soon as the input passes `limit`;
    ///   `io.readFailed`; `io.inputChanged` when a mapped file shrank while
    ///   it was copied.
    public func readAll(limit: Int) throws(FerryError) -> [UInt8] {
        let bytes = try InputBytes.read(self, limit: limit).array()
        try checkIntact()
        return bytes
    }
}
