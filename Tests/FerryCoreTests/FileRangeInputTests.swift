import FerryTestSupport
import Testing

@testable import FerryCore

/// `FileRangeInput` over several ranges of a file (the records a merge
/// reads again), and `JSONText.Compactor`, which copies spaced lines out.
@Suite struct FileRangeInputTests {
    /// Everything the input hands out, `chunk` bytes a read at most.
    func drain(_ input: FileRangeInput, chunk: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = try input.read(into: buffer)
            if count == 0 { return bytes }
            bytes += buffer[0..<count]
        }
    }

    @Test(arguments: [1, 3, 64])
    func severalRangesFollowThePrefixInOrder(chunk: Int) throws {
        let folder = try ScratchFolder()
        let path = try folder.write("f.csv", "name,price\nA,1\nB,2\nC,3\nD,4\n")
        let file = try #require(RandomAccessFile(path))
        let input = FileRangeInput(
            file, ranges: [15..<19, 11..<15, 23..<27, 27..<27], prefix: Array("name,price\n".utf8), suffix: [0x21])
        #expect(input.sizeHint == 11 + 12 + 1)
        #expect(try drain(input, chunk: chunk) == Array("name,price\nB,2\nA,1\nD,4\n!".utf8))
        // One range, as before.
        let one = FileRangeInput(file, range: 11..<19)
        #expect(try drain(one, chunk: chunk) == Array("A,1\nB,2\n".utf8))
    }

    /// Many short ranges close together are read a window at a time
    /// (`FileRangeInput.windowSize`): ranges within one window, across its
    /// edge, after a gap wider than it, longer than it, and going back.
    @Test(arguments: [7, 100, 4096, 1 << 20])
    func shortRangesReadThroughAWindowAreTheFilesBytes(chunk: Int) throws {
        let folder = try ScratchFolder()
        var content: [UInt8] = []
        var generator = SeededGenerator(seed: 31)
        for _ in 0..<300_000 { content.append(UInt8(truncatingIfNeeded: generator.next())) }
        let path = try folder.write("bytes", content)
        let file = try #require(RandomAccessFile(path))
        let window = FileRangeInput.windowSize
        var ranges: [Range<Int>] = []
        var start = 10
        for _ in 0..<700 {
            ranges.append(start..<start + 90)
            start += 90 + 210
            if ranges.count == 500 { start += window + 1 }
        }
        ranges.append(5..<20)
        ranges.append(1_000..<1_000 + window + 5)
        ranges.append(290_000..<300_000)
        ranges.append(250..<251)
        let input = FileRangeInput(file, ranges: ranges)
        #expect(try drain(input, chunk: chunk) == ranges.flatMap { content[$0] })
    }

    /// A range past the file's end (it shrank) ends the input there.
    @Test func aRangePastTheEndEndsTheInput() throws {
        let folder = try ScratchFolder()
        let file = try #require(RandomAccessFile(try folder.write("f", "abcdef")))
        let input = FileRangeInput(file, ranges: [0..<2, 4..<10, 0..<1], suffix: [0x21])
        #expect(try drain(input, chunk: 64) == Array("abef".utf8))
    }

    /// Whitespace between tokens goes, strings stay as they are, line
    /// feeds stay, whatever the chunks (a chunk ending inside a string or
    /// after a backslash).
    @Test(arguments: [1, 2, 5, 8, 9, 13, 1000])
    func theCompactorDropsWhitespaceOutsideStrings(chunk: Int) {
        let spaced = Array(
            (#"{"a": "x, \"y\": z\\", "b" :"# + "\t" + #"1.5 ,"c": [1, 2], "d": " \\\" "} "# + "\r\n"
                + #"{"e": null, "f": "a long plain text, of words: eight bytes at a time \"and\" more"}"# + "\n").utf8)
        let compact = Array((#"{"a":"x, \"y\": z\\","b":1.5,"c":[1,2],"d":" \\\" "}"# + "\n"
                + #"{"e":null,"f":"a long plain text, of words: eight bytes at a time \"and\" more"}"# + "\n").utf8)
        var compactor = JSONText.Compactor()
        var out: [UInt8] = []
        var start = 0
        while start < spaced.count {
            let piece = Array(spaced[start..<min(start + chunk, spaced.count)])
            out += Self.compacted(piece, by: &compactor)
            start += chunk
        }
        #expect(out == compact)
    }

    /// Text of many blocks of 64 bytes, as the compactor takes them 64 at
    /// a time: strings that cross blocks, escaped quotes and backslashes
    /// at a block's edge, runs of whitespace, CR and tab; in chunks of
    /// every size, against a byte-at-a-time reading of the same rules.
    @Test(arguments: [1, 63, 64, 65, 80, 100, 129, 4096])
    func theCompactorAgreesWithAByteAtATimeReading(chunk: Int) {
        var generator = SeededGenerator(seed: UInt64(chunk))
        let pieces: [String] = [
            " ", "  ", "\t", "\r\n", ", ", ": ", "{", "}", "[1, 2.5]", "null", "\"plain words\"",
            "\"a \\\"quoted\\\" word\"", "\"ends with a backslash \\\\\"", "\"\\u00e9t\\u00e9\"",
            "\"" + String(repeating: "long text with spaces ", count: 5) + "\"", "\"\"", "\n",
        ]
        var text: [UInt8] = []
        while text.count < 20_000 { text += Array(pieces[Int(generator.next() % UInt64(pieces.count))].utf8) }
        var expected: [UInt8] = []
        var inString = false
        var escaped = false
        for byte in text {
            if escaped {
                escaped = false
            } else if inString {
                if byte == 0x22 { inString = false } else if byte == 0x5C { escaped = true }
            } else if byte == 0x20 || byte == 0x09 || byte == 0x0D {
                continue
            } else if byte == 0x22 {
                inString = true
            }
            expected.append(byte)
        }
        var compactor = JSONText.Compactor()
        var out: [UInt8] = []
        var start = 0
        while start < text.count {
            out += Self.compacted(Array(text[start..<min(start + chunk, text.count)]), by: &compactor)
            start += chunk
        }
        #expect(out == expected)
    }

    private static func compacted(_ piece: [UInt8], by compactor: inout JSONText.Compactor) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: piece.count)
        let kept = piece.withUnsafeBytes { bytes in
            output.withUnsafeMutableBytes { compactor.compact(bytes, into: $0.baseAddress.unsafelyUnwrapped) }
        }
        return Array(output[0..<kept])
    }
}
