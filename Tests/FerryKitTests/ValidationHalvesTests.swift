import FerryTestSupport
import Foundation
import Testing

@testable import FerryKit

/// `ferry validate` checks a large CSV, TSV or JSON Lines file in two
/// halves at once (`Validator+Parts.swift`). Its report must be the one a
/// single pass gives, to the byte: the same diagnostics at the same places,
/// in the same order, under the same cap, with the same counts. These files
/// put errors of every kind on both sides of the split, keys repeated
/// within each half and across them, and quoted line breaks near the middle.
@Suite struct ValidationHalvesTests {
    let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder() }

    // MARK: - Cases

    @Test(arguments: [1, 2, 3, 4]) func productsCSV(seed: UInt64) throws {
        let path = try scratch.write("products-\(seed).csv", Self.productsCSV(seed: seed, lineEnd: "\n"))
        try expectSameReports(path, inHalves: true)
    }

    /// CRLF line ends and a byte order mark, as Excel writes them.
    @Test func productsCSVFromExcel() throws {
        let path = try scratch.write("excel.csv", "\u{FEFF}" + Self.productsCSV(seed: 9, lineEnd: "\r\n"))
        try expectSameReports(path, inHalves: true)
    }

    /// Semicolons, as European spreadsheets write CSV: the delimiter is
    /// guessed once, from the file's start, for both halves.
    @Test func productsCSVWithSemicolons() throws {
        let text = Self.productsCSV(seed: 11, lineEnd: "\n").replacingOccurrences(of: ",", with: ";")
        let path = try scratch.write("semicolons.csv", text)
        let report = try expectSameReports(path, inHalves: true)
        #expect(report.files.first?.records == 3_000)
        #expect(!report.diagnostics.contains { $0.code == .csvRaggedRow && $0.location.line == 2 })
    }

    /// Excel's export: a `sep=;` line, then semicolons and rows of
    /// delimiters only, which both halves skip and count in one warning.
    @Test func productsCSVWithASepLineAndRowsOfDelimitersOnly() throws {
        let text =
            "sep=;\n;;;;\n"
            + Self.productsCSV(seed: 13, lineEnd: "\n").replacingOccurrences(of: ",", with: ";")
            .replacingOccurrences(of: "USD\n", with: "USD\n;;;;\n")
        let path = try scratch.write("sep.csv", text)
        let report = try expectSameReports(path, inHalves: true)
        #expect(report.files.first?.records == 3_000)
        let skipped = report.diagnostics.filter { $0.code == .csvDelimiterRowsSkipped }
        #expect(skipped.count == 1)
        #expect(skipped.first?.location.line == 2)
    }

    @Test(arguments: [5, 6]) func productsJSONLines(seed: UInt64) throws {
        let path = try scratch.write("products-\(seed).jsonl", Self.productsJSONLines(seed: seed))
        try expectSameReports(path, inHalves: true)
    }

    /// Every row's name holds a quoted line break, so the middle is as
    /// likely inside a quoted field as not; either way the report is the
    /// one of a single pass.
    @Test func quotedLineBreaksEverywhere() throws {
        var text = "name,price,sku\n"
        for index in 0..<3_000 {
            let price = index % 97 == 0 ? "-1" : "\(index % 50).5"
            text += "\"Pad \(index)\nsecond line, \"\"quoted\"\"\",\(price),S\(index % 2_900)\n"
        }
        let path = try scratch.write("quoted.csv", text)
        try expectSameReports(path, inHalves: nil)
    }

    /// A stray quote in the first half: the split is taken between two
    /// lines without quotes near the middle, so it is not misled, and the
    /// halves give the report of one pass.
    @Test func aStrayQuoteBeforeTheMiddle() throws {
        var text = "name,price,sku\n"
        for index in 0..<3_000 { text += (index == 10 ? "Bad \"quote,1,X\(index)\n" : "Item \(index),1,X\(index)\n") }
        let path = try scratch.write("stray.csv", text)
        try expectSameReports(path, inHalves: true)
    }

    /// A quoted field of many lines without quotes holds the middle: the
    /// split between two such lines is inside it, the first half does not
    /// end cleanly, and the file is read in one pass.
    @Test func aLongQuotedFieldAcrossTheMiddle() throws {
        var text = "name,price,sku\n"
        for index in 0..<1_000 { text += "Item \(index),1,X\(index)\n" }
        text += "\"Notes" + String(repeating: "\nplain line", count: 3_000) + "\",2,LONG\n"
        for index in 1_000..<2_000 { text += "Item \(index),-1,X\(index % 1_500)\n" }
        let path = try scratch.write("long.csv", text)
        try expectSameReports(path, inHalves: false)
    }

    /// The duplicate keys a file's second half shares with its first are
    /// each reported at the second half's cell, naming the first half's record.
    @Test func keysRepeatedAcrossTheHalves() throws {
        var text = "name,price,sku\n"
        for index in 0..<2_000 { text += "Item \(index),1.5,K\(index % 1_000)\n" }
        let path = try scratch.write("across.csv", text)
        let report = try expectSameReports(path, inHalves: true)
        #expect(report.diagnostics.count == 1_000)
        let last = try #require(report.diagnostics.last)
        #expect(last.code == .recordDuplicateKey)
        #expect(last.arguments == [MessageArgument.string("sku"), .string("K999"), .integer(1_000)])
        #expect(last.location.record == 1_999 && last.location.line == 2_001 && last.location.column == 15)
    }

    /// JSON Lines of long lines (a photo inline is hundreds of KB): the
    /// line feed after the middle is found far past it, and the halves run.
    @Test func longLinesAcrossTheMiddle() throws {
        let notes = String(repeating: "x", count: 150_000)
        var text = ""
        for index in 0..<40 {
            let price = index == 33 ? "-1" : "\(index)"
            text += #"{"name":"Item \#(index)","price":\#(price),"sku":"S\#(index % 30)","notes":"\#(notes)"}"# + "\n"
        }
        let path = try scratch.write("long-lines.jsonl", text)
        let report = try expectSameReports(path, inHalves: true)
        #expect(report.diagnostics.count == 11, "\(report.diagnostics.map(\.code))")
    }

    /// Two unique fields: a key of one is no duplicate of the same text in
    /// the other, and each repeats within and across the halves.
    @Test func twoUniqueFields() throws {
        let schema = try scratch.write(
            "two.schema.json",
            #"""
            {"type": "object", "required": ["code"],
             "properties": {"code": {"type": "string", "x-ferry-unique": true},
                            "alias": {"type": "string", "x-ferry-unique": true}}}
            """#)
        var text = "code,alias\n"
        for index in 0..<3_000 { text += "C\(index % 1_700),C\((index * 7) % 2_300)\n" }
        let path = try scratch.write("two.csv", text)
        let report = try expectSameReports(path, inHalves: true, schema: try Schema(contentsOf: schema))
        let fields = report.diagnostics.compactMap(\.location.field)
        #expect(Set(fields) == ["code", "alias"])
        #expect(fields.count == (3_000 - 1_700) + (3_000 - 2_300))
    }

    /// Photo references of every outcome on both sides of the split: a
    /// good file, one that is no image, files and folders that are not
    /// there, references out of the folder; under `--photos skip` and
    /// `--strict` too.
    @Test(arguments: ["csv", "jsonl"]) func photosInBothHalves(format: String) throws {
        try FileManager.default.createDirectory(
            at: scratch.url.appendingPathComponent("photos"), withIntermediateDirectories: true)
        try scratch.write("photos/good.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0])
        try scratch.write("photos/fake.png", Array("GIF89a not a png".utf8))
        try scratch.write("top.jpg", [0xFF, 0xD8, 0xFF, 0xE0, 0, 0])
        let references = [
            "photos/good.png", "photos/fake.png", "photos/gone.png", "elsewhere/e.png", "/etc/passwd", "../up.png",
            "top.jpg", "p7.jpg", "photos/good.png/x", "",
        ]
        var text = format == "csv" ? "name,price,photo,sku\n" : ""
        for index in 0..<3_000 {
            let reference = index % 13 == 0 ? references[(index / 13) % references.count] : "top.jpg"
            let price = index % 211 == 0 ? "-1" : "\(index % 90).5"
            text +=
                format == "csv"
                ? "Item \(index),\(price),\(reference),S\(index % 2_990)\n"
                : #"{"name":"Item \#(index)","price":\#(price),"photo":"\#(reference)","sku":"S\#(index % 2_990)"}"# + "\n"
        }
        let path = try scratch.write("photos.\(format)", text)
        let report = try expectSameReports(path, inHalves: true)
        let codes = Set(report.diagnostics.map(\.code.rawValue))
        #expect(codes.isSuperset(of: ["photo.notImage", "photo.unreadable", "photo.outsideFolder"]), "\(codes)")
        let skipped = try expectSameReports(path, inHalves: true) { $0.photos = .skip }
        #expect(Set(skipped.diagnostics.map(\.code.rawValue)) == ["photo.outsideFolder", "record.negative", "record.duplicateKey"])
        try expectSameReports(path, inHalves: true) { $0.strict = true }
    }

    /// Under `--strict` the warnings of a CSV file, about its header (which
    /// both halves read) and for the whole file (the rows padded, counted
    /// in both halves), are each reported once, as errors.
    @Test func strictWarningsInBothHalves() throws {
        var text = "name,price,sku,sku\n"
        for index in 0..<3_000 {
            text += index % 17 == 0 ? "Item \(index),1\n" : "Item \(index),\(index % 50).5,S\(index),T\(index)\n"
        }
        let path = try scratch.write("strict.csv", text)
        var codecOptions = OptionValues()
        codecOptions.values["ragged"] = "pad"
        let lenient = try expectSameReports(path, inHalves: true) { $0.codecOptions = codecOptions }
        #expect(lenient.diagnostics.map(\.severity) == [.warning, .warning])
        let strict = try expectSameReports(path, inHalves: true) {
            $0.codecOptions = codecOptions
            $0.strict = true
        }
        #expect(strict.diagnostics.map(\.code) == lenient.diagnostics.map(\.code))
        #expect(strict.diagnostics.map(\.severity) == [.error, .error])
        #expect(strict.files.first?.errors == 2 && strict.files.first?.warnings == 0)
        #expect(strict.worstCategory == .data)
    }

    // MARK: - Data

    /// About 3,000 products with errors of every kind a CSV reader and the
    /// rules find, a few dozen of each, spread over the whole file.
    static func productsCSV(seed: UInt64, lineEnd: String) -> String {
        var random = SeededGenerator(seed: seed)
        var text = "name,price,photo,sku,currency" + lineEnd
        for index in 0..<3_000 {
            let sku = "GS-\(Int.random(in: 0..<2_950, using: &random))"
            let row: String
            switch Int.random(in: 0..<100, using: &random) {
            case 0: row = "Item \(index),-\(index).5,,\(sku),USD"
            case 1: row = ",12.00,,\(sku),USD"
            case 2: row = "Item \(index),12.00,,\(sku)"
            case 3: row = "\"Item\" \(index),12.00,,\(sku),USD"
            case 4: row = "Item \(index),twelve,,\(sku),USD"
            case 5: row = "\"Item \(index)\(lineEnd)on two lines\",1.25,,\(sku),EUR"
            case 6: row = "Item \(index),12.00,,\(sku),usd"
            case 7: row = "Item \(index),12.00,,\(sku),USD,extra"
            default: row = "Item \(index),\(index % 300).99,,\(sku),USD"
            }
            text += row + lineEnd
        }
        return text
    }

    /// The same for JSON Lines, with lines that are not JSON.
    static func productsJSONLines(seed: UInt64) -> String {
        var random = SeededGenerator(seed: seed)
        var text = ""
        for index in 0..<3_000 {
            let sku = "GS-\(Int.random(in: 0..<2_950, using: &random))"
            let line: String
            switch Int.random(in: 0..<100, using: &random) {
            case 0: line = #"{"name":"Item \#(index)","price":-1,"sku":"\#(sku)"}"#
            case 1: line = #"{"name":"","price":1,"sku":"\#(sku)"}"#
            case 2: line = #"{"name":"Item \#(index)","price":"#
            case 3: line = #"{"name":"Item \#(index)","price":true,"sku":"\#(sku)"}"#
            case 4: line = "not json at all"
            case 5: line = #"{"name":"Item\n\#(index)","price":2.5,"sku":"\#(sku)","photo":"photos/\#(index).png"}"#
            case 6: line = ""
            default: line = #"{"name":"Item \#(index)","price":\#(index % 300).99,"sku":"\#(sku)","currency":"USD"}"#
            }
            text += line + "\n"
        }
        return text
    }
}
