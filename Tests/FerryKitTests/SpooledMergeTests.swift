import FerryTestSupport
import Foundation
import Testing

@testable import FerryKit

/// The spooled merge (`SpooledMerge`) against the general one
/// (`MergeReading`): the same output, byte for byte, and the same JSON
/// report, on inputs made to reach each of its cases. Every comparison also
/// checks which way each merge took, so that neither can pass by taking the
/// other's.
@Suite struct SpooledMergeTests {
    /// Three inputs whose keys overlap:
    /// - `a.jsonl`, products 0 to `count`;
    /// - `b.csv` (CRLF), products from `count / 2` on, half of them copies
    ///   of `a`'s: some spelt otherwise but equal (`2.50` for 2.5, `3.0` for
    ///   3, a name in NFD, an untyped `notes` cell of text for a number),
    ///   every seventh with another price (a conflict);
    /// - `c.jsonl`, a third copy of some of `b`'s keys, some equal to `b`'s
    ///   record and some not (keep-last's chains), and `loose` records with
    ///   no sku when asked.
    func inputs(_ folder: ScratchFolder, count: Int, loose: Bool = false) throws -> [String] {
        var a = ""
        for i in 0..<count {
            let price = i % 5 == 0 ? "\(i % 9)" : "\(i % 9).5"
            let notes = i % 3 == 0 ? ",\"notes\":\(i)" : ""
            let name = i % 11 == 0 ? "Cr\u{E8}me \(i)" : "Item \(i)"
            a += "{\"sku\":\"S-\(i)\",\"name\":\"\(name)\",\"price\":\(price),\"currency\":\"EUR\"\(notes)}\n"
        }
        var b = "sku,name,price,currency,notes\r\n"
        for i in (count / 2)..<(count / 2 + count) {
            let price =
                i % 7 == 0 ? "\(i % 9 + 1).25"
                : i % 5 == 0 ? "\(i % 9).0" : "\(i % 9).50"
            let notes = i % 3 == 0 ? "\(i)" : ""
            let name = i % 11 == 0 ? "Cre\u{300}me \(i)" : "Item \(i)"
            b += "S-\(i),\(name),\(price),EUR,\(notes)\r\n"
        }
        var c = ""
        for i in stride(from: count / 2, to: count / 2 + count, by: 4) {
            let price = i % 8 == 0 ? "99.5" : i % 7 == 0 ? "\(i % 9 + 1).25" : i % 5 == 0 ? "\(i % 9)" : "\(i % 9).5"
            let notes = i % 3 == 0 ? ",\"notes\":\"\(i)\"" : ""
            let name = i % 11 == 0 ? "Cr\u{E8}me \(i)" : "Item \(i)"
            c += "{\"sku\":\"S-\(i)\",\"name\":\"\(name)\",\"price\":\(price),\"currency\":\"EUR\"\(notes)}\n"
            if loose && i % 16 == 0 { c += "{\"name\":\"Loose \(i)\",\"price\":1}\n" }
        }
        return [try folder.write("a.jsonl", a), try folder.write("b.csv", b), try folder.write("c.jsonl", c)]
    }

    /// Merges `inputs` both ways into JSON Lines.
    /// - Returns: each way's output, JSON report and whether it was spooled.
    func mergeBothWays(
        _ inputs: [String], folder: ScratchFolder, options: MergeOptions
    ) throws -> [(output: [UInt8], report: String, spooled: Bool)] {
        let catalog = Messages.catalog(locale: "en")
        return try [true, false].map { spools in
            var options = options
            options.spools = spools
            options.overwrite = true
            let output = folder.path(spools ? "spooled.jsonl" : "general.jsonl")
            var report = try Merger().merge(inputs, into: output, options: options)
            #expect(report.countsAddUp)
            let spooled = report.wasSpooled
            report.output = "out.jsonl"
            let written = FileManager.default.contents(atPath: output).map { [UInt8]($0) } ?? []
            return (written, MergeReportFormat.json.render(report, catalog: catalog, tool: ("ferry", "test")), spooled)
        }
    }

