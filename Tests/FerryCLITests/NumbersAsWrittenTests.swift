import Foundation
import Testing

/// Numbers keep their text between text formats, and a binary format that
/// cannot hold one exactly says so, once per field.
@Suite struct NumbersAsWrittenTests {
    /// The text formats, as `--from`/`--to` name them.
    static let textFormats = ["json", "jsonl", "csv", "tsv", "plist-xml"]

    /// Two records of numbers as people write them: a price with two
    /// decimals, a short decimal, an exponent in capitals, a negative zero,
    /// a 30-digit ID, a number past the largest double and the smallest
    /// subnormal.
    static let numbers = [
        ("a", "1.10"), ("b", "0.1"), ("c", "1E2"), ("d", "-0.0"), ("e", "123456789012345678901234567890"),
        ("f", "1e400"), ("g", "5e-324"),
    ]
    static let jsonLines = (1...2).map { id in
        "{\"id\":\(id)," + numbers.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}\n"
    }.joined()

    /// Types every column as a number, so CSV and TSV read them as numbers.
    static let schema = """
        {"type": "object", "properties": {"id": {"type": "integer"},
        \(numbers.map { "\"\($0.0)\": {\"type\": \"number\"}" }.joined(separator: ", "))}}
        """

    static let pairs = textFormats.flatMap { from in textFormats.map { to in (from, to) } }

    /// JSON Lines → `from` → `to` → JSON Lines gives back the same bytes.
    @Test(arguments: pairs)
    func everyPairOfTextFormatsKeepsTheText(_ from: String, _ to: String) throws {
        let folder = try ScratchFolder()
        let source = try folder.write("source.jsonl", Self.jsonLines)
        let schema = try folder.write("schema.json", Self.schema)
        let steps = [("jsonl", source, from, folder.path("a.\(from)")), (from, folder.path("a.\(from)"), to, folder.path("b.\(to)")),
                     (to, folder.path("b.\(to)"), "jsonl", folder.path("back.jsonl"))]
        for (input, inputPath, output, outputPath) in steps {
            let result = try Ferry.run([
                "convert", inputPath, outputPath, "--from", input, "--to", output, "--schema", schema, "--quiet",
            ])
            #expect(result.status == 0, "\(input) → \(output): \(result.err)")
            #expect(result.diagnostics.isEmpty, "\(input) → \(output): \(result.err)")
        }
        #expect(String(decoding: try folder.read("back.jsonl"), as: UTF8.self) == Self.jsonLines)
    }

    /// Into a binary plist or an archive, each number is stored as the
    /// nearest double (1e400 as the largest); the two that change warn once
    /// each for their field, and the rest read back as the same numbers.
    @Test(arguments: ["plist", "archive"])
    func binaryFormatsStoreTheValueAndWarn(_ format: String) throws {
        let folder = try ScratchFolder()
        let source = try folder.write("source.jsonl", Self.jsonLines)
        let output = folder.path("out.\(format)")
        let result = try Ferry.run(["convert", source, output, "--to", format, "--quiet"])
        #expect(result.status == 0, "\(result.err)")
        let warnings = result.diagnostics
        #expect(warnings.map(\.code) == ["convert.numberRounded", "convert.numberRounded"])
        #expect(warnings.map(\.field) == ["e", "f"])
        #expect(warnings.map(\.record) == [1, 1])
        #expect(warnings.allSatisfy { $0.severity == "warning" })

        let back = try Ferry.run(["convert", output, folder.path("back.jsonl"), "--from", format, "--quiet"])
        #expect(back.status == 0, "\(back.err)")
        let stored =
            "\"a\":1.1,\"b\":0.1,\"c\":100.0,\"d\":-0.0,\"e\":1.2345678901234568e+29,\"f\":1.7976931348623157e+308,\"g\":5e-324}\n"
        #expect(
            String(decoding: try folder.read("back.jsonl"), as: UTF8.self)
                == "{\"id\":1,\(stored){\"id\":2,\(stored)")
    }

    /// Checks see the number a text holds: `-1E2` is negative wherever it
    /// comes from, `1.10` and a 30-digit price are not.
    @Test(arguments: [
        ("in.jsonl", "{\"name\":\"a\",\"price\":1.10}\n{\"name\":\"b\",\"price\":-1E2}\n{\"name\":\"c\",\"price\":123456789012345678901234567890}\n"),
        ("in.csv", "name,price\na,1.10\nb,-1E2\nc,123456789012345678901234567890\n"),
    ])
    func checksSeeTheValue(_ name: String, _ text: String) throws {
        let folder = try ScratchFolder()
        let input = try folder.write(name, text)
        let validated = try Ferry.run(["validate", input, "--kind", "product"])
        #expect(validated.status == 1, "\(validated.out)")
        #expect(validated.diagnostics.map(\.code) == ["record.negative"])
        #expect(validated.diagnostics.map(\.record) == [2])
        #expect(validated.diagnostics.map(\.field) == ["price"])
    }

    /// A double from a binary format is written as the shortest text that
    /// reads back as it, in every text format.
    @Test(arguments: ["json", "jsonl", "csv", "plist-xml"])
    func doublesFromBinaryFormatsAreShortest(_ format: String) throws {
        let folder = try ScratchFolder()
        let source = try folder.write("source.jsonl", "{\"name\":\"a\",\"price\":0.30000000000000004}\n{\"name\":\"b\",\"price\":84.99}\n")
        let archive = folder.path("p.archive")
        #expect(try Ferry.run(["convert", source, archive, "--quiet"]).status == 0)
        let result = try Ferry.run(["convert", archive, folder.path("out"), "--to", format, "--quiet"])
        #expect(result.status == 0, "\(result.err)")
        let text = String(decoding: try folder.read("out"), as: UTF8.self)
        #expect(text.contains("0.30000000000000004") && text.contains("84.99"), "\(text)")
    }
}

