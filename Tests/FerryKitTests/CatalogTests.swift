import FerryTestSupport
import Foundation
import Testing

@testable import FerryCore
@testable import FerryKit

/// The package root, found from this file.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The catalogs in `Formats/Messages`, by language, as the files hold them.
func catalogFiles() throws -> [String: [String: String]] {
    let folder = packageRoot.appendingPathComponent("Formats/Messages")
    var catalogs: [String: [String: String]] = [:]
    for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".strings") {
        let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        let table = try #require(StringsFile.parse(text), "\(file) is not a valid strings file")
        catalogs[String(file.dropLast(".strings".count))] = table
    }
    return catalogs
}

/// The text of every Swift file under `Sources/` but the generated ones.
func sourceFiles() throws -> [(name: String, text: String)] {
    let sources = packageRoot.appendingPathComponent("Sources")
    let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
    return try files.filter { $0.hasSuffix(".swift") && !$0.hasSuffix("EmbeddedCatalogs.swift") }.sorted().map {
        ($0, try String(contentsOf: sources.appendingPathComponent($0), encoding: .utf8))
    }
}

/// The error and warning codes defined in `Sources/`: `Self("json.empty", .data)`.
func codesInSources() throws -> Set<String> {
    let pattern = try NSRegularExpression(pattern: #"Self\(\s*"([^"]+)"\s*,\s*\.(?:data|usage|io)\s*\)"#)
    var codes = Set<String>()
    for (_, text) in try sourceFiles() {
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            if let range = Range(match.range(at: 1), in: text) { codes.insert(String(text[range])) }
        }
    }
    return codes
}

@Suite struct CatalogTests {
    // MARK: - The files, the binary's copy and the typed keys