    @Test(arguments: ConflictPolicy.allCases)
    func bothWaysGiveTheSameOutputAndReport(policy: ConflictPolicy) throws {
        let folder = try ScratchFolder()
        let inputs = try inputs(folder, count: 600)
        for threshold in [PartPlan.threshold, 1] {
            var options = MergeOptions()
            options.policy = policy
            options.partsThreshold = threshold
            let ways = try mergeBothWays(inputs, folder: folder, options: options)
            #expect(ways[0].spooled && !ways[1].spooled)
            #expect(ways[0].output == ways[1].output)
            #expect(ways[0].report == ways[1].report)
            // Not a vacuous comparison: conflicts and identical copies both occur.
            #expect(ways[1].report.contains("\"conflictsResolved\": 0") == false)
            #expect(ways[1].report.contains("\"identicalDuplicates\": 0") == false)
            #expect(policy == .fail || !ways[0].output.isEmpty)
        }
    }

    /// The parts of every input are read by as many threads as `--jobs`
    /// asks, each taking the next, and their keys matched by as many, a
    /// run of the partitions each (`KeyLog.inRuns`; `shared`: from that
    /// many records), records without a key among them: the output and
    /// every report are the same for any number, with the inputs cut in
    /// parts or not.
    @Test(arguments: [1, 1 << 16], ConflictPolicy.allCases)
    func everyNumberOfJobsGivesTheSameOutputAndReport(shared: Int, policy: ConflictPolicy) throws {
        let folder = try ScratchFolder()
        let inputs = try inputs(folder, count: 600, loose: true)
        let catalog = Messages.catalog(locale: "en")
        var seen: [(output: [UInt8], report: String)] = []
        for jobs in [1, 2, 3, 4, 8] {
            var options = MergeOptions()
            options.key = ["sku"]
            options.policy = policy
            options.partsThreshold = 1
            options.sharedMatchingRecords = shared
            options.jobs = jobs
            options.overwrite = true
            let output = folder.path("jobs.jsonl")
            var report = try Merger().merge(inputs, into: output, options: options)
            #expect(report.wasSpooled && report.countsAddUp)
            report.output = "out.jsonl"
            let text = MergeReportFormat.json.render(report, catalog: catalog, tool: ("ferry", "test"))
            seen.append(([UInt8](FileManager.default.contents(atPath: output) ?? Data()), text))
        }
        // Not vacuous: records were merged, with conflicts, and some had no key.
        #expect(policy == .fail || !seen[0].output.isEmpty)
        #expect(!seen[0].report.contains("\"conflictsResolved\": 0"))
        #expect(!seen[0].report.contains("\"recordsWithoutKey\": 0") && seen[0].report.contains("\"recordsWithoutKey\""))
        for other in seen.dropFirst() {
            #expect(other.output == seen[0].output)
            #expect(other.report == seen[0].report)
        }
    }

    /// Under a limit on the conflicts listed, the spooled merge lists the
    /// first ones and counts the others, and the text report is the one
    /// every conflict listed gives. The inputs' equal pairs in other forms
    /// (NFD, a number as text) have digests that are not exact, so that
    /// some past the limit must still be read again.
    @Test(arguments: [0, 3, 40, 10_000])
    func listedConflictsAreTheFirstAndTheOthersCounted(limit: Int) throws {
        let folder = try ScratchFolder()
        let inputs = try inputs(folder, count: 600)
        let catalog = Messages.catalog(locale: "en")
        for threshold in [PartPlan.threshold, 1] {
            var reports: [MergeReport] = []
            for listed in [nil, limit] {
                var options = MergeOptions()
                options.partsThreshold = threshold
                options.overwrite = true
                options.listedConflicts = listed
                reports.append(try Merger().merge(inputs, into: folder.path("out.jsonl"), options: options))
            }
            let (all, some) = (reports[0], reports[1])
            #expect(all.wasSpooled && some.wasSpooled && some.countsAddUp)
            #expect(all.conflicts.count > 40 && all.unlistedConflicts == 0)
            #expect(some.conflicts.count == min(limit, all.conflicts.count))
            #expect(some.conflictsResolved == all.conflictsResolved)
            #expect(some.identicalDuplicates == all.identicalDuplicates)
            let (allText, someText) = (
                MergeTextReport(report: all, catalog: catalog), MergeTextReport(report: some, catalog: catalog)
            )
            #expect(someText.conflictLines(shown: limit) == allText.conflictLines(shown: limit))
            #expect(someText.summary == allText.summary)
        }
    }

