#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

// MARK: - Paths

/// Places the CLI tests need: the package, its examples, the built `ferry`.
enum TestPaths {
    /// The package root, found from this file: `<root>/Tests/FerryCLITests/FerryProcess.swift`.
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

// MARK: - Running ferry

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
    /// The diagnostics printed on standard error, parsed.
    var diagnostics: [Diagnostic] { err.split(separator: "\n").compactMap { Diagnostic(String($0)) } }
}

/// Bytes filled in by a reader thread and read once it is done.
private final class ByteBox: @unchecked Sendable {
    var bytes: [UInt8] = []
}

enum Ferry {
    /// Runs the built `ferry` with `arguments`; see `Subprocess.run`.
    static func run(
        _ arguments: [String], input: [UInt8] = [], in directory: URL? = nil, timeout: Double = 10
    ) throws -> ProcessResult {
        let ferry = try #require(TestPaths.ferry, "the ferry executable was not found beside the test bundle")
        return try Subprocess.run(ferry, arguments, input: input, in: directory, timeout: timeout)
    }
}

enum Subprocess {
    /// A child may exit before it reads all of its input; writing the rest
    /// must then fail with EPIPE rather than kill the test process.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Runs `executable` with `arguments`, feeding `input` on standard input,
    /// and kills it after `timeout` seconds (a guard against hangs, reported
    /// as `timedOut`, never a measurement).
    static func run(
        _ executable: URL, _ arguments: [String], input: [UInt8] = [], in directory: URL? = nil,
        timeout: Double = 10
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

// MARK: - Diagnostics

/// One compiler-style line from standard error:
/// `path:line:col: error: message (record N, field 'f') [code]`.
struct Diagnostic: Sendable, Equatable {
    /// The path, or nil for problems of the command line itself.
    var file: String?
    var line: Int?
    var column: Int?
    var severity: String
    var code: String
    /// The 1-based record number and the field, from the message's parenthesis.
    var record: Int?
    var field: String?

    init?(_ text: String) {
        let pattern =
            #/^(?:(?<file>.+?)(?::(?<line>\d+):(?<column>\d+))?: )?(?<severity>error|warning): .*?(?:\(record (?<record>\d+)(?:, field '(?<field>[^']*)')?\) )?\[(?<code>[A-Za-z0-9.]+)\]$/#
        guard let match = text.wholeMatch(of: pattern) else { return nil }
        file = match.file.map(String.init)
        line = match.line.flatMap { Int($0) }
        column = match.column.flatMap { Int($0) }
        severity = String(match.severity)
        code = String(match.code)
        record = match.record.flatMap { Int($0) }
        field = match.field.map(String.init)
    }
}

// MARK: - Scratch folders

/// A fresh folder under the system's temporary folder, removed on deinit.
final class ScratchFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("ferry-cli-tests-\(UUID().uuidString)", isDirectory: true)
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
    func write(_ name: String, _ text: String) throws -> String { try write(name, Array(text.utf8)) }

    func read(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(name)))) }

    /// The names in the folder, hidden files included.
    func contents() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() }
}
