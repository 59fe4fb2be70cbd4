import FerryCore
import Testing

/// `tailWord(from:)` reads a hash's last bytes in a few loads; it must give
/// the word the bytes make one at a time, and read no byte outside them.
@Suite struct TailWordTests {
    @Test func theWordOfTheBytesLeft() {
        let all = (0..<40).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for count in 0...24 {
            for index in stride(from: max(count - 7, 0), through: count, by: 1) {
                // Surrounded by bytes that would show if read.
                let padded = [UInt8](repeating: 0xFF, count: 8) + all[..<count] + [UInt8](repeating: 0xEE, count: 8)
                let got = padded.withUnsafeBytes { UnsafeRawBufferPointer(rebasing: $0[8..<(8 + count)]).tailWord(from: index) }
                var expected: UInt64 = 0
                for (shift, byte) in all[index..<count].enumerated() { expected |= UInt64(byte) << UInt64(8 * shift) }
                #expect(got == expected, "count \(count), from \(index)")
            }
        }
    }
}
