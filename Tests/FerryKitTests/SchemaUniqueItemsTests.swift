import FerryKit
import Testing

/// `uniqueItems` and `unevaluatedProperties` on large values: grouped by a
/// hash that agrees with JSON equality, looked up in sets, not compared
/// pair by pair.
@Suite struct SchemaUniqueItemsTests {
    @Test(arguments: [
        ("[1, 1.0]", true), ("[0, -0.0]", true), ("[{\"a\": 1, \"b\": [2]}, {\"b\": [2.0], \"a\": 1}]", true),
        ("[\"e\\u0301\", \"\\u00e9\"]", false), ("[[1, 2], [2, 1]]", false), ("[null, false, 0, \"\"]", false),
        ("[\"x\", \"y\", \"x\"]", true),
    ])
    func equalItemsRepeat(_ items: String, repeats: Bool) throws {
        let schema = try JSONValues.schema(#"{"properties": {"v": {"uniqueItems": true}}}"#)
        let found = try JSONValues.diagnostics(schema, #"{"v": "# + items + "}")
        #expect(found.map(\.code) == (repeats ? [.schemaUniqueItems] : []), "\(items)")
    }

    @Test func aLongArrayIsOnePass() throws {
        // 200,000 items compared pair by pair would take 2·10¹⁰ comparisons.
        let items = (0..<200_000).map(String.init).joined(separator: ",")
        let schema = try JSONValues.schema(#"{"properties": {"v": {"uniqueItems": true}}}"#)
        #expect(try JSONValues.diagnostics(schema, #"{"v": ["# + items + "]}").isEmpty)
        #expect(try JSONValues.diagnostics(schema, #"{"v": ["# + items + ",199999.0]}").map(\.code) == [.schemaUniqueItems])
    }

    @Test func aWideObjectUnderUnevaluatedPropertiesIsOnePass() throws {
        let members = (0..<50_000).map { "\"k\($0)\": \($0)" }.joined(separator: ",")
        let schema = try JSONValues.schema(
            #"{"properties": {"v": {"patternProperties": {"^k": true}, "unevaluatedProperties": false}}}"#)
        #expect(try JSONValues.diagnostics(schema, #"{"v": {"# + members + "}}").isEmpty)
        let refused = try JSONValues.diagnostics(schema, #"{"v": {"# + members + #", "other": 1}}"#)
        #expect(refused.map(\.code) == [.schemaUnevaluatedProperties])
    }
}
