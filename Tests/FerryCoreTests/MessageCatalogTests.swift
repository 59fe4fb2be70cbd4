import Testing

@testable import FerryCore

@Suite struct MessageCatalogTests {
    let catalog = MessageCatalog(
        language: "xx",
        templates: ["swap": "%2$@ before %1$@", "plain": "%@ and %@", "percent": "100%% of %1$@", "type.integer": "an integer"],
        fallback: ["only.english": "english %1$@"])

    @Test func positionalPlaceholdersCanBeReordered() {
        #expect(catalog.message("swap", ["a", "b"]) == "b before a")
    }

    @Test func sequentialPlaceholdersAndPercent() {
        #expect(catalog.message("plain", ["x", "y"]) == "x and y")
        #expect(catalog.message("percent", ["it"]) == "100% of it")
    }

    @Test func fallsBackToEnglishThenToTheKey() {
        #expect(catalog.message("only.english", [.integer(3)]) == "english 3")
        #expect(catalog.message("no.such.key", ["a", 2]) == "no.such.key(a, 2)")
    }

    @Test func argumentsRender() {
        #expect(catalog.render(.byte(UInt8(ascii: "x"))) == "'x'")
        #expect(catalog.render(.byte(0x0A)) == "0x0A")
        #expect(catalog.render(.message("type.integer")) == "an integer")
        #expect(catalog.render(.double(19.99)) == "19.99")
    }

    @Test func stringsFilesParse() throws {
        let text = """
            /* a comment */
            "a" = "one \\"quoted\\" word";
            // another
            "b"="line\\nbreak";
            """
        let pairs = try #require(StringsFile.parse(text))
        #expect(pairs == ["a": "one \"quoted\" word", "b": "line\nbreak"])
    }

    @Test(arguments: ["\"a\" = \"b\"", "\"a\" \"b\";", "\"a\" = \"b;", "a = \"b\";"])
    func malformedStringsFilesAreRejected(_ text: String) {
        #expect(StringsFile.parse(text) == nil)
    }
}
