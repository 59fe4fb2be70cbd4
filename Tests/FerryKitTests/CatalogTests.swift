import Foundation
import Testing

@testable import FerryKit

/// The package root, found from this file.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

@Suite struct CatalogTests {
    @Test func embeddedCatalogsMatchFormats() throws {
        let folder = packageRoot.appendingPathComponent("Formats/Messages")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".strings") }
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let parsed = try #require(StringsFile.parse(text), "\(file) is not a valid strings file")
            let language = String(file.dropLast(".strings".count))
            #expect(
                EmbeddedCatalogs.tables[language] == parsed,
                "Sources/FerryKit/EmbeddedCatalogs.swift is stale: run python3 Scripts/embed-catalogs.py")
        }
    }

    /// Every code declared in Sources (`Self("json.unexpectedEnd", …)`) and
    /// every catalog key used in code has an English message.
    @Test func everyCodeAndKeyHasAnEnglishMessage() throws {
        let english = try #require(EmbeddedCatalogs.tables["en"])
        let pattern = try NSRegularExpression(
            pattern: #"(?:Self\(|[kK]ey: |message\(|\.message\()"([A-Za-z]+\.[A-Za-z.]+)""#)
        var missing: [String] = []
        let sources = packageRoot.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".swift") && !file.hasSuffix("EmbeddedCatalogs.swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            let range = NSRange(text.startIndex..., in: text)
            for match in pattern.matches(in: text, range: range) {
                guard let keyRange = Range(match.range(at: 1), in: text) else { continue }
                let key = String(text[keyRange])
                if english[key] == nil && !key.hasSuffix(".") { missing.append("\(file): \(key)") }
            }
        }
        #expect(missing.isEmpty, "no English message for: \(missing)")
    }

    @Test func everyReferencedTypeAndErrnoHasAMessage() throws {
        let english = try #require(EmbeddedCatalogs.tables["en"])
        for type in ["null", "bool", "integer", "double", "number", "string", "bytes", "date", "array", "object", "photo"] {
            #expect(english["type.\(type)"] != nil, "type.\(type)")
        }
        for number in [ENOENT, EACCES, EISDIR, ENOSPC, EFBIG, EROFS, EIO, EPIPE] {
            guard case .message(let key) = FerryError.reason(errno: number) else {
                Issue.record("errno \(number) has no catalog key")
                continue
            }
            #expect(english[key] != nil, "\(key)")
        }
    }

    @Test(arguments: [
        (["LANG": "de_DE.UTF-8"], "de"),
        (["LANG": "C.UTF-8"], "en"),
        (["LC_ALL": "fr_FR", "LANG": "de_DE"], "fr"),
        (["FERRY_LANG": "ja", "LC_ALL": "fr_FR"], "ja"),
        (["LC_MESSAGES": "pt_BR.UTF-8@euro"], "pt"),
        ([:], "en"),
    ])
    func languageComesFromTheEnvironment(environment: [String: String], language: String) {
        #expect(Messages.preferredLanguage(environment: environment) == language)
    }

    @Test func unknownLanguagesFallBackToEnglish() {
        let catalog = Messages.catalog(language: "xx")
        #expect(catalog.language == "en")
        #expect(catalog.message("format.unknown", ["yaml"]).contains("yaml"))
    }

    @Test func diagnosticsAreCompilerStyle() {
        let formatter = DiagnosticFormatter(catalog: Messages.catalog(language: "en"))
        let error = FerryError(
            .recordNegative, ["price"],
            at: FerryCore.SourceLocation(file: "p.json", line: 3, column: 7, record: 1, field: "price"))
        let line = formatter.render(error)
        #expect(line.hasPrefix("p.json:3:7: error: "))
        #expect(line.hasSuffix(" [record.negative]"))
        #expect(line.contains("2"))  // records are shown 1-based
    }
}
