import FerryKit
import Foundation
import Testing

/// Each keyword on values that pass and values that do not: the code, the
/// field, the offending value and the failing keyword's path.
@Suite struct SchemaCheckTests {
    /// One case: the schema of field `x`, the record, and what fails (the
    /// code, the field, the rule), in order; none when it passes.
    struct Case: Sendable, CustomTestStringConvertible {
        let property: String
        let record: String
        let failures: [(code: String, field: String, rule: String)]
        var testDescription: String { "\(property) on \(record)" }

        init(_ property: String, _ record: String, _ failures: (String, String, String)...) {
            self.property = property
            self.record = record
            self.failures = failures.map { (code: $0.0, field: $0.1, rule: $0.2) }
        }
    }

    static let cases: [Case] = [
        // type
        Case(#"{"type": "string"}"#, #"{"x": "a"}"#),
        Case(#"{"type": "string"}"#, #"{"x": 5}"#, ("record.wrongType", "x", "/properties/x/type")),
        Case(#"{"type": "integer"}"#, #"{"x": 5.0}"#),
        Case(#"{"type": "integer"}"#, #"{"x": 5.5}"#, ("record.wrongType", "x", "/properties/x/type")),
        Case(#"{"type": "number"}"#, #"{"x": true}"#, ("record.wrongType", "x", "/properties/x/type")),
        Case(#"{"type": ["string", "integer"]}"#, #"{"x": true}"#, ("schema.type", "x", "/properties/x/type")),
        Case(#"{"type": ["string", "integer"]}"#, #"{"x": 3}"#),
        Case(#"{"type": "null"}"#, #"{"x": 0}"#, ("record.wrongType", "x", "/properties/x/type")),
        // numbers
        Case(#"{"minimum": 10}"#, #"{"x": 10}"#),
        Case(#"{"minimum": 10}"#, #"{"x": 9.99}"#, ("schema.minimum", "x", "/properties/x/minimum")),
        Case(#"{"minimum": 0}"#, #"{"x": -1}"#, ("record.negative", "x", "/properties/x/minimum")),
        Case(#"{"minimum": 0.5}"#, #"{"x": 0}"#, ("schema.minimum", "x", "/properties/x/minimum")),
        Case(#"{"maximum": 10}"#, #"{"x": 10.0}"#),
        Case(#"{"maximum": 10}"#, #"{"x": 10.5}"#, ("schema.maximum", "x", "/properties/x/maximum")),
        Case(#"{"maximum": 9007199254740993}"#, #"{"x": 9007199254740992.0}"#),
        Case(#"{"maximum": 9007199254740992.0}"#, #"{"x": 9007199254740993}"#,
             ("schema.maximum", "x", "/properties/x/maximum")),
        Case(#"{"exclusiveMinimum": 0}"#, #"{"x": 0}"#, ("schema.exclusiveMinimum", "x", "/properties/x/exclusiveMinimum")),
        Case(#"{"exclusiveMinimum": 0}"#, #"{"x": 0.1}"#),
        Case(#"{"exclusiveMaximum": 10}"#, #"{"x": 10}"#, ("schema.exclusiveMaximum", "x", "/properties/x/exclusiveMaximum")),
        Case(#"{"exclusiveMaximum": 10}"#, #"{"x": 9}"#),
        Case(#"{"multipleOf": 3}"#, #"{"x": 9}"#),
        Case(#"{"multipleOf": 3}"#, #"{"x": 9.0}"#),
        Case(#"{"multipleOf": 3}"#, #"{"x": 10}"#, ("schema.multipleOf", "x", "/properties/x/multipleOf")),
        Case(#"{"multipleOf": 0.5}"#, #"{"x": 1.5}"#),
        Case(#"{"multipleOf": 0.5}"#, #"{"x": 1.25}"#, ("schema.multipleOf", "x", "/properties/x/multipleOf")),
        // As decimals, as written: 75.99 / 0.01 is 7598.999… in binary, which
        // Python's jsonschema rejects; it is 7599 hundredths.
        Case(#"{"multipleOf": 0.01}"#, #"{"x": 75.99}"#),
        Case(#"{"multipleOf": 0.01}"#, #"{"x": 0.07}"#),
        Case(#"{"multipleOf": 0.01}"#, #"{"x": 12}"#),
        Case(#"{"multipleOf": 0.01}"#, #"{"x": 0.015}"#, ("schema.multipleOf", "x", "/properties/x/multipleOf")),
        Case(#"{"multipleOf": 1e-06}"#, #"{"x": 3e-05}"#),
        Case(#"{"multipleOf": 0.1}"#, #"{"x": 1e-20}"#, ("schema.multipleOf", "x", "/properties/x/multipleOf")),
        Case(#"{"multipleOf": 2}"#, #"{"x": 9223372036854775807}"#, ("schema.multipleOf", "x", "/properties/x/multipleOf")),
        Case(#"{"minimum": 1, "maximum": 0}"#, #"{"x": "text"}"#),
        // strings: lengths in Unicode scalars
        Case(#"{"minLength": 2}"#, #"{"x": "é"}"#, ("schema.minLength", "x", "/properties/x/minLength")),
        Case(#"{"minLength": 2}"#, #"{"x": "e\u0301"}"#),
        Case(#"{"minLength": 2}"#, #"{"x": "🎮"}"#, ("schema.minLength", "x", "/properties/x/minLength")),
        Case(#"{"maxLength": 3}"#, #"{"x": "🎮🎮🎮"}"#),
        Case(#"{"maxLength": 3}"#, #"{"x": "abcd"}"#, ("schema.maxLength", "x", "/properties/x/maxLength")),
        Case(#"{"minLength": 1}"#, #"{"x": ""}"#, ("schema.minLength", "x", "/properties/x/minLength")),
        Case(#"{"pattern": "^[a-z]+$"}"#, #"{"x": "abc"}"#),
        Case(#"{"pattern": "^[a-z]+$"}"#, #"{"x": "abc1"}"#, ("schema.pattern", "x", "/properties/x/pattern")),
        Case(#"{"pattern": "b"}"#, #"{"x": "abc"}"#),
        Case(#"{"pattern": "^\\d$"}"#, #"{"x": "٣"}"#, ("schema.pattern", "x", "/properties/x/pattern")),
        Case(#"{"pattern": "^.$"}"#, #"{"x": "e\u0301"}"#, ("schema.pattern", "x", "/properties/x/pattern")),
        Case(#"{"pattern": "^a"}"#, #"{"x": 5}"#),
        Case(#"{"format": "date"}"#, #"{"x": "2024-02-29"}"#),
        Case(#"{"format": "date"}"#, #"{"x": "2023-02-29"}"#, ("schema.format", "x", "/properties/x/format")),
        Case(#"{"format": "date"}"#, #"{"x": 20240229}"#),
        // enum and const: JSON equality
        Case(#"{"enum": [1, "a", null]}"#, #"{"x": 1.0}"#),
        Case(#"{"enum": [1, "a", null]}"#, #"{"x": true}"#, ("schema.enum", "x", "/properties/x/enum")),
        Case(#"{"enum": [1, "a", null]}"#, #"{"x": "b"}"#, ("schema.enum", "x", "/properties/x/enum")),
        Case(#"{"const": {"a": [1, 2]}}"#, #"{"x": {"a": [1.0, 2]}}"#),
        Case(#"{"const": {"a": [1, 2]}}"#, #"{"x": {"a": [2, 1]}}"#, ("schema.const", "x", "/properties/x/const")),
        Case(#"{"const": 1}"#, #"{"x": true}"#, ("schema.const", "x", "/properties/x/const")),
        Case(#"{"const": "é"}"#, #"{"x": "e\u0301"}"#, ("schema.const", "x", "/properties/x/const")),
        // arrays
        Case(#"{"items": {"type": "integer"}}"#, #"{"x": [1, "a", 2, []]}"#,
             ("record.wrongType", "x/1", "/properties/x/items/type"), ("record.wrongType", "x/3", "/properties/x/items/type")),
        Case(#"{"minItems": 1}"#, #"{"x": []}"#, ("schema.minItems", "x", "/properties/x/minItems")),
        Case(#"{"maxItems": 1}"#, #"{"x": [1, 2]}"#, ("schema.maxItems", "x", "/properties/x/maxItems")),
        Case(#"{"items": false}"#, #"{"x": [1]}"#, ("schema.false", "x/0", "/properties/x/items")),
        Case(#"{"items": false}"#, #"{"x": []}"#),
        // nested objects: null is a value there
        Case(#"{"required": ["a"]}"#, #"{"x": {}}"#, ("record.missingField", "x/a", "/properties/x/required")),
        Case(#"{"required": ["a"]}"#, #"{"x": {"a": null}}"#),
        Case(#"{"properties": {"a": {"type": "string"}}}"#, #"{"x": {"a": null}}"#,
             ("record.wrongType", "x/a", "/properties/x/properties/a/type")),
        Case(#"{"properties": {"a": {}}, "additionalProperties": false}"#, #"{"x": {"a": 1, "b/c": 2}}"#,
             ("schema.additionalProperties", "x/b~1c", "/properties/x/additionalProperties")),
        Case(#"{"additionalProperties": {"type": "boolean"}}"#, #"{"x": {"a": true, "b": 1}}"#,
             ("record.wrongType", "x/b", "/properties/x/additionalProperties/type")),
        Case(#"{"properties": {"t": {"type": "string", "minLength": 1}}, "required": ["t"]}"#, #"{"x": {"t": ""}}"#,
             ("record.emptyField", "x/t", "/properties/x/properties/t/minLength")),
        // a keyword applies to its own type only; several fail at once
        Case(#"{"type": "integer", "minimum": 1}"#, #"{"x": 0.5}"#,
             ("record.wrongType", "x", "/properties/x/type"), ("schema.minimum", "x", "/properties/x/minimum")),
        Case(#"{"type": "string", "minLength": 2, "pattern": "^[0-9]+$", "format": "date"}"#, #"{"x": "a"}"#,
             ("schema.minLength", "x", "/properties/x/minLength"), ("schema.pattern", "x", "/properties/x/pattern"),
             ("schema.format", "x", "/properties/x/format")),
        Case("false", #"{"x": 1}"#, ("schema.false", "x", "/properties/x")),
        Case("true", #"{"x": 1}"#),
    ]

    @Test(arguments: cases) func keyword(_ example: Case) throws {
        let schema = try JSONValues.schema(#"{"properties": {"x": \#(example.property)}}"#)
        let found = try JSONValues.diagnostics(schema, example.record)
        #expect(found.map(\.code.rawValue) == example.failures.map(\.code))
        #expect(found.map { $0.location.field ?? "" } == example.failures.map(\.field))
        #expect(found.map { $0.rule ?? "" } == example.failures.map(\.rule))
        #expect(found.allSatisfy { $0.severity == .error && $0.location.file == "f" && $0.location.record == 3 })
    }

    /// A record that breaks several rules gets a diagnostic for each, with
    /// the offending value and arguments; `report` returning false stops it.
    @Test func everyViolationIsReportedUntilTheSinkStops() throws {
        let schema = try JSONValues.schema(
            #"""
            {"required": ["name", "sku"], "additionalProperties": {"type": "string"},
             "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 5},
                            "price": {"type": "number", "minimum": 0, "maximum": 100},
                            "isbn": {"type": "string", "format": "isbn"}}}
            """#)
        let record = #"{"name": "Wireless Controller", "price": -3, "isbn": "978-0-306-40615-8", "extra": 7}"#
        let found = try JSONValues.diagnostics(schema, record)
        #expect(found.map(\.code) == [.schemaMaxLength, .recordNegative, .schemaFormat, .recordMissingField, .recordWrongType])
        #expect(found.map(\.rule) == [
            "/properties/name/maxLength", "/properties/price/minimum", "/properties/isbn/format", "/required",
            "/additionalProperties/type",
        ])
        #expect(found.map(\.location.field) == ["name", "price", "isbn", "sku", "extra"])
        #expect(found.map(\.value) == ["Wireless Controller", "-3", "978-0-306-40615-8", nil, "7"])
        #expect(found[0].arguments == [.string("name"), .integer(5)])
        #expect(found[2].arguments == [.string("isbn"), .string("isbn")])
        #expect(found[4].arguments == [.string("extra"), .message(.typeString), .message(.typeInteger)])

        let collector = DiagnosticCollector(maxErrors: 2)
        schema.check(try JSONValues.record(record), at: .unknown) { collector.report($0) }
        #expect(collector.diagnostics.map(\.code) == [.schemaMaxLength, .recordNegative])
        var calls = 0
        schema.check(try JSONValues.record(record), at: .unknown) { _ in
            calls += 1
            return false
        }
        #expect(calls == 1)
    }

    /// At the top level a null field is a missing one, as today's kinds have it.
    @Test func nullAtTheTopLevelIsMissing() throws {
        let schema = try JSONValues.schema(
            #"{"required": ["a", "c"], "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "additionalProperties": false}"#)
        let found = try JSONValues.diagnostics(schema, #"{"a": null, "b": null, "c": null, "d": null}"#)
        #expect(found.map(\.code) == [.recordMissingField, .recordMissingField])
        #expect(found.map(\.location.field) == ["a", "c"])
        #expect(found.map(\.arguments) == [[.string("a")], [.string("c")]])
    }

    /// Ferry's values that JSON does not have look as JSON writes them:
    /// bytes as a data: URI, dates as ISO 8601 text.
    @Test func bytesAndDatesAreStrings() throws {
        let schema = try JSONValues.schema(
            #"""
            {"properties": {"b": {"type": "string", "pattern": "^data:image/png;base64,", "maxLength": 40},
                            "d": {"type": "string", "format": "date-time"},
                            "e": {"type": "string", "format": "date"}}}
            """#)
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let record = Record([
            ("b", .bytes(png + png + png)), ("d", .date(Date(timeIntervalSince1970: 0))),
            ("e", .date(Date(timeIntervalSince1970: 0))),
        ])
        var found: [Diagnostic] = []
        schema.check(record, at: .unknown) {
            found.append($0)
            return true
        }
        #expect(found.map(\.code) == [.schemaMaxLength, .schemaFormat])
        #expect(found.map(\.location.field) == ["b", "e"])
        #expect(found.first?.value?.hasPrefix("data:image/png;base64,") == true)
    }

    /// The messages of the codes: each code and each `expected` has its English text.
    @Test func everySchemaCodeHasItsMessage() {
        let catalog = Messages.catalog(locale: "en")
        for expected in [
            "schema", "bool", "string", "array", "object", "types", "uniqueStrings", "number", "positiveNumber",
            "count", "dialect", "topLevelProperty",
        ] {
            #expect(catalog.template("schema.expected.\(expected)") != nil, "\(expected)")
        }
        let error = FerryError.schemaMaximum("price", limit: .integer(100), at: .unknown)
        #expect(catalog.message(error.code, error.arguments) == "field 'price' must be at most 100")
    }
}
