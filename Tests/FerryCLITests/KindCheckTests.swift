import Foundation
import Testing

/// Product and book checks: the error names the record and the field, and
/// points at the field's value (a missing field, at the record's start).
@Suite struct KindCheckTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let text: String
        var arguments: [String] = []
        let code: String
        let line: Int
        let column: Int
        let record: Int
        let field: String

        var testDescription: String { name }
    }

    static let cases = [
        Case(
            name: "negative price", text: "[{\"name\":\"a\",\"price\":1},\n {\"name\":\"b\",\"price\":-2}]",
            code: "record.negative", line: 2, column: 22, record: 2, field: "price"),
        Case(
            name: "negative double price", text: "[{\"name\":\"a\",\"price\":1.5},\n\n  {\"name\":\"b\",\"price\":-0.01}]",
            code: "record.negative", line: 3, column: 23, record: 2, field: "price"),
        Case(
            name: "missing name", text: "[{\"name\":\"a\",\"price\":1},\n {\"price\":2}]",
            code: "record.missingField", line: 2, column: 2, record: 2, field: "name"),
        Case(
            name: "null name", text: "[{\"name\":null,\"price\":1}]",
            code: "record.missingField", line: 1, column: 10, record: 1, field: "name"),
        Case(
            name: "missing name with --kind", text: "[{\"price\":1}]", arguments: ["--kind", "product"],
            code: "record.missingField", line: 1, column: 2, record: 1, field: "name"),
        Case(
            name: "empty name", text: "[{\"name\":\"\",\"price\":1}]",
            code: "record.emptyField", line: 1, column: 10, record: 1, field: "name"),
        Case(
            name: "price as text", text: "[{\"name\":\"a\",\"price\":\"cheap\"}]",
            code: "record.wrongType", line: 1, column: 22, record: 1, field: "price"),
        Case(
            name: "negative pages",
            text: "{\"title\":\"t\",\"pages\":10}\n{\"title\":\"u\",\"pages\":-1}\n",
            code: "record.negative", line: 2, column: 22, record: 2, field: "pages"),
        Case(
            name: "fractional pages", text: "{\"title\":\"t\",\"pages\":10.5}\n",
            code: "record.wrongType", line: 1, column: 22, record: 1, field: "pages"),
    ]

    @Test(arguments: cases)
    func invalidRecord(_ check: Case) throws {
        let folder = try ScratchFolder()
        let input = try folder.write(check.text.hasPrefix("[") ? "in.json" : "in.jsonl", check.text)
        let result = try Ferry.run(["convert", input, folder.path("out.json")] + check.arguments)
        #expect(result.status == 1)
        let diagnostic = try #require(result.diagnostics.first, "\(result.err)")
        #expect(diagnostic.code == check.code)
        #expect(diagnostic.file == input)
        #expect(diagnostic.line == check.line)
        #expect(diagnostic.column == check.column)
        #expect(diagnostic.record == check.record)
        #expect(diagnostic.field == check.field)
        #expect(!FileManager.default.fileExists(atPath: folder.path("out.json")))
    }

    @Test func genericKindKeepsAnything() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("in.json", "[{\"name\":\"b\",\"price\":-2}]")
        let result = try Ferry.run(["convert", input, "--kind", "generic", "--compact"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == "[{\"name\":\"b\",\"price\":-2}]\n")
    }

    @Test func lintDoesNotCheckKinds() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("in.json", "[{\"name\":\"b\",\"price\":-2}]")
        #expect(try Ferry.run(["lint", input]).status == 0)
    }
}
