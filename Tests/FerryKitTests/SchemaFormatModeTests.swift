import FerryKit
import Testing

/// `--formats`: known formats assert by default; with `annotate` they only
/// describe (Ferry's `photo` still names a type); an unknown one is refused
/// either way (SchemaCompilerTests).
@Suite struct SchemaFormatModeTests {
    static let schemaText = #"""
        {"properties": {"mail": {"type": "string", "format": "email"},
                        "id": {"type": "string", "format": "uuid"},
                        "picture": {"type": "string", "format": "photo"}}}
        """#

    @Test(arguments: [(SchemaFormatMode.assert, ["schema.format", "schema.format"]), (.annotate, [])])
    func formatsAssertOrAnnotate(mode: SchemaFormatMode, codes: [String]) throws {
        let schema = try Schema(document: JSONValues.value(Self.schemaText), source: "test", formats: mode)
        let found = try JSONValues.diagnostics(schema, #"{"mail": "not mail", "id": "x", "picture": "p.png"}"#)
        #expect(found.map(\.code.rawValue) == codes)
        #expect(schema.rule(for: "picture")?.type == .photo)
    }

    @Test func theDefaultAsserts() throws {
        let schema = try Schema(document: JSONValues.value(Self.schemaText), source: "test")
        #expect(try JSONValues.diagnostics(schema, #"{"mail": "a@b.c", "id": "no"}"#).count == 1)
    }
}
