import Foundation

/// Places the tests need: the package, its examples, the built `ferry`.
public enum TestPaths {
    /// The package root, found from this file: `<root>/Tests/FerryTestSupport/TestPaths.swift`.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static let examples = packageRoot.appendingPathComponent("Examples")

    public static func example(_ name: String) -> String { examples.appendingPathComponent(name).path }

    /// The conformance corpora vendored in `Tests/Corpora` (origins and licences in its SOURCES.md).
    public static let corpora = packageRoot.appendingPathComponent("Tests/Corpora")

    /// A file or folder of the vendored corpora, such as `JSONTestSuite/test_parsing`.
    public static func corpus(_ path: String) -> URL { corpora.appendingPathComponent(path) }

    /// The bytes of one of the example photos (`wii.png`, …).
    public static func examplePhoto(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: examples.appendingPathComponent("photos/\(name)")))
    }

    /// The products folder holds the test bundle and the `ferry` it was built with.
    public static let ferry: URL? = {
        var folders: [URL] = [Bundle.main.bundleURL]
        if Bundle.main.bundleURL.pathExtension == "xctest" {
            folders.append(Bundle.main.bundleURL.deletingLastPathComponent())
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        folders.append(executable.deletingLastPathComponent())
        for folder in folders {
            let candidate = folder.appendingPathComponent("ferry")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }()
}
