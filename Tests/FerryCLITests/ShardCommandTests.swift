import Foundation
import Testing

/// `ferry plan`, `--plan/--shard` and `--range` on convert and validate,
/// and `validate --combine`: the shards' outputs, concatenated, are the
/// one-machine output byte for byte, and their combined report is the
/// one-machine report.
@Suite struct ShardCommandTests {
    // MARK: - Data

    /// Products whose notes hold quoted line breaks, commas and doubled
    /// quotes (most bytes of the file are inside quotes, so the planner's
    /// targets fall inside them), with a blank line, a negative price, an
    /// empty name, and skus repeated near and far (record 7's at 58, 59
    /// and 118; record 60's at 61). With `delimiterRows`, rows of
    /// delimiters only (which the reader skips) come before the header and
    /// after every 9th record.
    static func productsCSV(delimiterRows: Bool = false) -> String {
        var lines = (delimiterRows ? [",,,"] : []) + ["name,price,sku,notes"]
        for row in 1...120 {
            var name = "Product \(row)"
            var price = "\(row).5"
            var sku = "SKU-\(row)"
            if row == 13 { price = "-2" }
            if row == 77 { name = "" }
            if row == 58 || row == 59 || row == 118 { sku = "SKU-7" }
            if row == 61 { sku = "SKU-60" }
            let notes = "\"line one of \(row)\nline two, \"\"quoted\"\"\nline three\n\nend\""
            lines.append("\(name),\(price),\(sku),\(notes)")
            if row == 40 { lines.append("") }
            if delimiterRows && row % 9 == 0 { lines.append(row % 2 == 0 ? ",,," : ",,,,,,,,") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The inputs: the CSV above, the same with rows of delimiters only
    /// (`d.csv`), and the same records as JSON Lines, pretty JSON and
    /// compact JSON (converted by ferry, kind generic so that the bad
    /// records pass).
    static func inputs(in folder: ScratchFolder) throws -> [String: String] {
        let csv = try folder.write("p.csv", productsCSV())
        var inputs = ["csv": csv, "d.csv": try folder.write("d.csv", productsCSV(delimiterRows: true))]
        for (name, extra) in [("p.jsonl", [String]()), ("p.json", []), ("c.json", ["--compact"])] {
            let path = folder.path(name)
            let made = try Ferry.run(["convert", csv, path, "--kind", "generic", "-q"] + extra)
            #expect(made.status == 0, "\(made.err)")
            inputs[name] = path
        }
        return inputs
    }

    static let shardCounts = [1, 2, 7, 64]

    /// What each input is converted to.
    static let outputs: [String: [[String]]] = [
        "csv": [["--to", "json"], ["--to", "csv"]],
        "d.csv": [["--to", "json"], ["--to", "csv"]],
        "p.jsonl": [["--to", "json"], ["--to", "jsonl"]],
        "p.json": [["--to", "json"], ["--to", "csv"]],
        "c.json": [["--to", "json", "--compact"]],
    ]

    /// Plans `input` in `count` shards, in the folder as `plan-<count>.json`.
    static func plan(_ input: String, _ count: Int, in folder: ScratchFolder) throws -> (path: String, plan: [String: Any]) {
        let path = folder.path("plan-\(URL(fileURLWithPath: input).lastPathComponent)-\(count).json")
        let result = try Ferry.run(["plan", input, "--shards", String(count)])
        #expect(result.status == 0, "\(result.err)")
        try Data(result.stdout).write(to: URL(fileURLWithPath: path))
        let plan = try #require(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        return (path, plan)
    }

    // MARK: - The plan

    /// With rows of delimiters only too, which are no records.
    @Test(arguments: shardCounts, [false, true])
    func rangesCoverTheFileInOrderAndStartAtRecords(count: Int, delimiterRows: Bool) throws {
        let folder = try ScratchFolder()
        let input = try folder.write("p.csv", Self.productsCSV(delimiterRows: delimiterRows))
        let bytes = try folder.read("p.csv")
        let (_, plan) = try Self.plan(input, count, in: folder)
        let shards = try #require(plan["shards"] as? [[String: Int]])
        #expect(shards.count == count)
        #expect(plan["records"] as? Int == 120)
        var end = 0
        var records = 0
        var naiveCutsDiffer = false
        for (index, shard) in shards.enumerated() {
            let start = try #require(shard["start"])
            #expect(start == end, "shard \(index) starts where the one before ended")
            end = try #require(shard["end"])
            #expect(start <= end)
            #expect(shard["firstRecord"] == records + 1)
            records += try #require(shard["records"])
            // The line is the file's: one more than the line ends before it.
            #expect(shard["firstLine"] == bytes[..<start].count(where: { $0 == 0x0A }) + 1)
            if index > 0 {
                // The first line feed at or after the target is not always
                // a row end: the planner did not cut there.
                let target = bytes.count * index / count
                if let lineFeed = bytes[target...].firstIndex(of: 0x0A), lineFeed + 1 != start, start != end {
                    naiveCutsDiffer = true
                }
            }
        }
        #expect(end == bytes.count)
        #expect(records == 120)
        if count >= 7 { #expect(naiveCutsDiffer, "some target should fall inside a quoted field") }
    }

    /// A header whose quote is never closed runs to the end of the file:
    /// the planner stops at `--max-record-bytes` instead of reading the
    /// whole file into memory as the header.
    @Test func anUnclosedQuoteInTheHeaderStopsAtTheRecordLimit() throws {
        let folder = try ScratchFolder()
        let rows = (1...400).map { "P\($0),\($0).5\n" }.joined()
        let input = try folder.write("p.csv", "\"name,price\n" + rows)
        let result = try Ferry.run(["plan", input, "--shards", "2", "--max-record-bytes", "1000"])
        #expect(result.status == 1, "\(result.err)")
        #expect(result.err.contains("[limit.recordTooLarge]"), "\(result.err)")
        let good = try folder.write("q.csv", "name,price\n" + rows)
        #expect(try Ferry.run(["plan", good, "--shards", "2", "--max-record-bytes", "1000"]).status == 0)
    }

    /// `--jobs` says how many threads read the parts of a large file; the
    /// plan is the same for any number, and 0 is refused.
    @Test func thePlanIsTheSameForEveryNumberOfJobs() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("p.csv", Self.productsCSV())
        let plans = try [1, 2, 5].map { jobs in try Ferry.run(["plan", input, "--shards", "3", "--jobs", String(jobs)]) }
        #expect(plans.allSatisfy { $0.status == 0 })
        #expect(plans[1].stdout == plans[0].stdout && plans[2].stdout == plans[0].stdout)
        #expect(try Ferry.run(["plan", input, "--shards", "3", "--jobs", "0"]).status == 2)
    }

    @Test func moreShardsThanRecordsLeavesSomeEmpty() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("p.jsonl", "{\"a\": 1}\n{\"a\": 2}\n{\"a\": 3}\n")
        let (_, plan) = try Self.plan(input, 7, in: folder)
        let shards = try #require(plan["shards"] as? [[String: Int]])
        #expect(shards.count == 7)
        #expect(shards.filter { $0["start"] == $0["end"] }.count == 4)
        #expect(shards.filter { $0["records"] == 1 }.count == 3)
    }

    // MARK: - Convert

    @Test(arguments: ["csv", "d.csv", "p.jsonl", "p.json", "c.json"])
    func concatenatedShardsAreTheOneMachineOutput(input name: String) throws {
        let folder = try ScratchFolder()
        let input = try #require(try Self.inputs(in: folder)[name])
        for count in Self.shardCounts {
            let (plan, _) = try Self.plan(input, count, in: folder)
            for output in Self.outputs[name] ?? [] {
                let whole = try Ferry.run(["convert", input, "-", "--kind", "generic"] + output)
                #expect(whole.status == 0, "\(whole.err)")
                var joined: [UInt8] = []
                for shard in 0..<count {
                    let part = try Ferry.run(
                        ["convert", input, "-", "--kind", "generic", "--plan", plan, "--shard", String(shard)] + output)
                    #expect(part.status == 0, "\(part.err)")
                    joined += part.stdout
                }
                #expect(joined == whole.stdout, "\(name) in \(count) shards, \(output)")
                #expect(!whole.stdout.isEmpty)
            }
        }
    }

    /// Excel's `sep=;` line is no record: the plan's header row is the one
    /// after it, and every shard reads as the whole file does, with or
    /// without a header.
    @Test(arguments: [[], ["--no-header"]])
    func aSepLineIsSkippedByEveryShard(options: [String]) throws {
        let folder = try ScratchFolder()
        let input = try folder.write(
            "sep.csv", "sep=;\n" + Self.productsCSV().replacingOccurrences(of: ",", with: ";"))
        for count in [2, 7] {
            let plan = folder.path("sep-\(count).json")
            let planned = try Ferry.run(["plan", input, "--shards", String(count)] + options)
            #expect(planned.status == 0, "\(planned.err)")
            try Data(planned.stdout).write(to: URL(fileURLWithPath: plan))
            let parsed = try #require(JSONSerialization.jsonObject(with: Data(planned.stdout)) as? [String: Any])
            #expect(parsed["records"] as? Int == (options.isEmpty ? 120 : 121))
            let output = ["--kind", "generic", "--to", "jsonl"] + options
            let whole = try Ferry.run(["convert", input, "-"] + output)
            #expect(whole.status == 0, "\(whole.err)")
            var joined: [UInt8] = []
            for shard in 0..<count {
                let part = try Ferry.run(["convert", input, "-", "--plan", plan, "--shard", String(shard)] + output)
                #expect(part.status == 0, "\(part.err)")
                joined += part.stdout
            }
            #expect(joined == whole.stdout, "\(count) shards, \(options)")
            #expect(String(decoding: whole.stdout, as: UTF8.self).hasPrefix(options.isEmpty ? "{\"name\":\"Product 1\"" : "{\"column1\":\"name\""))
        }
    }

    @Test func rangeOptionsGiveTheShardOfThePlan() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("p.csv", Self.productsCSV())
        let (plan, parsed) = try Self.plan(input, 7, in: folder)
        let shards = try #require(parsed["shards"] as? [[String: Int]])
        for (index, shard) in shards.enumerated() {
            let byPlan = try Ferry.run([
                "convert", input, "-", "--to", "jsonl", "--kind", "generic", "--plan", plan, "--shard", String(index),
            ])
            let byRange = try Ferry.run([
                "convert", input, "-", "--to", "jsonl", "--kind", "generic", "--range", "\(shard["start"] ?? 0):\(shard["end"] ?? 0)",
                "--first-record", String(shard["firstRecord"] ?? 0), "--first-line", String(shard["firstLine"] ?? 0),
            ])
            #expect(byPlan.status == 0 && byRange.status == 0, "\(byPlan.err)\(byRange.err)")
            #expect(byPlan.stdout == byRange.stdout)
        }
    }

    @Test func headerAlwaysAndNeverOnCSVOutput() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("p.csv", Self.productsCSV())
        let (plan, _) = try Self.plan(input, 2, in: folder)
        let header = "name,price,sku,notes\n"
        let always = try Ferry.run(["convert", input, "-", "--to", "csv", "-k", "generic", "--plan", plan, "--shard", "1", "--header", "always"])
        #expect(always.out.hasPrefix(header), "\(always.err)")
        let auto = try Ferry.run(["convert", input, "-", "--to", "csv", "-k", "generic", "--plan", plan, "--shard", "1"])
        #expect(!auto.out.hasPrefix(header) && !auto.out.isEmpty)
        let never = try Ferry.run(["convert", input, "-", "--to", "csv", "-k", "generic", "--plan", plan, "--shard", "0", "--header", "never"])
        #expect(!never.out.hasPrefix(header) && !never.out.isEmpty)
    }

