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
            #expect(error.arguments == [.integer(100_000)])
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

    private func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("ferry-pread-\(UInt64.random(in: 0...UInt64.max)).bin").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

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
