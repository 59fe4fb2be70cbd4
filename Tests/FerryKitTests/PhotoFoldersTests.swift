import FerryTestSupport
import Foundation
import Testing

@testable import FerryKit

/// `PhotoFolders`, the listings `validate` looks missing photos up in: it
/// says "missing" only where reading the reference fails, and with the
/// reason the read gives.
@Suite struct PhotoFoldersTests {
    @Test func aListingAgreesWithReading() throws {
        let folder = try ScratchFolder()
        try folder.write("data/p1.jpg", [0xFF, 0xD8, 0xFF])
        try folder.write("data/photos/p2.png", [0x89, 0x50])
        try folder.write("data/file.txt", Array("x".utf8))
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("data/empty"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: folder.path("data/dangling.png"), withDestinationPath: folder.path("nowhere.png"))
        let store = PhotoStore(
            inputDirectory: folder.path("data"), outputDirectory: ".", photosDirectory: nil, overwrite: false)
        let longName = String(repeating: "n", count: 300) + ".png"
        let cases: [(reference: String, missing: Int32?)] = [
            ("p1.jpg", nil), ("p2.jpg", ENOENT), ("./p1.jpg", nil), ("photos/p2.png", nil), ("photos//p2.png", nil),
            ("photos/p3.png", ENOENT), ("gone/p1.jpg", ENOENT), ("file.txt/p1.jpg", ENOTDIR), ("empty/p1.jpg", ENOENT),
            ("dangling.png", nil), ("photos/", nil), (longName, nil), ("P1.JPG", ENOENT),
        ]
        for (reference, expected) in cases {
            var text = reference
            let missing = text.withUTF8 { store.missingReason($0) }
            #expect(missing == expected, "\(reference)")
            guard let missing else { continue }
            // A reference said missing fails to read, for the same reason.
            do throws(FerryError) {
                _ = try store.read(reference: reference, at: SourceLocation())
                Issue.record("\(reference) was read")
            } catch {
                #expect(error.code == .photoUnreadable, "\(reference)")
                #expect(error.arguments == FerryError.photoUnreadable(reference, errno: missing, at: SourceLocation()).arguments)
            }
        }
        // Asked again (the folder's listing is kept), the answers are the same.
        var again = "photos/p3.png"
        let answer = again.withUTF8 { store.missingReason($0) }
        #expect(answer == ENOENT)
    }

    @Test(arguments: ["/etc/passwd", "../x.png", "photos/../x.png", "", "/", "//", "a/..", ".."])
    func aReferenceThatLeavesTheFolderByItsText(_ reference: String) {
        var text = reference
        let leaves = text.withUTF8(PhotoStore.leavesFolder)
        #expect(leaves, "\(reference)")
    }

    @Test(arguments: ["p.png", "./p.png", "photos/p.png", "photos//p.png", "a..b.png", "..a/p.png", ".hidden"])
    func aReferenceThatStaysInTheFolder(_ reference: String) {
        var text = reference
        let leaves = text.withUTF8(PhotoStore.leavesFolder)
        #expect(!leaves, "\(reference)")
    }
}
