import FerryKit
import Foundation
import Testing

@testable import FerryCommandLine

/// `--lang` and the environment choose the catalog of everything the CLI
/// prints: help, usage errors, diagnostics. Run in the process, with a German
/// catalog made up for the test (Ferry's own are English alone for now).
@Suite struct LanguageOptionTests {
    static let tables: [String: [String: String]] = [
        "en": Messages.builtInTables["en"] ?? [:],
        "de": [
            "cli.abstract": "Ferry wandelt Datensätze um.",
            "help.usage": "AUFRUF:",
            "help.options": "OPTIONEN:",
            "convert.abstract": "Wandelt eine Datei um.",
            "diagnostic.error": "Fehler",
            "usage.missingArgument": "fehlendes Argument %1$@ für '%2$@'",
            "usage.unknownOption": "unbekannte Option '%1$@' für '%2$@'",
            "usage.invalidValue": "'%2$@' ist kein gültiger Wert für %1$@ (erwartet: %3$@)",
            "cli.usageHint": "Siehe '%1$@'.",
        ],
    ]

    /// Runs the CLI in this process; standard output and error go to memory.
    static func run(_ arguments: [String], environment: [String: String] = [:], terminal: Bool = false) -> (
        status: Int32, out: String, err: String
    ) {
        let output = MemoryOutput()
        let error = MemoryOutput()
        let status = FerryCLI.run(
            arguments, registry: .standard, environment: environment, tables: tables,
            streams: Console.Streams(output: output, error: error, errorIsTerminal: terminal))
        return (status, output.text, error.text)
    }

    /// The summary `convert` prints on a terminal agrees with its count.
    @Test func theSummaryCountsRecords() throws {
        let folder = try ScratchFolder()
        let one = try folder.write("one.jsonl", Array(#"{"name": "Wii", "price": 269}"#.utf8))
        let single = Self.run(["convert", one, folder.path("one.json")], terminal: true)
        #expect(single.status == 0, "\(single.err)")
        #expect(single.err.hasSuffix("1 record written to \(folder.path("one.json")) (json).\n"), "\(single.err)")
        let three = Self.run(["convert", TestPaths.example("products.json"), folder.path("three.csv")], terminal: true)
        #expect(three.err.hasSuffix("3 records written to \(folder.path("three.csv")) (csv).\n"), "\(three.err)")
    }

    @Test(arguments: [
        ["--lang", "de", "--help"], ["--help", "--lang", "de"], ["--lang=de", "--help"],
        ["--lang", "de_AT.UTF-8", "--help"],
    ])
    func topLevelHelp(_ arguments: [String]) {
        let result = Self.run(arguments)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.hasPrefix("Ferry wandelt Datensätze um.\n\nAUFRUF:\n"), "\(result.out)")
        #expect(result.out.contains("OPTIONEN:"))
        #expect(result.out.contains("--lang <language>"))
    }

    @Test(arguments: [
        ["help", "convert", "--lang", "de"], ["convert", "--help", "--lang", "de"], ["--lang", "de", "convert", "-h"],
    ])
    func subcommandHelp(_ arguments: [String]) {
        let result = Self.run(arguments)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.hasPrefix("Wandelt eine Datei um.\n\nAUFRUF:\n  ferry convert"), "\(result.out)")
        // --lang is listed with the languages, just before --help.
        let words = result.out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("--lang <language> "), "\(result.out)")
        #expect(words.contains("(one of: de en) -h, --help"), "\(result.out)")
    }

    /// The language is chosen before parsing, so a usage error that comes
    /// before `--lang` on the command line is in its language too.
    @Test func usageErrorsSpeakTheLanguage() {
        let missing = Self.run(["convert", "--lang", "de"])
        #expect(missing.status == 2)
        #expect(
            missing.err
                == "Fehler: fehlendes Argument <input> für 'convert' [usage.missingArgument]\nSiehe 'ferry help convert'.\n"
        )
        let unknown = Self.run(["convert", "in.json", "--bogus", "--lang", "de"])
        #expect(unknown.status == 2)
        #expect(
            unknown.err.hasPrefix("Fehler: unbekannte Option '--bogus' für 'convert' [usage.unknownOption]\n"),
            "\(unknown.err)")
    }

    @Test func theEnvironmentChoosesWithoutLang() {
        let german = Self.run(["convert"], environment: ["LANG": "de_DE.UTF-8"])
        #expect(german.err.hasPrefix("Fehler: fehlendes Argument"), "\(german.err)")
        let english = Self.run(["convert", "--lang", "en"], environment: ["LANG": "de_DE.UTF-8"])
        #expect(english.err.hasPrefix("error: missing argument"), "\(english.err)")
        let c = Self.run(["convert"], environment: ["LC_ALL": "C", "LANGUAGE": "de", "LANG": "de_DE"])
        #expect(c.err.hasPrefix("error: "), "\(c.err)")
        let passedOn = Self.run(["convert"], environment: ["LANGUAGE": "xx:de"])
        #expect(passedOn.err.hasPrefix("Fehler: "), "\(passedOn.err)")
    }

    @Test func anUnknownLanguageIsAUsageErrorInTheEnvironmentsLanguage() {
        let result = Self.run(["--lang", "xx", "--help"], environment: ["LANG": "de_DE"])
        #expect(result.status == 2)
        #expect(result.out.isEmpty)
        // The error, then the hint that follows every usage error.
        #expect(
            result.err == "Fehler: 'xx' ist kein gültiger Wert für --lang (erwartet: de, en) [usage.invalidValue]\n"
                + "Siehe 'ferry --help'.\n")
        let english = Self.run(["convert", "a.json", "--lang=pt-BR"])
        #expect(
            english.err == "error: 'pt-BR' is not a valid value for --lang (expected de, en) [usage.invalidValue]\n"
                + "See 'ferry help convert'.\n")
    }

    @Test func langWithoutAValue() {
        let result = Self.run(["convert", "a.json", "--lang"])
        #expect(result.status == 2)
        #expect(result.err == "error: option '--lang' needs a value [usage.missingValue]\nSee 'ferry help convert'.\n")
    }

    /// `--lang` is taken out wherever it stands, but not from the value of
    /// another option or after `--`.
    @Test func scanning() {
        let commands = FerryCLI.commands(registry: .standard)
        func choose(_ arguments: [String]) -> LanguageOption.Choice {
            LanguageOption.choose(arguments, commands: commands, environment: [:], available: ["en", "de"])
        }
        #expect(choose(["convert", "a.csv", "--lang", "de", "-"]).arguments == ["convert", "a.csv", "-"])
        #expect(choose(["convert", "a.csv", "--lang", "de", "-"]).language == "de")
        #expect(choose(["--lang", "de", "--lang", "en", "formats"]).language == "en")
        let delimiter = choose(["convert", "a.csv", "--delimiter", "--lang", "de"])
        #expect(delimiter.arguments == ["convert", "a.csv", "--delimiter", "--lang", "de"])
        #expect(delimiter.language == "en")
        let short = choose(["convert", "a.csv", "-t", "--lang"])
        #expect(short.arguments == ["convert", "a.csv", "-t", "--lang"])
        #expect(short.error == nil)
        let ended = choose(["convert", "--", "--lang", "de"])
        #expect(ended.arguments == ["convert", "--", "--lang", "de"])
        #expect(ended.language == "en")
    }

    @Test func theParserTakesLangToo() throws {
        #expect(try FerryCLI.parse(["convert", "a.json", "--lang", "en"]) == "convert")
        #expect(try FerryCLI.parse(["--lang=en_GB.UTF-8", "formats"]) == "formats")
        let error = #expect(throws: FerryError.self) { try FerryCLI.parse(["formats", "--lang", "xx"]) }
        #expect(error?.code == .usageInvalidValue)
    }
}

