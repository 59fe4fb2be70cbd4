import FerryKit
import FerryTestSupport
import Testing

/// The applicators and the object and array keywords beyond a field's rule:
/// each error's code, the place in the record, and the failing keyword's
/// place in the schema.
@Suite struct SchemaApplicatorTests {
    static let cases: [SchemaCheckTests.Case] = [
        SchemaCheckTests.Case(#"{"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 5}]}"#, #"{"x": 7}"#),
        // The closest branch: the integer one (a type error elsewhere is weaker).
        SchemaCheckTests.Case(
            #"{"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 5}]}"#, #"{"x": 2}"#,
            ("schema.minimum", "x", "/properties/x/anyOf/1/minimum")),
        SchemaCheckTests.Case(
            #"{"oneOf": [{"type": "integer"}, {"minimum": 0}]}"#, #"{"x": 3}"#,
            ("schema.oneOf", "x", "/properties/x/oneOf")),
        // A branch of the wrong type is the weakest: the minimum speaks.
        SchemaCheckTests.Case(#"{"oneOf": [{"type": "integer"}, {"minimum": 0}]}"#, #"{"x": -3.5}"#,
            ("record.negative", "x", "/properties/x/oneOf/1/minimum")),
        SchemaCheckTests.Case(#"{"not": {"type": "null"}}"#, #"{"x": [null]}"#),
        SchemaCheckTests.Case(#"{"not": {"type": "array"}}"#, #"{"x": [null]}"#, ("schema.not", "x", "/properties/x/not")),
        SchemaCheckTests.Case(
            #"{"if": {"properties": {"format": {"const": "book"}}}, "then": {"required": ["isbn"]}}"#,
            #"{"x": {"format": "book"}}"#, ("record.missingField", "x/isbn", "/properties/x/then/required")),
        SchemaCheckTests.Case(
            #"{"if": {"properties": {"format": {"const": "book"}}}, "then": {"required": ["isbn"]}}"#,
            #"{"x": {"format": "dvd"}}"#),
        SchemaCheckTests.Case(
            #"{"dependentRequired": {"price": ["currency"]}}"#, #"{"x": {"price": 1}}"#,
            ("schema.dependentRequired", "x/currency", "/properties/x/dependentRequired")),
        SchemaCheckTests.Case(
            #"{"patternProperties": {"^name_": {"type": "string"}}, "additionalProperties": false}"#,
            #"{"x": {"name_de": 5, "other": 1}}"#,
            ("record.wrongType", "x/name_de", "/properties/x/patternProperties/^name_/type"),
            ("schema.additionalProperties", "x/other", "/properties/x/additionalProperties")),
        SchemaCheckTests.Case(
            #"{"propertyNames": {"maxLength": 2}}"#, #"{"x": {"abc": 1}}"#,
            ("schema.propertyNames", "x/abc", "/properties/x/propertyNames")),
        SchemaCheckTests.Case(
            #"{"minProperties": 2, "maxProperties": 0}"#, #"{"x": {"a": 1}}"#,
            ("schema.minProperties", "x", "/properties/x/minProperties"),
            ("schema.maxProperties", "x", "/properties/x/maxProperties")),
        SchemaCheckTests.Case(
            #"{"prefixItems": [{"type": "string"}], "items": false}"#, #"{"x": ["a", 1]}"#,
            ("schema.false", "x/1", "/properties/x/items")),
        SchemaCheckTests.Case(
            #"{"contains": {"type": "integer"}, "maxContains": 1}"#, #"{"x": [1, 2, "a"]}"#,
            ("schema.maxContains", "x", "/properties/x/maxContains")),
        SchemaCheckTests.Case(
            #"{"contains": {"type": "integer"}}"#, #"{"x": ["a"]}"#, ("schema.contains", "x", "/properties/x/contains")),
        SchemaCheckTests.Case(
            #"{"uniqueItems": true}"#, #"{"x": [1, 1.0]}"#, ("schema.uniqueItems", "x", "/properties/x/uniqueItems")),
        SchemaCheckTests.Case(
            #"{"allOf": [{"properties": {"a": true}}], "unevaluatedProperties": false}"#, #"{"x": {"a": 1, "b": 2}}"#,
            ("schema.unevaluatedProperties", "x/b", "/properties/x/unevaluatedProperties")),
        SchemaCheckTests.Case(
            #"{"prefixItems": [true], "unevaluatedItems": false}"#, #"{"x": [1, 2]}"#,
            ("schema.unevaluatedItems", "x/1", "/properties/x/unevaluatedItems")),
    ]

    @Test(arguments: cases) func keyword(_ test: SchemaCheckTests.Case) throws {
        let schema = try JSONValues.schema(#"{"properties": {"x": \#(test.property)}}"#)
        let found = try JSONValues.diagnostics(schema, test.record)
        #expect(found.map(\.code.rawValue) == test.failures.map(\.code))
        #expect(found.map(\.location.field) == test.failures.map { Optional($0.field) })
        #expect(found.map(\.rule) == test.failures.map { Optional($0.rule) })
    }

    /// A root with keywords beyond `properties`, `required` and
    /// `additionalProperties` makes the fast paths stand aside: the
    /// validator's first error is the full check's, on records and raw records.
    @Test func aRootWithApplicatorsIsCheckedWhole() throws {
        let schema = try JSONValues.schema(
            ##"{"$defs": {"money": {"type": "number", "minimum": 0}}, "required": ["name"],"##
                + ##""properties": {"name": {"type": "string"}, "price": {"$ref": "#/$defs/money"}},"##
                + ##""patternProperties": {"^name_": {"type": "string", "minLength": 1}},"##
                + ##""dependentRequired": {"price": ["currency"]},"##
                + ##""if": {"required": ["isbn"]}, "then": {"properties": {"isbn": {"pattern": "^97"}}}}"##)
        #expect(schema.checksWholeRecord)
        #expect(schema.rule(for: "price")?.hasOtherConstraints == true)
        let records = [
            #"{"name": "a", "price": 1, "currency": "EUR"}"#, #"{"name": "a", "price": -1, "currency": "EUR"}"#,
            #"{"name": "a", "price": 1}"#, #"{"name": "a", "name_de": ""}"#, #"{"name": "a", "isbn": "0306"}"#,
            #"{"price": 2, "currency": "EUR"}"#, #"{"name": null, "price": null}"#, #"{"name": "a", "isbn": "978"}"#,
        ]
        var validator = RecordValidator(schema: schema)
        var codes: [String?] = []
        for text in records {
            let record = try JSONValues.record(text)
            let expected = try JSONValues.diagnostics(schema, text).first
            var whole: FerryError?
            do throws(FerryError) { try validator.validate(record, at: SourceLocation(file: "f", record: 3)) } catch {
                whole = error
            }
            var raw: FerryError?
            do throws(FerryError) {
                try RawRecord.with(record) { (raw) throws(FerryError) in try validator.validate(raw) }
            } catch {
                raw = error
            }
            #expect(whole?.code == expected?.code && whole?.arguments == expected?.arguments, "\(text)")
            #expect(raw?.code == expected?.code && raw?.arguments == expected?.arguments, "\(text)")
            codes.append(expected?.code.rawValue)
        }
        #expect(codes == [
            nil, "record.negative", "schema.dependentRequired", "schema.minLength", "schema.pattern",
            "record.missingField", "record.missingField", nil,
        ])
    }
}