/// Lossy conversions on the command line: warnings on standard error, once
/// per field; validate holds repeated names to be errors.
@Suite struct LossyConversionCommandTests {
    @Test func duplicateNamesWarnInConvertAndFailValidate() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("dup.jsonl", "{\"a\":1,\"a\":2}\n{\"b\":1}\n{\"a\":3,\"a\":4}\n")
        let converted = try Ferry.run(["convert", input, folder.path("out.json"), "--quiet"])
        #expect(converted.status == 0)
        #expect(converted.diagnostics.map(\.code) == ["json.duplicateName"])
        #expect(converted.diagnostics.map(\.severity) == ["warning"])
        #expect(converted.diagnostics.map(\.field) == ["a"])

        let validated = try Ferry.run(["validate", input])
        #expect(validated.status == 1)
        #expect(validated.diagnostics.map(\.code) == ["json.duplicateName", "json.duplicateName"])
        #expect(validated.diagnostics.map(\.severity) == ["error", "error"])
        #expect(validated.diagnostics.map(\.record) == [1, 3])
        // At the repeated name itself.
        #expect(validated.diagnostics.map(\.line) == [1, 3])
        #expect(validated.diagnostics.map(\.column) == [8, 8])
    }

    @Test func csvNullAndNestedWarnUnlessTheOptionsKeepThem() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("in.jsonl", "{\"n\":null,\"o\":[1]}\n{\"n\":null,\"o\":{\"a\":1}}\n")
        let plain = try Ferry.run(["convert", input, folder.path("out.csv"), "--quiet"])
        #expect(plain.status == 0)
        #expect(plain.diagnostics.map(\.code) == ["csv.nullAsEmpty", "csv.nestedAsJSON"])
        #expect(plain.diagnostics.map(\.field) == ["n", "o"])

        let kept = try Ferry.run([
            "convert", input, folder.path("kept.csv"), "--null", #"\N"#, "--nested", "json", "--quiet",
        ])
        #expect(kept.status == 0)
        #expect(kept.diagnostics.isEmpty, "\(kept.err)")
        let back = try Ferry.run([
            "convert", folder.path("kept.csv"), folder.path("back.jsonl"), "--null", #"\N"#, "--nested", "json",
            "--quiet",
        ])
        #expect(back.status == 0)
        #expect(try folder.read("back.jsonl") == folder.read("in.jsonl"))
    }
}