    /// A CSV column no kind types is typed by what the whole file holds, in
    /// every part and in the records read again: text in `notes` at the
    /// top leaves a later part's numbers text too, and an empty cell null.
    @Test(arguments: [1, 2, 8])
    func aFreeColumnIsTypedByTheWholeFileInEveryPart(jobs: Int) throws {
        let folder = try ScratchFolder()
        var a = "sku,name,price,notes\n"
        var b = "sku,name,price,notes\n"
        for i in 0..<400 {
            a += "S-\(i),Item \(i),\(i % 9).5,\(i == 0 ? "text" : i % 2 == 0 ? "\(i)" : "")\n"
            b += "S-\(i),Item \(i),\(i % 7 == 0 ? 1 : i % 9).5,\(i % 2 == 0 ? "\(i)" : "")\n"
        }
        let inputs = [try folder.write("a.csv", a), try folder.write("b.csv", b)]
        for policy in ConflictPolicy.allCases {
            var options = MergeOptions()
            options.policy = policy
            options.partsThreshold = 1
            options.jobs = jobs
            let ways = try mergeBothWays(inputs, folder: folder, options: options)
            #expect(ways[0].spooled && !ways[1].spooled)
            #expect(ways[0].output == ways[1].output)
            #expect(ways[0].report == ways[1].report)
            #expect(policy == .fail || String(decoding: ways[0].output, as: UTF8.self).contains("\"notes\":\"398\""))
        }
    }

    /// A free column empty in the first MiB (the sample inference looks
    /// at when it cannot read the input again) and numbers after: typed
    /// by every row both ways, so written as numbers both ways.
    @Test func aFreeColumnIsTypedByEveryRowNotASample() throws {
        let folder = try ScratchFolder()
        var a = "sku,name,price,notes\n"
        for i in 0..<60_000 { a += "S-\(i),Item \(i),\(i % 9).5,\(i < 50_000 ? "" : "\(i)")\n" }
        #expect(a.utf8.count > 1 << 20)  // `CSVReader.inferenceSample`
        let inputs = [try folder.write("a.csv", a), try folder.write("b.csv", a)]
        let ways = try mergeBothWays(inputs, folder: folder, options: MergeOptions())
        #expect(ways[0].spooled && !ways[1].spooled)
        // Compared apart: a failure would print megabytes of bytes.
        let last = Array("\"notes\":59999}\n".utf8)
        let (same, numbers) = (ways[0].output == ways[1].output, ways[0].output.suffix(last.count).elementsEqual(last))
        #expect(same && numbers)
    }

    @Test func recordsWithoutTheAskedKeyAreKeptBothWays() throws {
        let folder = try ScratchFolder()
        let inputs = try inputs(folder, count: 200, loose: true)
        var options = MergeOptions()
        options.key = ["sku"]
        options.policy = .keepLast
        options.partsThreshold = 1
        let ways = try mergeBothWays(inputs, folder: folder, options: options)
        #expect(ways[0].spooled && !ways[1].spooled)
        #expect(ways[0].output == ways[1].output)
        #expect(ways[0].report == ways[1].report)
        #expect(!ways[1].report.contains("\"recordsWithoutKey\": 0"))
    }

    /// A record without a sku makes the default key `name`: the spooled way
    /// gives up, and the general merge runs.
    @Test func aRecordWithoutTheDefaultKeyLeavesItToTheGeneralMerge() throws {
        let folder = try ScratchFolder()
        let inputs = try inputs(folder, count: 200, loose: true)
        let ways = try mergeBothWays(inputs, folder: folder, options: MergeOptions())
        #expect(!ways[0].spooled && !ways[1].spooled)
        #expect(ways[0].output == ways[1].output)
        #expect(ways[0].report.contains("\"name\""))
    }

