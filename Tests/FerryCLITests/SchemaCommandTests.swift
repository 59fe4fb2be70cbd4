import Foundation
import Testing

/// `ferry schema infer`, and CSV's inferred types (`--no-infer`) as the
/// command line shows them.
@Suite struct SchemaCommandTests {
    /// A generated file with a column of each rule: a unique id, few
    /// categories, dates, times, emails, URIs, a price range, a boolean, a
    /// zip code and an optional count.
    static func generated(rows: Int) -> String {
        let categories = ["games", "books", "music"]
        var text = "id,category,released,updated,contact,page,price,active,zip,stock\n"
        for index in 0..<rows {
            let day = String(format: "%02d", index % 28 + 1)
            let stock = index % 5 == 0 ? "" : "\(index % 40)"
            text += "\(index + 1),\(categories[index % 3]),2024-02-\(day),2024-02-\(day)T10:00:00Z,"
            text += "u\(index)@example.com,https://example.com/p/\(index),\(index % 300).\(index % 10)5,"
            text += "\(index % 3 == 0),0\(index % 1000),\(stock)\n"
        }
        return text
    }

    /// The schema `schema infer` writes for `path`, parsed.
    func infer(_ path: String) throws -> [String: Any] {
        let result = try Ferry.run(["schema", "infer", path])
        #expect(result.status == 0, "\(result.err)")
        return try #require(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
    }

    @Test func aGeneratedFileGetsEveryRuleAndPassesItsSchema() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("items.csv", Self.generated(rows: 3_000))
        let schema = try infer(input)
        #expect(schema["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        let required = try #require(schema["required"] as? [String])
        #expect(required == ["id", "category", "released", "updated", "contact", "page", "price", "active", "zip"])
        let properties = try #require(schema["properties"] as? [String: [String: Any]])
        #expect(properties["id"]?["type"] as? String == "integer")
        #expect(properties["id"]?["x-ferry-unique"] as? Bool == true)
        #expect(properties["id"]?["minimum"] as? Int == 1)
        #expect(properties["id"]?["maximum"] as? Int == 3_000)
        #expect(properties["category"]?["enum"] as? [String] == ["books", "games", "music"])
        #expect(properties["category"]?["x-ferry-unique"] == nil)
        #expect(properties["released"]?["format"] as? String == "date")
        #expect(properties["updated"]?["format"] as? String == "date-time")
        #expect(properties["contact"]?["format"] as? String == "email")
        #expect(properties["page"]?["format"] as? String == "uri")
        #expect(properties["price"]?["type"] as? String == "number")
        #expect(properties["price"]?["minimum"] as? Double == 0.05)
        #expect(properties["active"]?["type"] as? String == "boolean")
        #expect(properties["zip"]?["type"] as? String == "string")
        #expect(properties["stock"]?["type"] as? String == "integer")

        // The schema, written with -o, passes its input.
        let schemaPath = folder.path("items.schema.json")
        let written = try Ferry.run(["schema", "infer", input, "-o", schemaPath])
        #expect(written.status == 0, "\(written.err)")
        #expect(written.stdout.isEmpty)
        let validated = try Ferry.run(["validate", input, "--schema", schemaPath])
        #expect(validated.status == 0, "\(validated.out)\(validated.err)")
        #expect(validated.diagnosticCodes.isEmpty)

