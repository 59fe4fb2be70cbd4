import Testing

@testable import FerryCore

@Suite struct ReadAheadInputTests {
    /// Reads everything through `input`, `step` bytes at a time at most.
    func readAll(_ input: any ByteInput, step: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: step)
        while true {
            let count = try buffer.withUnsafeMutableBytes { raw in try input.read(into: raw) }
            if count == 0 { return bytes }
            bytes += buffer[0..<count]
        }
    }

    @Test(arguments: [1, 7, 4096, 100_000])
    func theBytesArriveWholeAndInOrder(step: Int) throws {
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        // The inner input hands out odd-sized pieces; the blocks are small, so
        // that many go through the queue.
        var reads = 0
        let inner = MemoryInput(bytes, name: "in") {
            reads += 1
            return 1 + reads * 7919 % 977
        }
        let input = ReadAheadInput(inner, blockSize: 4096, depth: 2)
        #expect(try readAll(input, step: step) == bytes)
        #expect(try readAll(input, step: step) == [])  // and the end stays the end
    }

    /// An input that hands out some bytes, then fails.
    final class FailingInput: ByteInput {
        let name = "failing"
        let sizeHint: Int? = nil
        var left: Int
        init(bytes: Int) { left = bytes }
        func read(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int {
            guard left > 0 else { throw FerryError(.ioReadFailed, [.path("failing")]) }
            let count = min(left, buffer.count, 1000)
            for index in 0..<count { buffer[index] = 0x41 }
            left -= count
            return count
        }
    }

    @Test func anErrorComesAfterTheBytesBeforeIt() {
        let input = ReadAheadInput(FailingInput(bytes: 10_500), blockSize: 4096, depth: 2)
        var received = 0
        var buffer = [UInt8](repeating: 0, count: 3000)
        var failure: FerryError?
        while failure == nil {
            do {
                let count = try buffer.withUnsafeMutableBytes { raw in try input.read(into: raw) }
                if count == 0 { break }
                received += count
            } catch let error as FerryError {
                failure = error
            } catch {
                Issue.record("not a FerryError: \(error)")
                break
            }
        }
        #expect(received == 10_500)
        #expect(failure?.code == .ioReadFailed)
    }

    /// A reader that stops after its first bytes (an error at the first
    /// byte, as a gzip'd file of NULs read as JSON Lines gives) frees the
    /// read-ahead input while its thread holds room for blocks: the thread
    /// then frees the state, semaphores and all, and libdispatch trapped
    /// (SIGILL, this test process dying) when a semaphore went below the
    /// value it was made with.
    @Test func stoppingEarlyWhileTheThreadHoldsRoomIsSafe() throws {
        let bytes = [UInt8](repeating: 0, count: 1 << 20)
        for _ in 0..<300 {
            let input = ReadAheadInput(MemoryInput(bytes, name: "zeros") { 4096 }, blockSize: 4096, depth: 3)
            var first = [UInt8](repeating: 1, count: 1)
            #expect(try first.withUnsafeMutableBytes { raw in try input.read(into: raw) } == 1)
            #expect(first == [0])
        }
    }
}
