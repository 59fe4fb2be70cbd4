import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - Paths

/// Places the interop tests need: the package, its examples, the built `ferry`.
enum TestPaths {
    /// The package root, found from this file: `<root>/Tests/FerryInteropTests/InteropSupport.swift`.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let examples = packageRoot.appendingPathComponent("Examples")

    static func example(_ name: String) -> String { examples.appendingPathComponent(name).path }

    /// The products folder holds the test bundle and the `ferry` it was built with.
    static let ferry: URL? = {
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

// MARK: - The example products and books

/// What Examples/products.json and Examples/books.json hold, written out
/// here so that every reader is checked against the same facts.
enum ExampleData {
    static let productNames = ["Xbox 360", "Wii", "Wireless Controller"]
    static let productPrices = [299.0, 269.0, 19.99]
    static let photoFiles = ["xbox-360.png", "wii.png", "wireless-controller.png"]
    static let pngMagic: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func photo(_ file: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: TestPaths.examples.appendingPathComponent("photos/\(file)")))
    }

    /// The three photos, in product order.
    static func photos() throws -> [[UInt8]] { try photoFiles.map { try photo($0) } }

    /// The products as typed values, photos as their bytes, in the field
    /// order of products.json.
    static func products() throws -> [Typed] {
        let photos = try photos()
        return productNames.indices.map { index in
            .dict([
                ("name", .string(productNames[index])), ("price", .float(productPrices[index])),
                ("photo", .bytes(photos[index])),
            ])
        }
    }

    /// The books as typed values, in the field order of books.json.
    static let books: [Typed] = [
        book(
            "The Swift Programming Language", "Apple Inc.",
            "The official guide and reference to the Swift language, from a first tour to the formal grammar.",
            1024, true, 0.0, "9780999580745"),
        book(
            "Swift in Depth", "Tjeerd in 't Veen",
            "Moves working Swift developers past the basics with generics, protocols and error handling in real code.",
            325, false, 49.99, "9781617295188"),
        book(
            "Thinking in SwiftUI", "Chris Eidhof & Florian Kugler",
            "Explains the mental model behind SwiftUI — view trees, state and the layout algorithm.",
            176, true, 39.0, "9783981786101"),
        book(
            "Advanced Swift", "Chris Eidhof, Ole Begemann, Airspeed Velocity",
            "Answers the \"why\" behind Swift's collections, strings, generics, and protocols, not just the \"how\".",
            612, false, 49.0, "9783981786248"),
    ]

    static func book(
        _ title: String, _ author: String, _ description: String, _ pages: Int64, _ read: Bool, _ price: Double,
        _ isbn: String
    ) -> Typed {
        .dict([
            ("title", .string(title)), ("author", .string(author)), ("description", .string(description)),
            ("pages", .integer(pages)), ("readThisBook", .bool(read)), ("price", .float(price)),
            ("isbn", .string(isbn)),
        ])
    }

    /// `bytes` as Ferry writes a photo in JSON.
    static func pngDataURI(_ bytes: [UInt8]) -> String { "data:image/png;base64," + Data(bytes).base64EncodedString() }
}

// MARK: - Running ferry and python3

/// What one run of `ferry` (or another program) did.
struct ProcessResult: Sendable {
    /// The exit status, or the signal number when `signaled`.
    var status: Int32
    var signaled: Bool
    var timedOut: Bool
    var stdout: [UInt8]
    var stderr: [UInt8]

    var out: String { String(decoding: stdout, as: UTF8.self) }
    var err: String { String(decoding: stderr, as: UTF8.self) }
    /// The codes of the diagnostics printed on standard error: the `[code]`
    /// that ends each `… error: … [code]` line.
    var diagnosticCodes: [String] {
        err.split(separator: "\n").compactMap { line in
            guard line.hasSuffix("]"), let open = line.lastIndex(of: "[") else { return nil }
            return String(line[line.index(after: open)..<line.index(before: line.endIndex)])
        }
    }
}

/// Bytes filled in by a reader thread and read once it is done.
private final class ByteBox: @unchecked Sendable {
    var bytes: [UInt8] = []
}

enum Ferry {
    /// Runs the built `ferry` with `arguments`; see `Subprocess.run`.
    static func run(_ arguments: [String], in directory: URL? = nil, timeout: Double = 60) throws -> ProcessResult {
        let ferry = try #require(TestPaths.ferry, "the ferry executable was not found beside the test bundle")
        return try Subprocess.run(ferry, arguments, in: directory, timeout: timeout)
    }

    /// Runs `ferry convert --quiet` and requires it to succeed silently.
    static func convert(_ arguments: [String], in directory: URL? = nil) throws {
        let result = try run(["convert", "--quiet"] + arguments, in: directory)
        try #require(
            result.status == 0 && !result.signaled,
            "ferry convert \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.err)")
        #expect(result.stderr.isEmpty, "\(result.err)")
    }
}

enum Subprocess {
    /// A child may exit before it reads all of its input; writing the rest
    /// must then fail with EPIPE rather than kill the test process.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Runs `executable` with `arguments` and kills it after `timeout`
    /// seconds (a guard against hangs, reported as `timedOut`, never a
    /// measurement).
    static func run(
        _ executable: URL, _ arguments: [String], input: [UInt8] = [], in directory: URL? = nil, timeout: Double = 60
    ) throws -> ProcessResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        let standardInput = Pipe()
        let standardOutput = Pipe()
        let standardError = Pipe()
        process.standardInput = standardInput
        process.standardOutput = standardOutput
        process.standardError = standardError

        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        _ = ignoreBrokenPipes
        try process.run()

        let readers = DispatchGroup()
        let outBox = ByteBox()
        let errBox = ByteBox()
        let outHandle = standardOutput.fileHandleForReading
        let errHandle = standardError.fileHandleForReading
        DispatchQueue.global().async(group: readers) { outBox.bytes = [UInt8](outHandle.readDataToEndOfFile()) }
        DispatchQueue.global().async(group: readers) { errBox.bytes = [UInt8](errHandle.readDataToEndOfFile()) }
        let inHandle = standardInput.fileHandleForWriting
        let inputData = Data(input)
        DispatchQueue.global().async(group: readers) {
            try? inHandle.write(contentsOf: inputData)
            try? inHandle.close()
        }

        var timedOut = false
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
        }
        readers.wait()
        return ProcessResult(
            status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
            timedOut: timedOut, stdout: outBox.bytes, stderr: errBox.bytes)
    }
}

// MARK: - Scratch folders

/// A fresh folder under the system's temporary folder, removed on deinit.
final class ScratchFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("ferry-interop-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let target = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        return target
    }

    @discardableResult
    func write(_ name: String, _ data: Data) throws -> String { try write(name, [UInt8](data)) }

    func read(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(name)))) }

    func data(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path(name))) }
}
