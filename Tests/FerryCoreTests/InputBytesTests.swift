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
