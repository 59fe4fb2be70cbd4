import Foundation
import Testing

/// Nicolas Seriot's JSONTestSuite, run through `ferry lint --from json`:
/// `y_` files must pass, `n_` files must fail with a located JSON error,
/// `i_` files may do either, and nothing may crash or hang.
@Suite struct JSONTestSuiteTests {
    static let folder = TestPaths.packageRoot
        .appendingPathComponent("Tests/Corpora/JSONTestSuite/test_parsing").standardizedFileURL

    /// The corpus's file names, or none when it is missing (which `corpusIsPresent` reports).
    static let files: [String] =
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasSuffix(".json") }.sorted()

    @Test func corpusIsPresent() {
        #expect(
            FileManager.default.fileExists(atPath: Self.folder.path),
            "JSONTestSuite is missing: expected its test_parsing folder at \(Self.folder.path)")
        #expect(Self.files.count >= 300, "JSONTestSuite at \(Self.folder.path) has only \(Self.files.count) files")
        for prefix in ["y_", "n_", "i_"] {
            #expect(Self.files.contains { $0.hasPrefix(prefix) }, "JSONTestSuite has no \(prefix) files")
        }
    }

    @Test(arguments: files)
    func lint(_ name: String) throws {
        let path = Self.folder.appendingPathComponent(name).path
        let result = try Ferry.run(["lint", "--from", "json", "--quiet", path])
        try #require(!result.timedOut, "\(name): ferry was killed after 10 s")
        try #require(!result.signaled, "\(name): ferry died of signal \(result.status)")
        try #require(result.status == 0 || result.status == 1, "\(name): exit status \(result.status): \(result.err)")

        if (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) == 0 {
            // n_structure_no_data.json, the suite's one file of no bytes: no
            // JSON text, but Ferry's one rule for every format reads an
            // input of no bytes as no records, with a warning (README,
            // "Empty inputs"; `format.emptyInput`).
            #expect(result.status == 0, "\(name): \(result.err)")
            #expect(result.diagnosticCodes == ["format.emptyInput"], "\(name): \(result.err)")
            return
        }
        switch name.prefix(2) {
        case "y_":
            #expect(result.status == 0, "\(name) is valid JSON but failed: \(result.err)")
        case "n_":
            #expect(result.status == 1, "\(name) is invalid JSON but passed")
            let diagnostic = try #require(result.diagnostics.first, "\(name): no diagnostic in \(result.err)")
            #expect(diagnostic.file == path, "\(name): \(result.err)")
            #expect(diagnostic.line != nil && diagnostic.column != nil, "\(name): error without line:column: \(result.err)")
            #expect(
                diagnostic.code.hasPrefix("json.") || diagnostic.code.hasPrefix("limit."),
                "\(name): unexpected code \(diagnostic.code)")
        default:
            // Implementation-defined: either answer is fine, as long as it is an answer.
            if result.status == 1 {
                #expect(result.diagnostics.first?.line != nil, "\(name): error without location: \(result.err)")
            }
        }
    }
}