    /// Past the memory budget, and on an invalid record, the spooled way
    /// gives up too: the general merge spills, or throws the error.
    @Test func theBudgetAndErrorsLeaveItToTheGeneralMerge() throws {
        let folder = try ScratchFolder()
        let inputs = try inputs(folder, count: 300)
        var options = MergeOptions()
        options.memoryBudget = 4096
        let ways = try mergeBothWays(inputs, folder: folder, options: options)
        #expect(!ways[0].spooled && ways[0].report.contains("\"spilled\": true"))
        #expect(ways[0].output == ways[1].output)

        let bad = try folder.write("bad.jsonl", "{\"sku\":\"X\",\"name\":\"X\",\"price\":1}\n{\"sku\":\"Y\",\"name\":\"\",\"price\":2}\n")
        #expect(throws: FerryError.self) {
            _ = try Merger().merge(inputs + [bad], into: folder.path("bad-out.jsonl"), options: MergeOptions())
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("bad-out.jsonl")))
    }

    /// Outputs in other formats, and inputs that are not files of lines,
    /// take the general way.
    @Test func otherFormatsTakeTheGeneralWay() throws {
        let folder = try ScratchFolder()
        let inputs = try inputs(folder, count: 50)
        var report = try Merger().merge(inputs, into: folder.path("o.json"), options: MergeOptions())
        #expect(!report.wasSpooled)
        let array = try folder.write("arr.json", "[{\"sku\":\"S-1\",\"name\":\"Item 1\",\"price\":1.5,\"currency\":\"EUR\"}]")
        report = try Merger().merge(inputs + [array], into: folder.path("o2.jsonl"), options: MergeOptions())
        #expect(!report.wasSpooled)
        report = try Merger().merge(inputs, into: folder.path("o3.jsonl"), options: MergeOptions())
        #expect(report.wasSpooled)
    }
}

/// The spool's lines kept as the input's own bytes: only where the writer
/// would write those very bytes.
@Suite struct SpooledLinesTests {
    func product(_ i: Int, spaced: Bool = false) -> String {
        spaced
            ? "{\"sku\": \"S-\(i)\", \"name\": \"Item \(i)\", \"price\": \(i % 90).5}"
            : "{\"sku\":\"S-\(i)\",\"name\":\"Item \(i)\",\"price\":\(i % 90).5}"
    }

    /// Merges `inputs` both ways into JSON Lines; the spooled way's report.
    func compare(_ inputs: [String], folder: ScratchFolder, threshold: Int) throws -> MergeReport {
        var reports: [MergeReport] = []
        var outputs: [[UInt8]] = []
        for spools in [true, false] {
            var options = MergeOptions()
            options.spools = spools
            options.overwrite = true
            options.partsThreshold = threshold
            // Two jobs on any machine: a file past the threshold is cut in
            // eight parts (`PartPlan.partsPerJob`).
            options.jobs = 2
            let output = folder.path(spools ? "s.jsonl" : "g.jsonl")
            reports.append(try Merger().merge(inputs, into: output, options: options))
            outputs.append([UInt8](FileManager.default.contents(atPath: output) ?? Data()))
        }
        #expect(reports[0].wasSpooled && !reports[1].wasSpooled)
        #expect(outputs[0] == outputs[1])
        #expect(reports[0].recordsOut == reports[1].recordsOut)
        return reports[0]
    }

    /// An input given twice: the places of its conflicts come in reading
    /// order, which is not the file's order (its last record, then its
    /// first again), and each still gets its own line, both ways.
    @Test func conflictsOfAFileGivenTwiceHaveTheirLines() throws {
        let folder = try ScratchFolder()
        let a = try folder.write("a.jsonl", (0..<10).map { product($0) + "\n" }.joined())
        let b = try folder.write(
            "b.jsonl", [0, 9].map { product($0).replacingOccurrences(of: ".5}", with: ".25}") + "\n" }.joined())
        var options = MergeOptions()
        options.policy = .keepLast
        options.overwrite = true
        var outputs: [[UInt8]] = []
        for spools in [true, false] {
            options.spools = spools
            let output = folder.path(spools ? "s.jsonl" : "g.jsonl")
            let report = try Merger().merge([a, b, a], into: output, options: options)
            outputs.append([UInt8](FileManager.default.contents(atPath: output) ?? Data()))
            #expect(report.wasSpooled == spools)
            #expect(report.conflicts.count == 4)
            let lines = report.conflicts.flatMap { [$0.first, $0.second] }.filter { $0.file == a }.map(\.line)
            #expect(lines == [1, 10, 1, 10])
        }
        #expect(outputs[0] == outputs[1])
    }

