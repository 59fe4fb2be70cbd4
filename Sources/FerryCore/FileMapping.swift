#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CFerrySystem

/// A regular file mapped into memory read-only, for formats read whole: the
/// page cache is read in place, with no memory to allocate, fault in and
/// copy into. For the benchmark's 11 MB archive that took about 8 ms of the
/// conversion's 55; mapping it takes about 1.
///
/// A mapped file can shrink while it is read (another program truncates
/// it); reading a page past its new end then raises SIGBUS, which would
/// stop the process. The mapping is guarded (`ferry_mapping_guard`): such a
/// page reads as zeros instead, and `isDamaged` turns true, so that the
/// reading ends in `io.inputChanged` (`ByteInput.checkIntact()`), never in
/// a crash. A file that changes in place can give any bytes, as a file
/// changed between two reads can; every decoder checks what it reads.
public final class FileMapping: @unchecked Sendable {
    /// The file's bytes; valid while the object lives.
    package let bytes: UnsafeRawBufferPointer
    private let slot: Int32

    /// Maps the `count` bytes of the file open as `descriptor`; nil when it
    /// cannot be mapped and guarded, and must be read.
    init?(descriptor: Int32, count: Int) {
        #if os(Linux)
        guard count > 0,
            let start = mmap(nil, count, PROT_READ, MAP_PRIVATE | MAP_POPULATE, descriptor, 0), start != MAP_FAILED
        else { return nil }
        let slot = ferry_mapping_guard(start, count)
        guard slot >= 0 else {
            munmap(start, count)
            return nil
        }
        self.slot = slot
        bytes = UnsafeRawBufferPointer(start: start, count: count)
        #else
        return nil
        #endif
    }

    deinit {
        ferry_mapping_unguard(slot)
        munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
    }

    /// Whether a page could not be read, because the file shrank or its
    /// storage failed, and reads as zeros.
    package var isDamaged: Bool { ferry_mapping_damaged(slot) != 0 }
}
