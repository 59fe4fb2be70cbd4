#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FerryTestSupport
import Foundation
import Testing

/// SIGTERM in the middle of writing a bundle removes the bundle's spool
/// folder (with its files) as well as the temporary output.
@Suite struct SignalCleanupTests {
    /// Several rounds: the signal lands at a different moment in each, and a
    /// race between the handler and the failing conversion showed up only in
    /// some (the handler used to lose its paths to a `free` on another
    /// thread, or the process exited under it).
    @Test(arguments: 0..<5) func sigtermRemovesTheSpoolFolder(round: Int) throws {
        let folder = try ScratchFolder(withTemporaryFolder: true)
        let fifo = folder.path("records.jsonl")
        #expect(mkfifo(fifo, 0o600) == 0)
        let ferry = try #require(TestPaths.ferry)
        let process = Process()
        process.executableURL = ferry
        process.arguments = ["convert", "--quiet", "--from", "jsonl", fifo, folder.path("out.ferry.tgz")]
        process.environment = Subprocess.childEnvironment(["TMPDIR": folder.path("tmp")])
        process.standardError = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try Subprocess.launch(process)

        // More records than one batch, so the writer starts and spools; the
        // FIFO stays open, so the conversion waits in the middle.
        let writer = try #require(FileHandle(forWritingAtPath: fifo))
        let photo = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ"
        var lines = ""
        for index in 0..<1_500 { lines += "{\"name\":\"p\(index)\",\"price\":1.5,\"photo\":\"\(photo)\"}\n" }
        try writer.write(contentsOf: Data(lines.utf8))

        // Wait (a guard, not a measurement) until the spool folder holds files.
        var spooled = false
        for _ in 0..<200 where !spooled {
            let spools = (try? folder.contents("tmp")) ?? []
            spooled = spools.contains { name in ((try? folder.contents("tmp/\(name)")) ?? []).count > 1 }
            if !spooled { usleep(50_000) }
        }
        #expect(spooled, "no spool folder appeared in \(folder.path("tmp"))")
        kill(process.processIdentifier, SIGTERM)
        if exited.wait(timeout: .now() + 30) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
            Issue.record("ferry did not stop on SIGTERM")
        }
        try? writer.close()

        #expect(process.terminationReason == .uncaughtSignal)
        let left = try folder.contents("tmp")
        let inside = try left.map { try folder.contents("tmp/\($0)").count }
        #expect(left == [], "left behind: \(left), holding \(inside) files")
        #expect(try folder.contents().filter { $0 != "tmp" && $0 != "records.jsonl" } == [], "output left behind")
    }
}
