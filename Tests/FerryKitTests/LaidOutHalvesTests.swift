import Foundation
import FerryTestSupport
import Testing

/// The CSV reader lays out a large window's second half on another thread,
/// guessing where it starts (see `layOutInHalves`). These inputs put that
/// guess where it is wrong or awkward; every way of converting them must
/// still agree (`RawRecordTests.expectSameBothWays`).
@Suite struct LaidOutHalvesTests {
    let compare: RawRecordTests

    init() throws { compare = try RawRecordTests() }

    /// Many blank lines before the first record, in a window split in two.
    @Test func blankLinesComeFirst() throws {
        let rows = 50_000
        let text = "name,price\n" + String(repeating: "\n", count: 4 * rows) + String(repeating: "A,1\n", count: rows)
        let input = try compare.scratch.write("blank-first.csv", text)
        compare.expectSameBothWays(input, kinds: [nil])
    }

    /// Quoted fields with line breaks in every row, whose lines look like
    /// plain rows, so that the line break past the middle is often inside
    /// one and the second half, read from there, finds rows that are not
    /// there.
    @Test func aQuotedFieldRunsAcrossTheMiddle() throws {
        var text = "name,price,sku\n"
        for index in 0..<12_000 {
            text += "\"Pad \(index)\nX,1,Y\nsecond line, \"\"quoted\"\"\",\(index % 100).5,S\(index)\n"
        }
        let input = try compare.scratch.write("quoted-middle.csv", text)
        compare.expectSameBothWays(input, kinds: [nil])
    }

    /// A last row longer than a split window's threshold, with and without
    /// a line break after it: a split window is followed by a refill, and
    /// once the input has ended, a window that holds only that row must not
    /// be split again and again, which would never end.
    @Test(arguments: ["", "\n"]) func aLongLastRow(_ ending: String) throws {
        let text =
            "name,price\n" + String(repeating: "Item,1.5\n", count: 20_000) + String(repeating: "n", count: 150_000)
            + ",2" + ending
        let input = try compare.scratch.write("long-last\(ending.count).csv", text)
        compare.expectSameBothWays(input, kinds: [nil])
    }

    /// A row of 2 MB between plain rows, through a pipe, which hands out
    /// at most 64 KiB a read, so that windows of every size come and go
    /// around the split threshold: laid out, it converts as records do.
    @Test func aLongRowThroughAPipe() throws {
        let rows = String(repeating: "Item,1.5\n", count: 30_000)
        let text = "name,price\n" + rows + String(repeating: "n", count: 2_000_000) + ",2\n" + rows
        let file = try compare.scratch.write("long-row.csv", text)
        for format in ["json", "jsonl"] {
            let expected = compare.convert(file, to: format, kind: nil, codecOptions: [:], path: .records)
            let fifo = compare.scratch.path("long-row-\(format).fifo")
            try #require(mkfifo(fifo, 0o600) == 0)
            let feeder = Thread {
                guard let pipe = FileHandle(forWritingAtPath: fifo) else { return }
                pipe.write(Data(text.utf8))
                try? pipe.close()
            }
            feeder.start()
            let outcome = compare.convert(fifo, to: format, kind: nil, codecOptions: [:], path: .laidOut, from: "csv")
            #expect(outcome == expected, "\(format)")
        }
    }

    /// Rows the plain way cannot take, in both halves: the first error is
    /// reported with its record and line, whichever half it is in.
    @Test(arguments: [0.25, 0.75]) func anErrorInEitherHalf(_ place: Double) throws {
        let rows = 20_000
        var text = "name,price\n"
        for index in 0..<rows {
            if index == Int(Double(rows) * place) {
                text += "Broken,-\(index)\n"
            } else if index % 97 == 0 {
                text += "\"Quoted, \(index)\",1\n"
            } else {
                text += "Item \(index),\(index).25\n"
            }
        }
        let input = try compare.scratch.write("error-\(place).csv", text)
        compare.expectSameBothWays(input, kinds: [nil, .generic])
    }
}