    @Test func canonicalLinesAreKeptAsRead() throws {
        let folder = try ScratchFolder()
        // Past the writer's 256 KiB chunks, in both halves.
        let lines = (0..<12_000).map { product($0) }
        let input = try folder.write("a.jsonl", lines.joined(separator: "\n") + "\n")
        let again = try folder.write("b.jsonl", lines[6_000...].joined(separator: "\n") + "\n")
        for threshold in [PartPlan.threshold, 1] {
            let report = try compare([input, again], folder: folder, threshold: threshold)
            #expect(report.linesKeptAsRead == 18_000)
            #expect(report.identicalDuplicates == 6_000)
        }
    }

    /// A line the writer writes without its spaces or its CR (spaced, CR
    /// LF) is kept as read too, and compacted as it is copied out; the
    /// lines around it are still the input's own. A blank line belongs to
    /// no record: every record's line is kept as read, and the output has
    /// no blank line.
    @Test(arguments: ["spaced", "blank", "crlf"])
    func otherLinesAreCopied(kind: String) throws {
        let folder = try ScratchFolder()
        var lines = (0..<12_000).map { product($0) }
        switch kind {
        case "spaced": lines[6_000] = product(6_000, spaced: true)
        case "blank": lines[6_000] += "\n"
        default: lines[6_000] += "\r"
        }
        let input = try folder.write("a.jsonl", lines.joined(separator: "\n") + "\n")
        let report = try compare([input], folder: folder, threshold: PartPlan.threshold)
        #expect(report.linesKeptAsRead == 12_000)
        if kind == "blank" {
            #expect(try String(contentsOfFile: folder.path("s.jsonl"), encoding: .utf8) == lines.map { $0.replacingOccurrences(of: "\n", with: "") + "\n" }.joined())
        }
    }

