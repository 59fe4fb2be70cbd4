import FerryCore
import FerryTestSupport
import Foundation
import Testing

@testable import FerryKit

/// Inferred CSV types come out the same whichever way a conversion goes:
/// records, raw records, or rows the CSV to JSON accelerator lays out
/// itself (which reads the inferred columns' rules as a schema's).
@Suite struct TypeInferenceTests {
    let compare: RawRecordTests

    init() throws { compare = try RawRecordTests() }

    /// A generic file of every kind of column, past the 1 MiB sample so
    /// that the file is looked over in a first pass.
    static func generic(rows: Int, late: String? = nil) -> String {
        var text = "id,zip,price,stock,active,note,ratio\n"
        for index in 0..<rows {
            let stock = index % 7 == 0 ? "" : "\(index % 50)"
            let note = index % 11 == 0 ? "\"a, \"\"quoted\"\" note\"" : "n\(index)"
            text += "\(index),0\(index % 9000),\(index % 100).\(index % 10)9,\(stock),\(index % 2 == 0),\(note),1e\(index % 5)\n"
        }
        if let late { text += late }
        return text
    }

    @Test func everyPathGivesTheSameBytes() throws {
        let input = try compare.scratch.write("generic.csv", Self.generic(rows: 30_000, late: "-1,x,0.5,1,true,z,2\n"))
        compare.expectSameBothWays(input, kinds: [nil])
    }

    /// Types from a sample of a pipe: the cells that do not fit are the
    /// general path's, which the laid-out path then leaves every row to.
    @Test func aPipeGivesTheSameBytesEitherWay() throws {
        let text = Self.generic(rows: 30_000, late: "x,00001,NaN,+2,yes,z,.5\n")
        let file = try compare.scratch.write("sampled.csv", text)
        for format in ["jsonl"] {
            var outcomes: [RawRecordTests.Outcome] = []
            for path in [RawRecordTests.Path.records, .laidOut] {
                // One name for both ways: warnings name the input.
                let fifo = compare.scratch.path("sampled-\(format).fifo")
                unlink(fifo)
                try #require(mkfifo(fifo, 0o600) == 0)
                let feeder = Thread {
                    guard let pipe = FileHandle(forWritingAtPath: fifo) else { return }
                    pipe.write(Data(text.utf8))
                    try? pipe.close()
                }
                feeder.start()
                outcomes.append(compare.convert(fifo, to: format, kind: nil, codecOptions: [:], path: path, from: "csv"))
            }
            #expect(outcomes[0] == outcomes[1], "\(format)")
            guard case .converted(let output, _, _, let warnings) = outcomes[1] else {
                Issue.record("\(outcomes[1])")
                continue
            }
            #expect(warnings.map(\.code) == [.csvCellsKeptAsText])
            #expect(warnings.first?.arguments.first == .count(5))
            // The file, read whole, types the same rows otherwise.
            let whole = compare.convert(file, to: format, kind: nil, codecOptions: [:], path: .laidOut)
            #expect(whole != outcomes[1])
            #expect(String(decoding: output, as: UTF8.self).contains("\"zip\":\"00001\"") || format == "json")
        }
    }
}
