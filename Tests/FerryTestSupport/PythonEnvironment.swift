#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A Python with packages the system's lacks (`jsonschema`), in a virtual
/// environment at `.build/python-venv`, made on first use.
///
/// `.ci/run` makes the same environment before the tests, so CI pays for it
/// once; here it is made only when missing. Test processes that start at
/// once wait for each other on a file lock (`.build/python-venv.lock`), and
/// the environment counts as made only once its marker file is written, so
/// one that a killed process left half made is made again.
public enum PythonEnvironment {
    /// The packages installed, one a line: also the marker file's content.
    /// `.ci/run` installs the same list (`PYTHON_PACKAGES`; pyspark is for
    /// the Spark example it runs).
    public static let packages = ["jsonschema", "pyspark", "openpyxl", "xlsxwriter", "python-calamine"]

    public static let folder = TestPaths.packageRoot.appendingPathComponent(".build/python-venv")
    static let marker = folder.appendingPathComponent(".ferry-ready")
    static let lock = TestPaths.packageRoot.appendingPathComponent(".build/python-venv.lock")

    /// Why the environment could not be made.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The environment's `python`, made first if need be.
    /// - Throws: `Failure`, saying which step failed and what it printed.
    public static func python() throws -> URL {
        try made.get()
    }

    /// Made once per process; other processes wait on the lock.
    private static let made: Result<URL, Failure> = Result { () throws(Failure) -> URL in try make() }

    private static func make() throws(Failure) -> URL {
        let python = folder.appendingPathComponent("bin/python")
        try? FileManager.default.createDirectory(
            at: lock.deletingLastPathComponent(), withIntermediateDirectories: true)
        let descriptor = open(lock.path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw Failure(description: "cannot open the lock \(lock.path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX) == 0 else {
            throw Failure(description: "cannot lock \(lock.path): \(String(cString: strerror(errno)))")
        }
        defer { flock(descriptor, LOCK_UN) }
        let expected = packages.joined(separator: "\n") + "\n"
        if (try? String(contentsOf: marker, encoding: .utf8)) == expected,
            FileManager.default.isExecutableFile(atPath: python.path)
        {
            return python
        }
        try? FileManager.default.removeItem(at: folder)
        try run(["python3", "-m", "venv", folder.path], step: "python3 -m venv (on Debian, apt-get install python3-venv)")
        try run(
            [python.path, "-m", "pip", "install", "--disable-pip-version-check", "--quiet"] + packages,
            step: "pip install \(packages.joined(separator: " ")) (is PyPI reachable?)")
        // Modules are named with `_` where their packages have `-` (python-calamine).
        let modules = packages.map { $0.replacingOccurrences(of: "-", with: "_") }
        try run([python.path, "-c", "import " + modules.joined(separator: ", ")], step: "import")
        do {
            try expected.write(to: marker, atomically: true, encoding: .utf8)
        } catch {
            throw Failure(description: "cannot write \(marker.path): \(error)")
        }
        return python
    }

    private static func run(_ command: [String], step: String) throws(Failure) {
        let result: ProcessResult
        do {
            result = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), command, timeout: 600)
        } catch {
            throw Failure(description: "making the Python environment at \(folder.path): \(step): \(error)")
        }
        guard result.status == 0, !result.signaled, !result.timedOut else {
            throw Failure(
                description: """
                    making the Python environment at \(folder.path) failed at \(step): \
                    \(command.joined(separator: " ")) exited with \(result.status)\(result.timedOut ? " (timed out)" : ""):
                    \(result.err)\(result.out)
                    """)
        }
    }
}
