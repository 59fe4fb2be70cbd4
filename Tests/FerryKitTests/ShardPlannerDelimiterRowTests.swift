@testable import FerryKit
import FerryTestSupport
import Foundation
import Testing

/// Rows of delimiters only (`,,,`, as Excel leaves below a table) are
/// skipped by the CSV reader, like blank rows: the planner counts no record
/// for them either, so that every shard's `firstRecord` is the number a
/// single pass gives its first record, in CSV and TSV, with LF and CRLF,
/// in one pass and in halves, and when such a row starts a shard.
@Suite struct ShardPlannerDelimiterRowTests {
    /// One row of a file: its text (with its line end) and whether the
    /// reader makes a record of it.
    struct Row {
        var text: String
        var isRecord: Bool
    }

    /// Rows of delimiters only before the header, after it, short and long
    /// (more than 64 bytes, so over a block of the scan), among blank rows
    /// and records, and one more as the file's last row, with no line end.
    static func rows(delimiter: String, lineEnd: String) -> (header: String, rows: [Row]) {
        let only = String(repeating: delimiter, count: 2)
        let header = ["name", "price", "sku"].joined(separator: delimiter) + lineEnd
        var rows = [Row(text: only + lineEnd, isRecord: false), Row(text: lineEnd, isRecord: false)]
        rows.append(Row(text: header, isRecord: false))
        rows.append(Row(text: only + lineEnd, isRecord: false))
        for index in 0..<400 {
            if index % 5 == 2 {
                rows.append(Row(text: only + lineEnd, isRecord: false))
            } else if index % 13 == 0 {
                rows.append(Row(text: String(repeating: delimiter, count: 100) + lineEnd, isRecord: false))
            } else if index % 11 == 4 {
                rows.append(Row(text: lineEnd, isRecord: false))
            } else {
                // Some records start with an empty cell, and so with the delimiter.
                let name = index % 3 == 0 ? "" : "Item \(index)"
                rows.append(Row(text: [name, "\(index).5", "S-\(index)"].joined(separator: delimiter) + lineEnd, isRecord: true))
            }
        }
        rows.append(Row(text: only, isRecord: false))
        return (header, rows)
    }

    /// The byte offsets where the records of `rows` start, as the reader counts them.
    static func recordStarts(_ rows: [Row]) -> [Int] {
        var starts: [Int] = []
        var offset = 0
        for row in rows {
            if row.isRecord { starts.append(offset) }
            offset += row.text.utf8.count
        }
        return starts
    }

    @Test(arguments: [(",", "\n", "p.csv"), (",", "\r\n", "crlf.csv"), ("\t", "\n", "p.tsv"), ("\t", "\r\n", "crlf.tsv")])
    func firstRecordsAreThoseOfOnePass(delimiter: String, lineEnd: String, name: String) throws {
        let (_, rows) = Self.rows(delimiter: delimiter, lineEnd: lineEnd)
        let folder = try ScratchFolder()
        let path = try folder.write(name, rows.map(\.text).joined())
        let recordStarts = Self.recordStarts(rows)
        var halves = ValidationOptions()
        halves.partsThreshold = 1
        var onePass = ValidationOptions()
        onePass.partsThreshold = .max
        for shards in [1, 2, 7, 64, 500] {
            let plan = try ShardPlanner().plan(path, shards: shards, options: onePass)
            #expect(plan.records == recordStarts.count, "\(name), \(shards) shards")
            #expect(plan.header?.fields == ["name", "price", "sku"], "\(name)")
            for shard in plan.shards {
                let before = recordStarts.filter { $0 < shard.start }.count
                #expect(shard.firstRecord == before + 1, "\(name), \(shards) shards, at \(shard.start)")
                #expect(shard.records == recordStarts.filter { shard.start <= $0 && $0 < shard.end }.count)
            }
            // With a shard a row, some start at a row of delimiters only.
            if shards == 500 {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
                #expect(plan.shards.contains { $0.start < $0.end && bytes[$0.start] == UInt8(ascii: delimiter == "," ? "," : "\t") })
            }
            #expect(try ShardPlanner().plan(path, shards: shards, options: halves) == plan, "\(name), \(shards) shards")
        }
    }

    /// The reader agrees: a validation of the whole file counts the records the plan counts.
    @Test func theReaderCountsTheSameRecords() throws {
        let (_, rows) = Self.rows(delimiter: ",", lineEnd: "\n")
        let folder = try ScratchFolder()
        let path = try folder.write("p.csv", rows.map(\.text).joined())
        var options = ValidationOptions()
        options.partsThreshold = .max
        let report = Validator().validate([path], options: options)
        let plan = try ShardPlanner().plan(path, shards: 3, options: options)
        #expect(report.files.first?.records == plan.records)
        #expect(plan.records == rows.filter(\.isRecord).count)
    }

    /// In a CSV file of one column, the reader makes a record of a blank
    /// row after the header (or after the first record, with no header):
    /// a value of "". The planner counts it too, and skips the blank rows
    /// before, as the reader does.
    @Test(arguments: [true, false]) func blankRowsOfOneColumnAreRecords(header: Bool) throws {
        var rows = [Row(text: "\n", isRecord: false), Row(text: ",\n", isRecord: false)]
        if header { rows.append(Row(text: "name\n", isRecord: false)) }
        for index in 0..<300 {
            if index % 9 == 0 {
                rows.append(Row(text: ",\n", isRecord: false))
            } else if index % 4 == 1 {
                // Without a header, blank rows before the first record are skipped.
                let first = !header && !rows.contains(where: \.isRecord)
                rows.append(Row(text: index % 8 == 1 ? "\r\n" : "\n", isRecord: !first))
            } else {
                rows.append(Row(text: "Item \(index)\n", isRecord: true))
            }
        }
        rows.append(Row(text: "\n", isRecord: true))
        let folder = try ScratchFolder()
        let path = try folder.write("one.csv", rows.map(\.text).joined())
        let recordStarts = Self.recordStarts(rows)
        var onePass = ValidationOptions()
        onePass.partsThreshold = .max
        if !header { onePass.codecOptions.values["no-header"] = "" }
        var halves = onePass
        halves.partsThreshold = 1
        let report = Validator().validate([path], options: onePass)
        #expect(report.files.first?.records == recordStarts.count)
        for shards in [1, 2, 7, 64, 400] {
            let plan = try ShardPlanner().plan(path, shards: shards, options: onePass)
            #expect(plan.records == recordStarts.count, "\(shards) shards")
            for shard in plan.shards {
                #expect(shard.firstRecord == recordStarts.filter { $0 < shard.start }.count + 1, "\(shards) shards")
            }
            #expect(try ShardPlanner().plan(path, shards: shards, options: halves) == plan, "\(shards) shards")
        }
    }
}
