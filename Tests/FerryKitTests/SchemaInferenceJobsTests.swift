import FerryCore
import FerryGzip
import FerryTestSupport
import Foundation
import Testing

@testable import FerryKit

/// `schema infer --jobs N` reads a large file in the parts `validate` cuts
/// (`SchemaInference+Parts.swift`), and types CSV columns from the cells it
/// profiles rather than in a pass of its own (`FieldProfiles`): the schema
/// must be the one a single pass gives, to the byte, for every N, and the
/// one the reader's own inference gives.
@Suite struct SchemaInferenceJobsTests {
    let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder() }

    /// A file with a column of each kind: integers, large integers,
    /// numbers (one pair equal as numbers, not as text), a column whose
    /// integers meet a fraction only near the end, booleans, one whose
    /// booleans meet `yes` at the end, a zip code with leading zeros,
    /// empties, few distinct values, unique text, keys that repeat only
    /// across the middle, dates, emails, and quoted line breaks in every
    /// third row.
    static func everyKind(rows: Int) -> String {
        let categories = ["games", "books", "music"]
        var text = "id,big,measure,ratio,active,flag,zip,stock,category,code,pair,released,contact,note,empty,late\n"
        for index in 0..<rows {
            let last = index == rows - 1
            let measure = index == 10 ? "7.0" : index == rows - 3 ? "7.00" : "\(index).5"
            let ratio = index == rows - 2 ? "2.25" : "\(index % 9 - 4)"
            let active = index % 7 == 0 ? "" : "\(index % 2 == 0)"
            let flag = last ? "yes" : "\(index % 3 == 0)"
            let stock = index % 5 == 0 ? "" : "\(index % 40)"
            let day = String(format: "%02d", index % 28 + 1)
            let note = index % 3 == 0 ? "\"line \(index)\nnext, \"\"quoted\"\"\"" : "plain \(index % 4)"
            text += "\(index + 1),\(9_007_199_254_740_993 + index * 1_000),\(measure),\(ratio),\(active),\(flag),"
            text += "0\(index % 1000),\(stock),\(categories[index % 3]),C-\(index),P\(index % (rows / 2)),"
            text += "2024-02-\(day),u\(index)@example.com,\(note),,\(last ? "5" : "")\n"
        }
        return text
    }

    /// The schema text of `path` with `jobs`, parts cut from 1 KiB on.
    func inferred(_ path: String, jobs: Int) throws -> String {
        var inference = SchemaInference()
        inference.jobs = jobs
        inference.partsThreshold = 1 << 10
        return SchemaInference.text(of: try inference.infer([path]).schema)
    }

    @Test func everyJobsGivesTheSchemaOfOnePass() throws {
        let path = try scratch.write("every.csv", Self.everyKind(rows: 3_000))
        // The file is cut, and its parts read cleanly: they are merged, not dropped.
        let source = try PartSource(
            path: path, registry: .standard, from: nil, codecOptions: OptionValues(), limits: ReadLimits())
        for jobs in [2, 3] {
            let plan = try #require(PartPlan(source, threshold: 1 << 10, jobs: jobs, parts: jobs))
            #expect(plan.cuts.count == jobs - 1)
            var inference = SchemaInference()
            inference.jobs = jobs
            let codec = try #require(CodecRegistry.standard.codec(id: "csv"))
            #expect(inference.profiles(of: plan, codec: codec, limits: ReadLimits()) != nil)
        }
        let single = try inferred(path, jobs: 1)
        for jobs in [2, 3, 4] { #expect(try inferred(path, jobs: jobs) == single, "--jobs \(jobs)") }

        let schema = try #require(try JSONSerialization.jsonObject(with: Data(single.utf8)) as? [String: Any])
        let properties = try #require(schema["properties"] as? [String: [String: Any]])
        func type(_ name: String) -> String? { properties[name]?["type"] as? String }
        #expect(type("id") == "integer" && properties["id"]?["x-ferry-unique"] as? Bool == true)
        #expect(type("big") == "integer" && properties["big"]?["x-ferry-unique"] as? Bool == true)
        // 7.0 and 7.00 are one key as numbers.
        #expect(type("measure") == "number" && properties["measure"]?["x-ferry-unique"] == nil)
        #expect(type("ratio") == "number")
        #expect(type("active") == "boolean" && type("flag") == "string")
        #expect(type("zip") == "string" && type("stock") == "integer" && type("late") == "integer")
        #expect(properties["category"]?["enum"] as? [String] == ["books", "games", "music"])
        #expect(type("code") == "string" && properties["code"]?["x-ferry-unique"] as? Bool == true)
        #expect(properties["pair"]?["x-ferry-unique"] == nil)
        #expect(properties["released"]?["format"] as? String == "date")
        #expect(properties["contact"]?["format"] as? String == "email")
        #expect(type("empty") == "string")
        let required = try #require(schema["required"] as? [String])
        #expect(!required.contains("active") && !required.contains("stock") && !required.contains("late"))
        #expect(required.contains("empty") && required.contains("zip"))
    }

    /// A key that the first part and the last part both have (as key
    /// text: ` T-0 ` is `T-0`; `0.50` is the number `0.5`) makes its
    /// field no unique one, whether the parts are logged apart and matched
    /// at the end or the file is read in one pass.
    @Test func aKeyRepeatedAcrossTheCut() throws {
        let rows = 3_000
        var text = "id,twice,once,amount\n"
        for index in 0..<rows {
            let last = index == rows - 1
            text += "\(index + 1),\(last ? " T-0 " : "T-\(index)"),O-\(index),\(last ? "0.50" : "\(index).5")\n"
        }
        let path = try scratch.write("cut.csv", text)
        let source = try PartSource(
            path: path, registry: .standard, from: nil, codecOptions: OptionValues(), limits: ReadLimits())
        for jobs in [2, 3] {
            let plan = try #require(PartPlan(source, threshold: 1 << 10, jobs: jobs, parts: jobs))
            #expect(plan.cuts.count == jobs - 1)
        }
        let single = try inferred(path, jobs: 1)
        for jobs in [2, 3] { #expect(try inferred(path, jobs: jobs) == single, "--jobs \(jobs)") }
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(single.utf8)) as? [String: Any])
        let properties = try #require(schema["properties"] as? [String: [String: Any]])
        func unique(_ name: String) -> Bool { properties[name]?["x-ferry-unique"] as? Bool == true }
        #expect(unique("id") && unique("once"))
        #expect(!unique("twice") && !unique("amount"))
        #expect(properties["amount"]?["type"] as? String == "number")
    }

    /// The types drawn from the profiled cells are those the reader's own
    /// inference gives: gzip input, which cannot be read twice, is typed
    /// by the reader over its window, which holds all of this file.
    @Test func profiledTypesAreTheReadersTypes() throws {
        let text = Self.everyKind(rows: 2_000)
        #expect(text.utf8.count < 1 << 20)
        let path = try scratch.write("every.csv", text)
        let output = MemoryOutput()
        let gzip = try GzipOutput(output, level: 6)
        try gzip.write(Array(text.utf8))
        try gzip.finish()
        let compressed = try scratch.write("every.csv.gz", output.bytes)
        #expect(try inferred(path, jobs: 1) == (try inferred(compressed, jobs: 1)))
        #expect(try inferred(path, jobs: 3) == (try inferred(compressed, jobs: 1)))
    }

    /// The schema of every part count passes the file.
    @Test func theSchemaPassesTheFile() throws {
        let path = try scratch.write("every.csv", Self.everyKind(rows: 3_000))
        var inference = SchemaInference()
        inference.jobs = 3
        inference.partsThreshold = 1 << 10
        let schema = try Schema(document: try inference.infer([path]).schema, source: "every.schema.json")
        var options = ValidationOptions()
        options.schema = schema
        let report = Validator().validate([path], options: options)
        #expect(report.errorCount == 0, "\(report.diagnostics.prefix(3))")
    }
}
