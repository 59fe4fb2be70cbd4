import Testing

@testable import FerryCore

@Suite struct WriteBufferTests {
    /// Runs of every length from 0 to 40, including the 8-to-16-byte ones
    /// copied as two words, land byte for byte where an array puts them,
    /// through the buffer's growth from its small first size.
    @Test func appendsEveryLengthExactly() {
        var buffer = WriteBuffer(capacity: 16)
        defer { buffer.release() }
        var expected: [UInt8] = []
        var next: UInt8 = 0
        for round in 0..<6 {
            for length in 0...40 {
                let run = (0..<length).map { _ in
                    next &+= 37
                    return next
                }
                run.withUnsafeBufferPointer { buffer.append($0) }
                expected += run
                // Odd rounds shift the runs off word boundaries.
                if round % 2 == 1 {
                    buffer.append(UInt8(length))
                    expected.append(UInt8(length))
                }
            }
        }
        #expect(buffer.bytes == expected)
    }
}