    @Test func embeddedCatalogsMatchFormats() throws {
        let files = try catalogFiles()
        #expect(files["en"] != nil, "Formats/Messages/en.strings is missing")
        #expect(
            Set(EmbeddedCatalogs.tables.keys) == Set(files.keys),
            "Sources/FerryKit/Generated/EmbeddedCatalogs.swift is stale: run python3 Scripts/embed-catalogs.py")
        for (language, table) in files {
            #expect(
                EmbeddedCatalogs.tables[language] == table,
                "\(language): Sources/FerryKit/Generated/EmbeddedCatalogs.swift is stale: run python3 Scripts/embed-catalogs.py")
        }
    }

    @Test func generatedFilesAreCurrent() throws {
        let result = try Subprocess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", packageRoot.path + "/Scripts/embed-catalogs.py", "--check"])
        #expect(result.status == 0, "\(result.err)")
    }

    /// One typed key per English key that is not a code, a plural message
    /// once; and every typed key has English text.
    @Test func typedKeysAreTheEnglishKeysThatAreNotCodes() throws {
        let english = try #require(try catalogFiles()["en"])
        let codes = try codesInSources()
        let plain = Set(english.keys.filter { !$0.contains("#") }).subtracting(codes)
        let plural = Set(CatalogCheck.pluralMessages(english).keys).subtracting(codes)
        #expect(Set(MessageKey.all.map(\.rawValue)) == plain)
        #expect(MessageKey.all.count == plain.count)
        #expect(Set(PluralKey.all.map(\.rawValue)) == plural)
        #expect(PluralKey.all.contains(.convertDone))
    }

    // MARK: - English and the translations

    @Test func englishIsWellFormed() throws {
        let english = try #require(try catalogFiles()["en"])
        #expect(CatalogCheck.englishProblems(english) == [])
    }

    /// Every catalog in Formats/Messages besides English has exactly its
    /// keys, with plural variants for its language and the same placeholders.
    @Test func everyTranslationMatchesEnglish() throws {
        let catalogs = try catalogFiles()
        let english = try #require(catalogs["en"])
        for (language, table) in catalogs.sorted(by: { $0.key < $1.key }) where language != "en" {
            let problems = CatalogCheck.problems(language: language, table: table, english: english)
            #expect(problems.isEmpty, "\(problems.count) problems:\n\(problems.joined(separator: "\n"))")
        }
    }

    /// The check itself finds each kind of problem (it must not pass a bad catalog).
    @Test func theCheckFindsEveryKindOfProblem() {
        let english = [
            "a": "%1$@ and %2$@", "b": "plain", "files#one": "%1$@ file in %2$@", "files#other": "%1$@ files in %2$@",
        ]
        let complete = [
            "a": "%2$@ und %1$@", "b": "schlicht", "files#one": "%1$@ Datei in %2$@",
            "files#other": "%1$@ Dateien in %2$@",
        ]
        #expect(CatalogCheck.problems(language: "de", table: complete, english: english) == [])
        var twoKeys = ["a": "%1$@ und %2$@", "b": "schlicht"]
        #expect(
            CatalogCheck.problems(language: "de", table: twoKeys, english: english) == [
                "de: 'files#one' is missing", "de: 'files#other' is missing",
            ])
        twoKeys["c"] = "extra"
        #expect(
            CatalogCheck.problems(language: "de", table: twoKeys, english: english).contains(
                "de: 'c' is not in English"))

        var placeholders = complete
        placeholders["a"] = "%1$@ und %3$@"
        placeholders["files#one"] = "eine Datei"
        #expect(
            CatalogCheck.problems(language: "de", table: placeholders, english: english) == [
                "de: 'a' uses placeholders [1, 3], English [1, 2]",
                "de: 'files#one' uses placeholders [], English [1, 2]",
            ])

        // French needs #many as well; the base key beside its variants is extra; a plural base needs #other.
        let french = [
            "a": "%1$@ et %2$@", "b": "simple", "files": "%1$@ fichiers dans %2$@",
            "files#one": "%1$@ fichier dans %2$@",
            "files#other": "%1$@ fichiers dans %2$@", "b#other": "simple",
        ]
        #expect(
            CatalogCheck.problems(language: "fr", table: french, english: english) == [
                "fr: 'b#other' is a plural variant, but English has 'b' without any",
                "fr: 'files#many' is missing",
                "fr: 'files' is there beside its plural variants, which replace it",
            ])
        let noOther = [
            "a": "%1$@ e %2$@", "b": "x", "files#one": "%1$@ file in %2$@", "files#many": "%1$@ di file in %2$@",
        ]
        #expect(
            CatalogCheck.problems(language: "it", table: noOther, english: english) == [
                "it: 'files#other' is missing", "it: the plural message 'files' has no 'files#other'",
            ])
        #expect(
            CatalogCheck.problems(language: "de", table: complete.merging(["b": "%@"]) { $1 }, english: english) == [
                "de: 'b' uses %@, which a translation cannot reorder; write %N$@"
            ])
        #expect(
            CatalogCheck.englishProblems(["x#one": "1", "x#few": "2", "y": "", "y#other": ""]) == [
                "en: 'x#few' is not an English plural category", "en: 'y' is both a plain and a plural message",
                "en: the plural message 'x' has no 'x#other'",
            ])
    }

    // MARK: - Every code and key has English text

    /// Every code defined in Sources (`Self("json.unexpectedEnd", …)`) has an
    /// English message, plain or plural; so has every key made by hand.
    @Test func everyCodeAndKeyHasAnEnglishMessage() throws {
        let english = try #require(try catalogFiles()["en"])
        var missing: [String] = []
        for code in try codesInSources().sorted() where english[code] == nil && english[code + "#other"] == nil {
            missing.append(code)
        }
        let made = try NSRegularExpression(
            pattern: #"^[^/]*(?:MessageKey|PluralKey)\("([^"]+)"\)"#, options: .anchorsMatchLines)
        for (file, text) in try sourceFiles() where !file.hasSuffix("MessageKeys.swift") {
            for match in made.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let range = Range(match.range(at: 1), in: text) else { continue }
                let key = String(text[range])
                if english[key] == nil && english[key + "#other"] == nil { missing.append("\(file): \(key)") }
            }
        }
        #expect(missing.isEmpty, "no English message for: \(missing)")
        #expect(try codesInSources().count > 100)
    }

    @Test func everyReferencedTypeAndErrnoHasAMessage() throws {
        let english = try #require(EmbeddedCatalogs.tables["en"])
        for type in [
            "null", "bool", "integer", "double", "number", "string", "bytes", "date", "array", "object", "photo",
        ] {
            guard case .message(let key) = MessageArgument.typeName(type) else {
                Issue.record("type \(type) has no catalog key")
                continue
            }
            #expect(english[key.rawValue] != nil, "\(key)")
        }
        for number in [ENOENT, EACCES, EISDIR, ENOSPC, EFBIG, EROFS, EIO, EPIPE] {
            guard case .message(let key) = FerryError.reason(errno: number) else {
                Issue.record("errno \(number) has no catalog key")
                continue
            }
            #expect(english[key.rawValue] != nil, "\(key)")
        }
    }

    // MARK: - Rendering

    @Test func unknownLanguagesFallBackToEnglish() {
        let catalog = Messages.catalog(locale: "xx")
        #expect(catalog.language == "en")
        #expect(catalog.message(.formatUnknown, ["yaml"]).contains("yaml"))
    }

    @Test func aTranslationFallsBackToEnglishKeyByKey() {
        let tables = ["en": ["a": "english a", "b": "english b"], "de": ["a": "deutsch a"]]
        let catalog = Messages.catalog(locale: "de", tables: tables)
        #expect(catalog.language == "de")
        #expect(catalog.message(MessageKey("a")) == "deutsch a")
        #expect(catalog.message(MessageKey("b")) == "english b")
    }

    @Test func diagnosticsAreCompilerStyle() {
        let formatter = DiagnosticFormatter(catalog: Messages.catalog(locale: "en"))
        let error = FerryError(
            .recordNegative, ["price"],
            at: FerryCore.SourceLocation(file: "p.json", line: 3, column: 7, record: 1, field: "price"))
        let line = formatter.render(error)
        #expect(line.hasPrefix("p.json:3:7: error: "))
        #expect(line.hasSuffix(" (record 2, field 'price') [record.negative]"))  // records are shown 1-based
        #expect(DiagnosticLine(line)?.record == 2)
        #expect(formatter.render(FerryWarning(.recordNegative, ["price"])).hasPrefix("warning: "))
    }

    /// Numbers in the message are grouped; the place (line, column, byte
    /// offset, record) is not, in any language, so programs can read it.
    @Test func onlyTheMessagesNumbersAreGrouped() {
        let tables = [
            "en": EmbeddedCatalogs.tables["en"] ?? [:],
            "de": [
                "diagnostic.error": "Fehler", "diagnostic.record": "Datensatz %1$@", "diagnostic.byte": "Byte %1$@",
                "limit.recordTooLarge#one": "Grenze %1$@ Byte", "limit.recordTooLarge#other": "Grenze %1$@ Bytes",
            ],
        ]
        let formatter = DiagnosticFormatter(catalog: Messages.catalog(locale: "de", tables: tables))
        let located = FerryError.recordTooLarge(
            limit: 67_108_864,
            at: FerryCore.SourceLocation(file: "big.json", line: 12_345, column: 1_234, record: 99_999))
        #expect(
            formatter.render(located)
                == "big.json:12345:1234: Fehler: Grenze 67.108.864 Bytes (Datensatz 100000) [limit.recordTooLarge]")
        let offset = FerryError.recordTooLarge(
            limit: 1, at: FerryCore.SourceLocation(file: "a.bin", byteOffset: 1_048_576))
        #expect(formatter.render(offset) == "a.bin: Fehler: Grenze 1 Byte (Byte 1048576) [limit.recordTooLarge]")
    }

    @Test func zlibsReasonsAreCatalogEntries() {
        let catalog = Messages.catalog(locale: "en")
        let error = FerryError(.gzipCorrupt, [.message(.zlibInvalidDistanceTooFarBack)])
        #expect(
            catalog.message(error.code, error.arguments)
                == "the compressed data is damaged (invalid distance too far back)")
    }
}

