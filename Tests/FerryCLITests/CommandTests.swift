import Foundation
import Testing

/// The commands' happy paths and their usage and I/O failures.
@Suite struct CommandTests {
    static let expectedProducts: [(name: String, price: Double, photo: String)] = [
        ("Xbox 360", 299.0, "photos/xbox-360.png"),
        ("Wii", 269.0, "photos/wii.png"),
        ("Wireless Controller", 19.99, "photos/wireless-controller.png"),
    ]

    @Test func convertToStandardOutputIsPrettyJSON() throws {
        let result = try Ferry.run(["convert", TestPaths.example("products.json")])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.stderr.isEmpty)
        let expected = """
            [
              {
                "name": "Xbox 360",
                "price": 299.0,
                "photo": "photos/xbox-360.png"
              },
              {
                "name": "Wii",
                "price": 269.0,
                "photo": "photos/wii.png"
              },
              {
                "name": "Wireless Controller",
                "price": 19.99,
                "photo": "photos/wireless-controller.png"
              }
            ]

            """
        #expect(result.out == expected)
        let records = try #require(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [[String: Any]])
        #expect(records.count == 3)
        for (record, product) in zip(records, Self.expectedProducts) {
            #expect(record.count == 3)
            #expect(record["name"] as? String == product.name)
            #expect((record["price"] as? NSNumber)?.doubleValue == product.price)
            #expect(record["photo"] as? String == product.photo)
        }
        // Key order, which a dictionary forgets: each key appears in the given order.
        for block in result.out.components(separatedBy: "},") {
            let positions = ["\"name\"", "\"price\"", "\"photo\""].compactMap { block.range(of: $0)?.lowerBound }
            #expect(positions.count == 3 && positions == positions.sorted())
        }
    }

    @Test func convertToLines() throws {
        let result = try Ferry.run(["convert", TestPaths.example("products.json"), "--to", "jsonl"])
        #expect(result.status == 0, "\(result.err)")
        #expect(
            result.out == """
                {"name":"Xbox 360","price":299.0,"photo":"photos/xbox-360.png"}
                {"name":"Wii","price":269.0,"photo":"photos/wii.png"}
                {"name":"Wireless Controller","price":19.99,"photo":"photos/wireless-controller.png"}

                """)
    }

    @Test func compactOption() throws {
        let result = try Ferry.run(["convert", TestPaths.example("books.jsonl"), "--to", "json", "--compact"])
        #expect(result.status == 0, "\(result.err)")
        let lines = result.out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty)
        #expect(lines[0].hasPrefix("[{\"title\":\"The Swift Programming Language\",\"author\":\"Apple Inc.\""))
    }

    @Test func convertFromStandardInput() throws {
        let input = Array(#"{"name":"A","price":1}"#.utf8 + [0x0A] + #"{"name":"B","price":2.5}"#.utf8 + [0x0A])
        let result = try Ferry.run(["convert", "-", "--from", "jsonl", "--to", "json", "--compact"], input: input)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == "[{\"name\":\"A\",\"price\":1},{\"name\":\"B\",\"price\":2.5}]\n")
    }

    @Test func convertBetweenFilesByExtension() throws {
        let folder = try ScratchFolder()
        let result = try Ferry.run(["convert", TestPaths.example("books.json"), folder.path("books.jsonl")])
        #expect(result.status == 0, "\(result.err)")
        let expected = try Data(contentsOf: TestPaths.examples.appendingPathComponent("books.jsonl"))
        #expect(try folder.read("books.jsonl") == [UInt8](expected))
        #expect(try folder.contents() == ["books.jsonl"])
    }

    @Test func formatsListsBothCodecs() throws {
        let result = try Ferry.run(["formats"])
        #expect(result.status == 0)
        let ids = result.out.split(separator: "\n").dropFirst().compactMap { $0.split(separator: " ").first }
        #expect(ids.contains("json"))
        #expect(ids.contains("jsonl"))
        let jsonRow = result.out.split(separator: "\n").first { $0.hasPrefix("json ") }
        #expect(jsonRow?.contains(".json") == true)
        #expect(jsonRow?.contains("--compact") == true)
    }

    @Test(arguments: [["--help"], ["-h"], ["help"], ["help", "convert"], ["convert", "--help"], ["lint", "--help"], ["formats", "--help"]])
    func help(_ arguments: [String]) throws {
        let result = try Ferry.run(arguments)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("ferry"))
        #expect(result.stderr.isEmpty)
    }

    @Test func convertHelpNamesItsOptions() throws {
        let result = try Ferry.run(["convert", "--help"])
        for option in ["--from", "--to", "--kind", "--photos-dir", "--embed-photos", "--force", "--compact", "--quiet"] {
            #expect(result.out.contains(option), "convert --help lacks \(option)")
        }
    }

    /// Every subcommand's help ends its options with examples of itself.
    @Test(arguments: ["convert", "validate", "lint", "inspect", "formats"])
    func helpHasExamples(_ name: String) throws {
        let result = try Ferry.run([name, "--help"], environment: ["LANG": "C"])
        #expect(result.status == 0, "\(result.err)")
        let examples = result.out.split(separator: "\n").filter { $0.hasPrefix("  $ ") }
        #expect(!examples.isEmpty)
        #expect(examples.allSatisfy { $0.hasPrefix("  $ ferry \(name)") }, "\(examples)")
    }

    /// Placeholders come from the catalog; format values list the aliases.
    @Test func helpPlaceholdersAreTranslated() throws {
        let german = try Ferry.run(["help", "convert", "--lang", "de"])
        #expect(german.status == 0, "\(german.err)")
        #expect(german.out.contains("<Eingabe>"))
        #expect(german.out.contains("--to <Format>"))
        let english = try Ferry.run(["help", "convert"], environment: ["LANG": "C"])
        #expect(english.out.contains("--to <format>"))
        #expect(english.out.contains("binary1 xml1"))
    }

    @Test func version() throws {
        let result = try Ferry.run(["--version"])
        #expect(result.status == 0)
        // The tool's name, then its version.
        #expect(result.out.wholeMatch(of: /ferry \d+\.\d+\.\d+\n/) != nil, "\(result.out)")
    }

    @Test(arguments: [
        (["convert", "in.json", "--bogus"], "usage.unknownOption"),
        (["convert"], "usage.missingArgument"),
        (["convert", "a.json", "b.json", "c.json"], "usage.unexpectedArgument"),
        (["convert", "a.json", "--to"], "usage.missingValue"),
        (["convert", "a.json", "--to", "xml"], "usage.invalidValue"),
        (["convert", "a.json", "--kind", "toy"], "usage.invalidValue"),
        (["frobnicate"], "usage.unknownCommand"),
        (["--bogus"], "usage.unknownOption"),
        (["help", "frobnicate"], "usage.unknownCommand"),
        (["convert", "a.json", "--level", "0"], "usage.invalidValue"),
    ])
    func usageErrors(_ arguments: [String], code: String) throws {
        let result = try Ferry.run(arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        let diagnostic = try #require(result.diagnostics.first, "\(result.err)")
        #expect(diagnostic.code == code)
        #expect(diagnostic.file == nil)
    }

    @Test func noArgumentsIsAUsageError() throws {
        let result = try Ferry.run([])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(!result.stderr.isEmpty)
    }

    @Test func missingInput() throws {
        let folder = try ScratchFolder()
        let missing = folder.path("missing.json")
        for arguments in [["convert", missing], ["lint", missing]] {
            let result = try Ferry.run(arguments)
            #expect(result.status == 3)
            let diagnostic = try #require(result.diagnostics.first, "\(result.err)")
            #expect(diagnostic.code == "io.cannotOpen")
            #expect(diagnostic.file == missing)
        }
    }

    /// A read that fails after the file opened (here `EIO` from
    /// `/proc/self/mem`, whose address 0 is never mapped) is an I/O error
    /// that names the file, for streamed and whole-file formats alike.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/mem")), arguments: ["json", "csv", "plist"])
    func readErrorsExitThreeWithThePath(format: String) throws {
        let folder = try ScratchFolder()
        let output = folder.path("out.json")
        let result = try Ferry.run(["convert", "/proc/self/mem", output, "--from", format])
        #expect(result.status == 3)
        let diagnostic = try #require(result.diagnostics.first, "\(result.err)")
        #expect(diagnostic.code == "io.readFailed")
        #expect(diagnostic.file == "/proc/self/mem")
        #expect(try folder.contents().isEmpty)
    }

    @Test func lintReportsEveryFileAndTheWorstStatus() throws {
        let folder = try ScratchFolder()
        let good = try folder.write("good.json", "[1, 2]")
        let bad = try folder.write("bad.json", "[1,\n 2,]")
        let result = try Ferry.run(["lint", good, bad, folder.path("gone.json")])
        #expect(result.status == 3)
        let diagnostics = result.diagnostics
        #expect(diagnostics.map(\.code) == ["json.unexpectedCharacter", "io.cannotOpen"])
        #expect(diagnostics.first.map { [$0.line, $0.column] } == [2, 4])
        #expect(result.out.contains(good))
    }

    @Test func errorsFromStandardInputAreLocated() throws {
        let result = try Ferry.run(["convert", "-", "--from", "json"], input: Array("[{\"a\":1},\n {\"a\":x}]".utf8))
        #expect(result.status == 1)
        let diagnostic = try #require(result.diagnostics.first, "\(result.err)")
        #expect(diagnostic.file == "-")
        #expect(diagnostic.code == "json.unexpectedCharacter")
        #expect([diagnostic.line, diagnostic.column, diagnostic.record] == [2, 7, 2])
    }

    /// An output that is its input is refused, `--force` or not (issue 31:
    /// one rule for every subcommand; `OutputIsInputTests`).
    @Test func convertInPlaceWithForceIsRefused() throws {
        let folder = try ScratchFolder()
        let path = try folder.write("data.json", "[{\"a\":1}]")
        let result = try Ferry.run(["convert", path, path, "--force"])
        #expect(result.status == 2, "\(result.err)")
        #expect(result.diagnostics.first?.code == "output.isInput")
        #expect(String(decoding: try folder.read("data.json"), as: UTF8.self) == "[{\"a\":1}]")
        #expect(try folder.contents() == ["data.json"])
    }

    /// The error names the folder that is missing, not a temporary file.
    @Test func outputInAMissingFolder() throws {
        let folder = try ScratchFolder()
        let output = folder.path("none/out.json")
        let result = try Ferry.run(["convert", TestPaths.example("books.json"), output])
        #expect(result.status == 3)
        let diagnostic = try #require(result.diagnostics.first, "\(result.err)")
        #expect(diagnostic.code == "output.folderMissing")
        #expect(diagnostic.file == output)
        #expect(try folder.contents().isEmpty)
    }

    /// The flags become typed codec configurations before any file is
    /// opened: a bad value is a usage error (exit 2) even when no CSV is
    /// read, and an input that is not there is never looked for.
    @Test func aBadCodecFlagFailsBeforeAnyFileIsOpened() throws {
        let folder = try ScratchFolder()
        let missing = folder.path("missing.json")
        for flags in [["--delimiter", "ab"], ["--records-at", "products"], ["--encoding", "klingon"]] {
            let result = try Ferry.run(["convert", missing, folder.path("out.jsonl")] + flags)
            #expect(result.status == 2, "\(flags): \(result.err)")
            #expect(!result.err.contains("io.cannotOpen"), "\(flags): \(result.err)")
        }
        #expect(try folder.contents().isEmpty)
    }
}
