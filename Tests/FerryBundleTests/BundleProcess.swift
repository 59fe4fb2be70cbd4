@_exported import FerryTestSupport
import Foundation

// Running the built `ferry` and the tools that check its bundles (tar,
// Python), over the shared test support.

enum Run {
    /// Runs the built `ferry`, with `environment` over the test's own.
    static func ferry(
        _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]
    ) throws -> ProcessResult {
        try Ferry.run(arguments, in: directory, environment: environment, timeout: 30)
    }

    /// Runs a tool found on the PATH (`tar`, `python3`).
    static func tool(_ arguments: [String], in directory: URL? = nil) throws -> ProcessResult {
        try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), arguments, in: directory, timeout: 30)
    }
}

extension ProcessResult {
    /// The codes of the diagnostics on standard error (`… [bundle.symlink]`).
    var codes: [String] { diagnosticCodes }
}
