import FerryTestSupport
import Testing

@testable import FerryCore

@Suite struct InputWindowTests {
    /// The location of the byte at `offset`, after dropping everything before `drop`.
    func location(_ text: String, offset: Int, drop: Int, step: Int = 3) throws -> FerryCore.SourceLocation {
        let window = InputWindow(MemoryInput(text, readSizes: { step }), chunk: 16, limit: 1 << 20)
        try window.fill(atLeast: text.utf8.count)
        let dropped = try window.refill(keepingFrom: drop) ?? 0
        return window.location(of: offset - dropped)
    }

    /// A window told not to count lines gives byte offsets only, before a
    /// refill and after it.
    @Test(arguments: [0, 5, 12])
    func withoutCountingLinesALocationHasItsOffsetOnly(drop: Int) throws {
        let text = "ab\ncd\r\nef\rgé x"
        let window = InputWindow(MemoryInput(text, readSizes: { 3 }), chunk: 16, limit: 1 << 20)
        window.countsLines = false
        try window.fill(atLeast: text.utf8.count)
        let dropped = try window.refill(keepingFrom: drop) ?? 0
        let here = window.location(of: 13 - dropped)
        #expect(here.byteOffset == 13)
        #expect(here.line == nil && here.column == nil)
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

    /// The line counter, fed random text in random pieces, agrees with a
    /// plain count: LF, CRLF and a lone CR each end a line; the column is in
    /// scalars after the last one.
    @Test func lineCounterAgreesWithAPlainCount() {
        var random = SeededGenerator(seed: 0x1_1E5)
        let pieces = ["a", "bc", "\n", "\r", "\r\n", "é", "🎮", "        ", "0123456789abcdef"]
        for _ in 0..<300 {
            var text = ""
            for _ in 0..<Int.random(in: 0..<60, using: &random) { text += pieces[Int.random(in: pieces.indices, using: &random)] }
            expectCounted(text, inPiecesUpTo: 24, &random)
        }
    }

    /// Long text without a CR, the case counted sixteen bytes at a time, in
    /// pieces large and small: more than 255 steps of sixteen bytes, lines
    /// longer than a piece, pieces that end right after an LF or a CR, and
    /// text of LFs alone (each lane of the count at its most).
    @Test func lineCounterCountsLongTextWithoutACR() {
        var random = SeededGenerator(seed: 0xC0_FFEE)
        let pieces = [
            "a", "\n", "é", "🎮", "0123456789abcde", String(repeating: "\n", count: 40),
            String(repeating: "x", count: 300),
        ]
        for round in 0..<60 {
            var text = round % 10 == 0 ? "a\r" : round % 10 == 1 ? String(repeating: "\n", count: 9_000 + round) : ""
            for _ in 0..<Int.random(in: 0..<700, using: &random) { text += pieces[Int.random(in: pieces.indices, using: &random)] }
            expectCounted(text, inPiecesUpTo: Int.random(in: 1...9_000, using: &random), &random)
        }
    }

    /// Feeds `text` to a line counter in pieces of 1…`longest` bytes and
    /// compares its lines and column with a count over the scalars.
    private func expectCounted(_ text: String, inPiecesUpTo longest: Int, _ random: inout SeededGenerator) {
        let bytes = Array(text.utf8)
        var lines = 0
        var column = 0
        var afterCR = false
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                // The LF of a CRLF: the CR ended the line.
                if !afterCR { lines += 1 }
                column = 0
            } else if scalar == "\r" {
                lines += 1
                column = 0
            } else {
                column += 1
            }
            afterCR = scalar == "\r"
        }
        var counter = LineCounter()
        var start = 0
        bytes.withUnsafeBytes { raw in
            while start < bytes.count {
                let end = min(bytes.count, start + Int.random(in: 1...longest, using: &random))
                counter.consume(UnsafeRawBufferPointer(rebasing: raw[start..<end]))
                start = end
            }
        }
        #expect(counter.lines == lines, "\(bytes.count) bytes")
        #expect(counter.column == column, "\(bytes.count) bytes")
    }

    /// Locations asked for one after another (each counted on from the
    /// last) agree with each counted alone from the start: going forward,
    /// back, to the same index twice, through CRLFs and scalars that the
    /// last one split, and after a refill moved the window.
    @Test func locationsInAnyOrderAgreeWithCountingEachAlone() throws {
        var random = SeededGenerator(seed: 0x10CA7E)
        let pieces = ["a", "\n", "\r", "\r\n", "é", "🎮", "  ", "0123456789"]
        for _ in 0..<100 {
            var text = ""
            for _ in 0..<Int.random(in: 1..<80, using: &random) { text += pieces[Int.random(in: pieces.indices, using: &random)] }
            let size = text.utf8.count
            let window = InputWindow(MemoryInput(text, readSizes: { 7 }), chunk: 16, limit: 1 << 20)
            try window.fill(atLeast: size)
            var indexes = (0..<12).map { _ in Int.random(in: 0...size, using: &random) }
            indexes += indexes.sorted()
            for index in indexes {
                let fresh = InputWindow(MemoryInput(text, readSizes: { 7 }), chunk: 16, limit: 1 << 20)
                try fresh.fill(atLeast: size)
                #expect(window.location(of: index) == fresh.location(of: index), "\(index) in \(Array(text.utf8))")
            }
            let drop = Int.random(in: 0...size, using: &random)
            let dropped = try window.refill(keepingFrom: drop) ?? 0
            for index in [size, drop, size].map({ $0 - dropped }) {
                let fresh = InputWindow(MemoryInput(text, readSizes: { 7 }), chunk: 16, limit: 1 << 20)
                try fresh.fill(atLeast: size)
                #expect(window.location(of: index) == fresh.location(of: index + dropped), "after dropping \(dropped)")
            }
        }
    }

    @Test func crlfSplitAcrossTheDropCountsOnce() throws {
        let text = "a\r\nb"
        let here = try location(text, offset: 3, drop: 2)
        #expect(here.line == 2)
        #expect(here.column == 1)
    }

    @Test func aRecordLargerThanTheLimitIsAnError() throws {
        let window = InputWindow(MemoryInput(String(repeating: "x", count: 100), readSizes: { 50 }), chunk: 16, limit: 32)
        #expect(throws: FerryError.self) {
            while try window.refill(keepingFrom: 0) != nil {}
        }
        do {
            while try window.refill(keepingFrom: 0) != nil {}
        } catch {
            #expect(error.code == .recordTooLarge)
            #expect(error.arguments == [.count(32)])
        }
    }
}

