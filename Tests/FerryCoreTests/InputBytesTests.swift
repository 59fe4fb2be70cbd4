import Foundation
import Testing

@testable import FerryCore

@Suite struct InputBytesTests {
    static let bytes: [UInt8] = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }

    @Test func readsAKnownSizeWhole() throws {
        let read = try InputBytes.read(MemoryInput(Self.bytes), limit: 1 << 20)
        #expect(read.array() == Self.bytes)
    }

    /// Without a size (a pipe), the memory grows as bytes arrive, a few at a time.
    @Test func growsForAnInputOfUnknownSize() throws {
        var state: UInt64 = 7
        let trickle = MemoryInput(Self.bytes) {
            state = state &* 6_364_136_223_846_793_005 &+ 1
            return Int(state >> 50) + 1
        }
        let read = try InputBytes.read(trickle, limit: 1 << 20)
        #expect(read.array() == Self.bytes)
    }

    @Test(arguments: [false, true])
    func stopsAtTheLimit(sizeKnown: Bool) throws {
        let input = sizeKnown ? MemoryInput(Self.bytes) : MemoryInput(Self.bytes) { 4096 }
        do throws(FerryError) {
            _ = try InputBytes.read(input, limit: 100_000)
            Issue.record("read past the limit")
        } catch {
            #expect(error.code == .inputTooLarge)
            #expect(error.arguments == [.count(100_000)])
        }
        // Exactly the limit is allowed.
        #expect(try InputBytes.read(MemoryInput(Self.bytes) { 4096 }, limit: Self.bytes.count).count == Self.bytes.count)
    }

    @Test func anEmptyInputIsEmpty() throws {
        #expect(try InputBytes.read(MemoryInput([UInt8]()), limit: 10).count == 0)
        #expect(InputBytes([]).count == 0)
    }
}

