import Foundation
import Testing

/// Ferry's bundles against other tools: GNU tar and Python's `tarfile` and
/// `json` read what Ferry writes, and Ferry reads what `tar czf` makes by
/// following Formats/bundle.md. Runs the built `ferry`.
@Suite struct BundleInteropTests {
    static let photos = ["xbox-360.png", "wii.png", "wireless-controller.png"]
    static let entries = ["manifest.json", "records.jsonl"] + photos.map { "media/\($0)" }

    /// products.json, with its photos, as a bundle in `folder`.
    static func productsBundle(in folder: ScratchFolder) throws -> String {
        let bundle = folder.path("products.ferry.tgz")
        let result = try Run.ferry(["convert", TestPaths.example("products.json"), bundle], environment: folder.environment)
        #expect(result.status == 0, "\(result.err)")
        #expect(try folder.contents("tmp").isEmpty, "temporary files left behind")
        return bundle
    }

    @Test func tarListsAndExtractsFerryBundles() throws {
        let folder = try ScratchFolder(withTemporaryFolder: true)
        let bundle = try Self.productsBundle(in: folder)
        let listing = try Run.tool(["tar", "tzf", bundle])
        #expect(listing.status == 0, "\(listing.err)")
        #expect(listing.out.split(separator: "\n").map(String.init) == Self.entries)
        try FileManager.default.createDirectory(atPath: folder.path("x"), withIntermediateDirectories: false)
        let extract = try Run.tool(["tar", "xzf", bundle, "-C", folder.path("x")])
        #expect(extract.status == 0, "\(extract.err)")
        for name in Self.photos {
            #expect(try folder.read("x/media/\(name)") == (try TestPaths.examplePhoto(name)), "\(name)")
        }
        let lines = try folder.read("x/records.jsonl").split(separator: 0x0A)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0])) as? [String: Any])
        #expect(first["photo"] as? String == "media/xbox-360.png")
    }

    @Test func pythonChecksTheArchiveAndTheManifest() throws {
        let folder = try ScratchFolder(withTemporaryFolder: true)
        let bundle = try Self.productsBundle(in: folder)
        let script = #"""
            import datetime, json, sys, tarfile, zlib
            bundle, photos = sys.argv[1], sys.argv[2]
            with tarfile.open(bundle, "r:gz") as tar:
                members = tar.getmembers()
                assert members[0].name == "manifest.json", members[0].name
                assert all(m.isreg() and m.mode == 0o644 for m in members), [(m.name, m.type) for m in members]
                manifest = json.load(tar.extractfile("manifest.json"))
                assert manifest["format"] == "ferry-bundle" and manifest["version"] == 1, manifest
                assert manifest["kind"] == "product" and manifest["records"] == "records.jsonl", manifest
                records = [json.loads(l) for l in tar.extractfile("records.jsonl").read().splitlines()]
                assert manifest["count"] == len(records) == 3, manifest
                datetime.datetime.strptime(manifest["created"], "%Y-%m-%dT%H:%M:%SZ")
                names = [m.name for m in members]
                assert [e["path"] for e in manifest["media"]] == names[2:], names
                for entry, record in zip(manifest["media"], records):
                    data = tar.extractfile(entry["path"]).read()
                    assert len(data) == entry["bytes"] and zlib.crc32(data) == entry["crc32"], entry
                    assert record["photo"] == entry["path"], record
                    original = open(photos + "/" + entry["path"].split("/")[1], "rb").read()
                    assert data == original, entry
            print("ok")
            """#
        let result = try Run.tool(["python3", "-c", script, bundle, TestPaths.example("photos")])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == "ok\n")
    }

    /// The example in Formats/bundle.md, run as it is written (with the
    /// photo's path and `ferry` filled in), makes a bundle Ferry reads.
    @Test func theSpecificationsTarExampleWorks() throws {
        let folder = try ScratchFolder(withTemporaryFolder: true)
        let spec = try String(contentsOfFile: TestPaths.packageRoot.appendingPathComponent("Formats/bundle.md").path, encoding: .utf8)
        let section = try #require(spec.range(of: "## Writing a bundle with tar"))
        let rest = spec[section.upperBound...]
        let start = try #require(rest.range(of: "```sh\n"))
        let end = try #require(rest[start.upperBound...].range(of: "```"))
        let ferry = try #require(TestPaths.ferry).path
        let script = String(rest[start.upperBound..<end.lowerBound])
            .replacingOccurrences(of: "~/photos/wii.png", with: TestPaths.example("photos/wii.png"))
            .replacingOccurrences(of: "ferry convert", with: "\(ferry) convert")
        let result = try Subprocess.run(
            URL(fileURLWithPath: "/bin/sh"), ["-e", "-c", script], in: folder.url, environment: folder.environment)
        #expect(result.status == 0, "\(result.err)")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(try folder.read("shop.json"))) as? [[String: Any]])
        #expect(records.count == 1)
        #expect(try Self.photo(records[0]) == (try TestPaths.examplePhoto("wii.png")))
        #expect(try folder.contents("tmp").isEmpty)
    }

    /// `tar` in its other formats, and with `./` names from `-C dir .`-style listings.
    @Test(arguments: [["--format=posix"], ["--format=ustar"], ["--format=gnu"], ["--format=pax", "./"]])
    func tarFormatsAreRead(_ options: [String]) throws {
        let folder = try ScratchFolder(withTemporaryFolder: true)
        let bundle = try Self.productsBundle(in: folder)
        try FileManager.default.createDirectory(atPath: folder.path("x"), withIntermediateDirectories: false)
        #expect(try Run.tool(["tar", "xzf", bundle, "-C", folder.path("x")]).status == 0)
        let prefix = options.count > 1 ? options[1] : ""
        let format = options[0]
        let names = ["manifest.json", "records.jsonl", "media"].map { prefix + $0 }
        let made = try Run.tool(["tar", format, "-czf", folder.path("again.ferry.tgz"), "-C", folder.path("x")] + names)
        #expect(made.status == 0, "\(made.err)")
        let result = try Run.ferry(["convert", folder.path("again.ferry.tgz"), "--to", "json"], environment: folder.environment)
        #expect(result.status == 0, "\(result.err)")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [[String: Any]])
        #expect(try records.map(Self.photo) == (try Self.photos.map(TestPaths.examplePhoto)))
    }

    // MARK: - End to end

    @Test func productsRoundTripThroughABundle() throws {
        let folder = try ScratchFolder(withTemporaryFolder: true)
        let bundle = try Self.productsBundle(in: folder)
        let back = try Run.ferry(["convert", bundle, folder.path("back.json")], environment: folder.environment)
        #expect(back.status == 0, "\(back.err)")
        let original = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: TestPaths.example("products.json"))))
                as? [[String: Any]])
        let read = try #require(try JSONSerialization.jsonObject(with: Data(try folder.read("back.json"))) as? [[String: Any]])
        #expect(read.count == original.count)
        for (record, source) in zip(read, original) {
            #expect(record["name"] as? String == source["name"] as? String)
            #expect(record["price"] as? Double == source["price"] as? Double)
            #expect(Array((record as NSDictionary).allKeys as? [String] ?? []).sorted() == ["name", "photo", "price"])
            let reference = try #require(source["photo"] as? String)
            #expect(try Self.photo(record) == (try TestPaths.examplePhoto(String(reference.dropFirst("photos/".count)))))
        }
        #expect(try folder.contents("tmp").isEmpty)
    }

    @Test func bundleToCSVWithAPhotosFolder() throws {
        let folder = try ScratchFolder(withTemporaryFolder: true)
        let bundle = try Self.productsBundle(in: folder)
        let result = try Run.ferry(
            ["convert", bundle, folder.path("out.csv"), "--photos-dir", folder.path("pics")], environment: folder.environment)
        #expect(result.status == 0, "\(result.err)")
        let csv = String(decoding: try folder.read("out.csv"), as: UTF8.self)
        #expect(
            csv == """
                name,price,photo
                Xbox 360,299.0,pics/xbox-360.png
                Wii,269.0,pics/wii.png
                Wireless Controller,19.99,pics/wireless-controller.png

                """)
        for name in Self.photos { #expect(try folder.read("pics/\(name)") == (try TestPaths.examplePhoto(name))) }
        #expect(try folder.contents("tmp").isEmpty)
    }

    @Test func inlinePhotosAndStandardStreamsWork() throws {
        let folder = try ScratchFolder(withTemporaryFolder: true)
        let made = try Run.ferry(["convert", TestPaths.example("products-inline.json"), folder.path("inline.ferry.tgz")])
        #expect(made.status == 0, "\(made.err)")
        let listing = try Run.tool(["tar", "tzf", folder.path("inline.ferry.tgz")])
        #expect(listing.out.split(separator: "\n").map(String.init) == Self.entries)
        let piped = try Subprocess.run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "\"$0\" convert - --to jsonl < \"$1\"", try #require(TestPaths.ferry).path, folder.path("inline.ferry.tgz")])
        #expect(piped.status == 0, "\(piped.err)")
        #expect(piped.out.split(separator: "\n").count == 3)
    }

    @Test func aFailedWriteLeavesNothing() throws {
        let folder = try ScratchFolder(withTemporaryFolder: true)
        let input = try folder.write(
            "in.jsonl", "{\"name\":\"a\",\"price\":1,\"photo\":\"\(Fixtures.onePixelPNG)\"}\n{\"name\":\"b\",\"price\":-1}\n")
        let result = try Run.ferry(["convert", input, folder.path("out.ferry.tgz")], environment: folder.environment)
        #expect(result.status == 1)
        #expect(result.codes == ["record.negative"])
        #expect(try folder.contents() == ["in.jsonl", "tmp"])
        #expect(try folder.contents("tmp").isEmpty)
    }

    /// The bytes of a record's photo, a `data:` URI.
    static func photo(_ record: [String: Any]) throws -> [UInt8] {
        let uri = try #require(record["photo"] as? String)
        let prefix = "data:image/png;base64,"
        #expect(uri.hasPrefix(prefix))
        return [UInt8](try #require(Data(base64Encoded: String(uri.dropFirst(prefix.count)))))
    }
}

enum Fixtures {
    /// A one-pixel PNG as a `data:` URI.
    static let onePixelPNG =
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
}
