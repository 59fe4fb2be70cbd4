import FerryTestSupport
import Foundation
import Testing

@testable import FerryGzip
@testable import FerryKit

/// The package root, found from this file.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

func corpusFile(_ name: String) throws -> String {
    let path = packageRoot.appendingPathComponent("Tests/Corpora/flate2-gzip/\(name)").standardized.path
    guard FileManager.default.fileExists(atPath: path) else {
        Issue.record("the vendored corpus file \(path) is missing (Tests/Corpora)")
        throw CocoaError(.fileNoSuchFile)
    }
    return path
}

/// Compresses `bytes` with Ferry's gzip writer.
func gzip(_ bytes: [UInt8], level: Int = 6, jobs: Int = 1, chunk: Int = 1000) throws -> [UInt8] {
    let output = MemoryOutput()
    let gzip = try GzipOutput(output, level: level, jobs: jobs, fileName: "data.json", modified: 1_507_379_400)
    var index = 0
    while index < bytes.count {
        let end = min(index + chunk, bytes.count)
        try gzip.write(Array(bytes[index..<end]))
        index = end
    }
    try gzip.finish()
    return output.bytes
}

/// Inflates `bytes` with Ferry's gzip reader, reading `step` bytes at a time.
func gunzip(_ bytes: [UInt8], limits: ReadLimits = ReadLimits(), step: Int = 4096) throws(FerryError) -> [UInt8] {
    let input = try GzipInput(MemoryInput(bytes, name: "test.gz"), limits: limits)
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: step)
    while true {
        let count = try buffer.withUnsafeMutableBytes { raw in
            Result { () throws(FerryError) in try input.read(into: raw) }
        }.get()
        if count == 0 { return result }
        result += buffer[0..<count]
    }
}

/// Runs a program and returns its exit status and standard output.
func run(_ arguments: [String], input: [UInt8]? = nil) throws -> (status: Int32, output: Data) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let output = Pipe()
    let stdin = Pipe()
    process.standardOutput = output
    process.standardInput = stdin
    process.standardError = FileHandle.nullDevice
    try Subprocess.launch(process)
    if let input { stdin.fileHandleForWriting.write(Data(input)) }
    try stdin.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, data)
}

@Suite struct GzipRoundTripTests {
    static let text = Array((0..<20_000).map { "{\"name\":\"product \($0)\",\"price\":\($0 % 300).99}\n" }.joined().utf8)

    @Test(arguments: [1, 6, 9])
    func roundTripsAtEveryLevel(level: Int) throws {
        let compressed = try gzip(Self.text, level: level)
        #expect(compressed.count < Self.text.count / 3)
        #expect(try gunzip(compressed) == Self.text)
        #expect(try gunzip(compressed, step: 7) == Self.text)
    }

    @Test(arguments: [2, 3, 8])
    func parallelBlocksJoinIntoOneStream(jobs: Int) throws {
        let large = Array(Self.text.prefix(700_000)) + Array(Self.text.prefix(300_001))
        let compressed = try gzip(large, level: 6, jobs: jobs, chunk: 50_000)
        #expect(try gunzip(compressed) == large)
        let folder = NSTemporaryDirectory() + "ferry-pgzip-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/data.gz"
        try Data(compressed).write(to: URL(fileURLWithPath: path))
        #expect(try run(["gzip", "-t", path]).status == 0)
        #expect(Array(try run(["gzip", "-dc", path]).output) == large)
        // Priming each block with the one before keeps the ratio close to one stream's.
        let single = try gzip(large, level: 6)
        #expect(Double(compressed.count) < Double(single.count) * 1.05)
        #expect(try gunzip(try gzip([], jobs: jobs)) == [])
    }

    /// With one job, the compressing thread takes the 128 KiB blocks in turn
    /// as one stream: the deflate data is exactly what zlib makes of the
    /// whole input at once (no sync flush, no priming between blocks).
    @Test(arguments: [1, 999, 131_073])
    func oneJobWritesOneStream(chunk: Int) throws {
        let large = Array(Self.text.prefix(700_000)) + Array(Self.text.prefix(300_001))
        let compressed = try gzip(large, level: 6, jobs: 1, chunk: chunk)
        let headerSize = 10 + "data.json".utf8.count + 1
        let deflated = Array(compressed[headerSize..<(compressed.count - 8)])
        let python = try run(
            [
                "python3", "-c",
                "import sys,zlib; c=zlib.compressobj(6, zlib.DEFLATED, -15, 8); "
                    + "sys.stdout.buffer.write(c.compress(sys.stdin.buffer.read()) + c.flush())",
            ], input: large)
        #expect(python.status == 0)
        let same = deflated == Array(python.output)
        #expect(same, "\(deflated.count) bytes of deflate data against zlib's \(python.output.count)")
        #expect(try gunzip(compressed) == large)
    }

