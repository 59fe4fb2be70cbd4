import Foundation
import Testing

/// Photos move between inline `data:` URIs and files beside the output, and
/// references never reach outside the input's folder.
@Suite struct PhotoTests {
    static let pngMagic: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    static let photos = ["xbox-360.png", "wii.png", "wireless-controller.png"]

    static func examplePhoto(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: TestPaths.examples.appendingPathComponent("photos/\(name)")))
    }

    static func records(_ bytes: [UInt8]) throws -> [[String: Any]] {
        try #require(JSONSerialization.jsonObject(with: Data(bytes)) as? [[String: Any]])
    }

    @Test func photosDirectoryWritesFiles() throws {
        let folder = try ScratchFolder()
        let result = try Ferry.run([
            "convert", TestPaths.example("products-inline.json"), folder.path("out.json"),
            "--photos-dir", folder.path("photos"),
        ])
        #expect(result.status == 0, "\(result.err)")
        #expect(try folder.contents() == ["out.json", "photos"])
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.path("photos")).sorted()
        #expect(written == Self.photos.sorted())
        for name in Self.photos {
            let bytes = try folder.read("photos/\(name)")
            #expect(bytes.starts(with: Self.pngMagic), "\(name) is not a PNG")
            #expect(bytes == (try Self.examplePhoto(name)))
        }
        let records = try Self.records(try folder.read("out.json"))
        #expect(records.map { $0["photo"] as? String } == Self.photos.map { "photos/\($0)" })
        #expect(records.map { $0["name"] as? String } == ["Xbox 360", "Wii", "Wireless Controller"])
    }

    @Test func photosDirectoryRelativeToTheOutput() throws {
        let folder = try ScratchFolder()
        try FileManager.default.createDirectory(atPath: folder.path("out"), withIntermediateDirectories: false)
        let result = try Ferry.run(
            ["convert", TestPaths.example("products-inline.json"), "out/products.jsonl", "--photos-dir", "media/png"],
            in: folder.url)
        #expect(result.status == 0, "\(result.err)")
        let lines = try folder.read("out/products.jsonl").split(separator: 0x0A)
        let first = try #require(JSONSerialization.jsonObject(with: Data(lines[0])) as? [String: Any])
        #expect(first["photo"] as? String == "../media/png/xbox-360.png")
        #expect(FileManager.default.fileExists(atPath: folder.path("media/png/xbox-360.png")))
    }

    @Test func embedPhotosInlinesTheFiles() throws {
        let result = try Ferry.run(["convert", TestPaths.example("products.json"), "--embed-photos"])
        #expect(result.status == 0, "\(result.err)")
        let records = try Self.records(result.stdout)
        #expect(records.count == 3)
        let prefix = "data:image/png;base64,"
        for (record, name) in zip(records, Self.photos) {
            let uri = try #require(record["photo"] as? String)
            #expect(uri.hasPrefix(prefix))
            let decoded = try #require(Data(base64Encoded: String(uri.dropFirst(prefix.count))))
            #expect([UInt8](decoded) == (try Self.examplePhoto(name)), "\(name)")
        }
    }

    @Test func embeddedPhotosRoundTripThroughFiles() throws {
        let folder = try ScratchFolder()
        let embedded = try Ferry.run(["convert", TestPaths.example("products.json"), "--embed-photos", "--to", "jsonl"])
        try folder.write("inline.jsonl", embedded.stdout)
        let result = try Ferry.run(["convert", folder.path("inline.jsonl"), folder.path("out.json"), "--photos-dir", folder.path("p")])
        #expect(result.status == 0, "\(result.err)")
        for name in Self.photos {
            #expect(try folder.read("p/\(name)") == (try Self.examplePhoto(name)))
        }
    }

    @Test(arguments: ["../secret.png", "/etc/passwd", "photos/../../secret.png", "link.png"])
    func referenceOutsideTheFolderIsRefused(_ reference: String) throws {
        let folder = try ScratchFolder()
        try folder.write("secret.png", Self.pngMagic)
        let inputFolder = folder.url.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: inputFolder.appendingPathComponent("photos"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path("data/link.png"), withDestinationPath: folder.path("secret.png"))
        let text = "[{\"name\":\"ok\",\"price\":1},\n{\"name\":\"a\",\"price\":1,\"photo\":\"\(reference)\"}]"
        let input = try folder.write("data/in.json", text)
        let result = try Ferry.run(["convert", input, folder.path("data/out.json"), "--embed-photos"])
        #expect(result.status == 1)
        let diagnostic = try #require(result.diagnostics.first, "\(result.err)")
        #expect(diagnostic.code == "photo.outsideFolder")
        #expect(diagnostic.line == 2 && diagnostic.column == 31)  // the photo's cell
        #expect(diagnostic.record == 2)
        #expect(diagnostic.field == "photo")
        #expect(!FileManager.default.fileExists(atPath: folder.path("data/out.json")))
    }

    @Test func missingPhotoIsUnreadable() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("in.json", "[{\"name\":\"a\",\"price\":1,\"photo\":\"photos/none.png\"}]")
        let result = try Ferry.run(["convert", input, "--embed-photos"])
        #expect(result.status == 3)
        let diagnostic = try #require(result.diagnostics.first, "\(result.err)")
        #expect(diagnostic.code == "photo.unreadable")
        #expect(diagnostic.record == 1 && diagnostic.field == "photo")
    }

    // MARK: - One rule in every format

    /// References stay references in every format that can hold one, binary
    /// plists included (they once embedded the files, and failed without
    /// them); only an archive and a bundle need the bytes.
    @Test(arguments: ["out.json", "out.jsonl", "out.csv", "out.plist", "out.xml"])
    func referencesStayReferences(_ name: String) throws {
        let folder = try ScratchFolder()
        // The photos are not there: nothing needs them.
        let input = try folder.write("products.json", try Data(contentsOf: TestPaths.examples.appendingPathComponent("products.json")))
        let arguments = name == "out.xml" ? ["--to", "xml1"] : []
        let result = try Ferry.run(["convert", input, folder.path(name)] + arguments)
        #expect(result.status == 0, "\(result.err)")
        let back = try Ferry.run(["convert", folder.path(name), "--to", "json"] + (name == "out.xml" ? ["--from", "plist-xml"] : []))
        #expect(back.status == 0, "\(back.err)")
        let records = try Self.records(back.stdout)
        #expect(records.map { $0["photo"] as? String } == Self.photos.map { "photos/\($0)" })
    }

    /// With `--embed-photos` a binary plist holds the bytes as data.
    @Test func embedPhotosPutsBytesInABinaryPlist() throws {
        let folder = try ScratchFolder()
        let result = try Ferry.run(["convert", TestPaths.example("products.json"), folder.path("out.plist"), "--embed-photos"])
        #expect(result.status == 0, "\(result.err)")
        let plist = try PropertyListSerialization.propertyList(from: try folder.data("out.plist"), format: nil)
        let records = try #require(plist as? [[String: Any]])
        for (record, name) in zip(records, Self.photos) {
            #expect((record["photo"] as? Data).map { [UInt8]($0) } == (try Self.examplePhoto(name)))
        }
    }

    /// An inline photo (a data: URI) is bytes in both plist forms, which
    /// have a type for them; no file is read.
    @Test(arguments: [["--to", "plist"], ["--to", "xml1"]])
    func inlinePhotosAreDataInPlists(_ words: [String]) throws {
        let folder = try ScratchFolder()
        let result = try Ferry.run(["convert", TestPaths.example("products-inline.json"), folder.path("out.plist")] + words)
        #expect(result.status == 0, "\(result.err)")
        let plist = try PropertyListSerialization.propertyList(from: try folder.data("out.plist"), format: nil)
        let records = try #require(plist as? [[String: Any]])
        for (record, name) in zip(records, Self.photos) {
            #expect((record["photo"] as? Data).map { [UInt8]($0) } == (try Self.examplePhoto(name)))
        }
    }

    /// An archive cannot hold a reference (a product's photo is a UIImage):
    /// it needs the files.
    @Test func anArchiveNeedsThePhotos() throws {
        let folder = try ScratchFolder()
        let input = try folder.write("products.json", try Data(contentsOf: TestPaths.examples.appendingPathComponent("products.json")))
        let result = try Ferry.run(["convert", input, folder.path("out.archive")])
        #expect(result.status == 3)
        #expect(result.diagnostics.first?.code == "photo.unreadable", "\(result.err)")
        #expect(result.diagnostics.first?.field == "photo")
    }

    // MARK: - Names and types

    /// Photo files are named after their record with their letters kept.
    @Test func photoFilesKeepTheirLetters() throws {
        let folder = try ScratchFolder()
        let png = Self.pngMagic + [0, 0, 0, 0]
        let uri = "data:image/png;base64," + Data(png).base64EncodedString()
        let names = ["Crème brûlée / 2", "Straße", "Καφές φίλτρου", "日本茶", "Œuvre d'Ægir"]
        let text = "[" + names.map { "{\"name\":\"\($0)\",\"price\":1,\"photo\":\"\(uri)\"}" }.joined(separator: ",") + "]"
        let input = try folder.write("in.json", text)
        let result = try Ferry.run(["convert", input, folder.path("out.json"), "--photos-dir", folder.path("p")])
        #expect(result.status == 0, "\(result.err)")
        #expect(try folder.contents("p") == [
            "creme-brulee-2.png", "oeuvre-d-aegir.png", "strasse.png", "καφες-φιλτρου.png", "日本茶.png",
        ].sorted())
    }

    /// Bytes that are no common image type are kept, with a warning at the
    /// record's photo.
    @Test func anUnknownPhotoTypeIsAWarning() throws {
        let folder = try ScratchFolder()
        let uri = "data:application/octet-stream;base64," + Data([1, 2, 3, 4, 5]).base64EncodedString()
        let tiff = "data:image/tiff;base64," + Data([0x49, 0x49, 0x2A, 0, 8, 0]).base64EncodedString()
        let png = "data:image/png;base64," + Data(Self.pngMagic).base64EncodedString()
        let input = try folder.write(
            "in.jsonl",
            ["{\"name\":\"A\",\"price\":1,\"photo\":\"\(png)\"}",
             "{\"name\":\"B\",\"price\":1,\"photo\":\"\(uri)\"}",
             "{\"name\":\"C\",\"price\":1,\"photo\":\"\(tiff)\"}"].joined(separator: "\n") + "\n")
        let result = try Ferry.run(["convert", input, folder.path("out.json"), "--photos-dir", folder.path("p")])
        #expect(result.status == 0, "\(result.err)")
        let warnings = result.diagnostics.filter { $0.severity == "warning" }
        #expect(warnings.map(\.code) == ["photo.unknownType", "photo.unknownType"], "\(result.err)")
        #expect(warnings.map(\.record) == [2, 3])
        #expect(warnings.allSatisfy { $0.field == "photo" })
        #expect(try folder.contents("p") == ["a.png", "b.bin", "c.tiff"])
    }

    @Test func failedConversionRemovesWrittenPhotos() throws {
        let folder = try ScratchFolder()
        let inline = try Ferry.run(["convert", TestPaths.example("products.json"), "--embed-photos", "--to", "jsonl"])
        try folder.write("in.jsonl", inline.stdout + Array("{\"name\":\"bad\",\"price\":-1}\n".utf8))
        let result = try Ferry.run(["convert", folder.path("in.jsonl"), folder.path("out.json"), "--photos-dir", folder.path("p")])
        #expect(result.status == 1)
        #expect(result.diagnostics.first?.code == "record.negative")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: folder.path("p"))) ?? []
        #expect(left.isEmpty, "photos left behind: \(left)")
        #expect(try folder.contents().filter { $0 != "p" } == ["in.jsonl"])
    }
}
