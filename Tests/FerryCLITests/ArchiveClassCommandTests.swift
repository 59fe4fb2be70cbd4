import FerryKit
import Foundation
import Testing

/// Archived class names through the command line: a class of no kind
/// survives a round trip, and images of other classes are photos.
@Suite struct ArchiveClassCommandTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]

    /// An archive of one instance of `className` (superclasses `chain`)
    /// with a name and a price, and a photo of class `image` when given.
    static func archive(className: String, chain: [String], image: String? = nil) throws -> [UInt8] {
        func description(_ name: String, _ chain: [String]) -> PlistValue {
            .dictionary(PlistDictionary([("$classname", .string(name)), ("$classes", .array(chain.map { .string($0) }))]))
        }
        var objects: [PlistValue] = [
            .string("$null"),
            .dictionary(PlistDictionary([("NS.objects", .array([.uid(3)])), ("$class", .uid(2))])),
            description("NSArray", ["NSArray", "NSObject"]),
            .null,  // the instance, below
            description(className, chain),
            .string("Gizmo"),
        ]
        var fields: [(String, PlistValue)] = [("name", .uid(5)), ("price", .real(9.5))]
        if let image {
            objects.append(description(image, [image, "NSObject"]))
            objects.append(.dictionary(PlistDictionary([("UIImageData", .data(png)), ("$class", .uid(6))])))
            fields.append(("photo", .uid(7)))
        }
        fields.append(("$class", .uid(4)))
        objects[3] = .dictionary(PlistDictionary(fields))
        var builder = BinaryPlistBuilder()
        let top = builder.add(.dictionary(PlistDictionary([
            ("$version", .integer(100_000)), ("$archiver", .string("NSKeyedArchiver")),
            ("$top", .dictionary(PlistDictionary([("root", .uid(1))]))), ("$objects", .array(objects)),
        ])))
        let output = MemoryOutput()
        try builder.write(top: top, to: output)
        return output.bytes
    }

    static func records(_ folder: ScratchFolder, _ name: String) throws -> [[String: Any]] {
        try #require(JSONSerialization.jsonObject(with: Data(try folder.read(name))) as? [[String: Any]])
    }

    // MARK: - Classes of no kind

    /// `MyApp.Widget` looks like a product; archive to archive it stays a
    /// `MyApp.Widget` with its superclasses, and reads back.
    @Test func aClassOfNoKindGoesToAnArchiveAndBack() throws {
        let folder = try ScratchFolder()
        let chain = ["MyApp.Widget", "MyApp.Base", "NSObject"]
        let input = try folder.write("widgets.archive", try Self.archive(className: "MyApp.Widget", chain: chain))
        let out = try Ferry.run(["convert", input, folder.path("out.archive")])
        #expect(out.status == 0, "\(out.err)")
        let back = try Ferry.run(["convert", folder.path("out.archive"), folder.path("back.json")])
        #expect(back.status == 0, "\(back.err)")
        #expect(back.diagnosticCodes.isEmpty)
        let record = try #require(try Self.records(folder, "back.json").first)
        #expect(record["$class"] as? String == "MyApp.Widget")
        #expect(record["$classes"] as? [String] == chain)
        #expect(record["name"] as? String == "Gizmo")
        #expect(record["price"] as? Double == 9.5)
    }

    /// Through JSON the class travels as the `$class` and `$classes` fields.
    @Test func aClassOfNoKindGoesThroughJSON() throws {
        let folder = try ScratchFolder()
        let chain = ["MyApp.Widget", "MyApp.Base", "NSObject"]
        let input = try folder.write("widgets.archive", try Self.archive(className: "MyApp.Widget", chain: chain))
        for (from, to) in [(input, "a.json"), (folder.path("a.json"), "b.archive"), (folder.path("b.archive"), "c.json")] {
            let result = try Ferry.run(["convert", from, folder.path(to)])
            #expect(result.status == 0, "\(to): \(result.err)")
        }
        #expect(try folder.read("a.json") == (try folder.read("c.json")))
    }

    /// A `$class` that is not text cannot name a class: exit 1, nothing written.
    @Test func aClassFieldOfTheWrongTypeIsRefused() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("in.json", Array(#"[{"$class": 5, "name": "Gizmo", "price": 1}]"#.utf8))
        let result = try Ferry.run(["convert", input, folder.path("out.archive")])
        #expect(result.status == 1)
        #expect(result.diagnosticCodes == ["archive.classFieldWrongType"])
        #expect(result.diagnostics.first?.code == "archive.classFieldWrongType")
        #expect(try folder.contents() == ["in.json"])
    }

    // MARK: - Images

    /// A photo of class `GameStoreiOS.UIImage`, or of a class mapped to
    /// `image`, comes out as the image's bytes.
    @Test(arguments: [("GameStoreiOS.UIImage", [String]()), ("MyApp.Picture", ["--class-map", "MyApp.Picture=image"])])
    func imageClassesArePhotos(image: String, options: [String]) throws {
        let folder = try ScratchFolder()
        let input = try folder.write(
            "products.archive",
            try Self.archive(className: "GameStoreiOS.Product", chain: ["GameStoreiOS.Product", "NSObject"], image: image))
        let result = try Ferry.run(["convert", input, folder.path("out.json")] + options)
        #expect(result.status == 0, "\(result.err)")
        let record = try #require(try Self.records(folder, "out.json").first)
        #expect(record["photo"] as? String == "data:image/png;base64," + Data(Self.png).base64EncodedString())
        #expect(record["$class"] == nil)
    }

    /// A pair of no known kind is a usage error naming the option.
    @Test func anUnknownMappingIsAUsageError() throws {
        let result = try Ferry.run(["convert", TestPaths.example("Products"), "-", "--class-map", "MyApp.Picture=picture"])
        #expect(result.status == 2)
        #expect(result.diagnosticCodes == ["usage.invalidValue"])
    }

    /// The help shows the `image` mapping.
    @Test func helpShowsTheImageMapping() throws {
        let result = try Ferry.run(["convert", "--help"])
        #expect(result.status == 0)
        #expect(result.out.contains("NAME=image"))
    }
}
