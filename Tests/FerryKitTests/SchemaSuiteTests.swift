@testable import FerryCore
import FerryKit
import FerryTestSupport
import Foundation
import Testing

/// The official JSON-Schema-Test-Suite (vendored in Tests/Corpora), draft
/// 2020-12, 2019-09 and draft-07: every instance of the required tests is checked and
/// must agree with the suite, except those listed in
/// Tests/Corpora/schema-known-failures.txt. A case that newly fails, or
/// newly passes, fails the test: the list is the exact truth. The suite's
/// `remotes/` answer its `http://localhost:1234/` references, from disk.
/// The `optional/` tests are run and counted, and never fail the test.
///
/// To write the list again after a change (then read its diff):
/// `FERRY_WRITE_SCHEMA_KNOWN_FAILURES=1 swift test --skip-build --filter SchemaSuiteTests`.
@Suite struct SchemaSuiteTests {
    static let suite = TestPaths.corpus("JSON-Schema-Test-Suite")
    static let knownFailuresFile = TestPaths.corpus("schema-known-failures.txt")

    /// One draft's folder and the `$schema` its schemas mean when they name none.
    static let drafts: [(folder: String, dialect: String)] = [
        ("draft2020-12", "https://json-schema.org/draft/2020-12/schema"),
        ("draft2019-09", "https://json-schema.org/draft/2019-09/schema"),
        ("draft7", "http://json-schema.org/draft-07/schema#"),
    ]

    @Test func requiredTestsAgreeExceptTheKnownFailures() throws {
        var failures: [String] = []
        var summary: [String] = []
        for (folder, dialect) in Self.drafts {
            let result = try Self.run(folder: folder, dialect: dialect, optional: false)
            failures += result.failures
            summary.append("\(folder): \(result.passed)/\(result.total) instances agree")
            let share = Double(result.passed) / Double(max(result.total, 1))
            #expect(share >= 0.98, "\(folder): \(result.passed) of \(result.total)")
            let optional = try Self.run(folder: folder, dialect: dialect, optional: true)
            summary.append("\(folder)/optional (not gating): \(optional.passed)/\(optional.total)")
        }
        print(summary.joined(separator: "\n"))
        if ProcessInfo.processInfo.environment["FERRY_WRITE_SCHEMA_KNOWN_FAILURES"] == "1" {
            let header = """
                # The official JSON-Schema-Test-Suite cases Ferry does not agree with (required tests only),
                # one per line: file | group | test. SchemaSuiteTests fails when a case fails that is not here,
                # or passes that is. Rewrite: FERRY_WRITE_SCHEMA_KNOWN_FAILURES=1 swift test --filter SchemaSuiteTests

                """
            try (header + failures.sorted().joined(separator: "\n") + "\n").write(
                to: Self.knownFailuresFile, atomically: true, encoding: .utf8)
            return
        }
        let known = try String(contentsOf: Self.knownFailuresFile, encoding: .utf8).split(separator: "\n")
            .map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
        let newlyFailing = Set(failures).subtracting(known).sorted()
        let newlyPassing = Set(known).subtracting(failures).sorted()
        #expect(newlyFailing.isEmpty, "newly failing:\n\(newlyFailing.joined(separator: "\n"))")
        #expect(newlyPassing.isEmpty, "newly passing:\n\(newlyPassing.joined(separator: "\n"))")
    }

    struct Result {
        var passed = 0
        var total = 0
        var failures: [String] = []
    }

    /// Runs every file of `folder` (or of its `optional/` tree).
    static func run(folder: String, dialect: String, optional: Bool) throws -> Result {
        let root = suite.appendingPathComponent("tests/\(folder)" + (optional ? "/optional" : ""))
        var files: [String] = []
        if optional {
            let walker = FileManager.default.enumerator(atPath: root.path)
            while let name = walker?.nextObject() as? String {
                if name.hasSuffix(".json") { files.append(name) }
            }
        } else {
            files = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".json") }
        }
        var result = Result()
        for file in files.sorted() {
            let name = folder + "/" + (optional ? "optional/" : "") + file
            let before = (result.passed, result.total)
            try runFile(root.appendingPathComponent(file), name: name, dialect: dialect, into: &result)
            if !optional {
                print("\(name): \(result.passed - before.0)/\(result.total - before.1)")
            }
        }
        return result
    }

    private static func runFile(_ url: URL, name: String, dialect: String, into result: inout Result) throws {
        let groups = try value(of: url)
        guard case .array(let groups) = groups else { return }
        for group in groups {
            guard case .object(let object) = group, case .string(let description)? = object["description"],
                var schemaValue = object["schema"], case .array(let tests)? = object["tests"]
            else { continue }
            if case .object(var schemaObject) = schemaValue, schemaObject["$schema"] == nil {
                schemaObject.append(key: "$schema", value: .string(dialect))
                schemaValue = .object(schemaObject)
            }
            let schema: Schema?
            do {
                schema = try Schema(
                    document: schemaValue, source: name, baseURI: nil, ignoresUnknownKeywords: true,
                    assertsFormats: name.contains("/optional/format"), retrieve: remote)
            } catch {
                schema = nil
            }
            for test in tests {
                guard case .object(let test) = test, case .string(let title)? = test["description"],
                    let data = test["data"], case .bool(let valid)? = test["valid"]
                else { continue }
                result.total += 1
                let passes = schema?.check(document: data, at: .unknown) { _ in false }
                if passes == valid {
                    result.passed += 1
                } else {
                    result.failures.append("\(name) | \(description) | \(title)")
                }
            }
        }
    }

    /// The meta-schemas, vendored beside the suite, by their URIs.
    static let metaschemas: [String: String] = [
        "https://json-schema.org/draft/2020-12/schema": "draft2020-12/schema.json",
        "https://json-schema.org/draft/2019-09/schema": "draft2019-09/schema.json",
        "http://json-schema.org/draft-07/schema": "draft7/schema.json",
    ]

    /// The suite's `remotes/` file for `http://localhost:1234/…`, or a meta-schema.
    static func remote(_ uri: String) throws(FerryError) -> Value? {
        let prefix = "http://localhost:1234/"
        let folder = TestPaths.corpus("json-schema-metaschemas")
        let vocabulary = ["2020-12", "2019-09"].first { uri.hasPrefix("https://json-schema.org/draft/\($0)/meta/") }
        let url: URL
        if let file = metaschemas[uri] {
            url = folder.appendingPathComponent(file)
        } else if let draft = vocabulary {
            let name = uri.dropFirst("https://json-schema.org/draft/\(draft)/meta/".count)
            url = folder.appendingPathComponent("draft\(draft)/meta/" + name + ".json")
        } else if uri.hasPrefix(prefix) {
            url = suite.appendingPathComponent("remotes/" + uri.dropFirst(prefix.count))
        } else {
            return nil
        }
        do {
            return try value(of: url)
        } catch {
            return nil
        }
    }

    /// The JSON value of the file at `url`.
    static func value(of url: URL) throws -> Value {
        let text = try String(contentsOf: url, encoding: .utf8)
        let reader = JSONReader(MemoryInput(Array("{\"v\":\(text)}".utf8)), layout: .document)
        guard let record = try reader.next() else { return .null }
        return record.values[0]
    }
}
