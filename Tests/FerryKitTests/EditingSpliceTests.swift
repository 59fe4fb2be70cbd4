import Foundation
import FerryTestSupport
import Testing

@testable import FerryKit

/// Editing keeps a file's layout: only the edited bytes change.
@Suite struct EditingSpliceTests {
    /// Opens `bytes`, written as `name` in `folder`, for editing.
    func open(_ name: String, _ bytes: [UInt8], in folder: ScratchFolder) throws -> EditedFile {
        try EditedFile(path: try folder.write(name, bytes))
    }

    func change(_ assignments: String...) throws -> RecordChange {
        var change = RecordChange()
        try change.assign(assignments)
        return change
    }

    /// `before` with the only occurrence of `old` replaced by `new`.
    func replacing(_ old: String, with new: String, in before: [UInt8]) throws -> [UInt8] {
        let text = Array(old.utf8)
        let starts = before.indices.filter { before[$0...].starts(with: text) }
        try #require(starts.count == 1, "'\(old)' should occur once")
        return Array(before[..<starts[0]]) + Array(new.utf8) + Array(before[(starts[0] + text.count)...])
    }

    // MARK: - The two files the issue names

    static let semicolonCSV = Array("\u{FEFF}name;price;sku\r\nWii;269;A-1\r\n\"Xbox; 360\";299.00;A-2\r\nGameCube;99.5;A-3\r\n".utf8)

    @Test func csvWithBOMCRLFAndSemicolonsChangesOnlyTheField() throws {
        let folder = try ScratchFolder()
        let file = try open("p.csv", Self.semicolonCSV, in: folder)
        #expect(try file.edit("A-2", change: change("price=249.50")) == 1)
        try file.save()
        #expect(try folder.read("p.csv") == replacing("299.00", with: "249.50", in: Self.semicolonCSV))
    }

    @Test func csvCellThatNeedsQuotesIsQuotedInTheFileStyle() throws {
        let folder = try ScratchFolder()
        let file = try open("p.csv", Self.semicolonCSV, in: folder)
        try file.edit("3", change: change("name=Switch; OLED"))
        try file.save()
        #expect(try folder.read("p.csv") == replacing("GameCube", with: "\"Switch; OLED\"", in: Self.semicolonCSV))
    }

    static let compactJSON = Array(#"[{"name":"Wii","price":269,"sku":"A-1"},{"name":"Xbox","price":299.00,"sku":"A-2"}]"#.utf8)

    @Test func compactJSONChangesOnlyTheValue() throws {
        let folder = try ScratchFolder()
        let file = try open("p.json", Self.compactJSON, in: folder)
        try file.edit("A-2", change: change("price=249.5"))
        try file.save()
        #expect(try folder.read("p.json") == replacing("299.00", with: "249.5", in: Self.compactJSON))
    }

    // MARK: - JSON

    static let prettyJSON = Array(
        """
        [
          {
            "name": "Wii",
            "price": 269
          },
          {
            "name": "Xbox",
            "price": 299
          }
        ]

        """.utf8)

    @Test func prettyJSONGetsANewMemberAndRecordInItsStyle() throws {
        let folder = try ScratchFolder()
        var file = try open("p.json", Self.prettyJSON, in: folder)
        try file.edit("Wii", change: change("sku=A-1"))
        try file.save()
        #expect(
            try folder.read("p.json")
                == replacing("\"price\": 269\n", with: "\"price\": 269,\n    \"sku\": \"A-1\"\n", in: Self.prettyJSON))
        file = try EditedFile(path: folder.path("p.json"))
        try file.add(change("name=PS5", "price=499"))
        try file.save()
        let expected = """
            [
              {
                "name": "Wii",
                "price": 269,
                "sku": "A-1"
              },
              {
                "name": "Xbox",
                "price": 299
              },
              {
                "name": "PS5",
                "price": 499
              }
            ]

            """
        #expect(String(decoding: try folder.read("p.json"), as: UTF8.self) == expected)
    }

    @Test func oneEditCanRemoveAndAddMembers() throws {
        let folder = try ScratchFolder()
        let original = Array("\u{FEFF}[{\"name\":\"Wii\",\"price\":269,\"sku\":\"A-1\"}]".utf8)
        // A product needs a name: these are read as generic records, whose
        // fields no rule types, so a value set is text.
        let file = try EditedFile(path: try folder.write("p.json", original), kind: .generic)
        var change = try change("colour=white", "price=269.0")
        change.removed = ["sku", "name"]
        try file.edit("A-1", key: ["sku"], change: change)
        try file.save()
        #expect(String(decoding: try folder.read("p.json"), as: UTF8.self) == "\u{FEFF}[{\"price\":\"269.0\",\"colour\":\"white\"}]")
    }

    @Test func unsetAndRemoveCutTheirCommas() throws {
        let folder = try ScratchFolder()
        var file = try open("p.json", Self.compactJSON, in: folder)
        var unset = RecordChange()
        unset.removed = ["sku"]
        try file.edit("1", change: unset)
        try file.save()
        file = try EditedFile(path: folder.path("p.json"))
        try file.remove("1")
        try file.save()
        #expect(String(decoding: try folder.read("p.json"), as: UTF8.self) == #"[{"name":"Xbox","price":299.00,"sku":"A-2"}]"#)
        file = try EditedFile(path: folder.path("p.json"))
        try file.remove("1")
        try file.save()
        #expect(String(decoding: try folder.read("p.json"), as: UTF8.self) == "[]")
        file = try EditedFile(path: folder.path("p.json"))
        try file.add(change("name=Wii", "price=269"))
        try file.save()
        #expect(String(decoding: try folder.read("p.json"), as: UTF8.self) == #"[{"name":"Wii","price":269}]"#)
    }

