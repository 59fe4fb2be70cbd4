import Foundation
import Testing

/// The output is what the user asked for, in the format asked for, and
/// outputs that are not regular files (FIFOs, devices, links) are written
/// as such.
@Suite struct OutputTests {
    static let products = TestPaths.example("products.json")
    static let books = TestPaths.example("books.json")
    static let booksLines = try? Data(contentsOf: TestPaths.examples.appendingPathComponent("books.jsonl"))

    // MARK: - The format asked for

    /// An extension Ferry does not know is refused, naming the output, and
    /// nothing is written; it is no longer the input's format.
    @Test(arguments: ["out.xml", "out.txt", "out", "out.txt.gz"])
    func unknownExtensionIsRefused(_ name: String) throws {
        let folder = try ScratchFolder()
        let result = try Ferry.run(["convert", Self.products, folder.path(name)])
        #expect(result.status == 2)
        let diagnostic = try #require(result.diagnostics.first, "\(result.err)")
        #expect(diagnostic.code == "output.unknownExtension")
        #expect(diagnostic.file == folder.path(name))
        #expect(try folder.contents().isEmpty)
    }

    /// `--to` names the format whatever the extension, in any case, and
    /// plutil's names are aliases.
    @Test(arguments: [
        ("JSON", Array("[\n  {".utf8)), ("Jsonl", Array("{\"name\"".utf8)),
        ("xml1", Array("<?xml".utf8)), ("BINARY1", Array("bplist00".utf8)),
    ])
    func toNamesTheFormat(_ format: String, prefix: [UInt8]) throws {
        let folder = try ScratchFolder()
        let result = try Ferry.run(["convert", Self.products, folder.path("out.xml"), "--to", format])
        #expect(result.status == 0, "\(result.err)")
        #expect(try folder.read("out.xml").starts(with: prefix))
    }