    /// Any number of jobs is a compression, not an overflow trap: the
    /// workers are capped (`ParallelDeflate.maxJobs`).
    @Test func anyNumberOfJobsCompresses() throws {
        let bytes = Array(repeating: Array("Xbox 360,299.00\n".utf8), count: 20_000).flatMap { $0 }
        #expect(try gunzip(try gzip(bytes, jobs: .max)) == bytes)
    }

    @Test func gzipAndPythonReadFerrysOutput() throws {
        let compressed = try gzip(Self.text)
        let folder = NSTemporaryDirectory() + "ferry-gzip-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/data.json.gz"
        try Data(compressed).write(to: URL(fileURLWithPath: path))
        #expect(try run(["gzip", "-t", path]).status == 0)
        let unzipped = try run(["gzip", "-dc", path])
        #expect(unzipped.status == 0)
        #expect(Array(unzipped.output) == Self.text)
        let python = try run([
            "python3", "-c",
            "import gzip,sys,zlib; d=gzip.open(sys.argv[1]).read(); print(len(d), zlib.crc32(d))", path,
        ])
        #expect(python.status == 0)
        let crc = Self.text.withUnsafeBytes { zlibCRC($0) }
        #expect(String(decoding: python.output, as: UTF8.self) == "\(Self.text.count) \(crc)\n")
        // The header names the file and keeps the time.
        let listing = try run(["python3", "-c", "import gzip,sys; f=gzip.open(sys.argv[1]); f.read(); print(f.mtime)", path])
        #expect(String(decoding: listing.output, as: UTF8.self) == "1507379400\n")
        #expect(Array(compressed[10..<19]) == Array("data.json".utf8))
    }

    @Test func readsWhatGzipWrites() throws {
        let made = try run(["gzip", "-c", "-9"], input: Self.text)
        #expect(made.status == 0)
        #expect(try gunzip(Array(made.output)) == Self.text)
    }

    @Test func readsEveryMemberOfAMultiMemberFile() throws {
        let first = try run(["gzip", "-c"], input: Array("first\n".utf8)).output
        let second = try gzip(Array("second\n".utf8))
        #expect(try gunzip(Array(first) + second) == Array("first\nsecond\n".utf8))
        let corpus = try Data(contentsOf: URL(fileURLWithPath: try corpusFile("multi.gz")))
        let expected = try Data(contentsOf: URL(fileURLWithPath: try corpusFile("multi.txt")))
        #expect(try gunzip(Array(corpus)) == Array(expected))
        let good = try Data(contentsOf: URL(fileURLWithPath: try corpusFile("good-file.gz")))
        let goodText = try Data(contentsOf: URL(fileURLWithPath: try corpusFile("good-file.txt")))
        #expect(try gunzip(Array(good)) == Array(goodText))
    }
}

