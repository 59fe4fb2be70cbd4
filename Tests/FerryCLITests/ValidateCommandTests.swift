#if canImport(Glibc)
import Glibc
#endif
import FerryTestSupport
import Foundation
import Testing

/// `ferry validate`: every error in one run, at its cell, in every report form.
@Suite struct ValidateCommandTests {
    // MARK: - Data

    /// A products CSV of 100 rows, with a negative price at data row 10, an
    /// empty name at row 20, and at row 30 a sku that repeats row 5's.
    static func threeErrorsCSV() -> String {
        var lines = ["sku,name,price"]
        for row in 1...100 {
            var sku = "SKU-\(row)"
            var name = "Product \(row)"
            var price = "\(row).99"
            if row == 10 { price = "-5" }
            if row == 20 { name = "" }
            if row == 30 { sku = "SKU-5" }
            lines.append("\(sku),\(name),\(price)")
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// The three errors: record, line, column (the cell's), field and code.
    static let threeErrors: [(record: Int, line: Int, column: Int, field: String, code: String)] = [
        (10, 11, 19, "price", "record.negative"),
        (20, 21, 8, "name", "record.emptyField"),
        (30, 31, 1, "sku", "record.duplicateKey"),
    ]

    // MARK: - Three known errors, in every form

    @Test func textReportListsTheThreeErrorsAtTheirCells() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("p.csv", Self.threeErrorsCSV())
        let result = try Ferry.run(["validate", input])
        #expect(result.status == 1, "\(result.err)")
        let lines = result.out.split(separator: "\n").compactMap { DiagnosticLine(String($0)) }
        #expect(lines.count == 3, "\(result.out)")
        for (line, expected) in zip(lines, Self.threeErrors) {
            #expect(line.file == input)
            #expect(line.record == expected.record)
            #expect(line.line == expected.line)
            #expect(line.column == expected.column)
            #expect(line.field == expected.field)
            #expect(line.code == expected.code)
            #expect(line.severity == "error")
        }
        #expect(result.out.contains("3 errors in 1 file; 97 records valid"), "\(result.out)")
    }

    @Test func jsonReportHasTheThreeErrorsAndFollowsItsSchema() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("p.csv", Self.threeErrorsCSV())
        let output = folder.path("report.json")
        let result = try Ferry.run(["validate", input, "--report-format", "json", "--report-file", output])
        #expect(result.status == 1, "\(result.err)")
        let report = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any])
        let errors = try #require(report["errors"] as? [[String: Any]])
        #expect(errors.count == 3)
        for (error, expected) in zip(errors, Self.threeErrors) {
            #expect(error["file"] as? String == input)
            #expect(error["record"] as? Int == expected.record)
            #expect(error["line"] as? Int == expected.line)
            #expect(error["column"] as? Int == expected.column)
            #expect(error["field"] as? String == expected.field)
            #expect(error["code"] as? String == expected.code)
            #expect(error["severity"] as? String == "error")
        }
        #expect((errors[0]["value"] as? String) == "-5")
        #expect((errors[2]["value"] as? String) == "SKU-5")
        let summary = try #require(report["summary"] as? [String: Any])
        #expect(summary["records"] as? Int == 100)
        #expect(summary["validRecords"] as? Int == 97)
        #expect(report["valid"] as? Bool == false)
        #expect(report["partial"] as? Bool == false)
        try PythonCheck.run("json", output, schema: TestPaths.packageRoot.appendingPathComponent("Formats/report.schema.json").path)
    }

    @Test func junitReportParsesWithThreeFailures() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("p.csv", Self.threeErrorsCSV())
        let output = folder.path("report.xml")
        let result = try Ferry.run(["validate", input, "--report-format", "junit", "--report-file", output])
        #expect(result.status == 1, "\(result.err)")
        let counts = try PythonCheck.run("junit", output)
        #expect(counts == "suites=1 failures=3 errors=0 failing=record 10,record 20,record 30")
    }

    @Test func sarifReportIsValidSARIF() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("p.csv", Self.threeErrorsCSV())
        let output = folder.path("report.sarif")
        let result = try Ferry.run(["validate", input, "--report-format", "sarif", "--report-file", output])
        #expect(result.status == 1, "\(result.err)")
        let schema = TestPaths.packageRoot.appendingPathComponent("Tests/Corpora/sarif/sarif-schema-2.1.0.json").path
        #expect(FileManager.default.fileExists(atPath: schema), "the SARIF schema is missing from Tests/Corpora/sarif")
        let results = try PythonCheck.run("sarif", output, schema: schema)
        #expect(results == "11:19 record.negative,21:8 record.emptyField,31:1 record.duplicateKey")
    }

    @Test func githubReportIsThreeWorkflowCommands() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("p.csv", Self.threeErrorsCSV())
        let result = try Ferry.run(["validate", input, "--report-format", "github"])
        #expect(result.status == 1, "\(result.err)")
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(result.out)")
        let pattern = #/^::error file=(?<file>[^,]+),line=(?<line>\d+),col=(?<col>\d+),title=(?<title>[^:]+)::(?<message>.+)$/#
        for (line, expected) in zip(lines, Self.threeErrors) {
            let match = try #require(line.wholeMatch(of: pattern), "\(line)")
            #expect(match.file == Substring(input.replacing(":", with: "%3A").replacing(",", with: "%2C")))
            #expect(Int(match.line) == expected.line)
            #expect(Int(match.col) == expected.column)
            #expect(match.title == Substring(expected.code))
        }
    }

    // MARK: - Going on past errors

    @Test func csvReportsEveryBadRowAndChecksTheRowsAfter() throws {
        let folder = try ScratchFolder()
        var lines = ["name,price"]
        var bad: [Int] = []
        for row in 1...10_000 {
            if row % 200 == 7 {
                bad.append(row)
                switch bad.count % 3 {
                case 0: lines.append("Bad \(row),-\(row)")
                case 1: lines.append("Bad \(row),cheap")
                default: lines.append("Bad \(row),1,extra")  // ragged
                }
            } else {
                lines.append("Good \(row),\(row % 97).5")
            }
        }
        let input = try folder.write("big.csv", lines.joined(separator: "\n") + "\n")
        let result = try Ferry.run(["validate", input, "--report-format", "json"])
        #expect(result.status == 1, "\(result.err)")
        let report = try #require(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        let errors = try #require(report["errors"] as? [[String: Any]])
        #expect(bad.count == 50)
        #expect(errors.compactMap { $0["record"] as? Int } == bad)
        #expect(errors.compactMap { $0["line"] as? Int } == bad.map { $0 + 1 })
        let summary = try #require(report["summary"] as? [String: Any])
        #expect(summary["records"] as? Int == 10_000)
        #expect(summary["validRecords"] as? Int == 9_950)
    }

    /// Bytes after a closing quote spoil their row only, even a row whose
    /// quoted field runs over two lines.
    @Test func bytesAfterAClosingQuoteEndTheirRowOnly() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("q.csv", "name,price\nA,1\n\"B\"x,2\n\"C\",-3\n\"D\" ,\"4\n5\"\nE,6\n")
        let result = try Ferry.run(["validate", input])
        #expect(result.status == 1)
        let lines = result.out.split(separator: "\n").compactMap { DiagnosticLine(String($0)) }
        #expect(lines.map { "\($0.line ?? 0):\($0.column ?? 0):\($0.code)" } == [
            "3:4:csv.unexpectedAfterQuote", "4:5:record.negative", "5:4:csv.unexpectedAfterQuote",
        ])
        #expect(result.out.hasSuffix("3 errors in 1 file; 2 records valid\n"), "\(result.out)")
    }

    @Test func jsonLinesReportsEveryBadLineAndReadsTheNext() throws {
        let folder = try ScratchFolder()
        var lines: [String] = []
        var bad: [Int] = []
        for row in 1...1_000 {
            if row % 50 == 3 {
                bad.append(row)
                switch bad.count % 4 {
                case 0: lines.append(#"{"name":"Bad \#(row)","price":"#)  // cut off by its line's end
                case 1: lines.append(#"{"name":"Bad \#(row)","price":-1}"#)
                case 2: lines.append(#"{"name":"","price":1}"#)
                default: lines.append(#"{"name":"Bad \#(row)" "price":1}"#)  // a missing comma
                }
            } else {
                lines.append(#"{"name":"Good \#(row)","price":\#(row)}"#)
            }
        }
        let input = try folder.write("lines.jsonl", lines.joined(separator: "\n") + "\n")
        let result = try Ferry.run(["validate", input, "--report-format", "json"])
        #expect(result.status == 1, "\(result.err)")
        let report = try #require(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        let errors = try #require(report["errors"] as? [[String: Any]])
        #expect(bad.count == 20)
        #expect(errors.compactMap { $0["line"] as? Int } == bad)
        #expect(errors.compactMap { $0["record"] as? Int } == bad)
        let summary = try #require(report["summary"] as? [String: Any])
        #expect(summary["records"] as? Int == 1_000)
        #expect(summary["validRecords"] as? Int == 980)
    }

    /// An XML property list has lines: an error is at its value's element.
    @Test func xmlPlistErrorsAreAtTheirValues() throws {
        let folder = try ScratchFolder()
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <array>
            \t<dict>
            \t\t<key>name</key>
            \t\t<string>Wii</string>
            \t\t<key>price</key>
            \t\t<real>269</real>
            \t</dict>
            \t<dict>
            \t\t<key>price</key>
            \t\t<real>-1</real>
            \t\t<key>name</key> <string></string>
            \t</dict>
            </array>
            </plist>

            """
        let input = try folder.write("products.plist", plist)
        let result = try Ferry.run(["validate", input, "--kind", "product", "--report-format", "json"])
        #expect(result.status == 1, "\(result.err)")
        let report = try #require(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        let errors = try #require(report["errors"] as? [[String: Any]])
        let places = errors.map { "\($0["field"] ?? "-") \($0["line"] ?? "-"):\($0["column"] ?? "-")" }
        #expect(places.sorted() == ["name 13:19", "price 12:3"])
    }

    @Test func archiveReportsEveryBadProduct() throws {
        let folder = try ScratchFolder()
        var records: [String] = []
        var bad: [Int] = []
        for index in 1...40 {
            if index % 8 == 0 {
                bad.append(index)
                records.append(#"{"name":"Bad \#(index)","price":-\#(index).5}"#)
            } else {
                records.append(#"{"name":"Good \#(index)","price":\#(index).25}"#)
            }
        }
        let json = try folder.write("in.json", "[" + records.joined(separator: ",\n") + "]")
        let archive = folder.path("products.archive")
        // Generic records keep their values unchecked; the class name makes them products.
        let made = try Ferry.run([
            "convert", json, archive, "--to", "archive", "--kind", "generic", "--class-name", "GameStoreiOS.Product",
        ])
        #expect(made.status == 0, "\(made.err)")
        let result = try Ferry.run(["validate", archive, "--report-format", "json"])
        #expect(result.status == 1, "\(result.err)")
        let report = try #require(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        let errors = try #require(report["errors"] as? [[String: Any]])
        #expect(bad.count == 5)
        #expect(errors.compactMap { $0["record"] as? Int } == bad)
        #expect(errors.allSatisfy { $0["code"] as? String == "record.negative" && $0["field"] as? String == "price" })
        let files = try #require(report["files"] as? [[String: Any]])
        #expect(files.first?["kind"] as? String == "product")
        #expect(files.first?["validRecords"] as? Int == 35)
    }

    @Test func aBadElementOfAPlistOrArchiveIsSkipped() throws {
        let folder = try ScratchFolder()
        // Made by Python's plistlib: a binary plist whose second element is
        // no dictionary, and a keyed archive whose second element is a string.
        let script = #"""
            import plistlib, sys
            from plistlib import UID
            product = {"$classname": "GameStoreiOS.Product", "$classes": ["GameStoreiOS.Product", "NSObject"]}
            array = {"$classname": "NSArray", "$classes": ["NSArray", "NSObject"]}
            objects = ["$null", {"NS.objects": [UID(2), UID(5), UID(7)], "$class": UID(8)},
                {"name": UID(3), "price": 299.0, "$class": UID(4)}, "Xbox 360", product, "just a string", "Wii",
                {"name": UID(6), "price": -1.0, "$class": UID(4)}, array]
            archive = {"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {"root": UID(1)}, "$objects": objects}
            open(sys.argv[1], "wb").write(plistlib.dumps(archive, fmt=plistlib.FMT_BINARY))
            plistlib.dump([{"name": "A", "price": 1}, "oops", {"name": "B", "price": -2}], open(sys.argv[2], "wb"),
                          fmt=plistlib.FMT_BINARY)
            """#
        let archive = folder.path("bad.archive")
        let plist = folder.path("bad.plist")
        let made = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, archive, plist])
        #expect(made.status == 0, "\(made.err)")
        let result = try Ferry.run(["validate", archive, plist, "--report-format", "json"])
        #expect(result.status == 1, "\(result.err)")
        let report = try #require(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        let errors = try #require(report["errors"] as? [[String: Any]])
        #expect(errors.compactMap { $0["code"] as? String } == [
            "archive.recordNotObject", "record.negative", "bplist.recordNotDictionary", "record.negative",
        ])
        #expect(errors.compactMap { $0["record"] as? Int } == [2, 3, 2, 3])
        let files = try #require(report["files"] as? [[String: Any]])
        #expect(files.map { $0["complete"] as? Bool } == [true, true])
        #expect(files.map { $0["records"] as? Int } == [3, 3])
    }

    // MARK: - Photos

    @Test func photosMustBePNGOrJPEGByTheirBytes() throws {
        let folder = try ScratchFolder()
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("photos"), withIntermediateDirectories: true)
        try folder.write("photos/good.png", PhotoTests.pngMagic + [0, 0, 0, 0])
        try folder.write("photos/fake.png", Array("GIF89a not a png".utf8))
        let gif = "data:image/gif;base64," + Data("GIF89a....".utf8).base64EncodedString()
        let lines = [
            #"{"name":"A","price":1,"photo":"photos/good.png"}"#,
            #"{"name":"B","price":1,"photo":"photos/fake.png"}"#,
            #"{"name":"C","price":1,"photo":"\#(gif)"}"#,
            #"{"name":"D","price":1,"photo":"photos/gone.png"}"#,
            #"{"name":"E","price":1,"photo":"elsewhere/e.png"}"#,
            #"{"name":"F","price":1,"photo":"elsewhere/f.png"}"#,
        ]
        let input = try folder.write("p.jsonl", lines.joined(separator: "\n") + "\n")
        let result = try Ferry.run(["validate", input, "--report-format", "json"])
        // A photo that cannot be read is an I/O error, as convert's is.
        #expect(result.status == 3, "\(result.err)")
        let report = try #require(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        let found = try #require(report["errors"] as? [[String: Any]]).map {
            "\($0["record"] ?? ""):\($0["severity"] ?? ""):\($0["code"] ?? ""):\($0["column"] ?? "")"
        }
        #expect(
            found == [
                "2:error:photo.notImage:31", "3:error:photo.notImage:31", "4:error:photo.unreadable:31",
                "5:error:photo.unreadable:31", "6:error:photo.unreadable:31",
            ], "\(found)")
        let summary = try #require(report["summary"] as? [String: Any])
        #expect(summary["validRecords"] as? Int == 1)
        #expect(summary["warnings"] as? Int == 0)
    }

    /// The first record is read whole to infer the kind; its photo is
    /// checked and counted as every other's is, in every format.
    @Test func theFirstRecordsPhotoIsCheckedToo() throws {
        let folder = try ScratchFolder()
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("photos"), withIntermediateDirectories: true)
        try folder.write("photos/fake.png", Array("GIF89a not a png".utf8))
        let inputs = [
            try folder.write(
                "p.jsonl",
                #"{"name":"A","price":1,"photo":"photos/fake.png"}"# + "\n" + #"{"name":"B","price":1}"# + "\n"),
            try folder.write("p.json", #"[{"name":"A","price":1,"photo":"photos/fake.png"}, {"name":"B","price":1}]"#),
            try folder.write("p.csv", "name,price,photo\nA,1,photos/fake.png\nB,1,\n"),
        ]
        for input in inputs {
            let result = try Ferry.run(["validate", input, "--report-format", "json"])
            #expect(result.status == 1, "\(input): \(result.err)")
            let report = try #require(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
            let found = try #require(report["errors"] as? [[String: Any]]).map { "\($0["record"] ?? ""):\($0["code"] ?? "")" }
            #expect(found == ["1:photo.notImage"], "\(input): \(found)")
        }
        // References in a folder that does not exist: each is an error at its cell.
        let missing = try folder.write(
            "m.jsonl", #"{"name":"A","price":1,"photo":"gone/a.png"}"# + "\n" + #"{"name":"B","price":1,"photo":"gone/b.png"}"#)
        let result = try Ferry.run(["validate", missing])
        #expect(result.status == 3, "\(result.err)")
        #expect(result.diagnostics.map { "\($0.record ?? 0):\($0.line ?? 0):\($0.column ?? 0):\($0.code)" } == [
            "1:1:31:photo.unreadable", "2:2:31:photo.unreadable",
        ])
    }

    /// What `convert` to an archive refuses, `validate` reports as an error
    /// with the same code, at the same cell, with the same exit status.
    @Test(arguments: ["/etc/passwd", "../secret.png", "photos/../p.png", "link.png", "photos/none.png", "gone/none.png", "p.png/x"])
    func validateAndConvertAgreeOnAReference(_ reference: String) throws {
        let folder = try ScratchFolder()
        try folder.write("secret.png", PhotoTests.pngMagic + [0, 0])
        try folder.write("data/photos/p.png", PhotoTests.pngMagic + [0, 0])
        try folder.write("data/p.png", PhotoTests.pngMagic + [0, 0])
        try FileManager.default.createSymbolicLink(atPath: folder.path("data/link.png"), withDestinationPath: folder.path("secret.png"))
        let input = try folder.write(
            "data/in.jsonl",
            #"{"name":"ok","price":1,"photo":"p.png"}"# + "\n" + #"{"name":"a","price":1,"photo":"\#(reference)"}"# + "\n")
        let converted = try Ferry.run(["convert", input, folder.path("data/out.archive")])
        let validated = try Ferry.run(["validate", input])
        let refused = try #require(converted.diagnostics.first, "\(converted.err)")
        #expect(validated.diagnostics == [refused], "\(validated.out)")
        #expect(validated.status == converted.status)
        #expect([1, 3].contains(validated.status))
        #expect(refused.record == 2 && refused.field == "photo" && refused.line == 2 && refused.column == 31)
        // The JSON report names the same code and arguments, and follows its schema.
        let output = folder.path("report.json")
        _ = try Ferry.run(["validate", input, "--report-format", "json", "-o", output])
        let report = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any])
        let error = try #require((report["errors"] as? [[String: Any]])?.first)
        #expect((error["arguments"] as? [String])?.first == reference)
        #expect(error["severity"] as? String == "error")
        try PythonCheck.run("json", output, schema: TestPaths.packageRoot.appendingPathComponent("Formats/report.schema.json").path)
    }

    /// `--photos skip`: the photos are elsewhere, no file is read; a
    /// reference that leaves the folder by its text is still refused.
    @Test func photosSkipReadsNoFile() throws {
        let folder = try ScratchFolder()
        let lines = (1...50).map { #"{"name":"P\#($0)","price":1,"photo":"p\#($0).jpg"}"# }
        let input = try folder.write("p.jsonl", lines.joined(separator: "\n") + "\n")
        let checked = try Ferry.run(["validate", input, "--quiet"])
        #expect(checked.status == 3)
        #expect(checked.diagnostics.count == 50 && checked.diagnostics.allSatisfy { $0.code == "photo.unreadable" })
        let skipped = try Ferry.run(["validate", input, "--photos", "skip", "--strict"])
        #expect(skipped.status == 0, "\(skipped.out)")
        #expect(skipped.diagnostics.isEmpty)
        let outside = try folder.write(
            "o.csv", "name,price,photo\nA,1,p1.jpg\nB,1,/etc/passwd\nC,1,photos/../../x.png\n")
        let result = try Ferry.run(["validate", outside, "--photos", "skip"])
        #expect(result.status == 1)
        #expect(result.diagnostics.map { "\($0.record ?? 0):\($0.line ?? 0):\($0.column ?? 0):\($0.code)" } == [
            "2:3:5:photo.outsideFolder", "3:4:5:photo.outsideFolder",
        ])
        let wrong = try Ferry.run(["validate", input, "--photos", "elsewhere"])
        #expect(wrong.status == 2)
        #expect(wrong.diagnostics.first?.code == "usage.invalidValue")
    }

    // MARK: - Strict

    /// `--strict`: every warning is reported as an error, in every report
    /// form, and the exit status is 1.
    @Test func strictCountsEveryWarningAsAnError() throws {
        let folder = try ScratchFolder()
        // A repeated column name is renamed, with a warning at the header.
        let input = try folder.write("p.csv", "name,price,name\nA,1,x\nB,2,y\n")
        let lenient = try Ferry.run(["validate", input])
        #expect(lenient.status == 0, "\(lenient.out)")
        #expect(lenient.diagnostics.map { "\($0.severity):\($0.code)" } == ["warning:csv.renamedHeader"])
        let strict = try Ferry.run(["validate", input, "--strict"])
        #expect(strict.status == 1, "\(strict.out)")
        #expect(strict.diagnostics.map { "\($0.severity):\($0.code)" } == ["error:csv.renamedHeader"])
        let output = folder.path("report.json")
        #expect(try Ferry.run(["validate", input, "--strict", "--report-format", "json", "-o", output, "-q"]).status == 1)
        try PythonCheck.run("json", output, schema: TestPaths.packageRoot.appendingPathComponent("Formats/report.schema.json").path)
        let report = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any])
        let summary = try #require(report["summary"] as? [String: Any])
        #expect(summary["errors"] as? Int == 1 && summary["warnings"] as? Int == 0)
        #expect(report["valid"] as? Bool == false)
        #expect((report["errors"] as? [[String: Any]])?.first?["severity"] as? String == "error")
        #expect((report["errors"] as? [[String: Any]])?.first?["line"] as? Int == 1)
        let github = try Ferry.run(["validate", input, "--strict", "--report-format", "github"])
        #expect(github.out.hasPrefix("::error file="), "\(github.out)")
        let sarif = folder.path("report.sarif")
        #expect(try Ferry.run(["validate", input, "--strict", "--report-format", "sarif", "-o", sarif, "-q"]).status == 1)
        let log = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sarif))) as? [String: Any])
        let results = try #require(((log["runs"] as? [[String: Any]])?.first)?["results"] as? [[String: Any]])
        #expect(results.map { $0["level"] as? String } == ["error"])
        let junit = folder.path("report.xml")
        #expect(try Ferry.run(["validate", input, "--strict", "--report-format", "junit", "-o", junit, "-q"]).status == 1)
        #expect(try PythonCheck.run("junit", junit).hasPrefix("suites=1 failures=1"))
    }

    // MARK: - A user's schema

    @Test func aUsersSchemaAloneAppliesAndTypesTheColumns() throws {
        let folder = try ScratchFolder()
        let schema = try folder.write(
            "s.json",
            #"""
            {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "required": ["code"],
             "properties": {"code": {"type": "string", "pattern": "^[A-Z]{3}$", "x-ferry-unique": true},
                            "qty": {"type": "integer", "minimum": 1}, "rate": {"type": "number", "multipleOf": 0.01}}}
            """#)
        // name and price mean nothing to this schema: a negative price is fine.
        let input = try folder.write(
            "in.csv", "code,qty,rate,name,price\nABC,2,75.99,x,-1\nabc,0,1.5,y,2\nABC,3,0.015,z,3\nDEF,x,1,w,4\n")
        let result = try Ferry.run(["validate", input, "--schema", schema, "--report-format", "json"])
        #expect(result.status == 1, "\(result.err)")
        let report = try #require(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        let errors = try #require(report["errors"] as? [[String: Any]])
        let found = errors.map { "\($0["line"] ?? ""):\($0["column"] ?? ""):\($0["field"] ?? ""):\($0["code"] ?? "")" }
        #expect(
            found == [
                "3:1:code:schema.pattern", "3:5:qty:schema.minimum", "4:7:rate:schema.multipleOf",
                "4:1:code:record.duplicateKey", "5:5:qty:csv.invalidInteger",
            ], "\(found)")
        #expect(errors.map { $0["rule"] as? String } == [
            "/properties/code/pattern", "/properties/qty/minimum", "/properties/rate/multipleOf",
            "/properties/code/x-ferry-unique", nil,
        ])
        let rules = try #require(report["rules"] as? [String: Any])
        #expect(rules["name"] as? String == schema)
        #expect(rules["chosenBy"] as? String == "schema")

        let unsupported = try folder.write("u.json", #"{"type": "object", "oneOf": [{}], "minimun": 0}"#)
        let refused = try Ferry.run(["validate", input, "--schema", unsupported])
        #expect(refused.status == 2)
        #expect(refused.diagnosticCodes == ["schema.unsupportedKeyword"], "\(refused.err)")
    }

    /// `--schema-dir` registers a folder's schemas by `$id`; without it the
    /// reference is a usage error at load that names it.
    @Test func aSchemaDirResolvesReferencesByID() throws {
        let folder = try ScratchFolder()
        try folder.write(
            "shared/price.json",
            #"{"$id": "https://example.com/schemas/price.json", "$defs": {"money": {"type": "number", "minimum": 0}}}"#)
        let schema = try folder.write(
            "s.json",
            #"""
            {"properties": {"price": {"$ref": "https://example.com/schemas/price.json#/$defs/money"}},
             "dependentRequired": {"price": ["currency"]}}
            """#)
        let input = try folder.write("in.jsonl", "{\"price\": 2, \"currency\": \"EUR\"}\n{\"price\": -1}\n")
        let unresolved = try Ferry.run(["validate", input, "--schema", schema])
        #expect(unresolved.status == 2)
        #expect(unresolved.diagnosticCodes == ["schema.unresolvedReference"], "\(unresolved.err)")
        let result = try Ferry.run([
            "validate", input, "--schema", schema, "--schema-dir", folder.path("shared"), "--report-format", "json",
        ])
        #expect(result.status == 1, "\(result.err)")
        let report = try #require(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        let errors = try #require(report["errors"] as? [[String: Any]])
        #expect(errors.map { $0["code"] as? String } == ["record.negative", "schema.dependentRequired"])
        #expect(errors.map { $0["field"] as? String } == ["price", "currency"])
        #expect(
            errors.map { $0["rule"] as? String } == [
                "https://example.com/schemas/price.json#/$defs/money/minimum", "/dependentRequired",
            ])
        let alone = try Ferry.run(["validate", input, "--schema-dir", folder.path("shared")])
        #expect(alone.status == 2)
        #expect(alone.diagnosticCodes == ["usage.optionNeeds"], "\(alone.err)")
    }

    /// A CSV column whose schema is a `$ref`, or a nullable `anyOf`, is
    /// typed by the type it leads to: `12.5` is a number, not text.
    @Test func aReferredTypeTypesTheCSVColumn() throws {
        let folder = try ScratchFolder()
        let schema = try folder.write(
            "s.json",
            #"""
            {"$defs": {"money": {"type": "number", "minimum": 0}},
             "properties": {"price": {"$ref": "#/$defs/money"},
                            "qty": {"anyOf": [{"type": "integer", "maximum": 9}, {"type": "null"}]}}}
            """#)
        let input = try folder.write("in.csv", "price,qty\n12.5,3\n-1,\n2,12\n")
        let result = try Ferry.run(["validate", input, "--schema", schema, "--report-format", "json"])
        #expect(result.status == 1, "\(result.err)")
        let report = try #require(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        let errors = try #require(report["errors"] as? [[String: Any]])
        #expect(errors.map { $0["code"] as? String } == ["record.negative", "schema.maximum"])
        #expect(errors.map { $0["rule"] as? String } == ["/$defs/money/minimum", "/properties/qty/anyOf/0/maximum"])
    }

    /// A draft-07 root that is only a `$ref` types the CSV columns by the
    /// fields of the schema it refers to.
    @Test func aRootReferenceTypesTheCSVColumns() throws {
        let folder = try ScratchFolder()
        let schema = try folder.write(
            "s.json",
            #"""
            {"$schema": "http://json-schema.org/draft-07/schema#", "$ref": "#/definitions/Product",
             "definitions": {"Product": {"type": "object", "required": ["price"],
                                         "properties": {"price": {"type": "number", "minimum": 0}}}}}
            """#)
        let input = try folder.write("in.csv", "price,name\n12.5,a\n-1,b\n,c\n")
        let result = try Ferry.run(["validate", input, "--schema", schema, "--report-format", "json"])
        #expect(result.status == 1, "\(result.err)")
        let report = try #require(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        let errors = try #require(report["errors"] as? [[String: Any]])
        #expect(errors.map { $0["code"] as? String } == ["record.negative", "record.missingField"])
        #expect(
            errors.map { $0["rule"] as? String } == ["/definitions/Product/properties/price/minimum", "/definitions/Product/required"])
    }

    // MARK: - Caps, structure and exit codes

    @Test func theCapMakesThePartialReportSaySo() throws {
        let folder = try ScratchFolder()
        let rows = (1...100).map { "P\($0),-\($0)" }
        let input = try folder.write("p.csv", "name,price\n" + rows.joined(separator: "\n") + "\n")
        let text = try Ferry.run(["validate", input, "--max-errors", "5"])
        #expect(text.status == 1)
        #expect(text.out.split(separator: "\n").compactMap { DiagnosticLine(String($0)) }.count == 5)
        #expect(text.out.contains("the report is partial"), "\(text.out)")
        #expect(text.out.contains("95 records were not checked"), "\(text.out)")
        let json = try Ferry.run(["validate", input, "--max-errors", "5", "--report-format", "json"])
        let report = try #require(JSONSerialization.jsonObject(with: Data(json.stdout)) as? [String: Any])
        let summary = try #require(report["summary"] as? [String: Any])
        #expect(report["partial"] as? Bool == true)
        #expect(summary["uncheckedRecords"] as? Int == 95)
        #expect(summary["reachedCap"] as? Bool == true)
        let sarif = try Ferry.run(["validate", input, "--max-errors", "5", "--report-format", "sarif"])
        #expect(sarif.out.contains("\"partial\": true"))
        let junit = try Ferry.run(["validate", input, "--max-errors", "5", "--report-format", "junit"])
        #expect(junit.out.contains("failures=\"5\""))
        #expect(junit.out.contains("<property name=\"ferry.partial\" value=\"true\"/>"))
        #expect(junit.out.contains("<property name=\"ferry.uncheckedRecords\" value=\"95\"/>"))
        let github = try Ferry.run(["validate", input, "--max-errors", "5", "--report-format", "github"])
        let githubLines = github.out.split(separator: "\n")
        #expect(githubLines.count == 6)
        #expect(githubLines.last?.hasPrefix("::warning title=ferry::the report is partial") == true, "\(github.out)")
    }

    @Test func aStructuralErrorEndsTheFileWithOneFatalError() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("broken.json", "[{\"name\":\"A\",\"price\":1},\n {\"name\":\"B\" \"price\":2},\n {\"name\":\"C\",\"price\":-1}]")
        let result = try Ferry.run(["validate", input, "--report-format", "json"])
        #expect(result.status == 1)
        let report = try #require(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        let errors = try #require(report["errors"] as? [[String: Any]])
        #expect(errors.count == 1)
        #expect(errors.first?["code"] as? String == "json.unexpectedCharacter")
        #expect(errors.first?["line"] as? Int == 2)
        #expect(report["partial"] as? Bool == true)
        let files = try #require(report["files"] as? [[String: Any]])
        #expect(files.first?["complete"] as? Bool == false)
        let text = try Ferry.run(["validate", input])
        #expect(text.out.contains("could not be read past line 2"), "\(text.out)")
    }

    @Test func exitCodesSayValidInvalidUsageAndIO() throws {
        let folder = try ScratchFolder()
        let valid = try Ferry.run(["validate", TestPaths.example("products.csv"), TestPaths.example("books.jsonl")])
        #expect(valid.status == 0, "\(valid.out)\(valid.err)")
        #expect(valid.out.contains("no errors in 2 files"), "\(valid.out)")
        let invalid = try Ferry.run(["validate", try folder.write("p.csv", Self.threeErrorsCSV())])
        #expect(invalid.status == 1)
        let usage = try Ferry.run(["validate", TestPaths.example("products.csv"), "--report-format", "yaml"])
        #expect(usage.status == 2)
        let missing = try Ferry.run(["validate", folder.path("absent.csv")])
        #expect(missing.status == 3)
        #expect(missing.out.contains("io.cannotOpen"), "\(missing.out)")
        // A file that cannot be opened holds no record, valid or not.
        #expect(missing.out.contains("; 0 records valid"), "\(missing.out)")
        // An unreadable file past the cap still makes the run an I/O failure.
        let capped = try Ferry.run([
            "validate", try folder.write("q.csv", Self.threeErrorsCSV()), folder.path("absent.csv"), "--max-errors", "1",
        ])
        #expect(capped.status == 3, "\(capped.out)")
    }
}

/// The same validation in each of Ferry's languages: the same errors, at the
/// same places, with the words and the summary of the language.
@Suite struct ValidateLanguageTests {
    /// The summary line of the three known errors, per language.
    static let summaries: [(language: String, summary: String)] = [
        ("en", "3 errors in 1 file; 97 records valid"),
        ("en-GB", "3 errors in 1 file; 97 records valid"),
        ("de", "3 Fehler in 1 Datei; 97 Datensätze gültig"),
        ("fr", "3 erreurs dans 1 fichier\u{00A0}; 97 enregistrements valides"),
        ("es", "3 errores en 1 archivo; 97 registros válidos"),
        ("it", "3 errori in 1 file; 97 record validi"),
        ("el", "3 σφάλματα σε 1 αρχείο· 97 έγκυρες εγγραφές"),
    ]

    /// `file:line:column: word: … [code]` in any language: the place and the code.
    static func places(_ output: String) -> [String] {
        output.split(separator: "\n").compactMap { line in
            guard let match = line.wholeMatch(of: #/(?<place>.+?:\d+:\d+): [^:]+: .* \[(?<code>[A-Za-z.]+)\]/#) else {
                return nil
            }
            return "\(match.place) \(match.code)"
        }
    }

    @Test(arguments: summaries.map(\.language))
    func theSameErrorsInEachLanguage(_ language: String) throws {
        let folder = try ScratchFolder()
        let input = try folder.write("p.csv", ValidateCommandTests.threeErrorsCSV())
        let english = try Ferry.run(["validate", input])
        let result = try Ferry.run(["validate", input, "--lang", language])
        #expect(result.status == 1)
        #expect(Self.places(result.out) == Self.places(english.out))
        #expect(Self.places(result.out).count == 3)
        let summary = try #require(Self.summaries.first { $0.language == language }?.summary)
        #expect(result.out.split(separator: "\n").last.map(String.init) == summary, "\(result.out)")
    }

    @Test func theEnvironmentChoosesTheLanguage() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("p.csv", ValidateCommandTests.threeErrorsCSV())
        let french = try Ferry.run(["validate", input], environment: ["LANG": "fr_FR.UTF-8"])
        #expect(french.out.hasSuffix("3 erreurs dans 1 fichier\u{00A0}; 97 enregistrements valides\n"), "\(french.out)")
        let german = try Ferry.run(["validate", input], environment: ["LANGUAGE": "xx:de", "LANG": "en_US.UTF-8"])
        #expect(german.out.hasSuffix("3 Fehler in 1 Datei; 97 Datensätze gültig\n"), "\(german.out)")
    }

    /// The catalogs are in the binary: a copy of it alone in an empty folder
    /// still speaks German.
    @Test func aCopiedBinaryKeepsItsLanguages() throws {
        let folder = try ScratchFolder()
        let ferry = try #require(TestPaths.ferry)
        let copy = folder.url.appendingPathComponent("bin/ferry")
        try FileManager.default.createDirectory(
            at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Written through a close-on-exec descriptor: a child another test
        // spawns meanwhile must not inherit it, or running the copy fails
        // with ETXTBSY while that child lives.
        let bytes = [UInt8](try Data(contentsOf: ferry))
        let descriptor = open(copy.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        #expect(descriptor >= 0)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            written += count
        }
        close(descriptor)
        #expect(written == bytes.count)
        let input = try folder.write("p.csv", ValidateCommandTests.threeErrorsCSV())
        let result = try Subprocess.run(copy, ["validate", input, "--lang", "de"], in: folder.url)
        #expect(result.out.hasSuffix("3 Fehler in 1 Datei; 97 Datensätze gültig\n"), "\(result.out)\(result.err)")
    }
}

/// `ferry lint`: well-formedness only, reported as `validate` reports.
@Suite struct LintReportTests {
    @Test func lintReportsEveryProblemItCanReadPast() throws {
        let folder = try ScratchFolder()
        let ragged = try folder.write("r.csv", "a;b\n1;-2\n3\n4;5;6\n7;8\n")
        let result = try Ferry.run(["lint", ragged, TestPaths.example("products.csv"), "--delimiter", ";"])
        #expect(result.status == 1, "\(result.out)\(result.err)")
        let lines = result.out.split(separator: "\n").compactMap { DiagnosticLine(String($0)) }
        #expect(lines.map(\.code) == ["csv.raggedRow", "csv.raggedRow"])
        #expect(lines.map(\.line) == [3, 4])
        #expect(result.out.contains("products.csv: OK (csv)"), "\(result.out)")
        #expect(result.out.contains("2 errors in 2 files"), "\(result.out)")

        let output = folder.path("lint.json")
        let json = try Ferry.run(["lint", ragged, "--delimiter", ";", "--report-format", "json", "--report-file", output])
        #expect(json.status == 1)
        try PythonCheck.run("json", output, schema: TestPaths.packageRoot.appendingPathComponent("Formats/report.schema.json").path)
        let capped = try Ferry.run(["lint", ragged, "--delimiter", ";", "--max-errors", "1", "--quiet"])
        #expect(capped.out.split(separator: "\n").count == 1, "\(capped.out)")
    }
}

/// Checks reports with Python: `jsonschema` for the JSON and SARIF reports,
/// `xml.etree` for JUnit.
enum PythonCheck {
    static let script = #"""
        import json, sys
        kind, path = sys.argv[1], sys.argv[2]
        if kind == "junit":
            import xml.etree.ElementTree as ET
            root = ET.parse(path).getroot()
            suites = root.findall("testsuite")
            failing = [case.get("name") for case in root.iter("testcase") if case.find("failure") is not None]
            print(f"suites={len(suites)} failures={root.get('failures')} errors={root.get('errors')} failing={','.join(failing)}")
        else:
            import jsonschema
            schema = json.load(open(sys.argv[3]))
            document = json.load(open(path))
            jsonschema.validators.validator_for(schema)(schema).validate(document)
            if kind == "sarif":
                results = document["runs"][0]["results"]
                print(",".join(
                    f"{r['locations'][0]['physicalLocation']['region']['startLine']}:"
                    f"{r['locations'][0]['physicalLocation']['region']['startColumn']} {r['ruleId']}" for r in results))
            else:
                print("valid")
        """#

    /// Runs the check and returns what it printed, without the line break.
    @discardableResult
    static func run(_ kind: String, _ path: String, schema: String? = nil) throws -> String {
        let python = try PythonEnvironment.python()
        let result = try Subprocess.run(python, ["-c", script, kind, path] + (schema.map { [$0] } ?? []))
        #expect(result.status == 0, "\(result.err)")
        return result.out.trimmingCharacters(in: .newlines)
    }
}
