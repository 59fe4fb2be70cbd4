#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CFerrySystem

/// Zeroed memory for tables and spools of tens of megabytes, mapped
/// straight from the kernel rather than through the allocator.
///
/// The pages are zero from the kernel, so nothing is written to clear
/// them. On Linux a block grows in place or by remapping its pages
/// (`mremap`), never by copying them.
///
/// No block is advised as huge pages (`MADV_HUGEPAGE`), though that makes
/// one fault map 2 MiB: where the host takes freed memory back (a virtual
/// machine with free page reporting, as here), it takes whole 2 MiB blocks,
/// and a fresh huge page then waits for the host to back all of it. Run
/// right after a program that freed 115 MB, a validation with its key logs
/// on huge pages spent 0.13–0.16 s in the kernel in 3 runs of 4; on small
/// pages, 0.03 s.
///
/// Not thread-safe; one owner frees it with `release()`.
package struct LargeBuffer {
    /// The start of the memory; nil while nothing is mapped.
    package private(set) var base: UnsafeMutableRawPointer?
    /// The bytes mapped.
    package private(set) var capacity = 0

    package init() {}

    /// Zeroed memory for at least `bytes` bytes.
    package init(bytes: Int) {
        grow(to: bytes)
    }

    /// Makes room for at least `bytes` bytes, keeping what is there; new
    /// bytes are zero.
    /// - Returns: false when the system has no more memory to map.
    @discardableResult
    package mutating func grow(to bytes: Int) -> Bool {
        guard bytes > capacity else { return true }
        let page = 1 << 21
        let wanted = (max(bytes, capacity * 2) + page - 1) & ~(page - 1)
        #if canImport(Glibc)
        let mapped: UnsafeMutableRawPointer?
        if let base {
            mapped = ferry_grow_mapping(base, capacity, wanted)
        } else {
            mapped = mmap(nil, wanted, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        }
        guard let mapped, mapped != MAP_FAILED else { return false }
        #else
        guard let mapped = realloc(base, wanted) else { return false }
        (mapped + capacity).initializeMemory(as: UInt8.self, repeating: 0, count: wanted - capacity)
        #endif
        base = mapped
        capacity = wanted
        return true
    }

    /// Touches every page of the first `bytes`, so that they are mapped
    /// before any lookup: a prefetch of a page not yet mapped is dropped,
    /// and the load after it faults.
    package func prefault(_ bytes: Int) {
        guard let base else { return }
        var offset = 0
        while offset < min(bytes, capacity) {
            base.storeBytes(of: 0, toByteOffset: offset, as: UInt8.self)
            offset += 4096
        }
    }

    /// Gives the pages of `bytes` (whole pages of the buffer) back to the
    /// system: they count no more in the resident memory, and read as zero
    /// if touched again. Threads may discard ranges that do not overlap at
    /// once. Does nothing where the buffer is not mapped from the kernel.
    package func discard(_ bytes: Range<Int>) {
        #if canImport(Glibc)
        guard let base, bytes.lowerBound >= 0, bytes.upperBound <= capacity, !bytes.isEmpty else { return }
        madvise(base + bytes.lowerBound, bytes.count, MADV_DONTNEED)
        #endif
    }

    /// Unmaps the memory. The buffer must not be used afterwards.
    package func release() {
        guard let base else { return }
        #if canImport(Glibc)
        munmap(base, capacity)
        #else
        free(base)
        #endif
    }
}
