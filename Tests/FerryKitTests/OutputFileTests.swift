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

    /// A missing folder is named, with the output, instead of a failed temporary file.
    @Test func missingFolderIsNamed() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/none/deeper/out.json"
        #expect(throws: FerryError.outputFolderMissing(folder + "/none/deeper", for: path)) {
            _ = try OutputFile(path: path, overwrite: false)
        }
        let error = FerryError.outputFolderMissing(folder + "/none/deeper", for: path)
        #expect(error.code == .outputFolderMissing)
        #expect(error.arguments == [.path(folder + "/none/deeper"), .path(path)])
        #expect(try entries(folder).isEmpty)
    }

    /// A regular file replaced keeps its permissions; a symbolic link is
    /// written through, its target replaced beside it.
    @Test func replacingKeepsTheModeAndTheLink() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/data", withIntermediateDirectories: false)
        try "old".write(toFile: folder + "/data/real.json", atomically: false, encoding: .utf8)
        #expect(chmod(folder + "/data/real.json", 0o640) == 0)
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.json", withDestinationPath: "data/real.json")
        let file = try OutputFile(path: folder + "/link.json", overwrite: true)
        #expect(file.target == folder + "/data/real.json")
        #expect(!file.isDirect)
        try file.output.write(Array("new".utf8))
        try file.commit()
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/link.json") == "data/real.json")
        #expect(try String(contentsOfFile: folder + "/data/real.json", encoding: .utf8) == "new")
        var info = stat()
        #expect(stat(folder + "/data/real.json", &info) == 0)
        #expect(info.st_mode & 0o7777 == 0o640)
        #expect(try entries(folder) == ["data", "link.json"])
        #expect(try entries(folder + "/data") == ["real.json"])
    }

    /// A link to a file not made yet makes its target.
    @Test func danglingLinkMakesItsTarget() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.json", withDestinationPath: "later.json")
        let file = try OutputFile(path: folder + "/link.json", overwrite: false)
        try file.output.write(Array("[]".utf8))
        try file.commit()
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/link.json") == "later.json")
        #expect(try String(contentsOfFile: folder + "/later.json", encoding: .utf8) == "[]")
    }

    /// Special files are written in place, with no temporary file, and need
    /// no overwrite.
    @Test func specialFilesAreWrittenDirectly() throws {
        #expect(OutputFile.writesDirectly("/dev/null"))
        #expect(OutputFile.writesDirectly("/dev/stdout"))
        let file = try OutputFile(path: "/dev/null", overwrite: false)
        #expect(file.isDirect)
        #expect(file.temporaryPath == nil)
        try file.output.write(Array("[]".utf8))
        try file.commit()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(mkfifo(folder + "/pipe", 0o600) == 0)
        #expect(OutputFile.writesDirectly(folder + "/pipe"))
        #expect(!OutputFile.writesDirectly(folder))
        #expect(!OutputFile.writesDirectly(folder + "/none.json"))
    }

    @Test func slugsAndRelativePaths() {
        #expect(PhotoStore.slug("Xbox 360") == "xbox-360")
        #expect(PhotoStore.slug("  Wireless -- Controller! ") == "wireless-controller")
        // Letters of other scripts are kept now, no longer dropped to `photo`.
        #expect(PhotoStore.slug("日本") == "日本")
        #expect(PhotoStore.slug("!!!") == "photo")
        #expect(PhotoStore.relativePath(from: "out", to: "out/photos/a.png") == "photos/a.png")
        #expect(PhotoStore.relativePath(from: "out/sub", to: "out/photos/a.png") == "../photos/a.png")
        #expect(PhotoStore.relativePath(from: ".", to: "./photos/a.png") == "photos/a.png")
    }
}
