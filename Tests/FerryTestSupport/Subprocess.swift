#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

/// What one run of `ferry` (or another program) did.
public struct ProcessResult: Sendable {
    /// The exit status, or the signal number when `signaled`.
    public var status: Int32
    public var signaled: Bool
    public var timedOut: Bool
    public var stdout: [UInt8]
    public var stderr: [UInt8]

    public var out: String { String(decoding: stdout, as: UTF8.self) }
    public var err: String { String(decoding: stderr, as: UTF8.self) }
    /// The diagnostics printed on standard error (convert), then those on
    /// standard output (the reports of validate and lint), parsed.
    public var diagnostics: [DiagnosticLine] {
        (err + "\n" + out).split(separator: "\n").compactMap { DiagnosticLine(String($0)) }
    }
    /// The codes of the diagnostics, in the same order: the `[code]` that
    /// ends each `… error: … [code]` line.
    public var diagnosticCodes: [String] {
        diagnostics.map(\.code)
    }
}

/// Bytes filled in by a reader thread and read once it is done.
private final class ByteBox: @unchecked Sendable {
    var bytes: [UInt8] = []
}

public enum Ferry {
    /// Runs the built `ferry` with `arguments`; see `Subprocess.run`.
    public static func run(
        _ arguments: [String], input: [UInt8] = [], in directory: URL? = nil, environment: [String: String] = [:],
        timeout: Double = 60
    ) throws -> ProcessResult {
        let ferry = try #require(TestPaths.ferry, "the ferry executable was not found beside the test bundle")
        return try Subprocess.run(
            ferry, arguments, input: input, in: directory, environment: environment, timeout: timeout)
    }
}

public enum Subprocess {
    /// One launch at a time. Foundation's `Process.run()` on Linux crashed
    /// once in CI (a bad read inside its memcpy) while the tests launched
    /// processes from several threads at once; spawning is quick, so the
    /// tests' launches take turns (the processes still run side by side).
    private static let launching = NSLock()

    /// Starts `process`, one launch at a time (see `launching`).
    public static func launch(_ process: Process) throws {
        launching.lock()
        defer { launching.unlock() }
        try process.run()
    }

    /// A child may exit before it reads all of its input; writing the rest
    /// must then fail with EPIPE rather than kill the test process.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// The environment of a child: the test's own, without backtraces, in
    /// English whatever the test's locale (the test support parses `error:`
    /// and `warning:` lines): `LANGUAGE`, `LC_ALL` and `LC_MESSAGES` removed
    /// and `LANG=C.UTF-8`; then `environment` over it, so a test that sets
    /// `LANG` alone chooses the language.
    public static func childEnvironment(_ environment: [String: String] = [:]) -> [String: String] {
        var merged = ProcessInfo.processInfo.environment
        merged["SWIFT_BACKTRACE"] = "enable=no"
        for name in ["LANGUAGE", "LC_ALL", "LC_MESSAGES"] { merged[name] = nil }
        merged["LANG"] = "C.UTF-8"
        merged.merge(environment) { _, new in new }
        return merged
    }

    /// Runs `executable` with `arguments`, feeding `input` on standard input,
    /// in `childEnvironment(environment)`, and kills it after `timeout`
    /// seconds (a guard against hangs, reported as `timedOut`, never a
    /// measurement).
    public static func run(
        _ executable: URL, _ arguments: [String], input: [UInt8] = [], in directory: URL? = nil,
        environment: [String: String] = [:], timeout: Double = 60
    ) throws -> ProcessResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.environment = childEnvironment(environment)
        let standardInput = Pipe()
        let standardOutput = Pipe()
        let standardError = Pipe()
        process.standardInput = standardInput
        process.standardOutput = standardOutput
        process.standardError = standardError

        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        _ = ignoreBrokenPipes
        try launch(process)

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
