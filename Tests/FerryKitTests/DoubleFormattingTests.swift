import Testing

@testable import FerryKit

/// The writer's fast path for prices must print exactly what Swift's
/// shortest round-trip `description` prints.
@Suite struct DoubleFormattingTests {
    func written(_ number: Double) -> String {
        var buffer = WriteBuffer()
        defer { buffer.release() }
        JSONText.appendDouble(number, to: &buffer)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    @Test(arguments: [
        19.99, 299.0, 269.0, 67.0, 0.01, 0.1, 0.5, 2.5, 1e-7, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -19.99, -0.0, 0.0,
        9_999_999_999_999.99, 1e13, 1e15, 1e16, 123_456.78, 0.07, 1.005, 100.1,
    ])
    func matchesDescription(_ number: Double) {
        #expect(written(number) == number.description)
    }

    @Test func matchesDescriptionForManyCentValues() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<200_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let cents = Int64(truncatingIfNeeded: state >> 20) % 10_000_000_000_000
            let number = Double(cents) / 100
            if written(number) != number.description {
                Issue.record("\(number.description) written as \(written(number))")
                return
            }
        }
    }
}
