import FerryCSV
import FerryCore
import FerryJSON
import FerryTestSupport
import Foundation
import Testing

@testable import FerryKit

/// `--jobs N` reads a file in parts on N threads (`Validator+Parts.swift`,
/// `PartSource`): the report must be the one a single pass gives, to the
/// byte, for every N, on files with errors of every kind, keys repeated
/// within and across parts, CRLF with a byte order mark, quoted line
/// breaks across a cut, and a plugin's line format.
@Suite struct PartsJobsTests {
    let scratch: ScratchFolder
    static let everyJobs = [1, 2, 3, 4, 8]

    init() throws { scratch = try ScratchFolder() }

    @Test func errorsOfEveryKind() throws {
        let path = try scratch.write("products.csv", ValidationHalvesTests.productsCSV(seed: 21, lineEnd: "\n"))
        try expectSameReports(path, inHalves: true, caps: [nil, 7], jobs: Self.everyJobs)
    }

    @Test func crlfWithAByteOrderMark() throws {
        let text = "\u{FEFF}" + ValidationHalvesTests.productsCSV(seed: 22, lineEnd: "\r\n")
        let path = try scratch.write("excel.csv", text)
        try expectSameReports(path, inHalves: true, caps: [nil, 7], jobs: Self.everyJobs)
    }

    @Test func keysRepeatedWithinAndAcrossParts() throws {
        var text = "name,price,sku\n"
        for index in 0..<2_000 { text += "Item \(index),1.5,K\(index % 700)\n" }
        let path = try scratch.write("keys.csv", text)
        let report = try expectSameReports(path, inHalves: true, caps: [nil, 60], jobs: Self.everyJobs)
        #expect(report.diagnostics.count == 1_300)
    }

    @Test func quotedLineBreaksAcrossACut() throws {
        var text = "name,price,sku\n"
        for index in 0..<3_000 {
            let price = index % 97 == 0 ? "-1" : "\(index % 50).5"
            text += "\"Pad \(index)\nsecond line\",\(price),S\(index % 2_900)\n"
        }
        let path = try scratch.write("quoted.csv", text)
        try expectSameReports(path, inHalves: true, caps: [nil, 7], jobs: Self.everyJobs)
    }

    /// A header row with a quoted line break: the one header rule reads it
    /// as one row, and every part after the first reads it first.
    @Test func aHeaderWithAQuotedLineBreak() throws {
        var text = "\"na\nme\",price,sku\n"
        for index in 0..<2_000 { text += "Item \(index),\(index % 13 == 0 ? "-1" : "2"),S\(index % 1_900)\n" }
        let path = try scratch.write("header.csv", text)
        let source = try PartSource(
            path: path, registry: .standard, from: nil, codecOptions: OptionValues(), limits: ReadLimits())
        #expect(source.header?.fields == ["na\nme", "price", "sku"])
        #expect(source.prefix == Array("\"na\nme\",price,sku\n".utf8) && source.prefixLines == 2)
        try expectSameReports(path, inHalves: true, caps: [nil], jobs: Self.everyJobs)
    }

    /// `--jobs 4` reads in four parts, not two: keys repeated from the
    /// first part in the third and from the second in the fourth, an error
    /// in each part, and the report of one pass, under a cap too.
    @Test func fourJobsReadFourParts() throws {
        var text = "name,price,sku\n"
        for index in 0..<4_000 {
            let price = index % 1_000 == 500 ? "-1" : "2.5"
            let sku = [2_100: 100, 3_100: 1_100][index].map { "K\(String(format: "%04d", $0))" }
            text += "Item \(String(format: "%04d", index)),\(price),\(sku ?? "K\(String(format: "%04d", index))")\n"
        }
        let path = try scratch.write("four.csv", text)
        var options = ValidationOptions()
        options.partsThreshold = 1
        options.jobs = 4
        let parts = Validator().validate([path], options: options)
        #expect(parts.files.first?.partCount == 4)
        let duplicates = parts.diagnostics.filter { $0.code == .recordDuplicateKey }
        #expect(duplicates.compactMap(\.location.record) == [2_100, 3_100])
        #expect(parts.diagnostics.compactMap(\.location.record) == [500, 1_500, 2_100, 2_500, 3_100, 3_500])
        let report = try expectSameReports(path, inHalves: true, caps: [nil, 1, 3, 5], jobs: [4])
        #expect(report.files.first?.partCount == 4)
    }