/// The built `ferry`, with the catalogs built into it.
@Suite struct LanguageCommandTests {
    @Test(arguments: [
        ["--lang", "en", "--help"], ["help", "convert", "--lang", "en_US.UTF-8"], ["formats", "--lang=C"],
        ["lint", "--lang", "en", "--help"], ["inspect", "--help", "--lang", "en-US"],
    ])
    func langIsAcceptedEverywhere(_ arguments: [String]) throws {
        let result = try Ferry.run(arguments)
        #expect(result.status == 0, "\(result.err)")
        #expect(!result.out.isEmpty)
        #expect(result.stderr.isEmpty)
    }

    @Test func anUnknownLanguageListsTheLanguages() throws {
        let result = try Ferry.run(["convert", "--lang", "xx", TestPaths.example("products.json")])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.diagnosticCodes == ["usage.invalidValue"])
        #expect(result.err.contains("--lang (expected \(Messages.languages.joined(separator: ", ")))"), "\(result.err)")
    }

    /// A language without a catalog, or none at all, gives English.
    @Test(arguments: [["LANG": "xx_YY.UTF-8"], ["LANG": ""], ["LANGUAGE": "zz", "LC_ALL": "C.UTF-8"], [:]])
    func environmentsWithoutACatalogGiveEnglish(_ environment: [String: String]) throws {
        let result = try Ferry.run(["convert", "--bogus"], environment: environment)
        #expect(result.status == 2)
        #expect(result.diagnostics.first?.severity == "error", "\(result.err)")
        #expect(result.err.contains("unknown option '--bogus' for 'convert'"))
    }
}