    @Test func fromTakesAnyCaseToo() throws {
        let result = try Ferry.run(["convert", "-", "--from", "JSONL", "--to", "json", "--compact"], input: Array("{\"a\":1}\n".utf8))
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == "[{\"a\":1}]\n")
    }

    /// A bundle is gzip'd already: a second layer is refused.
    @Test(arguments: [["p.ferry.tgz.gz"], ["p.ferry.tgz", "--gzip"], ["p.out", "--to", "bundle", "-z"]])
    func aBundleIsNotCompressedTwice(_ words: [String]) throws {
        let folder = try ScratchFolder()
        let result = try Ferry.run(["convert", Self.products, folder.path(words[0])] + words.dropFirst())
        #expect(result.status == 2)
        #expect(result.diagnostics.first?.code == "output.alreadyCompressed", "\(result.err)")
        #expect(try folder.contents().isEmpty)
    }

    /// `--level` needs gzip output: `--gzip` or a `.gz` suffix.
    @Test func levelNeedsGzip() throws {
        let folder = try ScratchFolder()
        let refused = try Ferry.run(["convert", Self.products, folder.path("p.json"), "--level", "9"])
        #expect(refused.status == 2)
        #expect(refused.diagnostics.first?.code == "output.levelWithoutGzip", "\(refused.err)")
        #expect(try folder.contents().isEmpty)
        for words in [["p.json.gz"], ["q.json", "--gzip"]] {
            let result = try Ferry.run(["convert", Self.products, folder.path(words[0]), "--level", "9"] + words.dropFirst())
            #expect(result.status == 0, "\(result.err)")
        }
        #expect(try folder.contents() == ["p.json.gz", "q.json"])
    }

    // MARK: - Terminals

    /// Runs ferry with its standard output on a pseudo-terminal, standard
    /// error on a pipe (Python's `os.openpty`).
    func runOnATerminal(_ arguments: [String]) throws -> ProcessResult {
        let ferry = try #require(TestPaths.ferry)
        let script = """
            import os, subprocess, sys
            master, slave = os.openpty()
            result = subprocess.run(sys.argv[1:], stdout=slave, stderr=subprocess.PIPE)
            sys.stderr.buffer.write(result.stderr)
            sys.exit(result.returncode)
            """
        return try Subprocess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, ferry.path] + arguments,
            environment: ["LANG": "C"])
    }

    /// Binary output to a terminal is refused unless `--force`; text is not.
    @Test(
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")),
        arguments: [["--to", "plist"], ["--to", "archive"], ["--to", "json", "--gzip"], ["--to", "bundle"]])
    func binaryToATerminalNeedsForce(_ words: [String]) throws {
        let refused = try runOnATerminal(["convert", Self.products] + words)
        #expect(refused.status == 2, "\(refused.err)")
        #expect(refused.diagnostics.first?.code == "output.binaryToTerminal", "\(refused.err)")
        let forced = try runOnATerminal(["convert", Self.products, "--force"] + words)
        #expect(forced.status == 0, "\(forced.err)")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
    func textToATerminal() throws {
        let result = try runOnATerminal(["convert", Self.products, "--to", "csv"])
        #expect(result.status == 0, "\(result.err)")
    }

    // MARK: - Outputs that are not regular files

    /// A FIFO is opened and written as it is; the process reading it gets
    /// every byte, and no temporary file or `--force` is involved.
    @Test func aFIFOIsWrittenDirectly() throws {
        let folder = try ScratchFolder()
        let fifo = folder.path("records.jsonl")
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = DispatchGroup()
        nonisolated(unsafe) var read: ProcessResult?
        DispatchQueue.global().async(group: reader) {
            read = try? Subprocess.run(URL(fileURLWithPath: "/bin/cat"), [fifo], timeout: 60)
        }
        let result = try Ferry.run(["convert", Self.books, fifo])
        reader.wait()
        #expect(result.status == 0, "\(result.err)")
        let expected = try #require(Self.booksLines)
        #expect(read?.stdout == [UInt8](expected))
        #expect(try folder.contents() == ["records.jsonl"])
    }

    /// `/dev/null` needs no `--force`, and no name that says a format.
    @Test func devNullNeedsNoForce() throws {
        let result = try Ferry.run(["convert", Self.books, "/dev/null"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.stdout.isEmpty)
    }

    /// `/dev/stdout` is standard output, written in place, even when it is
    /// a regular file (the shell's redirection keeps its descriptor).
    @Test func devStdoutToAFile() throws {
        let folder = try ScratchFolder()
        let output = try folder.write("redirected.jsonl", "before\n")
        let result = try Subprocess.run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "exec \"$0\" convert \"$1\" /dev/stdout --to jsonl >> \"$2\"", try #require(TestPaths.ferry).path,
             Self.books, output])
        #expect(result.status == 0, "\(result.err)")
        // The shell's descriptor is shared: `>>` appends after what was there.
        #expect(try folder.read("redirected.jsonl") == Array("before\n".utf8) + [UInt8](try #require(Self.booksLines)))
        #expect(try folder.contents() == ["redirected.jsonl"])
    }

    /// `/dev/stdout` is standard output, written in place.
    @Test func devStdoutIsStandardOutput() throws {
        let result = try Ferry.run(["convert", Self.books, "/dev/stdout", "--to", "jsonl"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.stdout == [UInt8](try #require(Self.booksLines)))
    }

    /// A symbolic link stays a link: its target gets the new content, with
    /// its mode.
    @Test func aLinkStaysALink() throws {
        let folder = try ScratchFolder()
        try folder.write("data/real.jsonl", "old\n")
        #expect(chmod(folder.path("data/real.jsonl"), 0o640) == 0)
        try FileManager.default.createSymbolicLink(
            atPath: folder.path("link.jsonl"), withDestinationPath: "data/real.jsonl")
        let result = try Ferry.run(["convert", Self.books, folder.path("link.jsonl"), "--force"])
        #expect(result.status == 0, "\(result.err)")
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.path("link.jsonl"))
        #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.path("link.jsonl")) == "data/real.jsonl")
        #expect(try folder.data("data/real.jsonl") == Self.booksLines)
        #expect(try Self.mode(folder.path("data/real.jsonl")) == 0o640)
        #expect(try folder.contents() == ["data", "link.jsonl"])
        #expect(try folder.contents("data") == ["real.jsonl"])
    }

    /// Replacing a regular file keeps its mode (it once became 644).
    @Test(arguments: [0o640, 0o600, 0o664])
    func replacingKeepsTheMode(_ mode: Int) throws {
        let folder = try ScratchFolder()
        let output = try folder.write("out.jsonl", "old\n")
        #expect(chmod(output, mode_t(mode)) == 0)
        let result = try Ferry.run(["convert", Self.books, output, "--force"])
        #expect(result.status == 0, "\(result.err)")
        #expect(try Self.mode(output) == mode)
        #expect(try folder.data("out.jsonl") == Self.booksLines)
    }

    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int)
    }
}
