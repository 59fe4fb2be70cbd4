import Foundation
import Testing

/// `--records-at POINTER` on every command that reads records, and the
/// hint `inspect` gives for a file that is one object around an array.
@Suite struct RecordsAtCommandTests {
    static let wrapped = """
        {"count": 2, "products": [
          {"name": "Wii", "price": 269},
          {"name": "DS", "price": 149}
        ]}
        """
    static let lines = "{\"name\":\"Wii\",\"price\":269}\n{\"name\":\"DS\",\"price\":149}\n"

    @Test func convertReadsTheArray() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("shop.json", Self.wrapped)
        let result = try Ferry.run(["convert", input, "--records-at", "/products", "--to", "jsonl", "-"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == Self.lines)
    }

    @Test func validateChecksEachElementAtItsPlace() throws {
        let folder = try ScratchFolder()
        let input = try folder.write(
            "shop.json", "{\"products\": [\n  {\"name\": \"Wii\", \"price\": 269},\n  {\"name\": \"DS\", \"price\": -1}\n]}")
        let result = try Ferry.run(["validate", input, "--records-at", "/products"])
        #expect(result.status == 1, "\(result.out)")
        let diagnostic = try #require(result.diagnostics.first, "\(result.out)")
        #expect(diagnostic.code == "record.negative")
        #expect([diagnostic.line, diagnostic.column, diagnostic.record] == [3, 27, 2])
    }

    @Test func mergeListAndInspectTakeIt() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("shop.json", Self.wrapped)
        let merged = try Ferry.run(["merge", input, "--records-at", "/products", "-o", folder.path("out.jsonl")])
        #expect(merged.status == 0, "\(merged.err)")
        #expect(try String(contentsOfFile: folder.path("out.jsonl"), encoding: .utf8) == Self.lines)
        let listed = try Ferry.run(["list", input, "--records-at", "/products"])
        #expect(listed.status == 0, "\(listed.err)")
        #expect(listed.out.contains("Wii") && listed.out.contains("DS"))
        let inspected = try Ferry.run(["inspect", input, "--records-at", "/products", "--report-format", "json"])
        #expect(inspected.status == 0, "\(inspected.err)")
        #expect(inspected.diagnostics.isEmpty, "\(inspected.err)")
        #expect(inspected.out.contains("\"records\":2"), "\(inspected.out)")
    }

    @Test func inspectSuggestsThePointer() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("shop.json", Self.wrapped)
        let result = try Ferry.run(["inspect", input])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.diagnostics.map(\.code) == ["inspect.recordsInMember"])
        #expect(result.diagnostics.first?.severity == "warning")
        #expect(result.err.contains("--records-at /products"))
        // One object with two arrays of objects says nothing: which one is unclear.
        let two = try folder.write("two.json", #"{"a": [{"x": 1}], "b": [{"y": 2}]}"#)
        #expect(try Ferry.run(["inspect", two]).diagnostics.isEmpty)
    }

    @Test func pointerThatNamesNoArrayIsADataError() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("shop.json", Self.wrapped)
        let result = try Ferry.run(["convert", input, "--records-at", "/count", "-"])
        #expect(result.status == 1)
        let diagnostic = try #require(result.diagnostics.first, "\(result.err)")
        #expect(diagnostic.code == "json.pointerNotArray")
        #expect([diagnostic.line, diagnostic.column] == [1, 11])
        #expect(result.err.contains("/count"))
        let missing = try Ferry.run(["convert", input, "--records-at", "/items", "-"])
        #expect(missing.status == 1)
        #expect(missing.diagnostics.first?.code == "json.pointerNotFound")
    }

    @Test func malformedPointerIsAUsageError() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("shop.json", Self.wrapped)
        let result = try Ferry.run(["convert", input, "--records-at", "products", "-"])
        #expect(result.status == 2)
        #expect(result.diagnostics.first?.code == "json.invalidPointer")
    }

    /// Shards cut a top-level array; the records at a pointer are refused.
    @Test func planRefusesIt() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("shop.json", Self.wrapped)
        let result = try Ferry.run(["plan", input, "--shards", "2", "--records-at", "/products"])
        #expect(result.status != 0)
        #expect(result.diagnostics.first?.code == "shard.notSplittable", "\(result.err)")
    }

    /// `add`, `edit` and `remove` splice a top-level array: records at a
    /// pointer are refused with a code of their own, which names the
    /// option and its pointer, and the file is left as it was.
    @Test(arguments: [
        ["edit", "1", "--set", "price=1"], ["add", "--set", "name=PS5", "--set", "price=499"], ["remove", "1"],
    ])
    func editingCommandsRefuseIt(command: [String]) throws {
        let folder = try ScratchFolder()
        let input = try folder.write("shop.json", Self.wrapped)
        let result = try Ferry.run([command[0], input] + command.dropFirst() + ["--records-at", "/products"])
        #expect(result.status == 2, "\(result.err)")
        let diagnostic = try #require(result.diagnostics.first, "\(result.err)")
        #expect(diagnostic.code == "edit.recordsAtNotEditable")
        #expect(result.err.contains("--records-at /products"), "\(result.err)")
        #expect(try String(contentsOfFile: input, encoding: .utf8) == Self.wrapped)
    }
}
