import Foundation
import Testing

@testable import FerryKit

@Suite struct OutputFileTests {
    func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "ferry-output-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func entries(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    @Test func commitRenamesAndLeavesNothingElse() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try OutputFile(path: folder + "/out.json", overwrite: false)
        try file.output.write(Array("[]".utf8))
        #expect(try entries(folder).count == 1)  // only the temporary file so far
        try file.commit()
        #expect(try entries(folder) == ["out.json"])
        #expect(try String(contentsOfFile: folder + "/out.json", encoding: .utf8) == "[]")
    }

    @Test func discardKeepsTheExistingFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "old".write(toFile: folder + "/out.json", atomically: false, encoding: .utf8)
        let file = try OutputFile(path: folder + "/out.json", overwrite: true)
        try file.output.write(Array("partial".utf8))
        file.discard()
        file.discard()  // twice is harmless
        #expect(try entries(folder) == ["out.json"])
        #expect(try String(contentsOfFile: folder + "/out.json", encoding: .utf8) == "old")
    }

    @Test func existingOutputNeedsOverwrite() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "old".write(toFile: folder + "/out.json", atomically: false, encoding: .utf8)
        #expect(throws: FerryError.ioOutputExists(folder + "/out.json")) {
            _ = try OutputFile(path: folder + "/out.json", overwrite: false)
        }
        #expect(throws: FerryError.ioIsDirectory(folder)) {
            _ = try OutputFile(path: folder, overwrite: true)
        }
    }

    @Test func slugsAndRelativePaths() {
        #expect(PhotoStore.slug("Xbox 360") == "xbox-360")
        #expect(PhotoStore.slug("  Wireless -- Controller! ") == "wireless-controller")
        #expect(PhotoStore.slug("日本") == "photo")
        #expect(PhotoStore.relativePath(from: "out", to: "out/photos/a.png") == "photos/a.png")
        #expect(PhotoStore.relativePath(from: "out/sub", to: "out/photos/a.png") == "../photos/a.png")
        #expect(PhotoStore.relativePath(from: ".", to: "./photos/a.png") == "photos/a.png")
    }
}
