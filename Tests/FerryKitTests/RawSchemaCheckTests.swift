import FerryJSON
import FerryTestSupport
import Foundation
import Testing

@testable import FerryCore

/// The check of raw records (`RawSchemaCheck`) only says "passes" when the
/// full check finds nothing, and for schemas it judges, says it for every
/// record the full check passes. Random records, valid and not, are read
/// raw from JSON Lines and checked both ways; `RecordValidator`, which a
/// validation runs, must throw the full check's first error either way.
@Suite struct RawSchemaCheckTests {
    /// Scripts/bench-schemas/shop.schema.json, the schema of the benchmark.
    static let shop: String = {
        let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scripts/bench-schemas/shop.schema.json")
        return (try? String(contentsOf: scripts, encoding: .utf8)) ?? ""
    }()

    /// Every keyword the raw check judges, in place on the record and on its cells.
    static let wide = #"""
        {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "type": "object",
          "required": ["id"],
          "minProperties": 2,
          "maxProperties": 7,
          "properties": {
            "id": {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 90, "not": {"const": 13}},
            "code": {"$ref": "#/$defs/code"},
            "size": {"oneOf": [{"type": "integer", "multipleOf": 2}, {"type": "integer", "multipleOf": 3}]},
            "tag": {"enum": ["a", "b", 1, true, null]},
            "day": {"type": "string", "format": "date"},
            "ratio": {"type": "number", "multipleOf": 0.25, "minimum": -1, "maximum": 1},
            "flag": {"type": "boolean"},
            "note": {"type": "string", "pattern": "x[0-9]?y", "maxLength": 5},
            "list": {"type": "array", "items": {"type": "integer"}}
          },
          "patternProperties": {"^n_[a-z]{1,2}$": {"type": "string", "minLength": 2}},
          "additionalProperties": {"type": ["integer", "string"], "maxLength": 3},
          "dependentRequired": {"size": ["tag"]},
          "dependentSchemas": {"flag": {"required": ["day"]}},
          "allOf": [{"if": {"required": ["code"]}, "then": {"required": ["ratio"]}, "else": {"not": {"required": ["note"]}}}],
          "anyOf": [{"required": ["code"]}, {"properties": {"id": {"maximum": 50}}}],
          "$defs": {"code": {"type": "string", "pattern": "^[A-Z]{2}-\\d{3}$"}}
        }
        """#

    /// A random product for the shop schema: mostly valid, sometimes not.
    static func shopLine(_ generator: inout SeededGenerator) -> String {
        func chance(_ percent: UInt64) -> Bool { generator.next() % 100 < percent }
        // The first value fits the schema: it comes most often.
        func pick(_ values: [String]) -> String {
            chance(85) ? values[0] : values[Int(generator.next() % UInt64(values.count))]
        }
        var fields: [String] = []
        func add(_ name: String, _ json: String) { fields.append("\"\(name)\":\(json)") }
        if !chance(3) { add("name", pick(["\"Wii\"", "\"\"", "\"Gam\\u00e9\"", "12", "null", "\"" + String(repeating: "x", count: 201) + "\""])) }
        if !chance(3) { add("sku", pick(["\"GS-1234567\"", "\"GS-123456\"", "\"gs-1234567\"", "\"GS-12345678\"", "\"GS-123456x\"", "7"])) }
        if chance(90) { add("price", pick(["10", "10.5", "-1", "1000001", "null", "\"5\"", "0", "1000000", "3.0"])) }
        if chance(90) { add("currency", pick(["\"USD\"", "\"JPY\"", "\"EUR\"", "\"XXX\"", "null", "1"])) }
        if chance(50) { add("photo", pick(["\"a.png\"", "\"\"", "null", "3", "[\"a\"]"])) }
        if chance(30) { add(pick(["name_de", "name_fr", "name_d", "name_DE", "name_abc"]), pick(["\"Spiel\"", "\"\"", "4"])) }
        if chance(5) { add(pick(["nested", "extra"]), pick(["null", "1", "{\"a\":1}"])) }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// A random record for the wide schema.
    static func wideLine(_ generator: inout SeededGenerator) -> String {
        func chance(_ percent: UInt64) -> Bool { generator.next() % 100 < percent }
        // The first values fit the schema: they come most often.
        func pick(_ values: [String]) -> String {
            chance(85) ? values[Int(generator.next() % 2)] : values[Int(generator.next() % UInt64(values.count))]
        }
        var fields: [String] = []
        func add(_ name: String, _ json: String) { fields.append("\"\(name)\":\(json)") }
        let candidates: [(String, [String])] = [
            ("id", ["1", "49", "13", "60", "0", "90", "2.0", "\"1\"", "null"]),
            ("code", ["\"AB-123\"", "\"AB-\\u0031\\u0032\\u0033\"", "\"AB-12\"", "\"ab-123\"", "5"]),
            ("size", ["2", "3", "6", "5", "4.0", "\"2\""]),
            ("tag", ["\"a\"", "\"b\"", "\"c\"", "1", "1.0", "true", "false"]),
            ("day", ["\"2024-02-29\"", "\"2024-01-31\"", "\"2023-02-29\"", "\"x\""]),
            ("ratio", ["0.5", "-1", "0.3", "1.25", "1", "0"]),
            ("flag", ["true", "false", "0"]),
            ("note", ["\"x1y\"", "\"ax2yb\"", "\"xy\"", "\"x12y\"", "\"xyxyxy\"", "\"é x1y\""]),
            ("list", ["[1,2]", "[]", "[1,\"a\"]"]),
            ("n_ab", ["\"ok\"", "\"okay\"", "\"o\"", "1"]),
            ("n_abc", ["1", "\"ab\"", "\"abcd\""]),
            ("other", ["1", "\"abc\"", "\"abcd\"", "true"]),
        ]
        for (name, values) in candidates where chance(30) { add(name, pick(values)) }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// Reads `lines` raw and checks every record both ways.
    /// - Returns: how many records the raw check passed, and how many the full check failed.
    static func compare(_ schemaText: String, _ lines: [String], judgesAll: Bool) throws -> (passed: Int, failed: Int) {
        let schema = try JSONValues.schema(schemaText)
        #expect(schema.checksWholeRecord)
        #expect(schema.rawCheck.judgesRecords)
        let reader = JSONReader(MemoryInput(Array((lines.joined(separator: "\n") + "\n").utf8)), layout: .lines)
        var validator = RecordValidator(schema: schema)
        var passed = 0
        var failed = 0
        var index = 0
        while try reader.readRaw({ (record) throws(FerryError) in
            defer { index += 1 }
            let full = schema.firstError(in: record.record(), at: .unknown)
            let raw = schema.rawCheck.passes(record, schema.rawCheck.layout(of: record.fields))
            let inPlace = !record.values.contains { if case .other = $0 { true } else { false } }
            if raw {
                passed += 1
                #expect(full == nil, "line \(index): \(lines[index]) passed raw, but \(String(describing: full?.code))")
            } else if judgesAll && inPlace {
                #expect(full != nil, "line \(index): \(lines[index]) failed raw only")
            }
            if full != nil { failed += 1 }
            var thrown: FerryError?
            do throws(FerryError) { try validator.validate(record) } catch { thrown = error }
            #expect(thrown == full, "line \(index): \(lines[index])")
        }) {}
        return (passed, failed)
    }

    @Test func shopRecordsAgree() throws {
        #expect(!Self.shop.isEmpty)
        var generator = SeededGenerator(seed: 32)
        let lines = (0..<4000).map { _ in Self.shopLine(&generator) }
        let (passed, failed) = try Self.compare(Self.shop, lines, judgesAll: true)
        // Both kinds are there in numbers, so the test says something.
        #expect(passed > 500)
        #expect(failed > 500)
    }

    @Test func wideRecordsAgree() throws {
        var generator = SeededGenerator(seed: 7)
        let lines = (0..<6000).map { _ in Self.wideLine(&generator) }
        let (passed, failed) = try Self.compare(Self.wide, lines, judgesAll: true)
        #expect(passed > 200)
        #expect(failed > 500)
    }

    /// The compiled shortcuts agree with the full check at their edges:
    /// texts of an `enum` compared as words (up to 8 bytes, and past),
    /// strings with escapes checked as text in place, limits that are
    /// doubles exactly and an integer limit that is not (past 2^53).
    @Test func compiledShortcutsAgreeAtTheirEdges() throws {
        let schema = #"""
            {
              "type": "object",
              "anyOf": [{"type": "object"}],
              "properties": {
                "tag": {"enum": ["", "\u0000", 0, "abcdefgh", "abcdefghi", "é"]},
                "low": {"type": "number", "minimum": -0.5, "exclusiveMaximum": 3},
                "big": {"type": "number", "maximum": 9007199254740993},
                "label": {"type": "string", "minLength": 2, "maxLength": 3, "pattern": "^[a-zé\\n]+$"}
              }
            }
            """#
        let tags = [
            #""""#, #""\u0000""#, "0", "0.0", "0.00", "0e5", "-0", #""abcdefgh""#, #""abcdefgx""#, #""abcdefghi""#, #""abcdefghj""#,
            #""\u00e9""#, #""é""#, #""a""#, "false",
        ]
        // Numbers kept as their text (`.number`): trailing zeros, exponents, -0.
        let lows = ["-0.5", "-0.50001", "2.999", "3", "3.0", "-1", "0", "-0.50", "2.990", "3.00", "-0", "1e0", "-5e-1", "29.9e-1"]
        let bigs = [
            "9007199254740992", "9007199254740993", "9007199254740994", "9007199254740992.0", "9.007199254740994e15",
            "9007199254740993.00", "1e400", "-1e400", "99999999999999999999",
        ]
        let labels = [#""ab""#, #""a\nb""#, #""a""#, #""abcd""#, #""éé""#, #""\u00e9\u00e9""#, #""aB""#, #""a\"b""#]
        var lines: [String] = []
        for tag in tags { lines.append(#"{"tag":"# + tag + "}") }
        for low in lows { lines.append(#"{"low":"# + low + "}") }
        for big in bigs { lines.append(#"{"big":"# + big + "}") }
        for label in labels { lines.append(#"{"label":"# + label + "}") }
        let (passed, failed) = try Self.compare(schema, lines, judgesAll: true)
        #expect(passed > 10)
        #expect(failed > 10)
    }

    /// A name with escapes is a string the reader could not leave in place:
    /// one that starts with a byte that cannot begin white space passes as
    /// text in place does, and the others get the full check's error, as
    /// before (the product kind's `name` must hold a non-space character).
    @Test func escapedNamesAreJudgedAsTheFullCheckJudgesThem() throws {
        let schema = RecordKind.product.schema
        let names = [
            #""\u00e9t\u00e9""#, #""x\u00e9""#, #""\u0020x""#, #""\u0020\u0020""#, #""\t""#, #""\u00a0""#,
            #""\u2003""#, #""\n""#, #""\"quoted\"""#, #""""#, #"" ""#, #""plain""#,
        ]
        let lines = names.map { #"{"name":"# + $0 + #","price":1.5,"sku":"A-1"}"# }
        let reader = JSONReader(MemoryInput(Array((lines.joined(separator: "\n") + "\n").utf8)), layout: .lines)
        var validator = RecordValidator(schema: schema)
        var errors: [FerryError.Code?] = []
        var index = 0
        while try reader.readRaw({ (record) throws(FerryError) in
            defer { index += 1 }
            let full = schema.firstError(in: record.record(), at: .unknown)
            var thrown: FerryError?
            do throws(FerryError) { try validator.validate(record) } catch { thrown = error }
            #expect(thrown == full, "line \(index): \(lines[index])")
            errors.append(thrown?.code)
        }) {}
        #expect(errors.count == names.count)
        // Both kinds are there: names that pass and names refused.
        #expect(errors.contains(nil) && errors.contains { $0 != nil })
    }

    /// A keyword the raw check does not judge leaves every record to the full check.
    @Test func unjudgedSchemasGoToTheFullCheck() throws {
        let schema = try JSONValues.schema(
            #"{"type": "object", "properties": {"a": {"type": "integer"}}, "unevaluatedProperties": false}"#)
        #expect(!schema.rawCheck.judgesRecords)
        let lines = [#"{"a":1}"#, #"{"a":1,"b":2}"#]
        let reader = JSONReader(MemoryInput(Array((lines.joined(separator: "\n") + "\n").utf8)), layout: .lines)
        var validator = RecordValidator(schema: schema)
        var errors: [FerryError?] = []
        while try reader.readRaw({ (record) throws(FerryError) in
            #expect(!schema.rawCheck.passes(record, schema.rawCheck.layout(of: record.fields)))
            do throws(FerryError) {
                try validator.validate(record)
                errors.append(nil)
            } catch {
                errors.append(error)
            }
        }) {}
        #expect(errors.map { $0?.code } == [nil, .schemaUnevaluatedProperties])
    }

    /// A long chain of references in place on the record (a hostile
    /// schema): compiling the raw check must not follow it down the stack;
    /// it leaves such a schema to the full check, which stops at its depth.
    @Test func longReferenceChainGoesToTheFullCheck() throws {
        let count = 3_000
        var definitions = (0..<count).map { ##""d\##($0)": {"$ref": "#/$defs/d\##($0 + 1)"}"## }
        definitions.append(##""d\##(count)": {"type": "object"}"##)
        let text = ##"{"$ref": "#/$defs/d0", "$defs": {"## + definitions.joined(separator: ",") + "}}"
        let schema = try JSONValues.schema(text)
        #expect(schema.checksWholeRecord)
        #expect(!schema.rawCheck.judgesRecords)
        // A chain just under the limit is still judged here.
        let short = (0..<8).map { ##""d\##($0)": {"$ref": "#/$defs/d\##($0 + 1)"}"## } + [##""d8": {"type": "object"}"##]
        let judged = try JSONValues.schema(##"{"$ref": "#/$defs/d0", "$defs": {"## + short.joined(separator: ",") + "}}")
        #expect(judged.rawCheck.judgesRecords)
    }

    /// The steps of a layout, for the tests that look at how it is laid out.
    static func steps(_ schema: Schema, fields line: String) throws -> [RawSchemaCheck.Step] {
        let reader = JSONReader(MemoryInput(Array((line + "\n").utf8)), layout: .lines)
        var steps: [RawSchemaCheck.Step] = []
        while try reader.readRaw({ (record) throws(FerryError) in
            let layout = schema.rawCheck.layout(of: record.fields)
            steps = (0..<layout.steps.count).map { layout.steps[$0] }
        }) {}
        return steps
    }

    /// The shop schema's cells are checked by steps on the cell in place
    /// (a case and a limit, as the built-in kinds check theirs), none by a
    /// cell rule judged whole; its `anyOf`, `if` and `then` included.
    @Test func shopCellsAreLaidOutInPlace() throws {
        let schema = try JSONValues.schema(Self.shop)
        let steps = try Self.steps(
            schema, fields: #"{"name":"a","price":1,"photo":null,"sku":"GS-0000001","currency":"USD","name_de":"b"}"#)
        let whole = steps.filter { if case .cell = $0 { true } else { false } }
        let inPlace = steps.filter { if case .cellInPlace = $0 { true } else { false } }
        #expect(whole.isEmpty)
        // name, price, photo, sku, currency, name_de; price and currency again in `then` and `if`.
        #expect(inPlace.count == 8)
        // Each cell's keywords are checked by the step that finds it, the
        // photo's `anyOf` folded in: no step of their own.
        #expect(inPlace.allSatisfy { if case .cellInPlace(_, _, 0, let check) = $0 { check >= 0 } else { false } })
        #expect(!steps.contains { if case .anyOf = $0 { true } else { false } })
    }

    /// An `anyOf` of keywords alone over disjoint cases is folded into one
    /// check; one whose branches overlap, have choices or applicators, or
    /// whose rule has keywords of the same kind, is run as programs. Both
    /// judge as the full check does.
    @Test func foldedAnyOfAgreesWithTheFullCheck() throws {
        let schema = #"""
            {
              "type": "object",
              "anyOf": [{"type": "object"}],
              "properties": {
                "a": {"anyOf": [{"type": "null"}, {"type": "string", "minLength": 2, "pattern": "^x"}, {"type": "integer", "maximum": 5}]},
                "b": {"maxLength": 3, "anyOf": [{"type": "string"}, {"type": "number", "minimum": 1}]},
                "c": {"enum": ["xy", 2, "long"], "anyOf": [{"type": "string", "maxLength": 2}, {"type": "boolean"}, {"type": "integer"}]},
                "d": {"anyOf": [{"type": "integer", "minimum": 3}, {"type": "number", "maximum": 1}]},
                "e": {"anyOf": [{"type": "string"}, {"const": 3}]},
                "f": {"anyOf": [{"type": "string", "minLength": 2}, {"$ref": "#/$defs/n"}]},
                "g": {"anyOf": [{"type": "string"}, {}]},
                "h": {"maxLength": 3, "anyOf": [{"type": "string", "pattern": "b$"}, {"type": "number"}]}
              },
              "$defs": {"n": {"type": "number", "not": {"const": 4}}}
            }
            """#
        let values = [
            #""xyz""#, #""x""#, #""ab""#, #""ab""#, #""xb""#, #""xy""#, #""long""#, "5", "6", "3", "4", "2", "2.0", "0.5",
            "1", "true", "null", "[1]",
        ]
        var lines: [String] = []
        for name in ["a", "b", "c", "d", "e", "f", "g", "h"] {
            for value in values { lines.append(#"{""# + name + #"":"# + value + "}") }
        }
        let parsed = try JSONValues.schema(schema)
        let steps = try Self.steps(parsed, fields: #"{"a":1,"b":1,"c":1,"d":1,"e":1,"f":1,"g":1,"h":1}"#)
        // a, b and c folded; d and g (overlapping cases), e (a choice), f
        // (an applicator) and h (text keywords on both sides) run as
        // programs, as does the record's own `anyOf`.
        #expect(steps.filter { if case .anyOf = $0 { true } else { false } }.count == 6)
        let (passed, failed) = try Self.compare(schema, lines, judgesAll: true)
        #expect(passed > 20)
        #expect(failed > 20)
    }

    /// A cell rule whose references nest deeper than a layout lays out in
    /// place is judged whole (`.cell`), and still as the full check judges it.
    @Test func deepCellReferencesAreJudgedWhole() throws {
        let depth = 12
        var definitions = (0..<depth).map { ##""d\##($0)": {"minimum": -\##($0), "$ref": "#/$defs/d\##($0 + 1)"}"## }
        definitions.append(##""d\##(depth)": {"type": "integer", "maximum": 100}"##)
        let text =
            ##"{"type": "object", "anyOf": [{"type": "object"}], "properties": {"n": {"$ref": "#/$defs/d0"}, "m": {"$ref": "#/$defs/d9"}}, "$defs": {"##
            + definitions.joined(separator: ",") + "}}"
        let schema = try JSONValues.schema(text)
        let steps = try Self.steps(schema, fields: #"{"n":1,"m":1}"#)
        #expect(steps.contains { if case .cell(0, _) = $0 { true } else { false } })
        #expect(steps.contains { if case .cellInPlace(1, _, _, _) = $0 { true } else { false } })
        let values = ["5", "0", "-1", "101", "100", "2.0", "2.5", "\"x\"", "null", "[1]"]
        var lines: [String] = []
        for n in values { for m in values { lines.append(#"{"n":"# + n + #","m":"# + m + "}") } }
        let (passed, failed) = try Self.compare(text, lines, judgesAll: true)
        #expect(passed > 10)
        #expect(failed > 10)
    }
}

/// Patterns of single scalars (`ScalarPattern`) match what `Regex` matches.
@Suite struct ScalarPatternTests {
    static let compiled = [
        "^GS-[0-9]{7}$", "^name_[a-z]{2}$", "^[A-Z]{3}$", "\\.png$", "^a?b+c*$", "x[0-9]?y", "^[^a-c]{1,3}$",
        "^\\d{2,}-\\w$", "^[\\d_-]+$", "abc", "", "^$", "^\\$\\.", "[^x]", "^\\D\\W$", "^a{0}b$",
    ]
    static let refused = [
        "^(ab)+$", "a|b", "^\\bword", "\\p{L}", "^.$", "\\u00e9", "^é$", "^[é]$", "^a+?$", "\\s", "^[a-z]{1,99}$",
    ]

    @Test(arguments: compiled) func matchesAsRegexDoes(_ source: String) throws {
        let pattern = try SchemaPattern(source)
        #expect(pattern.matchesWithoutRegex)
        let regex = try SchemaPattern.compile(source)
        var generator = SeededGenerator(seed: UInt64(source.utf8.count))
        let alphabet = Array("aAbcxyz019_-.$GSnme é🎮\n")
        var texts = ["", "GS-1234567", "name_de", "a.png", "abc", "xy", "x1y", "12-a", "$.", "b", "é-"]
        for _ in 0..<400 {
            let count = Int(generator.next() % 12)
            texts.append(String((0..<count).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }))
        }
        for text in texts {
            let expected = text.firstMatch(of: regex) != nil
            #expect(pattern.matches(text) == expected, "\(source) on \(text.debugDescription)")
            let raw = Array(text.utf8).withUnsafeBufferPointer { pattern.matches(utf8: $0) }
            #expect(raw == expected, "\(source) on \(text.debugDescription), raw")
        }
    }

    @Test(arguments: refused) func othersKeepRegex(_ source: String) throws {
        #expect(try !SchemaPattern(source).matchesWithoutRegex)
    }
}