@Suite struct GzipFailureTests {
    func failure(_ bytes: [UInt8], limits: ReadLimits = ReadLimits()) -> FerryError? {
        do {
            _ = try gunzip(bytes, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test func damagedFilesHaveDistinctCodes() throws {
        let good = try gzip(GzipRoundTripTests.text)
        #expect(failure(Array(good.prefix(good.count - 3)))?.code == .gzipTruncated)
        #expect(failure(Array(good.prefix(200)))?.code == .gzipTruncated)
        #expect(failure(Array(good.prefix(5)))?.code == .gzipTruncated)
        var crc = good
        crc[crc.count - 6] ^= 0xFF
        let crcError = try #require(failure(crc))
        #expect(crcError.code == .gzipCRCMismatch)
        #expect(crcError.location.byteOffset == good.count - 8)
        var size = good
        size[size.count - 1] ^= 0xFF
        #expect(failure(size)?.code == .gzipSizeMismatch)
        #expect(failure(Array("plain text".utf8))?.code == .gzipNotGzip)
        #expect(failure(good + [1, 2, 3])?.code == .gzipTrailingData)
        let corrupt = try Data(contentsOf: URL(fileURLWithPath: try corpusFile("corrupt-file.gz")))
        #expect(failure(Array(corrupt))?.code == .gzipCorrupt)
    }

    /// zlib's reason is a catalog entry, so it reads in the reader's language.
    @Test func zlibsReasonIsACatalogEntry() throws {
        let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3]
        // BFINAL 1, BTYPE 11: a block type deflate does not have.
        let invalidBlockType: [UInt8] = [0x07] + [UInt8](repeating: 0, count: 16)
        let error = try #require(failure(header + invalidBlockType))
        #expect(error.code == .gzipCorrupt)
        #expect(error.arguments == [.message(.zlibInvalidBlockType)])
        let corrupt = try Data(contentsOf: URL(fileURLWithPath: try corpusFile("corrupt-file.gz")))
        let corpusError = try #require(failure(Array(corrupt)))
        guard case .message = corpusError.arguments.first else {
            Issue.record("zlib's reason is not a catalog entry: \(corpusError.arguments)")
            return
        }
    }

    @Test func bombsStopEarly() throws {
        // 256 MiB of spaces compress about a thousandfold at level 9.
        let output = MemoryOutput()
        let writer = try GzipOutput(output, level: 9)
        let block = [UInt8](repeating: 0x20, count: 1 << 20)
        for _ in 0..<256 { try writer.write(block) }
        try writer.finish()
        let bomb = output.bytes
        let ratio = failure(bomb)
        #expect(ratio?.code == .gzipRatioTooHigh)
        #expect((ratio?.location.byteOffset ?? .max) < 1 << 20)
        var limits = ReadLimits()
        limits.maxExpandedBytes = 10 << 20
        limits.maxExpansionRatio = 100_000
        let tooLarge = failure(bomb, limits: limits)
        #expect(tooLarge?.code == .gzipTooLarge)
    }

    @Test func streamsEndIdempotentlyAndRejectBadLevels() throws {
        let deflater = try Deflater(level: 6)
        deflater.end()
        deflater.end()
        let inflater = try Inflater()
        inflater.end()
        inflater.end()
        #expect(throws: FerryError.self) { _ = try Deflater(level: 42) }
    }
}

@Suite struct TransparentGzipTests {
    @Test func convertReadsAndWritesGzipByNameAndMagic() throws {
        let folder = NSTemporaryDirectory() + "ferry-gz-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let products = packageRoot.appendingPathComponent("Examples/products.json").path
        var options = ConversionOptions()
        _ = try Converter().convert(products, to: folder + "/p.csv.gz", options: options)
        #expect(try run(["gzip", "-t", folder + "/p.csv.gz"]).status == 0)
        // By suffix, then by magic alone under another name.
        let back = try Converter().convert(folder + "/p.csv.gz", to: folder + "/p.jsonl", options: options)
        #expect(back.inputFormat == "csv")
        #expect(back.records == 3)
        try FileManager.default.copyItem(atPath: folder + "/p.csv.gz", toPath: folder + "/renamed.csv")
        #expect(try Converter().convert(folder + "/renamed.csv", to: folder + "/q.jsonl", options: options).records == 3)
        options.compressOutput = true
        options.compressionLevel = 9
        _ = try Converter().convert(products, to: folder + "/forced.json", options: options)
        #expect(try gunzip(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/forced.json")))).count > 100)
    }

    @Test func aDamagedGzipLeavesNoOutput() throws {
        let folder = NSTemporaryDirectory() + "ferry-gz-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let good = try gzip(GzipRoundTripTests.text)
        try Data(good.prefix(good.count / 2)).write(to: URL(fileURLWithPath: folder + "/cut.jsonl.gz"))
        #expect(throws: FerryError.self) {
            _ = try Converter().convert(folder + "/cut.jsonl.gz", to: folder + "/out.json", options: ConversionOptions())
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["cut.jsonl.gz"])
    }
}

private func zlibCRC(_ bytes: UnsafeRawBufferPointer) -> UInt {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return UInt(crc ^ 0xFFFF_FFFF)
}

/// gzip'd CSV from Miller's and csvkit's repositories reads as CSV.
@Suite struct GzipCorpusTests {
    @Test(arguments: [
        "miller-gz/gz-example.csv.gz", "miller-gz/purple.csv.gz", "miller-gz/red.csv.gz", "miller-gz/yellow.csv.gz",
        "csvkit-examples/dummy.csv.gz",
    ])
    func gzippedCSVReads(_ name: String) throws {
        let path = packageRoot.appendingPathComponent("Tests/Corpora/\(name)").standardized.path
        #expect(FileManager.default.fileExists(atPath: path), "the vendored corpus file \(path) is missing")
        #expect(try Linter().lint(path, from: nil) == "csv")
        let folder = NSTemporaryDirectory() + "ferry-gzcorpus-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let summary = try Converter().convert(path, to: folder + "/out.jsonl", options: ConversionOptions())
        #expect(summary.inputFormat == "csv")
        #expect(summary.records > 0)
    }

    @Test func bzip2IsNotTakenForSomethingElse() throws {
        let path = packageRoot.appendingPathComponent("Tests/Corpora/csvkit-examples/dummy.csv.bz2").standardized.path
        #expect(throws: FerryError.formatUndetected(path)) { _ = try Linter().lint(path, from: nil) }
    }
}
