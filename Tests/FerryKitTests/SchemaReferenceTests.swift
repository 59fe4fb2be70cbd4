import FerryKit
import Foundation
import FerryTestSupport
import Testing

/// `$ref` inside a document, to files beside it, and to schemas of a
/// folder by `$id`; and what a reference to nothing says.
@Suite struct SchemaReferenceTests {
    let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder() }

    @Test func aRelativeReferenceFindsTheFileBesideTheSchema() throws {
        _ = try scratch.write(
            "price.schema.json", #"{"$defs": {"money": {"type": "number", "minimum": 0}}}"#)
        let path = try scratch.write(
            "product.json", #"{"properties": {"price": {"$ref": "price.schema.json#/$defs/money"}}}"#)
        let schema = try Schema(contentsOf: path)
        let found = try JSONValues.diagnostics(schema, #"{"price": -2}"#)
        #expect(found.map(\.code) == [.recordNegative])
        let rule = try #require(found.first?.rule)
        #expect(rule.hasSuffix("price.schema.json#/$defs/money/minimum"), "\(rule)")
        #expect(try JSONValues.diagnostics(schema, #"{"price": 2}"#).isEmpty)
    }

    /// References into `$defs` of many schemas find the one they name
    /// (such objects are looked into through an index of their keys), and
    /// a schema with an `$id` among them is still a resource of its own.
    @Test func referencesIntoLargeDefinitionsFindTheirTarget() throws {
        var defs = (0..<100).map { #""d\#($0)": {"const": \#($0)}"# }
        defs.append(##""withID": {"$id": "https://example.com/inner.json", "$defs": {"five": {"const": 5}}, "$ref": "#/$defs/five"}"##)
        let document = ##"{"properties": {"a": {"$ref": "#/$defs/d57"}, "b": {"$ref": "https://example.com/inner.json"}}, "$defs": {"##
            + defs.joined(separator: ", ") + "}}"
        let path = try scratch.write("large.json", document)
        let schema = try Schema(contentsOf: path)
        #expect(try JSONValues.diagnostics(schema, #"{"a": 57, "b": 5}"#).isEmpty)
        #expect(try JSONValues.diagnostics(schema, #"{"a": 58}"#).map(\.code) == [.schemaConst])
        #expect(try JSONValues.diagnostics(schema, #"{"b": 6}"#).map(\.code) == [.schemaConst])
    }

    @Test func aFolderRegistersSchemasByTheirID() throws {
        let folder = scratch.path("schemas")
        _ = try scratch.write(
            "schemas/nested/price.json",
            #"{"$id": "https://example.com/schemas/price.json", "type": "number", "exclusiveMinimum": 0}"#)
        let path = try scratch.write(
            "product.json", #"{"properties": {"price": {"$ref": "https://example.com/schemas/price.json"}}}"#)
        #expect(throws: FerryError.self) { try Schema(contentsOf: path) }
        let schema = try Schema(contentsOf: path, folders: [folder])
        #expect(try JSONValues.diagnostics(schema, #"{"price": 0}"#).map(\.code) == [.schemaExclusiveMinimum])
    }

    @Test func aFolderOfSchemasSkipsDataAndLinksAndMustExist() throws {
        let folder = scratch.path("schemas")
        _ = try scratch.write("schemas/price.json", #"{"$id": "https://example.com/p.json", "minimum": 1}"#)
        _ = try scratch.write("schemas/data.json", #"[{"name": "Wii"}]"#)
        // Two links back to the folder: a walk that followed them would not end.
        try FileManager.default.createSymbolicLink(atPath: folder + "/a", withDestinationPath: ".")
        try FileManager.default.createSymbolicLink(atPath: folder + "/b", withDestinationPath: ".")
        let path = try scratch.write("product.json", #"{"properties": {"price": {"$ref": "https://example.com/p.json"}}}"#)
        let schema = try Schema(contentsOf: path, folders: [folder])
        #expect(try JSONValues.diagnostics(schema, #"{"price": 0}"#).map(\.code) == [.schemaMinimum])
        #expect(throws: FerryError.ioCannotOpen(scratch.path("nowhere"), errno: 2)) {
            try Schema(contentsOf: path, folders: [scratch.path("nowhere")])
        }
    }

    @Test(arguments: [
        (##"{"properties": {"a": {"$ref": "#/$defs/missing"}}}"##, "#/$defs/missing", "/properties/a/$ref"),
        (##"{"$ref": "other.json"}"##, "other.json", "/$ref"),
        (##"{"items": {"$ref": "https://example.com/x.json"}}"##, "https://example.com/x.json", "/items/$ref"),
        (##"{"allOf": [{"$ref": "#nowhere"}]}"##, "#nowhere", "/allOf/0/$ref"),
    ])
    func anUnresolvedReferenceNamesItselfAndWhereItIs(_ text: String, reference: String, path: String) throws {
        let file = try scratch.write("s.json", text)
        do {
            _ = try Schema(contentsOf: file)
            Issue.record("\(text) compiled")
        } catch {
            #expect(error.code == .schemaUnresolvedReference)
            #expect(error.code.category == .usage)
            #expect(error.arguments == [.string(reference), .string(path)])
            #expect(error.location.file == file)
        }
    }

    /// A reference back to where the check is, at the same place in the
    /// value, would branch 2²⁵⁶ ways under `anyOf` before any depth limit:
    /// it is a loop, and ends at once.
    @Test(arguments: [
        ##"{"anyOf": [{"$ref": "#"}, {"$ref": "#"}]}"##,
        ##"{"oneOf": [{"$ref": "#"}, {"$ref": "#"}, {"$ref": "#"}]}"##,
        ##"{"properties": {"a": {"anyOf": [{"$ref": "#/properties/a"}, {"$ref": "#/properties/a"}]}}}"##,
        ##"{"$defs": {"x": {"$ref": "#/$defs/y"}, "y": {"anyOf": [{"$ref": "#/$defs/x"}, {"$ref": "#/$defs/x"}]}}, "$ref": "#/$defs/x"}"##,
    ])
    func aReferenceLoopEndsAtOnce(_ text: String) throws {
        let schema = try JSONValues.schema(text)
        let found = try JSONValues.diagnostics(schema, #"{"a": 1}"#)
        #expect(!found.isEmpty)
        #expect(found.allSatisfy { [.schemaReferenceDepth, .schemaAnyOf, .schemaOneOf].contains($0.code) }, "\(found.map(\.code))")
    }

    @Test func aRecursiveSchemaChecksEveryLevel() throws {
        let schema = try JSONValues.schema(
            ##"{"$defs": {"node": {"type": "object", "required": ["name"],"properties": {"name": {"type": "string"},"##
                + ##""children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}},"##
                + ##""properties": {"tree": {"$ref": "#/$defs/node"}}}"##)
        let found = try JSONValues.diagnostics(
            schema, #"{"tree": {"name": "a", "children": [{"name": "b", "children": [{"children": []}]}]}}"#)
        #expect(found.map(\.code) == [.recordMissingField])
        #expect(found.map(\.location.field) == ["tree/children/0/children/0/name"])
        #expect(found.map(\.rule) == ["/$defs/node/required"])
    }

    @Test func aBooleanSchemaFileIsASchema() throws {
        let path = try scratch.write("false.json", " false\n")
        let schema = try Schema(contentsOf: path)
        #expect(try JSONValues.diagnostics(schema, #"{"a": 1}"#).map(\.code) == [.schemaFalse])
    }
}
