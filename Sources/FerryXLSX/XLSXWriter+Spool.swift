#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FerryCore

/// Where the writer keeps its sheet's deflated rows until the end, when the
/// column widths, which come before the rows, are known: an anonymous file
/// (made with `mkstemp` in $TMPDIR or /tmp and unlinked at once, so that
/// nothing is left behind whatever ends the process), written in order and
/// read back once, in order.
final class SheetSpool {
    private let descriptor: Int32
    /// Where the file was made, for errors.
    private let folder: String
    /// Bytes written.
    private(set) var size: UInt64 = 0

    /// - Throws: `io.writeFailed` when the file cannot be made.
    init() throws(FerryError) {
        folder = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(folder)/.ferry-xlsx-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard made >= 0 else { throw .ioWriteFailed(folder, errno: errno) }
        descriptor = made
        template.withUnsafeBufferPointer { buffer in
            if let base = buffer.baseAddress { _ = unlink(base) }
        }
    }

    deinit { close(descriptor) }

    /// Appends `bytes`.
    /// - Throws: `io.writeFailed`.
    func append(_ bytes: UnsafeRawBufferPointer) throws(FerryError) {
        guard var pointer = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let written = write(descriptor, pointer, remaining)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw .ioWriteFailed(folder, errno: errno) }
            remaining -= written
            pointer += written
        }
        size += UInt64(bytes.count)
    }

    /// Hands everything written, in order, to `body`, a stretch at a time.
    /// - Throws: `io.readFailed`; what `body` throws.
    func readBack(_ body: (UnsafeRawBufferPointer) throws(FerryError) -> Void) throws(FerryError) {
        let stretch = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 8)
        defer { stretch.deallocate() }
        guard let base = stretch.baseAddress else { return }
        var offset: UInt64 = 0
        while offset < size {
            let wanted = Int(min(UInt64(stretch.count), size - offset))
            let count = pread(descriptor, base, wanted, off_t(offset))
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw .ioReadFailed(folder, errno: count == 0 ? EIO : errno) }
            try body(UnsafeRawBufferPointer(start: base, count: count))
            offset += UInt64(count)
        }
    }
}