    @Test func convertErrorInALaterShardIsAtTheFilesPlace() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("p.csv", Self.productsCSV())
        // Where a whole-file run names record 77's empty name.
        let whole = try Ferry.run(["validate", input])
        let expected = try #require(whole.diagnostics.first { $0.record == 77 })
        #expect(expected.code == "record.emptyField" && expected.line != nil && expected.column != nil)
        let (plan, parsed) = try Self.plan(input, 7, in: folder)
        let shards = try #require(parsed["shards"] as? [[String: Int]])
        let index = try #require(
            shards.firstIndex { ($0["firstRecord"] ?? 0) <= 77 && 77 < ($0["firstRecord"] ?? 0) + ($0["records"] ?? 0) })
        #expect(index > 0, "the bad record is not in the first shard")
        let part = try Ferry.run(["convert", input, "-", "--to", "jsonl", "--plan", plan, "--shard", String(index)])
        #expect(part.status == 1)
        #expect(part.diagnostics.first == expected)
    }

    // MARK: - Validate and combine

    @Test(arguments: ["csv", "d.csv", "p.jsonl", "p.json", "c.json"])
    func combinedReportIsTheOneMachineReport(input name: String) throws {
        let folder = try ScratchFolder()
        let input = try #require(try Self.inputs(in: folder)[name])
        for count in Self.shardCounts {
            let (plan, _) = try Self.plan(input, count, in: folder)
            var reports: [String] = []
            for shard in 0..<count {
                let report = folder.path("\(name)-\(count)-\(shard).json")
                let part = try Ferry.run([
                    "validate", input, "--kind", "product", "--plan", plan, "--shard", String(shard), "--report-format", "json",
                    "--report-file", report, "-q",
                ])
                #expect(part.status <= 1, "\(part.err)")
                reports.append(report)
            }
            for (form, cap) in [("json", "1000"), ("text", "1000"), ("sarif", "1000"), ("json", "3")] {
                let whole = try Ferry.run(["validate", input, "--kind", "product", "--report-format", form, "--max-errors", cap])
                let combined = try Ferry.run(["validate", "--combine"] + reports + ["--report-format", form, "--max-errors", cap])
                #expect(combined.status == whole.status, "\(combined.err)")
                #expect(combined.out == whole.out, "\(name) in \(count) shards, \(form), cap \(cap)")
            }
            // The duplicates across shards are there: record 58, 59 and 118 repeat record 7.
            let whole = try Ferry.run(["validate", input, "--kind", "product"])
            let duplicates = whole.diagnostics.filter { $0.code == "record.duplicateKey" }.map(\.record)
            #expect(duplicates == [58, 59, 61, 118])
        }
    }

    /// Photos that are not there, a reference out of the folder and a
    /// renamed column: the shards' reports combine to the whole file's,
    /// with the photos checked or skipped, and with `--strict`.
    @Test(arguments: [[], ["--photos", "skip"], ["--strict"], ["--strict", "--photos", "skip"]])
    func combinedPhotosAndStrictAreTheOneMachineReport(_ options: [String]) throws {
        let folder = try ScratchFolder()
        try folder.write("photos/p5.png", PhotoTests.pngMagic + [0, 0])
        var lines = ["name,price,photo,sku,name"]
        for row in 1...90 {
            let photo = row % 11 == 0 ? "/etc/passwd" : row % 3 == 0 ? "photos/p\(row).png" : ""
            lines.append("Product \(row),\(row == 40 ? "-1" : "\(row).5"),\(photo),SKU-\(row % 80),x")
        }
        let input = try folder.write("p.csv", lines.joined(separator: "\n") + "\n")
        for count in [2, 7] {
            let (plan, _) = try Self.plan(input, count, in: folder)
            var reports: [String] = []
            for shard in 0..<count {
                let report = folder.path("\(count)-\(shard).json")
                let part = try Ferry.run(
                    ["validate", input, "--plan", plan, "--shard", String(shard), "--report-format", "json", "-o", report, "-q"]
                        + options)
                #expect(part.status <= 3, "\(part.err)")
                reports.append(report)
            }
            for (form, cap) in [("json", "1000"), ("text", "1000"), ("json", "4")] {
                let whole = try Ferry.run(["validate", input, "--report-format", form, "--max-errors", cap] + options)
                let combined = try Ferry.run(
                    ["validate", "--combine"] + reports + ["--report-format", form, "--max-errors", cap]
                        + options.filter { $0 == "--strict" })
                #expect(combined.status == whole.status, "\(combined.err)")
                #expect(combined.out == whole.out, "\(options) in \(count) shards, \(form), cap \(cap)")
            }
        }
    }

    @Test func planAndShardReportFollowTheirSchemas() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("p.csv", Self.productsCSV())
        let (plan, _) = try Self.plan(input, 3, in: folder)
        let formats = TestPaths.packageRoot.appendingPathComponent("Formats")
        #expect(try PythonCheck.run("json", plan, schema: formats.appendingPathComponent("plan.schema.json").path) == "valid")
        let report = folder.path("r1.json")
        let result = try Ferry.run(["validate", input, "--plan", plan, "--shard", "1", "--report-format", "json", "-o", report, "-q"])
        #expect(result.status == 1, "\(result.err)")
        #expect(try PythonCheck.run("json", report, schema: formats.appendingPathComponent("report.schema.json").path) == "valid")
        let parsed = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        let shard = try #require(parsed["shard"] as? [String: Any])
        #expect((shard["keys"] as? [Any])?.isEmpty == false, "the shard's unique keys are in its report")
    }

    // MARK: - Failures

    @Test func failuresAreCodedAndPlaced() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("p.csv", Self.productsCSV())
        let gzip = try folder.write("p.csv.gz", [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0, 0x03, 0x03, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        let object = try folder.write("o.json", "{\"name\": \"Wii\"}\n")
        let (plan, _) = try Self.plan(input, 2, in: folder)
        let cases: [(arguments: [String], status: Int32, code: String, file: String?)] = [
            (["plan", gzip, "--shards", "2"], 2, "shard.compressed", gzip),
            (["plan", object, "--shards", "2"], 2, "shard.notSplittable", object),
            (["convert", input, "-", "--plan", plan, "--shard", "2"], 2, "shard.noSuchShard", nil),
            (["convert", input, "-", "--range", "9:3"], 2, "shard.badRange", nil),
            (["convert", input, "-", "--range", "0:99999999"], 2, "shard.badRange", nil),
            (["convert", input, folder.path("o.plist"), "--plan", plan, "--shard", "0"], 2, "shard.outputNotConcatenable", nil),
            (["convert", input, "-", "--shard", "1"], 2, "shard.optionNeeds", nil),
            (["convert", object, "-", "--plan", plan, "--shard", "0"], 2, "shard.planStale", object),
            (["validate", "--combine", plan], 2, "shard.badReport", plan),
        ]
        for (arguments, status, code, file) in cases {
            let result = try Ferry.run(arguments)
            #expect(result.status == status, "\(arguments): \(result.err)")
            #expect(result.diagnosticCodes.first == code, "\(arguments): \(result.err)")
            if let file { #expect(result.diagnostics.first?.file == file) }
        }
    }

    /// A shard's report whose packed keys are damaged (not base64, not
    /// whole keys, one string too few, a record past the file's end) is
    /// `shard.badReport`.
    @Test func combineRefusesDamagedKeys() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("p.csv", Self.productsCSV())
        let report = folder.path("r.json")
        _ = try Ferry.run(["validate", input, "--range", "0:\(Self.productsCSV().utf8.count)", "--report-format", "json", "-o", report, "-q"])
        let original = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        let keys = try #require((original["shard"] as? [String: Any])?["keys"] as? [String])
        #expect(keys.count == 1 && !keys[0].isEmpty)
        // A key whose record starts past the end of the file.
        var pastTheEnd = [UInt8](repeating: 7, count: 16)
        for word in [UInt64(0), UInt64(1 << 40)] { withUnsafeBytes(of: word.littleEndian) { pastTheEnd += $0 } }
        for damaged in [["%%%"], [String(keys[0].dropLast(4))], [], [Data(pastTheEnd).base64EncodedString()]] as [[String]] {
            var changed = original
            var shard = try #require(changed["shard"] as? [String: Any])
            shard["keys"] = damaged
            changed["shard"] = shard
            try JSONSerialization.data(withJSONObject: changed).write(to: URL(fileURLWithPath: report))
            let result = try Ferry.run(["validate", "--combine", report])
            #expect(result.status == 2, "\(damaged): \(result.err)")
            #expect(result.diagnosticCodes.first == "shard.badReport", "\(damaged): \(result.err)")
        }
    }

    /// Shards' reports whose numbers no shard writes (a record number of
    /// Int.min, a negative count, counts that add up past Int.max) are
    /// `shard.badReport`, not a trap.
    @Test func combineRefusesNumbersNoShardWrites() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("p.csv", Self.productsCSV())
        let (plan, _) = try Self.plan(input, 2, in: folder)
        var originals: [[String: Any]] = []
        var reports: [String] = []
        for shard in [0, 1] {
            let report = folder.path("r\(shard).json")
            _ = try Ferry.run(["validate", input, "--plan", plan, "--shard", String(shard), "--report-format", "json", "-o", report, "-q"])
            let data = try Data(contentsOf: URL(fileURLWithPath: report))
            originals.append(try #require(JSONSerialization.jsonObject(with: data) as? [String: Any]))
            reports.append(report)
        }
        #expect((originals[0]["errors"] as? [Any])?.isEmpty == false, "the first shard has errors to damage")
        /// Each report with `change` made to it.
        func damaged(_ change: (inout [String: Any]) -> Void, in shards: [Int]) throws {
            for shard in [0, 1] {
                var report = originals[shard]
                if shards.contains(shard) { change(&report) }
                try JSONSerialization.data(withJSONObject: report).write(to: URL(fileURLWithPath: reports[shard]))
            }
        }
        func setCount(_ key: String, _ value: Int) -> (inout [String: Any]) -> Void {
            { report in
                guard var files = report["files"] as? [[String: Any]] else { return }
                files[0][key] = value
                report["files"] = files
            }
        }
        let cases: [(name: String, change: (inout [String: Any]) -> Void, shards: [Int])] = [
            ("record Int.min", { report in
                guard var errors = report["errors"] as? [[String: Any]] else { return }
                errors[0]["record"] = Int.min
                report["errors"] = errors
            }, [0]),
            ("records -1", setCount("records", -1), [1]),
            ("records Int.max twice", setCount("records", Int.max), [0, 1]),
            ("uncheckedRecords Int.max twice", setCount("uncheckedRecords", Int.max), [0, 1]),
        ]
        for (name, change, shards) in cases {
            try damaged(change, in: shards)
            let result = try Ferry.run(["validate", "--combine"] + reports)
            #expect(result.status == 2, "\(name): \(result.err)")
            #expect(result.diagnosticCodes.first == "shard.badReport", "\(name): \(result.err)")
        }
    }

    /// A plan whose shard numbers `ferry plan` never writes (a first
    /// record or line below 1 or past the file's bytes) is `shard.badPlan`
    /// for convert and validate, not a trap.
    @Test func aPlanWithNumbersNoPlanHasIsBad() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("p.csv", Self.productsCSV())
        let (path, original) = try Self.plan(input, 2, in: folder)
        let size = try #require(original["size"] as? Int)
        let cases: [(key: String, value: Int)] = [
            ("firstRecord", Int.min), ("firstRecord", 0), ("firstRecord", size + 2), ("firstLine", Int.min),
            ("firstLine", 0), ("firstLine", size + 2),
        ]
        for (key, value) in cases {
            var plan = original
            var shards = try #require(plan["shards"] as? [[String: Any]])
            shards[1][key] = value
            plan["shards"] = shards
            try JSONSerialization.data(withJSONObject: plan).write(to: URL(fileURLWithPath: path))
            for command in [["validate", input], ["convert", input, "-", "--to", "jsonl"]] {
                let result = try Ferry.run(command + ["--plan", path, "--shard", "1"])
                #expect(result.status == 2, "\(key) \(value), \(command[0]): \(result.err)")
                #expect(result.diagnosticCodes.first == "shard.badPlan", "\(key) \(value), \(command[0]): \(result.err)")
            }
        }
    }

    /// `--range` with a first record or line past what the file could
    /// hold is refused by name, not an overflow trap when the shard's
    /// diagnostics are shifted by it.
    @Test(arguments: ["--first-record", "--first-line"])
    func rangeNumbersPastTheFileAreRefused(option: String) throws {
        let folder = try ScratchFolder()
        let input = try folder.write("p.csv", Self.productsCSV())
        let size = try #require(try FileManager.default.attributesOfItem(atPath: input)[.size] as? Int)
        for value in [String(Int.max), String(size + 2)] {
            let result = try Ferry.run(["validate", input, "--range", "0:\(size)", option, value])
            #expect(result.status == 2, "\(option) \(value): \(result.err)")
            #expect(result.diagnosticCodes.first == "shard.numbersPastFile", "\(option) \(value): \(result.err)")
        }
        let fits = try Ferry.run(["validate", input, "--range", "0:\(size)", option, String(size + 1)])
        #expect(fits.diagnosticCodes.first != "shard.numbersPastFile", "\(fits.err)")
    }

    @Test func combineRefusesReportsThatLeaveAGap() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("p.csv", Self.productsCSV())
        let (plan, parsed) = try Self.plan(input, 3, in: folder)
        var reports: [String] = []
        for shard in [0, 2] {
            let report = folder.path("r\(shard).json")
            _ = try Ferry.run(["validate", input, "--plan", plan, "--shard", String(shard), "--report-format", "json", "-o", report, "-q"])
            reports.append(report)
        }
        let result = try Ferry.run(["validate", "--combine"] + reports)
        #expect(result.status == 2)
        let line = try #require(result.diagnostics.first)
        #expect(line.code == "shard.reportsNotContiguous")
        #expect(line.file == reports[1])
        let shards = try #require(parsed["shards"] as? [[String: Int]])
        #expect(result.err.contains(" \(shards[0]["end"] ?? -1)"), "the expected offset is an argument")
    }
}