@Suite struct InputWindowRescanTests {
    /// Small records refilled for a rescan keep the window small: it grows
    /// for the unfinished record, not for the whole window each time.
    @Test func smallRecordsKeepTheWindowSmall() throws {
        let input = MemoryInput([UInt8](repeating: 0x61, count: 8 << 20)) { 4096 }
        let window = InputWindow(input)
        var position = 0
        var largest = 0
        while true {
            // A "record" is 100 bytes; when fewer remain, refill for a rescan.
            if window.count - position < 100 {
                guard let dropped = try window.refillForRescan(keepingFrom: position) else { break }
                position -= dropped
                continue
            }
            position += 100
            largest = max(largest, window.bytes.count)
        }
        #expect(window.baseOffset + position > (8 << 20) - 100)
        #expect(largest <= 1 << 20, "the window grew to \(largest) bytes")
    }

    /// One record far larger than a read is rescanned a logarithmic number
    /// of times: each refill at least doubles what the window holds.
    @Test func aLargeRecordDoublesTheWindow() throws {
        let size = 4 << 20
        let input = MemoryInput([UInt8](repeating: 0x61, count: size)) { 4096 }
        let window = InputWindow(input, limit: 64 << 20)
        var rescans = 0
        while try window.refillForRescan(keepingFrom: 0) != nil, window.count < size { rescans += 1 }
        #expect(window.count == size || window.isAtEnd)
        #expect(rescans < 20, "\(rescans) rescans for \(size) bytes in 4 KiB reads")
    }
}

