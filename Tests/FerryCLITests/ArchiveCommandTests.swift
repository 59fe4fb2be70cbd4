import FerryKit
import Foundation
import Testing

/// The legacy GameStore archive through the command line: migration without
/// `--from`, photos out to files, and `ferry inspect`.
@Suite struct ArchiveCommandTests {
    @Test func theLegacyArchiveMigratesWithoutAFormatOption() throws {
        let folder = try ScratchFolder()
        let result = try Ferry.run(["convert", TestPaths.example("Products"), folder.path("products.json")])
        #expect(result.status == 0, "\(result.err)")
        let records = try PhotoTests.records(try folder.read("products.json"))
        #expect(records.map { $0["name"] as? String } == ["Xbox 360", "Wii", "Wireless Controller"])
        #expect(records.map { $0["price"] as? Double } == [299, 269, 19.99])
        for (record, name) in zip(records, PhotoTests.photos) {
            let uri = try #require(record["photo"] as? String)
            #expect(uri.hasPrefix("data:image/png;base64,"))
            let bytes = [UInt8](try #require(Data(base64Encoded: String(uri.dropFirst("data:image/png;base64,".count)))))
            #expect(bytes == (try PhotoTests.examplePhoto(name)))
        }
    }

    @Test func theLegacyArchiveMigratesToCSVWithPhotoFiles() throws {
        let folder = try ScratchFolder()
        let result = try Ferry.run([
            "convert", TestPaths.example("Products"), folder.path("products.csv"), "--photos-dir", folder.path("photos"),
        ])
        #expect(result.status == 0, "\(result.err)")
        let csv = String(decoding: try folder.read("products.csv"), as: UTF8.self)
        #expect(csv == """
            name,photo,price
            Xbox 360,photos/xbox-360.png,299.0
            Wii,photos/wii.png,269.0
            Wireless Controller,photos/wireless-controller.png,19.99

            """)
        for name in PhotoTests.photos { #expect(try folder.read("photos/\(name)") == (try PhotoTests.examplePhoto(name))) }
    }

    @Test func productsGoToAnArchiveAndBack() throws {
        let folder = try ScratchFolder()
        let out = try Ferry.run(["convert", TestPaths.example("products.json"), folder.path("Products.archive")])
        #expect(out.status == 0, "\(out.err)")
        let back = try Ferry.run(["convert", folder.path("Products.archive"), folder.path("back.json")])
        #expect(back.status == 0, "\(back.err)")
        let records = try PhotoTests.records(try folder.read("back.json"))
        #expect(records.map { $0["name"] as? String } == ["Xbox 360", "Wii", "Wireless Controller"])
        #expect(records.compactMap { $0["photo"] as? String }.allSatisfy { $0.hasPrefix("data:image/png;base64,") })
    }

    /// The legacy archive into a bundle and back into an archive: the photos
    /// travel as files inside the bundle and come back as the same bytes.
    @Test func theLegacyArchiveGoesThroughABundle() throws {
        let folder = try ScratchFolder()
        let bundle = try Ferry.run(["convert", TestPaths.example("Products"), folder.path("products.ferry.tgz")])
        #expect(bundle.status == 0, "\(bundle.err)")
        let archive = try Ferry.run(["convert", folder.path("products.ferry.tgz"), folder.path("Products.archive")])
        #expect(archive.status == 0, "\(archive.err)")
        let json = try Ferry.run(["convert", folder.path("Products.archive"), folder.path("back.json")])
        #expect(json.status == 0, "\(json.err)")
        let records = try PhotoTests.records(try folder.read("back.json"))
        #expect(records.map { $0["name"] as? String } == ["Xbox 360", "Wii", "Wireless Controller"])
        for (record, name) in zip(records, PhotoTests.photos) {
            let uri = try #require(record["photo"] as? String)
            let bytes = [UInt8](try #require(Data(base64Encoded: String(uri.dropFirst("data:image/png;base64,".count)))))
            #expect(bytes == (try PhotoTests.examplePhoto(name)))
        }
    }

    /// An archive whose one record nests `levels` objects deep, each holding
    /// the next under `next`.
    static func deepArchive(levels: Int) throws -> [UInt8] {
        var objects: [PlistValue] = [.string("$null"), .null]
        objects.append(.dictionary(PlistDictionary([("$classname", .string("NSArray")), ("$classes", .array([.string("NSArray")]))])))
        objects.append(.dictionary(PlistDictionary([("$classname", .string("Node")), ("$classes", .array([.string("Node")]))])))
        let first = objects.count
        for level in 0..<levels {
            let next: PlistValue = level + 1 < levels ? .uid(UInt64(objects.count + 1)) : .uid(0)
            objects.append(.dictionary(PlistDictionary([("next", next), ("$class", .uid(3))])))
        }
        objects[1] = .dictionary(PlistDictionary([("NS.objects", .array([.uid(UInt64(first))])), ("$class", .uid(2))]))
        var builder = BinaryPlistBuilder()
        let top = builder.add(.dictionary(PlistDictionary([
            ("$version", .integer(100_000)), ("$archiver", .string("NSKeyedArchiver")),
            ("$top", .dictionary(PlistDictionary([("root", .uid(1))]))), ("$objects", .array(objects)),
        ])))
        let output = MemoryOutput()
        try builder.write(top: top, to: output)
        return output.bytes
    }

    /// Deep nesting ends at the limit with a coded error, and a raised limit
    /// converts deeper archives: the reading and writing threads' stacks
    /// hold the deepest nesting `--max-depth` allows, in debug builds too.
    @Test func deepArchivesStopAtTheLimitNotTheStack() throws {
        let folder = try ScratchFolder()
        let deep = try folder.write("deep.archive", try Self.deepArchive(levels: 3000))
        let refused = try Ferry.run(["convert", deep, folder.path("deep.json")], timeout: 60)
        #expect(refused.status == 1, "\(refused.err)")
        #expect(refused.diagnostics.first?.code == "limit.nestingTooDeep")
        #expect(try folder.contents() == ["deep.archive"])
        let allowed = try Ferry.run(["convert", deep, folder.path("deep.json"), "--max-depth", "5000"], timeout: 60)
        #expect(allowed.status == 0, "\(allowed.err)")
        let tooHigh = try Ferry.run(["lint", deep, "--max-depth", "10001"])
        #expect(tooHigh.status == 2)
        #expect(tooHigh.diagnostics.first?.code == "usage.invalidValue")
    }

    @Test func inspectDescribesAnArchive() throws {
        let result = try Ferry.run(["inspect", TestPaths.example("Products")])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == """
            \(TestPaths.example("Products"))
              format: archive
              kind: product
              records: 3
              fields: name, photo, price
              photos: 3
              objects: 17
              classes: GameStoreiOS.Product (3), UIImage (3), NSArray (1)

            """)
    }

    @Test func inspectReportsJSON() throws {
        let result = try Ferry.run(["inspect", "--report-format", "json", TestPaths.example("Products"), TestPaths.example("books.json")])
        #expect(result.status == 0, "\(result.err)")
        let lines = result.out.split(separator: "\n")
        #expect(lines.count == 2)
        let archive = try #require(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(archive["format"] as? String == "archive")
        #expect(archive["records"] as? Int == 3)
        #expect(archive["objects"] as? Int == 17)
        #expect((archive["classes"] as? [[String: Any]])?.first?["name"] as? String == "GameStoreiOS.Product")
        let books = try #require(JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect(books["kind"] as? String == "book")
        #expect(books["objects"] == nil)
    }

    @Test func inspectReportsUnreadableFilesAndGoesOn() throws {
        let folder = try ScratchFolder()
        let broken = try folder.write("broken.plist", Array("bplist00".utf8) + [UInt8](repeating: 0, count: 40))
        let result = try Ferry.run(["inspect", broken, TestPaths.example("books.json")])
        #expect(result.status == 1)
        #expect(result.err.contains("[bplist.invalidTrailer]"))
        #expect(result.out.contains("kind: book"))
    }
}