    /// The cuts of a plan are row starts in ascending order, at most one
    /// fewer than the parts asked; a part smaller than the threshold over
    /// the parts joins the one before, and a file of a few rows gives as
    /// many parts as it has rows to cut at, each cut once.
    @Test(arguments: [("csv", 4), ("csv", 8), ("jsonl", 3), ("jsonl", 8)])
    func partsOfAPlan(format: String, parts: Int) throws {
        var text = format == "csv" ? "name,price,sku\n" : ""
        for index in 0..<3_000 {
            let name = String(repeating: "x", count: index % 37)
            text += format == "csv" ? "\(name),1,K\(index)\n" : #"{"name":"\#(name)","sku":"K\#(index)"}"# + "\n"
        }
        let path = try scratch.write("plan.\(format)", text)
        let source = try PartSource(
            path: path, registry: .standard, from: nil, codecOptions: OptionValues(), limits: ReadLimits())
        let bytes = Array(text.utf8)
        for threshold in [1, bytes.count / 2, bytes.count] {
            let plan = try #require(PartPlan(source, threshold: threshold, jobs: parts, parts: parts))
            let smallest = threshold / parts
            #expect(plan.cuts.count <= parts - 1)
            #expect(plan.cuts == plan.cuts.sorted() && Set(plan.cuts).count == plan.cuts.count)
            #expect(plan.cuts.allSatisfy { bytes[$0 - 1] == 0x0A && $0 > source.dataStart })
            #expect(plan.ranges.allSatisfy { $0.count >= smallest }, "threshold \(threshold)")
            #expect(plan.ranges.map(\.count).reduce(0, +) == bytes.count)
            // Parts of at least the threshold over the parts are all kept.
            if threshold == 1 { #expect(plan.cuts.count == parts - 1) }
        }
        // Four rows, eight parts asked: a cut a row at most, each once (a
        // CSV cut is taken between two lines without quotes, so it may
        // pass over the first row start after its target).
        let small = try scratch.write(
            "small.\(format)", format == "csv" ? "a,b\n1,2\n3,4\n5,6\n7,8\n" : "1\n2\n3\n4\n")
        let few = try PartSource(
            path: small, registry: .standard, from: nil, codecOptions: OptionValues(), limits: ReadLimits())
        let plan = try #require(PartPlan(few, threshold: 1, jobs: 8, parts: 8))
        #expect(plan.cuts == (format == "csv" ? [12, 16] : [2, 4, 6]))
        // However many parts `--jobs` asks for, at most `maxParts`.
        let many = try #require(PartPlan(source, threshold: 1, jobs: 100_000, parts: 100_000))
        #expect(many.ranges.count == PartPlan.maxParts)
    }

    // MARK: - A configured codec

    /// A CSV codec configured as the library's documentation shows
    /// (`CSVCodec(dialect:)`): no header row, `;` given as the delimiter
    /// though the rows hold more commas, and `'` as the quote. The parts
    /// are cut and read by that dialect, not by the codec's defaults.
    @Test func aConfiguredCSVCodecIsCutByItsDialect() throws {
        var dialect = CSVDialect(delimiter: UInt8(ascii: ","))
        try dialect.setDelimiter(";")
        dialect.hasHeader = false
        dialect.quote = UInt8(ascii: "'")
        let codec = CSVCodec(dialect: dialect)
        var text = ""
        for index in 0..<2_000 {
            let name = index % 7 == 0 ? "'Item, \(index)\nsecond line'" : "Item, a, b \(index)"
            text += "\(name);\(index % 11 == 0 ? "-1" : "2");K\(index % 1_900)\n"
        }
        let splitting = try codec.lineSplitting(start: Array(text.utf8), isWhole: true, options: OptionValues())
        #expect(splitting?.hasHeader == false)
        #expect(splitting?.quote == UInt8(ascii: "'"))
        #expect(splitting?.delimiter == UInt8(ascii: ";"))
        let path = try scratch.write("configured.csv", text)
        let report = try expectSameReports(
            path, inHalves: true, caps: [nil], jobs: [2], registry: CodecRegistry.standard.registering(codec))
        #expect(report.files.first?.records == 2_000)
    }

    // MARK: - A plugin's line format

    /// A plugin's codec of lines: JSON Lines under another name, which says
    /// in its capabilities that its records split at line ends.
    struct PluginLinesCodec: LineSplittingCodec {
        let id = "plugin-lines"
        let extensions = ["plines"]
        let capabilities: CodecCapabilities = [.read, .readsRaw, .splitsAtLineEnds]
        func sniff(_ prefix: [UInt8]) -> SniffResult { .no }
        func makeReader(_ input: any ByteInput, context: ReadContext) throws(FerryError) -> any RecordReader {
            try JSONLinesCodec().makeReader(input, context: context)
        }
        func lineSplitting(start: [UInt8], isWhole: Bool, options: OptionValues) throws(FerryError) -> LineSplitting? {
            LineSplitting(cut: .rows, options: options)
        }
    }

    @Test func aPluginLineCodecIsReadInParts() throws {
        let registry = CodecRegistry.standard.registering(PluginLinesCodec())
        let path = try scratch.write("products.plines", ValidationHalvesTests.productsJSONLines(seed: 23))
        let report = try expectSameReports(
            path, inHalves: true, caps: [nil, 7], jobs: Self.everyJobs, registry: registry,
            options: { $0.from = "plugin-lines" })
        #expect(report.files.first?.format == "plugin-lines")
    }

    @Test func aPluginLineCodecIsPlanned() throws {
        let registry = CodecRegistry.standard.registering(PluginLinesCodec())
        let path = try scratch.write("plan.plines", (0..<100).map { #"{"n":\#($0)}"# + "\n" }.joined())
        var options = ValidationOptions()
        options.from = "plugin-lines"
        let plan = try ShardPlanner(registry: registry).plan(path, shards: 3, options: options)
        #expect(plan.format == "plugin-lines")
        #expect(plan.records == 100)
        #expect(plan.shards.map(\.records).reduce(0, +) == 100)
        #expect(plan.shards.count == 3)
    }
}