/// Files read whole take the parallel path (`FileInput.readRemainder`):
/// slices read with `pread`, put together in order, whatever the file does
/// meanwhile.
@Suite struct ParallelFileReadTests {
    /// 9 MB and a bit: three slices of unequal ends, and a prefix peeked first.
    static let bytes: [UInt8] = (0..<9_437_207).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) }

    @Test func readsAFileBehindAPeekAndACount() throws {
        let path = try temporaryFile(Self.bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let counting = CountingInput(try FileInput(path: path))
        let input = PeekableInput(counting)
        #expect(try input.peek(4096) == Array(Self.bytes[0..<4096]))
        let read = try InputBytes.read(input, limit: 1 << 30)
        #expect(read.count == Self.bytes.count)
        // A Bool: on failure, swift-testing would diff the 9 MB arrays.
        let same = read.array() == Self.bytes
        #expect(same)
        #expect(counting.bytesRead == Self.bytes.count)
        // The file offset is at the end, as after reading in order.
        var byte: UInt8 = 0
        #expect(try withUnsafeMutableBytes(of: &byte) { try input.read(into: $0) } == 0)
    }

    @Test func aFileThatGrowsIsReadToItsNewEnd() throws {
        let path = try temporaryFile(Self.bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let input = try FileInput(path: path)  // its size is known from here
        let more: [UInt8] = Array(repeating: 0x5A, count: 70_000)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(more))
        try handle.close()
        let peekable = PeekableInput(input)
        _ = try peekable.peek(10)
        let read = try InputBytes.read(peekable, limit: 1 << 30)
        let same = read.array() == Self.bytes + more
        #expect(same)
    }

    @Test func aFileThatShrinksEndsWhereItNowEnds() throws {
        let path = try temporaryFile(Self.bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let input = PeekableInput(try FileInput(path: path))
        _ = try input.peek(100)
        #expect(truncate(path, 5_000_000) == 0)
        let read = try InputBytes.read(input, limit: 1 << 30)
        let same = read.array() == Array(Self.bytes[0..<5_000_000])
        #expect(same)
    }
}

/// Large files read whole are mapped (`FileMapping`), with a guard for a
/// file that shrinks under the mapping.
@Suite struct FileMappingTests {
    /// 2 MiB and a bit, no zero byte in it.
    static let bytes: [UInt8] = (0..<2_100_000).map { UInt8(truncatingIfNeeded: $0 % 251 + 1) }

    /// A mapping keeps its bytes in the file: a file truncated after the
    /// read is read as zeros past its new end, with no SIGBUS, and the
    /// input then reports the change.
    @Test func aFileThatShrinksUnderTheMappingReadsAsZerosAndIsReported() throws {
        let path = try temporaryFile(Self.bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let input = PeekableInput(CountingInput(try FileInput(path: path)))
        _ = try input.peek(64)
        let read = try InputBytes.read(input, limit: 1 << 30)
        try input.checkIntact()
        #expect(truncate(path, 8192) == 0)
        let contents = read.array()
        #expect(contents.count == Self.bytes.count)
        let kept = contents[0..<8192].elementsEqual(Self.bytes[0..<8192])
        #expect(kept)
        let zeros = contents[8192...].allSatisfy { $0 == 0 }
        #expect(zeros)
        do throws(FerryError) {
            try input.checkIntact()
            Issue.record("the change went unnoticed")
        } catch {
            #expect(error.code == .ioInputChanged)
            #expect(error.arguments == [.path(path)])
        }
        let reported = input.unlessChanged(.ioReadFailed(path, errno: EIO))
        #expect(reported.code == .ioInputChanged)
    }

    @Test func anIntactMappingGivesTheFileBehindAPeekAndACount() throws {
        let path = try temporaryFile(Self.bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let counting = CountingInput(try FileInput(path: path))
        let input = PeekableInput(counting)
        #expect(try input.peek(100) == Array(Self.bytes[0..<100]))
        // Ten of the peeked bytes are read before the rest is mapped.
        var first = [UInt8](repeating: 0, count: 10)
        #expect(try first.withUnsafeMutableBytes { try input.read(into: $0) } == 10)
        let read = try InputBytes.read(input, limit: 1 << 30)
        let same = read.array() == Array(Self.bytes[10...])
        #expect(same)
        #expect(counting.bytesRead == Self.bytes.count)
        try input.checkIntact()
        #expect(input.unlessChanged(.ioReadFailed(path, errno: EIO)).code == .ioReadFailed)
        // The position is at the end, as after reading.
        var byte: UInt8 = 0
        #expect(try withUnsafeMutableBytes(of: &byte) { try input.read(into: $0) } == 0)
    }

    /// `readAll` copies a mapping out; a file that shrinks before the copy
    /// ends in `io.inputChanged`, not in bytes with zeros in them.
    @Test func readAllReportsAFileThatShrinksBeforeItIsCopied() throws {
        let path = try temporaryFile(Self.bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let input = ShrinkingInput(try FileInput(path: path), path: path, to: 4096)
        do throws(FerryError) {
            _ = try input.readAll(limit: 1 << 30)
            Issue.record("readAll handed out the zeros of a shrunk mapping")
        } catch {
            #expect(error.code == .ioInputChanged)
        }
        #expect(input.shrank)
    }

    /// Below a megabyte, a file is read: what was read stays as it was.
    @Test func aSmallFileIsReadNotMapped() throws {
        let small = Array(Self.bytes[0..<500_000])
        let path = try temporaryFile(small)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let input = PeekableInput(try FileInput(path: path))
        _ = try input.peek(64)
        let read = try InputBytes.read(input, limit: 1 << 30)
        #expect(truncate(path, 0) == 0)
        let same = read.array() == small
        #expect(same)
        try input.checkIntact()
    }

    /// The parallel read, which a file takes when it cannot be mapped.
    @Test func theParallelReadGivesTheRestOfTheFile() throws {
        let path = try temporaryFile(ParallelFileReadTests.bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let input = try FileInput(path: path)
        var head = [UInt8](repeating: 0, count: 4096)
        #expect(try head.withUnsafeMutableBytes { try input.read(into: $0) } == 4096)
        var rest = [UInt8](repeating: 0, count: ParallelFileReadTests.bytes.count)
        let got = try rest.withUnsafeMutableBytes { try input.readRemainder(into: $0) }
        #expect(got == ParallelFileReadTests.bytes.count - 4096)
        let same = rest[0..<(got ?? 0)].elementsEqual(ParallelFileReadTests.bytes[4096...])
        #expect(same)
    }
}

/// A file of `bytes` in the temporary folder; the test removes it.
private func temporaryFile(_ bytes: [UInt8]) throws -> String {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("ferry-input-\(UInt64.random(in: 0...UInt64.max)).bin").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
}

/// A file input that truncates its file as soon as it has been mapped.
private final class ShrinkingInput: ByteInput {
    private let base: FileInput
    private let path: String
    private let size: off_t
    private(set) var shrank = false

    init(_ base: FileInput, path: String, to size: off_t) {
        self.base = base
        self.path = path
        self.size = size
    }

    var name: String { base.name }
    var sizeHint: Int? { base.sizeHint }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int { try base.read(into: buffer) }

    func mapRemainder(holding unread: Int) -> (mapping: FileMapping, start: Int)? {
        let mapped = base.mapRemainder(holding: unread)
        if mapped != nil { shrank = truncate(path, size) == 0 }
        return mapped
    }

    func checkIntact() throws(FerryError) { try base.checkIntact() }
}