// MARK: - Choosing the language

@Suite struct LanguageChoiceTests {
    static let seven = ["en", "en-GB", "es", "fr", "de", "it", "el"]

    @Test(arguments: [
        (["LANG": "fr_FR.UTF-8"], "fr"),
        (["LANGUAGE": "xx:de"], "de"),
        (["LANGUAGE": "xx:de", "LANG": "fr_FR.UTF-8"], "de"),
        (["LC_ALL": "C", "LANG": "de_DE"], "en"),
        (["LC_ALL": "C.UTF-8", "LANGUAGE": "de", "LANG": "fr_FR"], "en"),  // gettext: LANGUAGE yields to the C locale
        (["LANG": "POSIX"], "en"),
        (["LANG": "de_AT"], "de"),
        (["LANG": "de_AT.UTF-8"], "de"),
        (["LANG": "fr_FR@euro"], "fr"),
        (["LANG": "en_GB.UTF-8"], "en-GB"),
        (["LANG": "en_GB"], "en-GB"),
        (["LANGUAGE": "en-gb"], "en-GB"),
        (["LANG": "en_US"], "en"),
        (["LANG": "en_US.UTF-8", "LANGUAGE": "it"], "it"),
        (["LANG": "pt-BR"], "en"),
        (["LANG": "pt_BR.UTF-8", "LC_MESSAGES": "el_GR.UTF-8"], "el"),
        (["LC_ALL": "xx_YY.UTF-8", "LC_MESSAGES": "es_ES", "LANG": "de_DE"], "es"),  // an unknown one passes on
        (["LC_ALL": "", "LC_MESSAGES": "", "LANG": "it_IT"], "it"),  // empty is unset
        (["LANGUAGE": "::xx:", "LANG": "zz"], "en"),
        (["LANG": "C.UTF-8"], "en"),
        ([:], "en"),
    ])
    func languageComesFromTheEnvironment(environment: [String: String], language: String) throws {
        #expect(try Messages.language(environment: environment, available: Self.seven) == language)
    }

