import FerryTestSupport
import Foundation
import Testing

/// `ferry merge`, through the binary: three sources in three formats (a
/// keyed archive, a CSV and a JSON) whose keys overlap, with identical and
/// conflicting duplicates, under each policy. Every merge's JSON report is
/// held to the counts identity.
@Suite struct MergeCommandTests {
    // MARK: - Data

    /// The three sources, in a scratch folder:
    ///
    ///     a.archive  A-1 Wii 269.0      A-2 Xbox 360 299.0   A-3 Kinect 99.0
    ///     b.csv      A-2 Xbox 360 299   A-3 Kinect 89        A-4 Zelda 49
    ///     c.json     A-1 Wii 2.69E2     A-4 Zelda 59         A-5 Portal 19.99   " A-3 " Kinect 79
    ///
    /// 10 records, 5 keys: 2 identical duplicates (b's A-2, c's A-1) and 3
    /// conflicts (b's A-3, c's A-4, c's A-3).
    struct Sources {
        let folder: ScratchFolder
        let paths: [String]

        init() throws {
            folder = try ScratchFolder()
            let archiveJSON = try folder.write(
                "a.json",
                #"""
                [{"sku":"A-1","name":"Wii","price":269.0},
                 {"sku":"A-2","name":"Xbox 360","price":299.0},
                 {"sku":"A-3","name":"Kinect","price":99.0}]
                """#)
            let archive = folder.path("a.archive")
            let made = try Ferry.run(["convert", archiveJSON, archive, "--to", "archive"])
            #expect(made.status == 0, "\(made.err)")
            let csv = try folder.write("b.csv", "sku,name,price\nA-2,Xbox 360,299\nA-3,Kinect,89\nA-4,Zelda,49\n")
            let json = try folder.write(
                "c.json",
                #"""
                [
                  {"sku": "A-1", "name": "Wii", "price": 2.69E2},
                  {"sku": "A-4", "name": "Zelda", "price": 59},
                  {"sku": "A-5", "name": "Portal", "price": 19.99},
                  {"sku": " A-3 ", "name": "Kinect", "price": 79}
                ]
                """#)
            paths = [archive, csv, json]
        }
    }

    /// Runs `ferry merge` on `inputs` with a JSON report, checks the counts
    /// identity, and returns the result and the report.
    static func merge(_ inputs: [String], _ options: [String], in folder: ScratchFolder) throws -> (
        result: ProcessResult, report: [String: Any]
    ) {
        let reportPath = folder.path("report-\(UUID().uuidString).json")
        let result = try Ferry.run(["merge"] + inputs + options + ["--report-file", reportPath, "--report-format", "json"])
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: reportPath))) as? [String: Any],
            "no report: \(result.err)")
        let counts = try #require(report["counts"] as? [String: Int])
        let recordsIn = try #require(counts["recordsIn"])
        #expect(
            recordsIn == counts["recordsOut"]! + counts["identicalDuplicates"]! + counts["conflictsResolved"]!,
            "records in = out + identical + resolved: \(counts)")
        let conflicts = try #require(report["conflicts"] as? [[String: Any]])
        #expect(conflicts.count == counts["conflictsResolved"])
        return (result, report)
    }

    /// The output's records as (sku, name, price) text.
    static func rows(_ path: String) throws -> [String] {
        let records = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [[String: Any]])
        return records.map { record in
            let price = (record["price"] as? NSNumber).map { String(format: "%g", $0.doubleValue) } ?? "-"
            return "\(record["sku"] ?? "-") \(record["name"] ?? "-") \(price)"
        }
    }

    static func counts(_ report: [String: Any]) -> [String: Int] { report["counts"] as? [String: Int] ?? [:] }

    // MARK: - Policies

    @Test func keepFirstKeepsTheFirstRecordOfEachKeyInFirstSeenOrder() throws {
        let sources = try Sources()
        let output = sources.folder.path("out.json")
        let (result, report) = try Self.merge(sources.paths, ["--output", output], in: sources.folder)
        #expect(result.status == 0, "\(result.err)")
        #expect(
            try Self.rows(output) == ["A-1 Wii 269", "A-2 Xbox 360 299", "A-3 Kinect 99", "A-4 Zelda 49", "A-5 Portal 19.99"])
        #expect(
            Self.counts(report)
                == ["recordsIn": 10, "recordsOut": 5, "identicalDuplicates": 2, "conflictsResolved": 3, "recordsWithoutKey": 0])
        #expect(report["key"] as? [String] == ["sku"])
        #expect(report["keyChosenBy"] as? String == "default")
        #expect(report["written"] as? Bool == true)
        let sourcesRead = try #require(report["sources"] as? [[String: Any]])
        #expect(sourcesRead.map { $0["format"] as? String } == ["archive", "csv", "json"])
        #expect(sourcesRead.map { $0["records"] as? Int } == [3, 3, 4])
    }

    @Test func everyConflictHasItsKeyFieldsAndPlaces() throws {
        let sources = try Sources()
        let output = sources.folder.path("out.json")
        let (_, report) = try Self.merge(sources.paths, ["--output", output], in: sources.folder)
        let conflicts = try #require(report["conflicts"] as? [[String: Any]])
        func place(_ value: Any?) -> String {
            guard let place = value as? [String: Any] else { return "?" }
            let file = (place["file"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } ?? "?"
            return "\(file):\(place["line"] as? Int ?? 0)#\(place["record"] as? Int ?? 0)"
        }
        // The archive has no lines; its records are named by index.
        #expect(conflicts.map { place($0["first"]) } == ["a.archive:0#3", "b.csv:4#3", "a.archive:0#3"])
        #expect(conflicts.map { place($0["second"]) } == ["b.csv:3#2", "c.json:3#2", "c.json:5#4"])
        #expect(conflicts.map { $0["key"] as? [String] } == [["A-3"], ["A-4"], ["A-3"]])
        #expect(conflicts.map { $0["kept"] as? String } == ["first", "first", "first"])
        let differences = conflicts.map { ($0["differences"] as? [[String: Any]]) ?? [] }
        #expect(differences.map { $0.map { $0["field"] as? String } } == [["price"], ["price"], ["price"]])
        #expect(differences[0][0]["first"] as? Double == 99 && differences[0][0]["second"] as? Double == 89)
        #expect(differences[1][0]["first"] as? Double == 49 && differences[1][0]["second"] as? Double == 59)
    }

    @Test func keepLastPutsTheLastValuesAtTheFirstPlace() throws {
        let sources = try Sources()
        let output = sources.folder.path("out.json")
        let (result, report) = try Self.merge(
            sources.paths, ["--output", output, "--on-conflict", "keep-last"], in: sources.folder)
        #expect(result.status == 0, "\(result.err)")
        #expect(
            try Self.rows(output) == ["A-1 Wii 269", "A-2 Xbox 360 299", " A-3  Kinect 79", "A-4 Zelda 59", "A-5 Portal 19.99"])
        #expect(Self.counts(report)["conflictsResolved"] == 3)
        let conflicts = try #require(report["conflicts"] as? [[String: Any]])
        #expect(conflicts.map { $0["kept"] as? String } == ["second", "second", "second"])
        // The second A-3 conflict is with the record kept by then, b.csv's.
        let first = try #require(conflicts.last?["first"] as? [String: Any])
        #expect((first["file"] as? String)?.hasSuffix("b.csv") == true)
    }

    @Test func failWritesNothingAndExits1() throws {
        let sources = try Sources()
        let output = sources.folder.path("out.json")
        let (result, report) = try Self.merge(
            sources.paths, ["--output", output, "--on-conflict", "fail"], in: sources.folder)
        #expect(result.status == 1)
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try sources.folder.contents().allSatisfy { !$0.contains("ferry-") }, "a temporary file was left")
        #expect(report["written"] as? Bool == false)
        #expect(report["outputFormat"] is NSNull)
        let error = try #require(result.diagnostics.last)
        #expect(error.code == "merge.conflicts")
        #expect(error.file == output)
    }

    /// Inputs with no record have no kind and so no key: the summary says
    /// so in words, not with an empty name.
    @Test func emptyInputsNameNoKey() throws {
        let folder = try ScratchFolder()
        let first = try folder.write("a.jsonl", "")
        let second = try folder.write("b.jsonl", "")
        let result = try Ferry.run(["merge", first, second, "--output", folder.path("out.jsonl")])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err.contains("(key: none)"), "\(result.err)")
        #expect(!result.err.contains("(key: )"))
    }

    @Test func failLeavesAnExistingOutputAsItWas() throws {
        let sources = try Sources()
        let output = try sources.folder.write("out.json", "[]\n")
        let (result, _) = try Self.merge(
            sources.paths, ["--output", output, "--on-conflict", "fail", "--force"], in: sources.folder)
        #expect(result.status == 1)
        #expect(try sources.folder.read("out.json") == Array("[]\n".utf8))
    }

    @Test func sourcesWithoutConflictsMergeUnderFail() throws {
        let sources = try Sources()
        let output = sources.folder.path("out.jsonl")
        let (result, report) = try Self.merge(
            [sources.paths[0], sources.paths[0]], ["--output", output, "--on-conflict", "fail"], in: sources.folder)
        #expect(result.status == 0, "\(result.err)")
        #expect(Self.counts(report)["identicalDuplicates"] == 3)
        #expect(try sources.folder.read("out.jsonl").filter { $0 == 0x0A }.count == 3)
    }

    // MARK: - Keys

    @Test func theDefaultKeyFallsBackToNameWhenARecordLacksASku() throws {
        let folder = try ScratchFolder()
        let first = try folder.write("a.jsonl", "{\"sku\":\"A-1\",\"name\":\"Wii\",\"price\":1}\n")
        let second = try folder.write("b.csv", "name,price\nWii,1\nZelda,2\n")
        let (result, report) = try Self.merge([first, second], ["-o", folder.path("out.json")], in: folder)
        #expect(result.status == 0, "\(result.err)")
        #expect(report["key"] as? [String] == ["name"])
        // The sku only one copy has is a difference.
        #expect(Self.counts(report) == ["recordsIn": 3, "recordsOut": 2, "identicalDuplicates": 0, "conflictsResolved": 1, "recordsWithoutKey": 0])
    }

    @Test func recordsWithoutAKeyAreKeptAndNeverMerged() throws {
        let folder = try ScratchFolder()
        let input = try folder.write(
            "a.jsonl",
            "{\"name\":\"A\",\"code\":\"1\"}\n{\"name\":\"B\"}\n{\"name\":\"B\"}\n{\"name\":\"C\",\"code\":\"1\"}\n")
        let output = folder.path("out.csv")
        let (result, report) = try Self.merge(
            [input], ["-o", output, "--kind", "generic", "--key", "code"], in: folder)
        #expect(result.status == 0, "\(result.err)")
        #expect(Self.counts(report)["recordsWithoutKey"] == 2)
        #expect(Self.counts(report)["recordsOut"] == 3)
        #expect(String(decoding: try folder.read("out.csv"), as: UTF8.self) == "name,code\nA,1\nB,\nB,\n")
    }

    @Test func theCSVHeaderIsTheUnionOfFieldsInFirstSeenOrder() throws {
        let folder = try ScratchFolder()
        let first = try folder.write("a.jsonl", "{\"sku\":\"A-1\",\"name\":\"Wii\",\"price\":1}\n")
        let second = try folder.write("b.jsonl", "{\"sku\":\"A-2\",\"name\":\"Zelda\",\"price\":2,\"notes\":\"n\"}\n")
        let output = folder.path("out.csv")
        let (result, _) = try Self.merge([first, second], ["-o", output], in: folder)
        #expect(result.status == 0, "\(result.err)")
        #expect(String(decoding: try folder.read("out.csv"), as: UTF8.self) == "sku,name,price,notes\nA-1,Wii,1,\nA-2,Zelda,2,n\n")
    }

    // MARK: - On disk

    /// A budget of one byte sends every record to disk: the output and the
    /// report are the same as in memory, under each policy.
    @Test(arguments: ["keep-first", "keep-last", "fail"])
    func aMergeOnDiskGivesWhatOneInMemoryGives(policy: String) throws {
        let sources = try Sources()
        var outputs: [[UInt8]?] = []
        var reports: [[String: Any]] = []
        for budget in ["1G", "1"] {
            let output = sources.folder.path("out-\(budget).csv")
            let (result, report) = try Self.merge(
                sources.paths, ["-o", output, "--on-conflict", policy, "--memory", budget], in: sources.folder)
            #expect(result.status == (policy == "fail" ? 1 : 0), "\(result.err)")
            #expect(report["spilled"] as? Bool == (budget == "1"))
            outputs.append(try? sources.folder.read("out-\(budget).csv"))
            var compared = report
            compared["spilled"] = nil
            compared["output"] = nil
            reports.append(compared)
        }
        #expect(outputs[0] == outputs[1])
        #expect(outputs[0] == nil || policy != "fail")
        let same = try JSONSerialization.data(withJSONObject: reports[0], options: .sortedKeys)
            == JSONSerialization.data(withJSONObject: reports[1], options: .sortedKeys)
        #expect(same, "\(reports)")
        #expect(Self.counts(reports[1])["conflictsResolved"] == 3)
    }

    @Test func aMergeOnDiskFallsBackToTheDefaultKeysFallback() throws {
        let folder = try ScratchFolder()
        let first = try folder.write("a.jsonl", "{\"sku\":\"A-1\",\"name\":\"Wii\",\"price\":1}\n{\"sku\":\"A-2\",\"name\":\"Zelda\",\"price\":2}\n")
        let second = try folder.write("b.csv", "name,price\nWii,1\nZelda,3\nPortal,4\n")
        let (result, report) = try Self.merge(
            [first, second], ["-o", folder.path("out.jsonl"), "--memory", "1"], in: folder)
        #expect(result.status == 0, "\(result.err)")
        #expect(report["key"] as? [String] == ["name"])
        #expect(Self.counts(report) == ["recordsIn": 5, "recordsOut": 3, "identicalDuplicates": 0, "conflictsResolved": 2, "recordsWithoutKey": 0])
        #expect(String(decoding: try folder.read("out.jsonl"), as: UTF8.self).split(separator: "\n").count == 3)
    }

    // MARK: - Usage errors

    @Test func inputsOfTwoKindsAreAUsageError() throws {
        let folder = try ScratchFolder()
        let products = try folder.write("p.jsonl", "{\"name\":\"Wii\",\"price\":1}\n")
        let books = try folder.write("b.jsonl", "{\"title\":\"Dune\",\"author\":\"Frank Herbert\"}\n")
        let result = try Ferry.run(["merge", products, books, "-o", folder.path("out.json")])
        #expect(result.status == 2)
        let error = try #require(result.diagnostics.first)
        #expect(error.code == "merge.kindMismatch")
        #expect(error.file == books)
        #expect(!FileManager.default.fileExists(atPath: folder.path("out.json")))
    }

    @Test func genericRecordsNeedAKey() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("g.jsonl", "{\"a\":1}\n")
        let result = try Ferry.run(["merge", input, "-o", folder.path("out.json"), "--kind", "generic"])
        #expect(result.status == 2)
        #expect(result.diagnostics.first?.code == "merge.keyRequired")
        let inferred = try Ferry.run(["merge", input, "-o", folder.path("out.json")])
        #expect(inferred.status == 2)
        #expect(inferred.diagnostics.first?.code == "merge.keyRequired")
    }

    @Test func anInvalidRecordStopsTheMergeAtItsPlace() throws {
        let folder = try ScratchFolder()
        let good = try folder.write("a.jsonl", "{\"sku\":\"A-1\",\"name\":\"Wii\",\"price\":1}\n")
        let bad = try folder.write("b.jsonl", "{\"sku\":\"A-2\",\"name\":\"Zelda\",\"price\":2}\n{\"sku\":\"A-3\",\"name\":\"X\",\"price\":-1}\n")
        let result = try Ferry.run(["merge", good, bad, "-o", folder.path("out.json")])
        #expect(result.status == 1)
        let error = try #require(result.diagnostics.first)
        #expect(error.code == "record.negative")
        #expect(error.file == bad && error.line == 2 && error.record == 2 && error.field == "price")
        #expect(!FileManager.default.fileExists(atPath: folder.path("out.json")))
    }

    @Test func aBadMemorySizeIsAUsageError() throws {
        let sources = try Sources()
        let result = try Ferry.run(["merge"] + sources.paths + ["-o", sources.folder.path("o.json"), "--memory", "12X"])
        #expect(result.status == 2)
        #expect(result.diagnostics.first?.code == "usage.invalidValue")
    }

    // MARK: - Reports

    @Test func theJSONReportFollowsItsSchema() throws {
        let sources = try Sources()
        for policy in ["keep-first", "keep-last", "fail"] {
            let report = sources.folder.path("r-\(policy).json")
            _ = try Ferry.run(
                ["merge"] + sources.paths + [
                    "-o", sources.folder.path("o.json"), "--force", "--on-conflict", policy, "--report-file", report,
                    "--report-format", "json",
                ])
            try PythonCheck.run(
                "json", report, schema: TestPaths.packageRoot.appendingPathComponent("Formats/merge-report.schema.json").path)
        }
    }

    @Test func theTextReportListsEachConflictAtItsPlaces() throws {
        let sources = try Sources()
        let result = try Ferry.run(["merge"] + sources.paths + ["-o", sources.folder.path("o.json")])
        #expect(result.status == 0)
        // A conflict's line starts with the later record's place; its fields follow, indented.
        let heads = result.err.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map {
            String($0.prefix { $0 != " " })
        }
        #expect(heads.prefix(3) == ["\(sources.paths[1]):3:", "\(sources.paths[2]):3:", "\(sources.paths[2]):5:"])
        #expect(result.err.split(separator: "\n").filter { $0.hasPrefix("  ") }.count == 3)
    }

    /// A long value (a photo's data: URI runs to kilobytes) is cut in the
    /// text report as diagnostics cut values, and whole in the JSON report.
    @Test func longValuesAreCutInTheTextReportOnly() throws {
        let folder = try ScratchFolder()
        let long = "data:image/png;base64," + String(repeating: "A", count: 4000)
        let first = try folder.write("a.jsonl", #"{"sku":"A-1","name":"Wii","photo":"\#(long)"}"# + "\n")
        let second = try folder.write("b.jsonl", #"{"sku":"A-1","name":"Wii","photo":"w.png"}"# + "\n")
        let text = try Ferry.run(["merge", first, second, "-o", folder.path("o.jsonl")])
        #expect(text.status == 0, "\(text.err)")
        let field = try #require(text.err.split(separator: "\n").first { $0.contains("'photo'") })
        #expect(field.count < 200, "\(field)")
        #expect(field.contains("…"))
        let (_, report) = try Self.merge([first, second], ["-o", folder.path("p.jsonl")], in: folder)
        #expect(String(describing: report).contains(String(repeating: "A", count: 4000)))
    }

    /// Standard error lists the first conflicts (100 unless
    /// `--show-conflicts` says) and counts the others in one line; the report
    /// file keeps every one. A price feed brings 100,000, which took a fifth
    /// of a second to format and 200,000 lines to scroll past.
    @Test func standardErrorListsTheFirstConflictsAndCountsTheOthers() throws {
        let folder = try ScratchFolder()
        let count = 130
        let first = try folder.write(
            "a.jsonl", (0..<count).map { #"{"sku":"S-\#($0)","name":"N","price":1}"# + "\n" }.joined())
        let second = try folder.write(
            "b.jsonl", (0..<count).map { #"{"sku":"S-\#($0)","name":"N","price":2}"# + "\n" }.joined())
        func heads(_ result: ProcessResult) -> [Substring] {
            result.err.split(separator: "\n").filter { $0.contains(" differs from ") }
        }
        let standard = try Ferry.run(["merge", first, second, "-o", folder.path("o.jsonl")])
        #expect(standard.status == 0, "\(standard.err)")
        #expect(heads(standard).count == 100)
        #expect(heads(standard).first?.hasPrefix("\(second):1:") == true)
        #expect(standard.err.contains("30 more conflicts not shown; --report-file FILE lists every one"))
        #expect(standard.err.contains("130 conflicts resolved by keep-first"))

        let one = try Ferry.run(["merge", first, second, "-o", folder.path("p.jsonl"), "--show-conflicts", "1"])
        #expect(heads(one).count == 1)
        #expect(one.err.contains("129 more conflicts not shown"))
        let all = try Ferry.run(["merge", first, second, "-o", folder.path("q.jsonl"), "--show-conflicts", "all"])
        #expect(heads(all).count == count)
        #expect(!all.err.contains("not shown"))
        let german = try Ferry.run(
            ["merge", first, second, "-o", folder.path("r.jsonl"), "--show-conflicts", "0", "--lang", "de"])
        #expect(heads(german).isEmpty)
        #expect(german.err.contains("130 weitere Konflikte nicht gezeigt"), "\(german.err)")
        let bad = try Ferry.run(["merge", first, second, "-o", folder.path("s.jsonl"), "--show-conflicts", "some"])
        #expect(bad.status == 2)

        let (_, report) = try Self.merge([first, second], ["-o", folder.path("t.jsonl")], in: folder)
        #expect((report["conflicts"] as? [Any])?.count == count)
    }
}
