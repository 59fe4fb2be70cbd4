#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FerryKit

/// Where the CLI prints: results on standard output, diagnostics and progress
/// on standard error.
final class Console {
    /// The two outputs a console prints to.
    struct Streams {
        var output: any ByteOutput
        var error: any ByteOutput
        /// Whether standard error is a terminal (progress and summaries are shown only there).
        var errorIsTerminal: Bool
        /// Whether standard output is a terminal (`ferry list` then fits its width).
        var outputIsTerminal = false

        /// The process's standard output and standard error.
        static var standard: Streams {
            Streams(
                output: FileOutput(descriptor: 1, name: "-", owns: false),
                error: FileOutput(descriptor: 2, name: "<stderr>", owns: false), errorIsTerminal: isatty(2) == 1,
                outputIsTerminal: isatty(1) == 1)
        }
    }

    private let standardOutput: any ByteOutput
    private let standardError: any ByteOutput
    let errorIsTerminal: Bool
    let formatter: DiagnosticFormatter
    var catalog: MessageCatalog { formatter.catalog }

    init(catalog: MessageCatalog, streams: Streams = .standard) {
        formatter = DiagnosticFormatter(catalog: catalog)
        standardOutput = streams.output
        standardError = streams.error
        errorIsTerminal = streams.errorIsTerminal
    }

    func print(_ text: String) {
        try? standardOutput.write(Array((text + "\n").utf8))
    }

    /// Writes to standard output as it is, without adding a line break.
    func write(_ text: String) {
        try? standardOutput.write(Array(text.utf8))
    }

    /// Writes bytes to standard output as they are.
    func write(bytes: [UInt8]) {
        try? standardOutput.write(bytes)
    }

    func printError(_ text: String) {
        try? standardError.write(Array((text + "\n").utf8))
    }

    /// Writes to standard error without a line break (progress bars).
    func writeError(_ text: String) {
        try? standardError.write(Array(text.utf8))
    }

    func report(_ error: FerryError) { printError(formatter.render(error)) }
    func report(_ warning: FerryWarning) { printError(formatter.render(warning)) }
}

/// The exit status of each kind of failure; the one place that maps them.
enum ExitStatus {
    static let success: Int32 = 0
    static let invalidData: Int32 = 1
    static let usage: Int32 = 2
    static let io: Int32 = 3

    static func of(_ error: FerryError) -> Int32 {
        switch error.code.category {
        case .data: invalidData
        case .usage: usage
        case .io: io
        }
    }
}

/// A one-line progress bar on standard error, shown only on a terminal and
/// only once work has taken longer than a second.
final class ProgressBar {
    private let console: Console
    private let enabled: Bool
    private let started = ProgressBar.now()
    private var lastDrawn = 0.0
    private var drawn = false

    init(console: Console, enabled: Bool) {
        self.console = console
        self.enabled = enabled && console.errorIsTerminal
    }

    func update(bytesRead: Int, total: Int?) {
        guard enabled else { return }
        let now = ProgressBar.now()
        guard now - started > 1, now - lastDrawn > 0.1 else { return }
        lastDrawn = now
        drawn = true
        let megabytes = Double(bytesRead) / 1_000_000
        var line = "\r"
        if let total, total > 0 {
            let fraction = min(Double(bytesRead) / Double(total), 1)
            let filled = Int(fraction * 30)
            line += "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: 30 - filled) + "] "
            line += console.catalog.message(.progressPercent, [.integer(Int(fraction * 100))]) + " "
        }
        line += console.catalog.message(.progressMegabytes, [.integer(Int(megabytes))])
        console.writeError(line + "\u{1B}[K")
    }

    func finish() {
        if drawn { console.writeError("\r\u{1B}[K") }
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