    /// Lines as Python's `json.dumps` writes them (`", "` and `": "`), with
    /// LF or CR LF, spaces before the line end, strings that hold spaces,
    /// commas, colons, quotes and backslashes: each is kept as read and
    /// compacted as it is copied out, a chunk of the copy ending anywhere
    /// (past the 1 MiB buffer), and the output is the general merge's to
    /// the byte. A `\u` escape (non-ASCII text under `ensure_ascii`) is
    /// written otherwise by the writer: that line is written.
    @Test(arguments: ["\n", "\r\n", " \t\r\n"])
    func spacedLinesAreKeptAsReadAndCompacted(lineEnd: String) throws {
        let folder = try ScratchFolder()
        let names = [#"Wii, \"Black\": 2"#, #"C:\\Saves "#, "  spaced  out  ", #"Caf\u00e9"#]
        let lines = (0..<20_000).map { i in
            #"{"sku": "S-\#(i)", "name": "\#(names[i % names.count])", "price": \#(i % 90).5, "photo": null}"#
        }
        let input = try folder.write("a.jsonl", lines.joined(separator: lineEnd) + lineEnd)
        let again = try folder.write("b.jsonl", lines[10_000...].joined(separator: lineEnd) + lineEnd)
        for threshold in [PartPlan.threshold, 1] {
            let report = try compare([input, again], folder: folder, threshold: threshold)
            // All but the lines with `\u00e9`, one in four, and the first
            // line of each part (two inputs, in one part or eight), whose
            // record a reader parses whole: written, and not the input's.
            let parts = threshold == 1 ? 16 : 2
            #expect(report.linesKeptAsRead >= 30_000 - 30_000 / 4 - parts)
            #expect(report.linesKeptAsRead <= 30_000 - 30_000 / 4 - 1)
            #expect(report.identicalDuplicates == 10_000)
        }
        let output = try String(contentsOfFile: folder.path("s.jsonl"), encoding: .utf8)
        #expect(output.hasPrefix(#"{"sku":"S-0","name":"Wii, \"Black\": 2","price":0.5,"photo":null}"# + "\n"))
        #expect(output.contains(#""name":"  spaced  out  ""#))
    }

    /// A last line that ends with a CR and no line feed is no line as
    /// written: it is written, with a line feed, as the general merge does.
    @Test(arguments: [false, true])
    func aLastLineEndingWithACarriageReturnIsWritten(spaced: Bool) throws {
        let folder = try ScratchFolder()
        let lines = (0..<100).map { product($0, spaced: spaced) }
        let input = try folder.write("a.jsonl", lines.joined(separator: "\n") + "\r")
        let report = try compare([input], folder: folder, threshold: PartPlan.threshold)
        // A reader parses its first record whole: a spaced one is written.
        #expect(report.linesKeptAsRead == (spaced ? 98 : 99))
        let output = try String(contentsOfFile: folder.path("s.jsonl"), encoding: .utf8)
        #expect(output.hasSuffix(#""price":9.5}"# + "\n"))
    }

    /// Lines the reader vouches for are taken as read; those it cannot
    /// (an escape, a number kept as text, a nested value, a space, no final
    /// line feed) are written between them, and the output is the general
    /// merge's to the byte.
    @Test func onlyLinesWrittenAsReadAreKept() throws {
        let folder = try ScratchFolder()
        func line(_ i: Int, name: String? = nil, price: String? = nil, note: String = "null") -> String {
            let name = name ?? "Item \(i)"
            let price = price ?? "\(i % 90).5"
            return #"{"sku":"S-\#(i)","name":"\#(name)","price":\#(price),"note":\#(note)}"#
        }
        var lines = (0..<9_000).map { line($0) }
        let written = [
            line(1_000, name: #"Quote \" inside"#),
            line(2_000, price: "1.50"),
            line(3_000, price: "1e2"),
            line(4_000, note: "[1,2]"),
            line(5_000, note: #"{"a":1}"#),
            line(6_000).replacingOccurrences(of: ",\"price\"", with: " ,\"price\""),
        ]
        for (index, text) in written.enumerated() { lines[(index + 1) * 1_000] = text }
        lines[7_000] = line(7_000, name: "Café ☕ 7000", note: "true")
        lines[7_001] = line(7_001, price: "12", note: #""text""#)
        // No line feed after the last line: it is written, with one.
        let input = try folder.write("a.jsonl", lines.joined(separator: "\n"))
        let report = try compare([input], folder: folder, threshold: 1)
        // Written lines whose bytes are the input's are still found so, by
        // comparing the writer's chunk: all but the last (the spaced one
        // is kept as read and compacted).
        #expect(report.linesKeptAsRead == 9_000 - 1)
    }

    /// A string with escapes the writer writes the same (`\"`, `\\`, `\n`)
    /// leaves its line as read; one it writes otherwise (`\/`, `\u0041`)
    /// is written, and the output is the same either way.
    @Test func escapesAsTheWriterWritesThem() throws {
        let folder = try ScratchFolder()
        let names = [#"Quote \" in"#, #"Back \\ slash"#, #"Two\nlines"#, #"Slash \/ escaped"#, #"Letter \u0041"#]
        let lines = (0..<5_000).map { index in
            #"{"sku":"S-\#(index)","name":"\#(names[index % names.count])","price":1.5}"#
        }
        let input = try folder.write("a.jsonl", lines.joined(separator: "\n") + "\n")
        let report = try compare([input], folder: folder, threshold: 1)
        // The last two of every five are written; the writer's lines are
        // then compared with the input's, and differ. So may be the first
        // line of each of the eight parts, which a reader parses whole.
        #expect(report.linesKeptAsRead >= 3_000 - 8 && report.linesKeptAsRead <= 3_000)
    }

    /// A CSV's lines are never the JSON Lines output's.
    @Test func csvLinesAreCopied() throws {
        let folder = try ScratchFolder()
        let csv = try folder.write("a.csv", "sku,name,price\n" + (0..<500).map { "S-\($0),Item \($0),\($0).5" }.joined(separator: "\n") + "\n")
        var options = MergeOptions()
        options.to = "jsonl"
        let report = try Merger().merge([csv], into: folder.path("o.jsonl"), options: options)
        #expect(report.wasSpooled && report.linesKeptAsRead == 0 && report.recordsOut == 500)
    }
}
