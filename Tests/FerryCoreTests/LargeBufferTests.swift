import Testing

@testable import FerryCore

/// `LargeBuffer`: zeroed memory from the kernel, and pages given back.
@Suite struct LargeBufferTests {
    /// Discarded pages read as zero (they are the kernel's again); the
    /// pages around them keep their bytes, and a range past the buffer is
    /// left alone.
    @Test func discardedPagesReadAsZero() {
        let page = 4096
        let buffer = LargeBuffer(bytes: 4 * page)
        defer { buffer.release() }
        guard let base = buffer.base else {
            Issue.record("no memory mapped")
            return
        }
        for index in 0..<4 { base.storeBytes(of: UInt64(index + 1), toByteOffset: index * page + 8, as: UInt64.self) }
        buffer.discard(page..<3 * page)
        buffer.discard(buffer.capacity..<buffer.capacity + page)
        let values = (0..<4).map { base.load(fromByteOffset: $0 * page + 8, as: UInt64.self) }
        #if canImport(Glibc)
        #expect(values == [1, 0, 0, 4])
        #else
        #expect(values == [1, 2, 3, 4])
        #endif
    }
}
