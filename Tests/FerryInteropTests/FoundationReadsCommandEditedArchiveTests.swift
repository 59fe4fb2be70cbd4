import Foundation
import Testing

/// Examples/Products, in its binary and XML form, edited by the `ferry`
/// binary (`edit`, `add`, `remove`): Foundation's `NSKeyedUnarchiver`
/// decodes each result into the app's classes (`setClass` mapping), and a
/// rejected edit leaves the file byte for byte as it was.
@Suite(.serialized) struct FoundationReadsCommandEditedArchiveTests {
    static func ferry(_ arguments: [String]) throws -> ProcessResult {
        try Ferry.run(arguments + ["--quiet"])
    }

    @Test(arguments: ["binary", "xml"])
    func foundationDecodesWhatTheCommandsWrote(form: String) throws {
        let folder = try ScratchFolder()
        let path = try folder.write("Products", form == "binary" ? try LegacyArchive.binary() : try LegacyArchive.xml())
        let photo = TestPaths.example("photos/wii.png")
        #expect(try Self.ferry(["edit", path, "Wii", "--set", "price=249"]).status == 0)
        #expect(try Self.ferry(["add", path, "--set", "name=PS5", "--set", "price=499", "--photo", photo]).status == 0)
        #expect(try Self.ferry(["remove", path, "1"]).status == 0)

        let before = try folder.read("Products")
        for rejected in [["--set", "name="], ["--set", "price=-1"]] {
            let result = try Self.ferry(["edit", path, "2"] + rejected)
            #expect(result.status == 1)
            #expect(try folder.read("Products") == before)
        }

        let output = try folder.read("Products")
        #expect(output.starts(with: Array((form == "binary" ? "bplist00" : "<?xml").utf8)))
        let decoded = try FoundationReadsArchiveTests.products(Data(output), className: "GameStoreiOS.Product")
        #expect(decoded.map(\.name) == ["Wii", "Wireless Controller", "PS5"])
        #expect(decoded.map(\.price) == [249, 19.99, 499])
        #expect(decoded.map { $0.photo.map { [UInt8]($0.data) } } == [
            try TestPaths.examplePhoto("wii.png"), try TestPaths.examplePhoto("wireless-controller.png"),
            try TestPaths.examplePhoto("wii.png"),
        ])
    }
}
