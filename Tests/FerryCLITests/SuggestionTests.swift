import Foundation
import Testing

import FerryCore
@testable import FerryCommandLine

/// "Did you mean": the nearest subcommand, option or format by
/// Damerau–Levenshtein distance, and a help hint after every usage error.
@Suite struct SuggestionTests {
    @Test func distanceCountsSwapsAsOneEdit() {
        #expect(Suggestion.distance(Array("jsnol"), Array("jsonl")) == 1)
        #expect(Suggestion.distance(Array("conver"), Array("convert")) == 1)
        #expect(Suggestion.distance(Array("--forse"), Array("--force")) == 1)
        #expect(Suggestion.distance(Array("kitten"), Array("sitting")) == 3)
        #expect(Suggestion.distance(Array(""), Array("abc")) == 3)
        #expect(Suggestion.distance(Array("ca"), Array("abc")) == 3)
    }

    @Test(arguments: [
        ("conver", ["convert", "validate", "lint", "inspect", "formats"], "convert"),
        ("valdiate", ["convert", "validate", "lint"], "validate"),
        ("--forse", ["--force", "--from", "--to"], "--force"),
        ("jsnol", ["json", "jsonl", "csv"], "jsonl"),
        ("CVS", ["json", "csv", "tsv"], "csv"),
        ("xml", ["plist-xml", "xml1", "json"], "xml1"),
    ])
    func nearCandidatesAreOffered(_ word: String, candidates: [String], expected: String) {
        #expect(Suggestion.nearest(word, among: candidates) == expected)
    }

    @Test(arguments: ["frobnicate", "x", "--bogus", "yaml", "convert"])
    func farOrExactWordsGetNothing(_ word: String) {
        #expect(Suggestion.nearest(word, among: ["convert", "validate", "lint", "json", "--force"]) == nil)
    }

    /// The suggestion and the hint follow the error on standard error, as
    /// the last lines; the status stays a usage error.
    @Test(arguments: [
        (["conver", "a.json"], "usage.unknownCommand", "'convert'", "'ferry --help'"),
        (["--verison"], "usage.unknownOption", "'--version'", "'ferry --help'"),
        (["convert", "a.json", "--forse"], "usage.unknownOption", "'--force'", "'ferry help convert'"),
        (["convert", "a.json", "--to", "jsnol"], "usage.invalidValue", "'jsonl'", "'ferry help convert'"),
        (["lint", "a.json", "--from", "CVS"], "usage.invalidValue", "'csv'", "'ferry help lint'"),
    ])
    func misspeltWordsGetASuggestionAndAHint(_ arguments: [String], code: String, suggestion: String, hint: String)
        throws
    {
        let result = try Ferry.run(arguments, environment: ["LANG": "C"])
        #expect(result.status == 2)
        #expect(result.diagnostics.first?.code == code, "\(result.err)")
        let lines = result.err.split(separator: "\n")
        #expect(lines.count == 3, "\(result.err)")
        #expect(lines.dropFirst().first?.contains(suggestion) == true, "\(result.err)")
        #expect(lines.last?.contains(hint) == true, "\(result.err)")
    }

    /// `--report` meant a form in `validate` and a file in `merge` (where
    /// `merge … --report json` wrote a text report to a file named `json`):
    /// the old spellings are refused, each naming the one that replaced it,
    /// and nothing is written.
    @Test(arguments: [
        (["validate", "a.json", "--report", "json"], "'--report-format'", "'ferry help validate'"),
        (["validate", "a.json", "--report=json"], "'--report-format'", "'ferry help validate'"),
        (["validate", "a.json", "--output", "r.txt"], "'--report-file'", "'ferry help validate'"),
        (["lint", "a.json", "--report", "github"], "'--report-format'", "'ferry help lint'"),
        (["merge", "a.json", "-o", "m.json", "--report", "json"], "'--report-file'", "'ferry help merge'"),
        (["merge", "a.json", "-o", "m.json", "-r", "json"], "'--report-file'", "'ferry help merge'"),
        (["plan", "a.json", "--report", "json"], "'--report-format'", "'ferry help plan'"),
        (["inspect", "a.json", "--report", "json"], "'--report-format'", "'ferry help inspect'"),
        (["list", "a.json", "--report", "json"], "'--report-format'", "'ferry help list'"),
    ])
    func oldReportSpellingsAreRefusedWithTheNewOne(_ arguments: [String], suggestion: String, hint: String) throws {
        let folder = try ScratchFolder()
        try folder.write("a.json", "[]")
        let result = try Ferry.run(arguments, in: folder.url, environment: ["LANG": "C"])
        #expect(result.status == 2)
        #expect(result.diagnostics.first?.code == "usage.unknownOption", "\(result.err)")
        let lines = result.err.split(separator: "\n")
        #expect(lines.count == 3, "\(result.err)")
        #expect(lines.dropFirst().first?.contains(suggestion) == true, "\(result.err)")
        #expect(lines.last?.contains(hint) == true, "\(result.err)")
        #expect(try folder.contents() == ["a.json"])
    }

    /// A report's form in `merge` goes to its file: without one it would be
    /// dropped, so it is refused.
    @Test func mergeReportFormatNeedsAReportFile() throws {
        let folder = try ScratchFolder()
        try folder.write("a.json", "[]")
        let result = try Ferry.run(
            ["merge", "a.json", "-o", "m.json", "--report-format", "json"], in: folder.url, environment: ["LANG": "C"])
        #expect(result.status == 2)
        #expect(result.diagnostics.first?.code == "usage.optionNeeds", "\(result.err)")
        let first = result.err.split(separator: "\n").first ?? ""
        #expect(first.contains("--report-format") && first.contains("--report-file"), "\(result.err)")
        #expect(try folder.contents() == ["a.json"])
    }

    /// Without a near word there is no suggestion, only the hint; the top
    /// level's errors point at the top level's help.
    @Test(arguments: [
        (["--bogus"], "usage.unknownOption", "'ferry --help'"),
        (["frobnicate"], "usage.unknownCommand", "'ferry --help'"),
        (["help", "frobnicate"], "usage.unknownCommand", "'ferry --help'"),
        (["convert"], "usage.missingArgument", "'ferry help convert'"),
        (["convert", "a.json", "out.xml"], "output.unknownExtension", "'ferry help convert'"),
    ])
    func everyUsageErrorEndsWithAHint(_ arguments: [String], code: String, hint: String) throws {
        let folder = try ScratchFolder()
        try folder.write("a.json", "[]")
        let result = try Ferry.run(arguments, in: folder.url, environment: ["LANG": "C"])
        #expect(result.status == 2)
        #expect(result.diagnostics.first?.code == code, "\(result.err)")
        let lines = result.err.split(separator: "\n")
        #expect(lines.count == 2, "\(result.err)")
        #expect(lines.last?.contains(hint) == true, "\(result.err)")
    }
}
