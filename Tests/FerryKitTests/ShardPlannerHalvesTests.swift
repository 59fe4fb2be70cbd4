@testable import FerryKit
import FerryTestSupport
import Foundation
import Testing

/// A large file is planned in parts at once (`ShardPlanner.cutRows`, four
/// a job): the plan must be the one a single pass gives, for every shape
/// of rows and any number of jobs, and also when a part would start inside
/// a quoted field.
@Suite struct ShardPlannerHalvesTests {
    /// The plans of `text` in one pass and in halves, for several counts.
    func expectSamePlans(_ text: String, name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let folder = try ScratchFolder()
        let path = try folder.write(name, text)
        var whole = ValidationOptions()
        whole.partsThreshold = .max
        for jobs in [2, 3, 8] {
            var halves = ValidationOptions()
            halves.partsThreshold = 1
            halves.jobs = jobs
            for shards in [1, 2, 3, 7, 64] {
                let one = try ShardPlanner().plan(path, shards: shards, options: whole)
                let two = try ShardPlanner().plan(path, shards: shards, options: halves)
                #expect(one == two, "\(name), \(shards) shards, \(jobs) jobs", sourceLocation: sourceLocation)
                #expect(two.shards.map(\.records).reduce(0, +) == two.records, sourceLocation: sourceLocation)
            }
        }
    }

    func rows(_ count: Int, lineEnd: String, _ row: (Int) -> String) -> String {
        (0..<count).map { row($0) + lineEnd }.joined()
    }

    @Test func csvOfEveryLineEnd() throws {
        for lineEnd in ["\n", "\r\n"] {
            let text = "name,price,notes" + lineEnd + rows(2_000, lineEnd: lineEnd) { index in
                switch index % 7 {
                case 0: return ""  // a blank row
                case 1: return "\"Wii, \"\"white\"\"\",\(index),\"two\(lineEnd)lines\""
                default: return "Item \(index),\(index).5,"
                }
            }
            try expectSamePlans(text, name: lineEnd == "\n" ? "lf.csv" : "crlf.csv")
        }
    }

    @Test func theMiddleInsideAQuotedField() throws {
        // One field of many lines holds the middle of the file: the line
        // feed after the middle is inside quotes, and the second half is
        // read again after the first.
        let before = rows(500, lineEnd: "\n") { "Item \($0),\($0)" }
        let field = "\"" + String(repeating: "a line\n", count: 3_000) + "\""
        let after = rows(500, lineEnd: "\n") { "Item \($0),\($0)" }
        try expectSamePlans("name,price\n" + before + "Long,1," + field + "\n" + after, name: "quoted.csv")
    }

    @Test func jsonLinesWithBlankLines() throws {
        let text = rows(3_000, lineEnd: "\n") { $0 % 5 == 0 ? "  " : "{\"name\": \"Item \($0)\", \"price\": \($0)}" }
        try expectSamePlans(text + "{\"name\": \"last\"}", name: "p.jsonl")
    }

    @Test func aLoneCarriageReturnIsRefusedInHalvesToo() throws {
        let text = "name,price\n" + rows(2_000, lineEnd: "\n") { "Item \($0),\($0)" } + "Old,1\rMac,2\n"
        let folder = try ScratchFolder()
        let path = try folder.write("cr.csv", text)
        var halves = ValidationOptions()
        halves.partsThreshold = 1
        #expect(throws: FerryError.self) { try ShardPlanner().plan(path, shards: 4, options: halves) }
    }
}