    @Test func jsonLinesAddsALineAfterOneWithoutABreak() throws {
        let folder = try ScratchFolder()
        let original = "{\"name\":\"Wii\",\"price\":269}\r\n{\"name\":\"Xbox\",\"price\":299}"
        var file = try open("p.jsonl", Array(original.utf8), in: folder)
        try file.add(change("name=PS5", "price=499"))
        try file.save()
        #expect(
            String(decoding: try folder.read("p.jsonl"), as: UTF8.self)
                == original + "\r\n{\"name\":\"PS5\",\"price\":499}\r\n")
        file = try EditedFile(path: folder.path("p.jsonl"))
        try file.remove("Xbox")
        try file.save()
        #expect(
            String(decoding: try folder.read("p.jsonl"), as: UTF8.self)
                == "{\"name\":\"Wii\",\"price\":269}\r\n{\"name\":\"PS5\",\"price\":499}\r\n")
    }

    @Test func singleObjectCannotGrow() throws {
        let folder = try ScratchFolder()
        let file = try open("p.json", Array(#"{"name":"Wii","price":269}"#.utf8), in: folder)
        #expect { try file.add(change("name=PS5")) } throws: { ($0 as? FerryError)?.code == .editSingleObject }
    }

    // MARK: - CSV

    @Test func csvAddsARowAfterOneWithoutABreakAndRemovesTheLast() throws {
        let folder = try ScratchFolder()
        var file = try open("p.csv", Array("\"name\",\"price\"\n\"Wii\",\"269\"".utf8), in: folder)
        try file.add(change("name=PS5", "price=499"))
        try file.save()
        // The file quotes every cell, so the new row does too.
        #expect(String(decoding: try folder.read("p.csv"), as: UTF8.self) == "\"name\",\"price\"\n\"Wii\",\"269\"\n\"PS5\",\"499\"\n")
        file = try EditedFile(path: folder.path("p.csv"))
        try file.remove("2")
        try file.save()
        #expect(String(decoding: try folder.read("p.csv"), as: UTF8.self) == "\"name\",\"price\"\n\"Wii\",\"269\"\n")
    }

    @Test func csvRefusesAFieldItHasNoColumnFor() throws {
        let folder = try ScratchFolder()
        let file = try open("p.csv", Array("name,price\nWii,269\n".utf8), in: folder)
        let error = try #require(throws: FerryError.self) { try file.edit("1", change: change("colour=white")) }
        #expect(error.code == .editNewColumn)
        #expect(error.arguments == [.string("colour")])
        #expect(error.location.record == 0 && error.location.field == "colour")
    }

    // MARK: - Gzip and re-encoded formats

    @Test func gzipStaysGzipAndItsContentIsSpliced() throws {
        let folder = try ScratchFolder()
        let inner = MemoryOutput()
        let gzip = try GzipOutput(inner, level: 6)
        try gzip.write(Self.semicolonCSV)
        try gzip.finish()
        let file = try open("p.csv.gz", inner.bytes, in: folder)
        try file.edit("A-1", change: change("price=199"))
        try file.save()
        let saved = try folder.read("p.csv.gz")
        #expect(GzipInput.isGzip(saved))
        let inflated = try GzipInput(MemoryInput(saved)).readAll(limit: 1 << 20)
        #expect(inflated == (try replacing("269", with: "199", in: Self.semicolonCSV)))
    }

    @Test(arguments: ["plist", "plist-xml"])
    func plistsAreWrittenAgainWithTheirCodec(format: String) throws {
        let folder = try ScratchFolder()
        let name = "p." + (format == "plist" ? "plist" : "xml.plist")
        let output = MemoryOutput()
        let codec = try #require(CodecRegistry.standard.codec(id: format))
        let writer = try codec.makeWriter(output, context: WriteContext(kind: .product))
        try writer.write(Record([("name", .string("Wii")), ("price", .integer(269))]))
        try writer.finish()
        var file = try EditedFile(path: try folder.write(name, output.bytes), from: format)
        #expect(!file.editor.keepsLayout)
        try file.edit("Wii", change: change("price=199"))
        try file.add(change("name=PS5", "price=499"))
        try file.save()
        file = try EditedFile(path: folder.path(name), from: format)
        #expect(file.format == format)
        #expect(file.records.map { $0["name"] } == [.string("Wii"), .string("PS5")])
        #expect(file.records.map { $0["price"] } == [.integer(199), .integer(499)])
    }

    @Test func archivesAreEditedInTheirObjects() throws {
        let folder = try ScratchFolder()
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestPaths.example("Products"))))
        let path = try folder.write("Products", original)
        var file = try EditedFile(path: path)
        #expect(file.format == "archive")
        try file.edit("Wii", change: change("price=249"))
        try file.save()
        let saved = try folder.read("Products")
        #expect(saved.starts(with: Array("bplist00".utf8)))
        file = try EditedFile(path: path)
        #expect(file.records.map { $0["price"] } == [.double(299), .double(249), .double(19.99)])
        let error = try #require(throws: FerryError.self) { try file.remove("4") }
        #expect(error.code == .editIndexOutOfRange)
    }
}
