// Editing one product of a large keyed archive: `KeyedArchiveEditor`
// (parse, read every record once, replace one price, encode) against
// decoding every record and archiving them all again with
// `KeyedArchiveWriter`, the way the issue asks edits not to work.
//
//     Scripts/bench-archive-edit.sh [count]
@testable import FerryCore
@testable import FerryJSON
@testable import FerryCSV
@testable import FerryPlist
@testable import FerryKit

#if canImport(Glibc)
import Glibc
#endif

func seconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func milliseconds(_ start: Double) -> String { String(Int(((seconds() - start) * 1000).rounded())) + " ms" }

func readFile(_ path: String) -> [UInt8] {
    guard let file = fopen(path, "rb") else { fatalError("cannot open \(path)") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count == 0 { return bytes }
        bytes += chunk[0..<count]
    }
}

/// `record` with its price set to `price`.
func repriced(_ record: Record, _ price: Double) -> Record {
    Record(record.pairs.map { $0.0 == "price" ? ("price", Value.double(price)) : $0 })
}

func run(_ path: String) throws(FerryError) {
    let bytes = readFile(path)
    print("input: \(bytes.count) bytes")
    for round in 1...3 {
        var start = seconds()
        var editor = try KeyedArchiveEditor(bytes: bytes, name: path, context: ReadContext())
        let opened = milliseconds(start)
        let middle = editor.count / 2
        start = seconds()
        try editor.replace(at: middle, with: repriced(try editor.record(at: middle), 1.5))
        let replaced = milliseconds(start)
        start = seconds()
        let edited = try editor.encoded()
        let encoded = milliseconds(start)
        print("round \(round) editor: open \(opened), replace \(replaced), encode \(encoded); \(edited.count) bytes")

        start = seconds()
        let context = ReadContext()
        let reader = try ArchiveCodec().makeReader(MemoryInput(bytes, name: path), context: context)
        var records: [Record] = []
        while let record = try reader.next() { records.append(record) }
        records[records.count / 2] = repriced(records[records.count / 2], 1.5)
        let output = MemoryOutput()
        let writer = try ArchiveCodec().makeWriter(output, context: WriteContext(kind: .product))
        for record in records { try writer.write(record) }
        try writer.finish()
        print("round \(round) decode all and write again: \(milliseconds(start)); \(output.bytes.count) bytes")
    }
}

do throws(FerryError) {
    guard let path = CommandLine.arguments.dropFirst().first else { fatalError("usage: BenchArchiveEdit FILE") }
    try run(path)
} catch {
    print("error: \(error.code)")
    exit(1)
}
