import Testing

import FerryKit

@Suite struct BackgroundOutputTests {
    /// An output that fails once it has taken `limit` bytes, as a full disk does.
    final class FailingOutput: ByteOutput {
        let name = "full.json"
        let limit: Int
        private(set) var bytes: [UInt8] = []

        init(limit: Int) { self.limit = limit }

        func write(_ bytes: UnsafeRawBufferPointer) throws(FerryError) {
            guard self.bytes.count + bytes.count <= limit else { throw .ioWriteFailed(name, errno: 28) }
            self.bytes.append(contentsOf: bytes)
        }
    }

    /// Buffers drained into it and bytes written to it, of every size from
    /// one byte to more than a buffer, reach the base whole and in order,
    /// with more of them than may wait at once.
    @Test func writesEverythingInOrder() throws {
        let base = MemoryOutput()
        let output = BackgroundOutput(base, depth: 2)
        output.start()
        var expected: [UInt8] = []
        var buffer = WriteBuffer(capacity: 64)
        defer { buffer.release() }
        var next: UInt8 = 0
        for round in 0..<200 {
            let run = (0..<(round * 37 % 3000 + 1)).map { _ in
                next &+= 13
                return next
            }
            expected += run
            if round % 3 == 0 {
                try output.write(run)
            } else {
                run.withUnsafeBufferPointer { buffer.append($0) }
                try buffer.drain(to: output)
                #expect(buffer.count == 0)
            }
        }
        try output.flush()
        #expect(base.bytes == expected)
        output.close()
        // After closing, writes go straight to the base.
        try output.write([1, 2, 3] as [UInt8])
        #expect(base.bytes == expected + [1, 2, 3])
    }

    /// A write that fails on the writing thread comes back from a later call,
    /// and nothing after it is written.
    @Test func aFailedWriteComesBack() {
        let base = FailingOutput(limit: 10_000)
        let output = BackgroundOutput(base)
        output.start()
        var failure: FerryError?
        let chunk = [UInt8](repeating: 0x41, count: 3000)
        do throws(FerryError) {
            for _ in 0..<20 {
                try output.write(chunk)
            }
            try output.flush()
        } catch {
            failure = error
        }
        output.close()
        #expect(failure?.code == .ioWriteFailed)
        #expect(base.bytes.count == 9000)
    }
}
