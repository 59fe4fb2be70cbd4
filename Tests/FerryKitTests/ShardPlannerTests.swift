import FerryKit
import FerryTestSupport
import Foundation
import Testing

/// `ShardPlanner` and the shard errors, through the library: codes,
/// arguments and locations.
@Suite struct ShardPlannerTests {
    func planError(_ path: String, shards: Int = 2) -> FerryError? {
        do {
            _ = try ShardPlanner().plan(path, shards: shards, options: ValidationOptions())
            return nil
        } catch {
            return error
        }
    }

    @Test func gzipIsNotSplittable() throws {
        let folder = try ScratchFolder()
        let path = folder.path("p.csv.gz")
        let made = try Subprocess.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "printf 'name,price\\nWii,1\\n' | gzip > '\(path)'"])
        #expect(made.status == 0)
        let error = try #require(planError(path))
        #expect(error.code == .shardCompressed)
        #expect(error.arguments == [.path(path)])
        #expect(error.location.file == path)
    }

    @Test func aJSONObjectIsNotSplittable() throws {
        let folder = try ScratchFolder()
        let path = try folder.write("o.json", "{\"name\": \"Wii\", \"list\": [1, 2]}\n")
        let error = try #require(planError(path))
        #expect(error.code == .shardNotSplittable)
        #expect(error.arguments == [.path(path), .string("json")])
        #expect(error.location.file == path)
    }

    @Test func aJSONArrayIsCutBetweenElementsOnly() throws {
        let folder = try ScratchFolder()
        // Commas and brackets inside strings and nested values are no cuts.
        let text = "[\n  {\"n\": \"a, [b]\", \"l\": [1, 2, {\"x\": \"]\"}]},\n  {\"n\": \"\\\", c\"},\n  {\"n\": 3}\n]\n"
        let path = try folder.write("a.json", text)
        let plan = try ShardPlanner().plan(path, shards: 64, options: ValidationOptions())
        #expect(plan.records == 3)
        let bytes = Array(text.utf8)
        let cuts = Set(plan.shards.dropFirst().map(\.start)).filter { $0 < bytes.count }
        #expect(cuts.count == 2)
        for cut in cuts { #expect(bytes[cut] == UInt8(ascii: ",")) }
        #expect(plan.shards.map(\.records).reduce(0, +) == 3)
        #expect(plan.shards.last?.end == bytes.count)
    }

    @Test func aFileOfNoBytesIsOneEmptyShard() throws {
        let folder = try ScratchFolder()
        let path = try folder.write("e.jsonl", "")
        let plan = try ShardPlanner().plan(path, shards: 4, options: ValidationOptions())
        #expect(plan.shards == [ShardPlan.Shard(start: 0, end: 0, firstRecord: 1, firstLine: 1, records: 0)])
    }

    @Test func blankLinesAreNoRecords() throws {
        let folder = try ScratchFolder()
        let path = try folder.write("b.jsonl", "{\"a\": 1}\n\n  \n{\"a\": 2}\r\n{\"a\": 3}")
        let plan = try ShardPlanner().plan(path, shards: 3, options: ValidationOptions())
        #expect(plan.records == 3)
        #expect(plan.shards.map(\.firstRecord) == [1, 2, 3])
        // The second shard starts at the blank line 3, before record 2.
        #expect(plan.shards.map(\.firstLine) == [1, 3, 5])
    }

    @Test func aShardPastThePlanIsNamed() throws {
        let plan = ShardPlan.Shard(start: 0, end: 9, firstRecord: 1, firstLine: 1, records: 2)
        let value = Value.object(
            OrderedObject([
                ("planVersion", .integer(1)), ("input", .string("p.csv")), ("size", .integer(9)),
                ("format", .string("jsonl")), ("records", .integer(2)),
                (
                    "shards",
                    .array([
                        .object(
                            OrderedObject([
                                ("start", .integer(Int64(plan.start))), ("end", .integer(Int64(plan.end))),
                                ("firstRecord", .integer(1)), ("firstLine", .integer(1)), ("records", .integer(2)),
                            ]))
                    ])
                ),
            ]))
        let read = try ShardPlan(value, path: "plan.json")
        #expect(read.shards == [plan])
        #expect(throws: FerryError.shardNoSuchShard(1, count: 1)) { try ShardRange(read, shard: 1) }
        #expect(FerryError.shardNoSuchShard(1, count: 1).arguments == [.ungrouped(1), .ungrouped(0)])
        #expect(throws: FerryError.shardBadPlan("plan.json")) { try ShardPlan(.array([]), path: "plan.json") }
    }
}
