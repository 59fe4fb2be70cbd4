#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A temporary file with no name: made with `mkstemp` in $TMPDIR (or /tmp)
/// and unlinked at once, so that nothing is left behind whatever ends the
/// process, even SIGKILL, which `TemporaryFiles` cannot catch; its space
/// goes back when it is closed. Written in order through a buffer of
/// 1 MiB, and read back anywhere.
///
/// A merge past its memory budget spills its records and sorted runs of
/// keys to such files; the workbook writer keeps its sheet's deflated rows
/// in one until the column widths that come before them are known.
package final class AnonymousFile {
    private let descriptor: Int32
    /// Where the file was made, for errors.
    package let folder: String
    private var buffer: [UInt8] = []
    /// Bytes written to the file itself, before `buffer`.
    private var flushed = 0

    /// Where the files are made: $TMPDIR, or /tmp.
    package static var folder: String {
        getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    /// - Parameter purpose: a word in the file's short-lived name
    ///   (`.ferry-merge-…`), for anyone who lists the folder meanwhile.
    /// - Throws: `io.temporaryFile`.
    package init(purpose: String) throws(FerryError) {
        folder = Self.folder
        var template = Array("\(folder)/.ferry-\(purpose)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard made >= 0 else { throw .ioTemporaryFile(folder, errno: errno) }
        descriptor = made
        template.withUnsafeBufferPointer { buffer in
            if let base = buffer.baseAddress { _ = unlink(base) }
        }
        buffer.reserveCapacity(1 << 20)
    }

    deinit { close(descriptor) }

    /// The bytes written so far: the offset the next append starts at.
    package var size: Int { flushed + buffer.count }

    /// Appends `bytes`.
    /// - Throws: `io.writeFailed`.
    package func append(_ bytes: UnsafeRawBufferPointer) throws(FerryError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 20 { try flush() }
    }

    package func append(_ bytes: [UInt8]) throws(FerryError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Writes what is buffered to the file.
    /// - Throws: `io.writeFailed`.
    package func flush() throws(FerryError) {
        var done = 0
        while done < buffer.count {
            let written = buffer.withUnsafeBytes { bytes -> Int in
                guard let base = bytes.baseAddress else { return 0 }
                return pwrite(descriptor, base + done, bytes.count - done, off_t(flushed + done))
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw .ioWriteFailed(folder, errno: errno) }
            done += written
        }
        flushed += done
        buffer.removeAll(keepingCapacity: true)
    }

    /// Reads `bytes.count` bytes at `offset`, of what was flushed.
    /// - Throws: `io.readFailed`.
    package func read(at offset: Int, into bytes: UnsafeMutableRawBufferPointer) throws(FerryError) {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let count = pread(descriptor, base + done, bytes.count - done, off_t(offset + done))
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw .ioReadFailed(folder, errno: count == 0 ? EIO : errno) }
            done += count
        }
    }

    /// Hands everything written, in order, to `body`, up to 1 MiB at a time.
    /// - Throws: `io.writeFailed`, `io.readFailed`; what `body` throws.
    package func readBack(_ body: (UnsafeRawBufferPointer) throws(FerryError) -> Void) throws(FerryError) {
        try flush()
        let stretch = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 8)
        defer { stretch.deallocate() }
        var offset = 0
        while offset < size {
            let count = min(stretch.count, size - offset)
            let part = UnsafeMutableRawBufferPointer(rebasing: stretch[0..<count])
            try read(at: offset, into: part)
            try body(UnsafeRawBufferPointer(part))
            offset += count
        }
    }
}
