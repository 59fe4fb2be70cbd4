import FerryTestSupport
import Foundation
import Testing

/// Every example of README.md runs as it shows (`Scripts/check-readme.py`):
/// a transcript prints exactly its lines, a command block exits 0.
@Suite struct ReadmeExamplesTests {
    @Test func everyExampleRunsAsShown() throws {
        let ferry = try #require(TestPaths.ferry, "the ferry executable was not found beside the test bundle")
        let script = TestPaths.packageRoot.appendingPathComponent("Scripts/check-readme.py").path
        let result = try Subprocess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", script, "--ferry", ferry.path], timeout: 600)
        #expect(result.status == 0, "\(result.out)\(result.err)")
        #expect(result.out.contains(", 0 not as the README shows"), "\(result.out)")
    }

    /// The check itself finds a stale example: a README whose transcript
    /// shows other output, and one whose command fails.
    @Test func aStaleExampleFails() throws {
        let ferry = try #require(TestPaths.ferry, "the ferry executable was not found beside the test bundle")
        let scratch = try ScratchFolder()
        let readme = scratch.path("README.md")
        try """
            ```
            $ ferry convert missing.json -
            missing.json: error: something else [io.cannotOpen]
            ```

            ```sh
            ferry convert missing.json out.json
            ```

            <!-- readme-check: skip (not run) -->
            ```sh
            false
            ```

            """.write(toFile: readme, atomically: true, encoding: .utf8)
        let script = TestPaths.packageRoot.appendingPathComponent("Scripts/check-readme.py").path
        let result = try Subprocess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", script, "--ferry", ferry.path, "--readme", readme])
        #expect(result.status == 1)
        #expect(result.out.contains("check-readme: 2 commands, 2 not as the README shows"), "\(result.out)")
    }
}
