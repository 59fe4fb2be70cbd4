import FerryKit
import FerryTestSupport
import Testing

/// What a schema may say, and how a schema that says more is refused.
@Suite struct SchemaCompilerTests {
    @Test(arguments: [
        (#"{"minimun": 1}"#, "minimun", "/minimun"),
        (##"{"properties": {"a": {"additionalItems": false}}}"##, "additionalItems", "/properties/a/additionalItems"),
        (#"{"dependencies": {"a": ["b"]}}"#, "dependencies", "/dependencies"),
        (##"{"items": {"$recursiveRef": "#"}}"##, "$recursiveRef", "/items/$recursiveRef"),
        (#"{"properties": {"a/b~c": {"definition": {}}}}"#, "definition", "/properties/a~1b~0c/definition"),
        (##"{"$schema": "http://json-schema.org/draft-07/schema#", "prefixItems": [{}]}"##, "prefixItems", "/prefixItems"),
        (##"{"$schema": "http://json-schema.org/draft-07/schema#", "unevaluatedProperties": false}"##,
         "unevaluatedProperties", "/unevaluatedProperties"),
        (#"{"x-ferry-other": true}"#, "x-ferry-other", "/x-ferry-other"),
        (#"{"Type": "string"}"#, "Type", "/Type"),
    ])
    func unsupportedKeywordIsRefusedWithItsPath(_ schema: String, keyword: String, path: String) throws {
        let error = try #require(try JSONValues.compileError(schema))
        #expect(error.code == .schemaUnsupportedKeyword)
        #expect(error.code.category == .usage)
        #expect(error.arguments == [.string(keyword), .string(path)])
        #expect(error.location.file == "test")
    }

    @Test(arguments: [
        (#"{"type": "text"}"#, "type", "/type", "types"),
        (#"{"type": []}"#, "type", "/type", "types"),
        (#"{"type": ["string", "string"]}"#, "type", "/type", "types"),
        (#"{"required": "name"}"#, "required", "/required", "uniqueStrings"),
        (#"{"required": ["a", "a"]}"#, "required", "/required", "uniqueStrings"),
        (#"{"minimum": "0"}"#, "minimum", "/minimum", "number"),
        (#"{"exclusiveMaximum": true}"#, "exclusiveMaximum", "/exclusiveMaximum", "number"),
        (#"{"multipleOf": 0}"#, "multipleOf", "/multipleOf", "positiveNumber"),
        (#"{"multipleOf": -0.5}"#, "multipleOf", "/multipleOf", "positiveNumber"),
        (#"{"minLength": -1}"#, "minLength", "/minLength", "count"),
        (#"{"maxItems": 1.5}"#, "maxItems", "/maxItems", "count"),
        (#"{"pattern": 5}"#, "pattern", "/pattern", "string"),
        (#"{"items": []}"#, "items", "/items", "schema"),
        (#"{"enum": {}}"#, "enum", "/enum", "array"),
        (#"{"format": 5}"#, "format", "/format", "string"),
        (#"{"additionalProperties": 5}"#, "additionalProperties", "/additionalProperties", "schema"),
        (#"{"properties": []}"#, "properties", "/properties", "object"),
        (#"{"properties": {"a": 5}}"#, "properties", "/properties/a", "schema"),
        (#"{"$schema": "http://json-schema.org/draft-04/schema#"}"#, "$schema", "/$schema", "dialect"),
        (#"{"oneOf": []}"#, "oneOf", "/oneOf", "array"),
        (#"{"prefixItems": {}}"#, "prefixItems", "/prefixItems", "array"),
        (#"{"uniqueItems": 1}"#, "uniqueItems", "/uniqueItems", "bool"),
        (#"{"dependentRequired": {"a": "b"}}"#, "dependentRequired", "/dependentRequired/a", "uniqueStrings"),
        (#"{"$ref": 5}"#, "$ref", "/$ref", "string"),
        (#"{"title": 5}"#, "title", "/title", "string"),
        (#"{"deprecated": "yes"}"#, "deprecated", "/deprecated", "bool"),
        (#"{"properties": {"a": {"x-ferry-unique": "yes"}}}"#, "x-ferry-unique", "/properties/a/x-ferry-unique", "bool"),
        (#"{"x-ferry-unique": true}"#, "x-ferry-unique", "/x-ferry-unique", "topLevelProperty"),
        (#"{"properties": {"a": {"items": {"x-ferry-unique": true}}}}"#, "x-ferry-unique",
         "/properties/a/items/x-ferry-unique", "topLevelProperty"),
    ])
    func keywordOfTheWrongShapeIsRefused(_ schema: String, keyword: String, path: String, expected: String) throws {
        let error = try #require(try JSONValues.compileError(schema))
        #expect(error.code == .schemaInvalidKeyword)
        #expect(error.arguments == [.string(keyword), .string(path), .message(MessageKey("schema.expected.\(expected)"))])
    }

    @Test(arguments: [
        (#"{"pattern": "a("}"#, "a(", "/pattern"),
        (#"{"properties": {"n": {"pattern": "[z-a]"}}}"#, "[z-a]", "/properties/n/pattern"),
        // Lookbehind, which the standard library's Regex lacks.
        (#"{"items": {"pattern": "(?<=a)b"}}"#, "(?<=a)b", "/items/pattern"),
    ])
    func invalidPatternIsAUsageError(_ schema: String, pattern: String, path: String) throws {
        let error = try #require(try JSONValues.compileError(schema))
        #expect(error.code == .schemaInvalidPattern)
        #expect(error.code.category == .usage)
        #expect(Array(error.arguments.prefix(2)) == [.string(pattern), .string(path)])
    }

    @Test(arguments: SchemaFormatMode.allCases)
    func unknownFormatIsRefused(formats: SchemaFormatMode) throws {
        let document = try JSONValues.value(#"{"properties": {"h": {"format": "phone"}}}"#)
        let error = try #require(throws: FerryError.self) { try Schema(document: document, source: "test", formats: formats) }
        #expect(error.code == .schemaUnknownFormat)
        #expect(error.arguments == [.string("phone"), .string("/properties/h/format")])
    }

    @Test func annotationsAndEveryKeywordCompile() throws {
        let schema = try JSONValues.schema(
            #"""
            {"$schema": "https://json-schema.org/draft/2020-12/schema#", "$id": "urn:x", "$comment": "c",
             "title": "t", "description": "d", "examples": [{}], "default": {}, "deprecated": false,
             "readOnly": true, "writeOnly": false, "type": "object", "required": ["a"],
             "properties": {"a": {"type": ["string", "null"], "minLength": 1, "maxLength": 2.0, "pattern": "^a",
                                  "format": "email", "enum": ["a", null], "const": "a", "x-ferry-unique": true},
                            "b": {"type": "array", "items": false, "minItems": 0, "maxItems": 3},
                            "c": {"minimum": 1, "maximum": 2.5, "exclusiveMinimum": 0, "exclusiveMaximum": 3,
                                  "multipleOf": 0.5}},
             "additionalProperties": {"type": "integer"}}
            """#)
        #expect(schema.uniqueFields == ["a"])
        #expect(schema.fieldRules.map(\.name) == ["a", "b", "c"])
        let allOther = schema.fieldRules.allSatisfy { $0.column.hasOtherConstraints }
        #expect(allOther)
        #expect(schema.rule(for: "zzz") == ColumnRule(type: .integer))
        #expect(!schema.checksWholeRecord)
    }

    /// The plan of the built-in kinds: what the fast paths check themselves.
    @Test func builtInPlans() {
        #expect(
            RecordKind.product.fields == [
                FieldRule(name: "name", column: ColumnRule(type: .string, required: true, nonEmpty: true, nonBlank: true)),
                FieldRule(name: "price", column: ColumnRule(type: .number, minimumZero: true)),
                FieldRule(name: "photo", column: ColumnRule(type: .photo)),
                FieldRule(name: "sku", column: ColumnRule(type: .string, nonEmpty: true)),
            ])
        #expect(
            RecordKind.book.fields == [
                FieldRule(name: "title", column: ColumnRule(type: .string, required: true, nonEmpty: true, nonBlank: true)),
                FieldRule(name: "author", column: ColumnRule(type: .string)),
                FieldRule(name: "description", column: ColumnRule(type: .string)),
                FieldRule(name: "pages", column: ColumnRule(type: .integer, minimumZero: true)),
                FieldRule(name: "readThisBook", column: ColumnRule(type: .bool)),
                FieldRule(name: "price", column: ColumnRule(type: .number, minimumZero: true)),
                FieldRule(name: "isbn", column: ColumnRule(type: .string, hasOtherConstraints: true)),
            ])
        #expect(RecordKind.generic.fields.isEmpty)
        #expect(RecordKind.product.schema.uniqueFields == ["sku"])
        #expect(RecordKind.book.schema.uniqueFields == ["isbn"])
        #expect(RecordKind.product.schema.rule(for: "currency") == nil)
    }

    /// Which keywords leave a field to the full check.
    @Test(arguments: [
        (#"{"type": "string"}"#, ColumnRule(type: .string)),
        (#"{"type": ["string", "null"], "minLength": 0}"#, ColumnRule(type: .string)),
        (#"{"type": "string", "minLength": 2}"#, ColumnRule(type: .string, hasOtherConstraints: true)),
        (#"{"type": "string", "maxLength": 5}"#, ColumnRule(type: .string, hasOtherConstraints: true)),
        (#"{"type": "number", "minimum": 10}"#, ColumnRule(type: .number, hasOtherConstraints: true)),
        (#"{"type": "number", "minimum": 0.0}"#, ColumnRule(type: .number, minimumZero: true)),
        (#"{"type": ["integer", "number"]}"#, ColumnRule(type: .number)),
        (#"{"type": "integer", "maximum": 10}"#, ColumnRule(type: .integer, hasOtherConstraints: true)),
        (#"{"type": "boolean", "const": true}"#, ColumnRule(type: .bool, hasOtherConstraints: true)),
        (#"{"type": "string", "format": "photo"}"#, ColumnRule(type: .photo)),
        (#"{"format": "photo"}"#, ColumnRule(type: nil)),
        (#"{"type": "string", "format": "date"}"#, ColumnRule(type: .string, hasOtherConstraints: true)),
        (#"{"type": "array"}"#, ColumnRule(type: nil, hasOtherConstraints: true)),
        (#"{"type": ["string", "integer"]}"#, ColumnRule(type: nil, hasOtherConstraints: true)),
        (#"{"enum": ["a"]}"#, ColumnRule(type: nil, hasOtherConstraints: true)),
        ("false", ColumnRule(type: nil, hasOtherConstraints: true)),
        (#"{"description": "free"}"#, ColumnRule(type: nil)),
    ])
    func planOfAProperty(_ property: String, rule: ColumnRule) throws {
        let schema = try JSONValues.schema(#"{"properties": {"f": \#(property)}}"#)
        #expect(schema.rule(for: "f") == rule)
    }
}

/// Reading a schema file (`Schema(contentsOf:)`, for `ferry validate`).
@Suite struct SchemaFileTests {
    let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder() }

    @Test func aFileCompiles() throws {
        let path = try scratch.write("s.json", "\u{FEFF} {\"required\": [\"id\"], \"properties\": {\"id\": {\"type\": \"integer\"}}}\n")
        let schema = try Schema(contentsOf: path)
        #expect(schema.source == path)
        #expect(schema.fieldRules.map(\.name) == ["id"])
    }

    @Test(arguments: [
        ("[{\"type\": \"object\"}]", "format.notRecords"), ("null", "format.notRecords"), ("\"x\"", "format.notRecords"),
        ("{\"type\": ", "json.unexpectedEnd"), ("{} {}", "json.trailingData"), ("{\"oneOf\": [{}], \"minimun\": 1}", "schema.unsupportedKeyword"),
    ])
    func aFileThatIsNotASchemaIsRefused(_ text: String, code: String) throws {
        let path = try scratch.write("bad.json", text)
        do {
            _ = try Schema(contentsOf: path)
            Issue.record("\(text) compiled")
        } catch {
            #expect(error.code.rawValue == code)
            #expect(error.location.file == path)
        }
    }

    @Test func aMissingFileIsAnIOError() {
        #expect(throws: FerryError.self) { _ = try Schema(contentsOf: scratch.path("none.json")) }
        do {
            _ = try Schema(contentsOf: scratch.path("none.json"))
        } catch {
            #expect(error.code == .ioCannotOpen)
        }
    }
}
