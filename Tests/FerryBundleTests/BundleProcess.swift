#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

// The small pattern of Tests/FerryCLITests/FerryProcess.swift, for running
// the built `ferry` and the tools that check its bundles (tar, Python).

// MARK: - Paths

enum TestPaths {
    /// The package root: `<root>/Tests/FerryBundleTests/BundleProcess.swift`.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func example(_ name: String) -> String { packageRoot.appendingPathComponent("Examples/\(name)").path }

    static func examplePhoto(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: example("photos/\(name)"))))
    }

    /// The `ferry` built beside the test bundle.
    static let ferry: URL? = {
        var folders: [URL] = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent())
        for folder in folders {
            let candidate = folder.appendingPathComponent("ferry")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }()
}

// MARK: - Running programs

struct ProcessResult: Sendable {
    var status: Int32
    var stdout: [UInt8]
    var stderr: [UInt8]

    var out: String { String(decoding: stdout, as: UTF8.self) }
    var err: String { String(decoding: stderr, as: UTF8.self) }

    /// The codes of the diagnostics on standard error (`… [bundle.symlink]`).
    var codes: [String] {
        err.split(separator: "\n").compactMap { line in
            guard line.hasSuffix("]"), let open = line.lastIndex(of: "[") else { return nil }
            return String(line[line.index(after: open)..<line.index(before: line.endIndex)])
        }
    }
}

private final class ByteBox: @unchecked Sendable {
    var bytes: [UInt8] = []
}

enum Run {
    /// Runs the built `ferry`, with `environment` over the test's own.
    static func ferry(
        _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]
    ) throws -> ProcessResult {
        let ferry = try #require(TestPaths.ferry, "the ferry executable was not found beside the test bundle")
        return try program(ferry, arguments, in: directory, environment: environment)
    }

    /// Runs a tool found on the PATH (`tar`, `python3`).
    static func tool(_ arguments: [String], in directory: URL? = nil) throws -> ProcessResult {
        try program(URL(fileURLWithPath: "/usr/bin/env"), arguments, in: directory)
    }

    /// Runs `executable` and waits for it, killing it after 30 seconds (a
    /// guard against hangs, never a measurement).
    static func program(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]
    ) throws -> ProcessResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var merged = ProcessInfo.processInfo.environment
        merged["SWIFT_BACKTRACE"] = "enable=no"
        merged.merge(environment) { _, new in new }
        process.environment = merged
        let standardOutput = Pipe()
        let standardError = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = standardOutput
        process.standardError = standardError
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let readers = DispatchGroup()
        let outBox = ByteBox()
        let errBox = ByteBox()
        let outHandle = standardOutput.fileHandleForReading
        let errHandle = standardError.fileHandleForReading
        DispatchQueue.global().async(group: readers) { outBox.bytes = [UInt8](outHandle.readDataToEndOfFile()) }
        DispatchQueue.global().async(group: readers) { errBox.bytes = [UInt8](errHandle.readDataToEndOfFile()) }
        if exited.wait(timeout: .now() + 30) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
        }
        readers.wait()
        return ProcessResult(status: process.terminationStatus, stdout: outBox.bytes, stderr: errBox.bytes)
    }
}

// MARK: - Scratch folders

/// A fresh folder under the system's temporary folder, removed on deinit,
/// with a `tmp` folder inside for ferry's own temporary files.
final class ScratchFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("ferry-bundle-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url.appendingPathComponent("tmp"), withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// The environment that sends ferry's temporary folders into `tmp`.
    var environment: [String: String] { ["TMPDIR": path("tmp")] }

    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let target = path(name)
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: target).deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        return target
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String { try write(name, Array(text.utf8)) }

    func read(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(name)))) }

    func contents(_ folder: String = "") throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? url.path : path(folder)).sorted()
    }
}
