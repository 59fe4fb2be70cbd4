import Foundation
import Testing

/// A write that fails (here: past `ulimit -f`, as on a full disk) is an I/O
/// error with exit status 3; the destination keeps its old bytes and no
/// temporary file is left.
@Suite struct FullDiskTests {
    @Test func aFailedWriteLeavesTheDestinationAlone() throws {
        let folder = try ScratchFolder()
        let records = (0..<20_000).map { "{\"name\":\"product \($0)\",\"price\":\($0).5}" }
        let input = try folder.write("big.jsonl", records.joined(separator: "\n") + "\n")
        try folder.write("out.json", "old bytes")
        let ferry = try #require(TestPaths.ferry)
        // ulimit -f counts blocks of 1,024 bytes: 64 KiB may be written.
        let result = try Subprocess.run(
            URL(fileURLWithPath: "/bin/bash"),
            ["-c", "ulimit -f 64; exec \"$0\" convert \"$1\" \"$2\" --force", ferry.path, input, folder.path("out.json")])
        #expect(!result.signaled, "ferry died by signal \(result.status)")
        #expect(result.status == 3)
        #expect(result.diagnostics.first?.code == "io.writeFailed")
        #expect(try folder.read("out.json") == Array("old bytes".utf8))
        #expect(try folder.contents() == ["big.jsonl", "out.json"])
    }
}
