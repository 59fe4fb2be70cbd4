import Testing

@testable import FerryCore

/// An input that hands out a few bytes per read, to force refills anywhere.
final class TrickleInput: ByteInput {
    let name = "trickle"
    let sizeHint: Int? = nil
    private let bytes: [UInt8]
    private var position = 0
    private let step: Int

    init(_ text: String, step: Int) {
        bytes = Array(text.utf8)
        self.step = step
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int {
        let count = min(step, buffer.count, bytes.count - position)
        for offset in 0..<count { buffer[offset] = bytes[position + offset] }
        position += count
        return count
    }
}

@Suite struct InputWindowTests {
    /// The location of the byte at `offset`, after dropping everything before `drop`.
    func location(_ text: String, offset: Int, drop: Int, step: Int = 3) throws -> FerryCore.SourceLocation {
        let window = InputWindow(TrickleInput(text, step: step), chunk: 16, limit: 1 << 20)
        try window.fill(atLeast: text.utf8.count)
        let dropped = try window.refill(keepingFrom: drop) ?? 0
        return window.location(of: offset - dropped)
    }

    @Test(arguments: [0, 1, 5, 9, 12])
    func lineEndingsOfEveryKindCount(drop: Int) throws {
        // LF, CRLF and a lone CR each end a line; the column counts scalars.
        let text = "ab\ncd\r\nef\rgé x"
        let here = try location(text, offset: Array(text.utf8).count - 1, drop: drop)
        #expect(here.line == 4)
        #expect(here.column == 4)
        #expect(here.byteOffset == Array(text.utf8).count - 1)
    }

    @Test func crlfSplitAcrossTheDropCountsOnce() throws {
        let text = "a\r\nb"
        let here = try location(text, offset: 3, drop: 2)
        #expect(here.line == 2)
        #expect(here.column == 1)
    }

    @Test func aRecordLargerThanTheLimitIsAnError() throws {
        let window = InputWindow(TrickleInput(String(repeating: "x", count: 100), step: 50), chunk: 16, limit: 32)
        #expect(throws: FerryError.self) {
            while try window.refill(keepingFrom: 0) != nil {}
        }
        do {
            while try window.refill(keepingFrom: 0) != nil {}
        } catch {
            #expect(error.code == .recordTooLarge)
            #expect(error.arguments == [.integer(32)])
        }
    }
}