        // An existing output is kept without --force.
        let again = try Ferry.run(["schema", "infer", input, "-o", schemaPath])
        #expect(again.status == 3)
        #expect(again.diagnosticCodes == ["io.outputExists"])
        #expect(try Ferry.run(["schema", "infer", input, "-o", schemaPath, "--force"]).status == 0)
    }

    /// Every example dataset passes the schema drawn from it.
    @Test(arguments: ["books.csv", "books.json", "books.jsonl", "products.csv", "products.json", "products-inline.json"])
    func anExamplePassesItsSchema(_ name: String) throws {
        let folder = try ScratchFolder()
        let schemaPath = folder.path("schema.json")
        let input = TestPaths.example(name)
        let written = try Ferry.run(["schema", "infer", input, "-o", schemaPath])
        #expect(written.status == 0, "\(written.err)")
        let validated = try Ferry.run(["validate", input, "--schema", schemaPath])
        #expect(validated.status == 0, "\(name): \(validated.out)\(validated.err)")
    }

    /// A value that repeats, or a type that changes, takes the rule away.
    @Test func rulesEveryRecordMeets() throws {
        let folder = try ScratchFolder()
        let input = try folder.write(
            "mixed.jsonl",
            """
            {"a": 1, "b": "x", "c": "2024-01-01", "d": null}
            {"a": 1.5, "b": 2, "c": "soon"}
            {"a": 1, "b": "y", "c": "2024-01-02", "d": [1]}

            """)
        let properties = try #require(try infer(input)["properties"] as? [String: [String: Any]])
        #expect(properties["a"]?["type"] as? String == "number")
        #expect(properties["a"]?["x-ferry-unique"] == nil)
        #expect(properties["b"]?["type"] as? [String] == ["integer", "string"])
        #expect(properties["c"]?["format"] == nil)
        #expect(properties["d"]?["type"] as? String == "array")
        let schemaPath = try folder.write("schema.json", try Ferry.run(["schema", "infer", input]).stdout)
        #expect(try Ferry.run(["validate", input, "--schema", schemaPath]).status == 0)
    }

    /// A record limit under inference's 1 MiB sample makes the sample
    /// smaller; it is no record too large.
    @Test func aSmallRecordLimitStillTypesColumns() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("big.csv", Self.generated(rows: 20_000))
        let converted = try Ferry.run(["convert", input, "--to", "jsonl", "--max-record-bytes", "1000"])
        #expect(converted.status == 0, "\(converted.err)")
        #expect(converted.out.hasPrefix("{\"id\":1,\"category\":\"games\""), "\(converted.out.prefix(200))")
        let inferred = try Ferry.run(["schema", "infer", input, "--max-record-bytes", "1000"])
        #expect(inferred.status == 0, "\(inferred.err)")
        #expect(inferred.out.contains("\"type\": \"integer\""), "\(inferred.out.prefix(400))")
    }

    /// Whole numbers past 2^53 are compared as whole numbers: the bounds
    /// are the file's own smallest and largest, and the file passes.
    @Test func largeIdentifiersGetExactBounds() throws {
        let folder = try ScratchFolder()
        let input = try folder.write(
            "ids.jsonl", "{\"id\": 9007199254740993}\n{\"id\": 9007199254740992}\n{\"id\": 9007199254740995}\n")
        let schema = try infer(input)
        let id = try #require((schema["properties"] as? [String: Any])?["id"] as? [String: Any])
        #expect((id["minimum"] as? NSNumber)?.int64Value == 9_007_199_254_740_992, "\(id)")
        #expect((id["maximum"] as? NSNumber)?.int64Value == 9_007_199_254_740_995, "\(id)")
    }

    /// `--jobs` is taken, and gives the schema of one pass (the parts
    /// themselves are in FerryKitTests' SchemaInferenceJobsTests).
    @Test func jobsGiveTheSameSchema() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("items.csv", Self.generated(rows: 500))
        let single = try Ferry.run(["schema", "infer", input, "--jobs", "1"])
        #expect(single.status == 0, "\(single.err)")
        #expect(try Ferry.run(["schema", "infer", input, "--jobs", "3"]).stdout == single.stdout)
        #expect(try Ferry.run(["schema", "infer", input, "--jobs", "0"]).status == 2)
    }

    @Test func anUnknownActionIsAUsageError() throws {
        let result = try Ferry.run(["schema", "guess", TestPaths.example("books.csv")])
        #expect(result.status == 2)
        #expect(result.diagnosticCodes == ["usage.invalidValue"])
    }

    // MARK: - Inferred CSV types

    /// JSON → CSV → JSON keeps numbers (as written), booleans and, with
    /// `--null`, nulls; a zip code stays text.
    @Test func jsonThroughCSVKeepsTypes() throws {
        let folder = try ScratchFolder()
        let json = """
            {"zip":"00123","price":1.50,"count":3,"big":1e5,"ok":true,"note":null}
            {"zip":"10115","price":-2,"count":null,"big":2,"ok":false,"note":"x"}

            """
        let source = try folder.write("in.jsonl", json)
        let csv = folder.path("mid.csv")
        let back = folder.path("back.jsonl")
        #expect(try Ferry.run(["convert", source, csv, "--null", "NULL", "--quiet"]).status == 0)
        let result = try Ferry.run(["convert", csv, back, "--null", "NULL", "--quiet"])
        #expect(result.status == 0, "\(result.err)")
        #expect(String(decoding: try folder.read("back.jsonl"), as: UTF8.self) == json)
    }

    @Test func noInferKeepsCellsText() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("a.csv", "n,zip\n1,007\n")
        let inferred = try Ferry.run(["convert", input, "-", "--to", "jsonl"])
        #expect(inferred.out == "{\"n\":1,\"zip\":\"007\"}\n")
        let text = try Ferry.run(["convert", input, "-", "--to", "jsonl", "--no-infer"])
        #expect(text.out == "{\"n\":\"1\",\"zip\":\"007\"}\n")
    }
}