    @Test func withEnglishAloneEverythingIsEnglish() throws {
        for environment in [["LANG": "de_DE.UTF-8"], ["LANGUAGE": "fr:es"], ["LC_ALL": "en_GB"]] {
            #expect(try Messages.language(environment: environment, available: ["en"]) == "en")
        }
    }

    @Test func theOverrideComesFirst() throws {
        let environment = ["LANGUAGE": "de", "LC_ALL": "fr_FR", "LANG": "it_IT"]
        #expect(try Messages.language(override: "es", environment: environment, available: Self.seven) == "es")
        #expect(
            try Messages.language(override: "en_GB.UTF-8", environment: environment, available: Self.seven) == "en-GB")
        #expect(try Messages.language(override: "de-CH", environment: [:], available: Self.seven) == "de")
        #expect(try Messages.language(override: "C", environment: environment, available: Self.seven) == "en")
    }

    @Test func anUnknownOverrideIsAUsageErrorListingTheLanguages() {
        for value in ["xx", "", "pt-BR"] {
            let error = #expect(throws: FerryError.self) {
                try Messages.language(override: value, environment: ["LANG": "de_DE"], available: Self.seven)
            }
            #expect(error?.code == .usageInvalidValue)
            #expect(error?.arguments == [.string("--lang"), .string(value), .string("de, el, en, en-GB, es, fr, it")])
        }
    }

    @Test func theBuiltInLanguagesIncludeEnglish() {
        #expect(Messages.languages.contains("en"))
        #expect(Messages.languages == Messages.languages.sorted())
    }
}
