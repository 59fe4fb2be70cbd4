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
    /// One Foundation `Process` launch at a time, for the few tests that
    /// need a `Process` of their own (signals, pipes between children).
    /// Foundation's `Process.run()` on Linux over-reads `/proc/self/fd`
    /// entries (swift-corelibs-foundation #5472) and crashed once in CI, when
    /// the test process held some 1,700 pipes of earlier runs; `run` below
    /// spawns with `posix_spawn` instead and closes every descriptor it opens.
    private static let launching = NSLock()

    /// Starts `process`, one launch at a time (see `launching`).
    public static func launch(_ process: Process) throws {
        launching.lock()
        defer { launching.unlock() }
        try process.run()
    }

    /// A child that could not be started.
    public struct SpawnFailed: Error, CustomStringConvertible {
        public let executable: String
        public let errno: Int32
        public var description: String { "cannot run \(executable): \(String(cString: strerror(errno)))" }
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
    ///
    /// The child is started with `posix_spawn`, with every signal at its
    /// default and none blocked; its three pipes are close-on-exec, so no
    /// other test's child holds them, and all six ends are closed here.
    public static func run(
        _ executable: URL, _ arguments: [String], input: [UInt8] = [], in directory: URL? = nil,
        environment: [String: String] = [:], timeout: Double = 60
    ) throws -> ProcessResult {
        _ = ignoreBrokenPipes
        // In another folder through the shell, which posix_spawn cannot chdir
        // (its addchdir_np is not in Swift's Glibc).
        var program = executable.path
        var words = [program] + arguments
        if let directory {
            program = "/bin/sh"
            words = ["/bin/sh", "-c", "cd -- \"$0\" && exec \"$@\"", directory.path, executable.path] + arguments
        }
        // Pipes are made and the child spawned under the launch lock, so no
        // other test's child is spawned between a pipe's making and its
        // close-on-exec flag (Swift's Glibc has no pipe2).
        launching.lock()
        var locked = true
        defer { if locked { launching.unlock() } }
        var pipes: [[Int32]] = []
        defer { for pipe in pipes { for end in pipe where end >= 0 { close(end) } } }
        for _ in 0..<3 {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { throw SpawnFailed(executable: program, errno: errno) }
            pipes.append(ends)
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        }
        // [0]: the child's input, [1]: its output, [2]: its errors.
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipes[0][0], 0)
        posix_spawn_file_actions_adddup2(&actions, pipes[1][1], 1)
        posix_spawn_file_actions_adddup2(&actions, pipes[2][1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = words.map { strdup($0) } + [nil]
        let envp = childEnvironment(environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for word in argv { free(word) }
            for entry in envp { free(entry) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        // The child's ends are the child's now.
        close(pipes[0][0])
        close(pipes[1][1])
        close(pipes[2][1])
        pipes[0][0] = -1
        pipes[1][1] = -1
        pipes[2][1] = -1
        launching.unlock()
        locked = false
        guard spawned == 0 else { throw SpawnFailed(executable: program, errno: spawned) }
        let child = pid

        let readers = DispatchGroup()
        let outBox = ByteBox()
        let errBox = ByteBox()
        let (inWrite, outRead, errRead) = (pipes[0][1], pipes[1][0], pipes[2][0])
        DispatchQueue.global().async(group: readers) { outBox.bytes = readToEnd(outRead) }
        DispatchQueue.global().async(group: readers) { errBox.bytes = readToEnd(errRead) }
        DispatchQueue.global().async(group: readers) { writeAll(input, to: inWrite) }
        pipes[0][1] = -1  // the writer closes it once the input is written

        let exited = DispatchSemaphore(value: 0)
        let statusBox = StatusBox()
        DispatchQueue.global().async {
            var status: Int32 = 0
            while waitpid(child, &status, 0) == -1 && errno == EINTR {}
            statusBox.status = status
            exited.signal()
        }
        var timedOut = false
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            kill(child, SIGKILL)
            exited.wait()
        }
        readers.wait()
        // The parent's ends close in the defer above.
        let status = statusBox.status
        let signal = status & 0x7F
        let signaled = signal != 0 && signal != 0x7F
        return ProcessResult(
            status: signaled ? signal : (status >> 8) & 0xFF, signaled: signaled, timedOut: timedOut,
            stdout: outBox.bytes, stderr: errBox.bytes)
    }

    /// Everything `descriptor` gives until its end.
    private static func readToEnd(_ descriptor: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += chunk[0..<count]
            } else if count == 0 || errno != EINTR {
                return bytes
            }
        }
    }

    /// Writes `bytes` to `descriptor` and closes it, so the child sees the
    /// end; a child that stops reading makes the write fail (EPIPE), not the test.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        var offset = 0
        bytes.withUnsafeBytes { buffer in
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
        }
        close(descriptor)
    }
}

/// The status `waitpid` gave, set by the thread that waited.
private final class StatusBox: @unchecked Sendable {
    var status: Int32 = 0
}
