import FerryKit
import FerryTestSupport
import Foundation
import Testing

/// The official JSON-Schema-Test-Suite's optional tests of formats and of
/// ECMA-262 regular expressions, run on every group whose schema Ferry
/// compiles today (the others are counted as skipped). Each instance is
/// checked as `{"v": {"v": instance}}` against `{"properties": {"v":
/// {"properties": {"v": schema}}}}`, so null stays a value (at a record's
/// top level it counts as missing). The cases that disagree are listed in
/// `Tests/Corpora/JSON-Schema-Test-Suite.known-failures/format-and-regex.txt`;
/// the test fails when one more fails, and when a listed one passes.
@Suite struct SchemaSuiteFormatTests {
    static let files: [String] = {
        let suite = TestPaths.corpus("JSON-Schema-Test-Suite/tests")
        var files = ["draft2020-12/optional/ecmascript-regex.json"]
        for draft in ["draft2020-12", "draft7"] {
            let folder = suite.appendingPathComponent("\(draft)/optional/format")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            files += names.filter { $0.hasSuffix(".json") }.sorted().map { "\(draft)/optional/format/\($0)" }
        }
        return files
    }()

    static let knownFailuresFile = TestPaths.corpus("JSON-Schema-Test-Suite.known-failures/format-and-regex.txt")

    /// The outcome of one file: the ids of the cases that disagree, and counts.
    struct Outcome {
        var failures: [String] = []
        var passed = 0
        var skippedGroups: [String] = []
    }

    static func run(_ file: String) throws -> Outcome {
        let text = try String(contentsOf: TestPaths.corpus("JSON-Schema-Test-Suite/tests/\(file)"), encoding: .utf8)
        guard case .array(let groups) = try JSONValues.value(text) else { throw SuiteError.notAnArray(file) }
        var outcome = Outcome()
        for group in groups {
            guard case .object(let object) = group, case .string(let description)? = object["description"],
                let schema = object["schema"], case .array(let tests)? = object["tests"]
            else { throw SuiteError.badGroup(file) }
            let wrapped = Value.object(OrderedObject([("properties", .object(OrderedObject([
                ("v", .object(OrderedObject([("properties", .object(OrderedObject([("v", schema)])))]))),
            ])))]))
            let compiled: Schema
            do {
                compiled = try Schema(document: wrapped, source: file)
            } catch {
                outcome.skippedGroups.append("\(description) (\(error.code.rawValue))")
                continue
            }
            for test in tests {
                guard case .object(let fields) = test, case .string(let name)? = fields["description"],
                    let data = fields["data"], case .bool(let valid)? = fields["valid"]
                else { throw SuiteError.badGroup(file) }
                let record = Record([("v", .object(OrderedObject([("v", data)])))])
                var errors = 0
                compiled.check(record, at: SourceLocation(file: file)) { _ in
                    errors += 1
                    return true
                }
                if (errors == 0) == valid {
                    outcome.passed += 1
                } else {
                    outcome.failures.append("\(file) | \(description) | \(name)")
                }
            }
        }
        return outcome
    }

    enum SuiteError: Error {
        case notAnArray(String)
        case badGroup(String)
    }

    @Test func formatsAndPatternsAgreeWithTheSuiteSaveTheKnownFailures() throws {
        var failures: [String] = []
        var report: [String] = []
        var passed = 0
        for file in Self.files {
            let outcome = try Self.run(file)
            failures += outcome.failures
            passed += outcome.passed
            report.append(
                "\(file): \(outcome.passed) passed, \(outcome.failures.count) failed, "
                    + "\(outcome.skippedGroups.count) groups skipped \(outcome.skippedGroups)")
        }
        print(report.joined(separator: "\n"))
        print("schema suite, formats and regex: \(passed) of \(passed + failures.count) cases pass")
        let known = try String(contentsOf: Self.knownFailuresFile, encoding: .utf8).split(separator: "\n")
            .map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("#") }
        let newFailures = failures.filter { !known.contains($0) }
        let nowPassing = known.filter { !failures.contains($0) }
        #expect(newFailures.isEmpty, "failing, not listed:\n\(newFailures.joined(separator: "\n"))")
        #expect(nowPassing.isEmpty, "listed, now passing (remove them):\n\(nowPassing.joined(separator: "\n"))")
    }
}
