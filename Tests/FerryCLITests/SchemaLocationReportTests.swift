import FerryTestSupport
import Foundation
import Testing

/// `validate --schema`: each error names where in the user's schema it
/// failed, in every report form; built-in kinds' reports stay as they were.
@Suite struct SchemaLocationReportTests {
    static let schema = #"""
        {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
         "properties": {"price": {"$ref": "#/$defs/money"}, "photo": {"anyOf": [{"type": "null"}, {"type": "string", "minLength": 1}]}},
         "$defs": {"money": {"type": "number", "minimum": 0}}}
        """#
    static let data = "{\"price\": -1, \"photo\": \"\"}\n{\"price\": 3}\n"

    private func scratch() throws -> (folder: ScratchFolder, input: String, schema: String) {
        let folder = try ScratchFolder()
        return (folder, try folder.write("d.jsonl", Self.data), try folder.write("s.json", Self.schema))
    }

    @Test func textNamesTheKeywordsPlaceInEachLanguage() throws {
        let (folder, input, schema) = try scratch()
        defer { withExtendedLifetime(folder) {} }
        let english = try Ferry.run(["validate", input, "--schema", schema])
        #expect(english.status == 1, "\(english.err)")
        #expect(english.out.contains("(record 1, field 'price', schema #/$defs/money/minimum) [record.negative]"), "\(english.out)")
        #expect(english.out.contains("schema #/properties/photo/anyOf/1/minLength) [schema.minLength]"), "\(english.out)")
        let german = try Ferry.run(["validate", input, "--schema", schema, "--lang", "de"])
        #expect(german.out.contains("Schema #/$defs/money/minimum)"), "\(german.out)")
    }

    @Test func githubAndJUnitCarryIt() throws {
        let (folder, input, schema) = try scratch()
        let github = try Ferry.run(["validate", input, "--schema", schema, "--report-format", "github"])
        let first = try #require(github.out.split(separator: "\n").first)
        #expect(first.hasSuffix("(record 1, field 'price', schema #/$defs/money/minimum)"), "\(github.out)")
        let junit = folder.path("r.xml")
        _ = try Ferry.run(["validate", input, "--schema", schema, "--report-format", "junit", "--report-file", junit])
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("schema #/$defs/money/minimum) [record.negative]</failure>"), "\(xml)")
    }

    @Test func sarifGivesTheSchemaAsARelatedLocation() throws {
        let (folder, input, schema) = try scratch()
        let output = folder.path("r.sarif")
        _ = try Ferry.run(["validate", input, "--schema", schema, "--report-format", "sarif", "--report-file", output])
        let sarifSchema = TestPaths.packageRoot.appendingPathComponent("Tests/Corpora/sarif/sarif-schema-2.1.0.json").path
        #expect(try PythonCheck.run("sarif", output, schema: sarifSchema) == "1:11 record.negative,1:24 schema.minLength")
        let log = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let result = try #require((run["results"] as? [[String: Any]])?.first)
        let related = try #require((result["relatedLocations"] as? [[String: Any]])?.first)
        let logical = try #require((related["logicalLocations"] as? [[String: Any]])?.first)
        #expect(logical["fullyQualifiedName"] as? String == "#/$defs/money/minimum")
        let physical = try #require(related["physicalLocation"] as? [String: Any])
        let uri = try #require((physical["artifactLocation"] as? [String: Any])?["uri"] as? String)
        #expect(uri.hasSuffix("/s.json"), "\(uri)")
    }

    @Test func aRuleInAnotherSchemaFileNamesThatFile() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("d.jsonl", "{\"price\": -1}\n")
        _ = try folder.write("price.json", #"{"$defs": {"money": {"type": "number", "minimum": 0}}}"#)
        let schema = try folder.write("main.json", #"{"properties": {"price": {"$ref": "price.json#/$defs/money"}}}"#)
        let result = try Ferry.run(["validate", input, "--schema", schema])
        #expect(result.out.contains("price.json#/$defs/money/minimum) [record.negative]"), "\(result.out)")
        #expect(!result.out.contains("file://"), "\(result.out)")
    }

    @Test func aBuiltInKindsReportIsUnchanged() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("p.jsonl", "{\"name\": \"Wii\", \"price\": -1}\n")
        let result = try Ferry.run(["validate", input, "--kind", "product"])
        #expect(result.out.contains("(record 1, field 'price') [record.negative]"), "\(result.out)")
    }
}
