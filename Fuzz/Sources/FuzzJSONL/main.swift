#if canImport(Glibc)
import Glibc
#endif
@testable import FerryCore
@testable import FerryJSON
@testable import FerryCSV
@testable import FerryKit
import FuzzSupport

// JSON Lines, read 1 to 7 bytes at a time (chosen by the input's own bytes)
// so that refills land anywhere.
func chunkedInput(_ bytes: [UInt8]) -> MemoryInput {
    var reads = 0
    return MemoryInput(bytes, name: "fuzz") {
        reads += 1
        return bytes.isEmpty ? 1 : Int(bytes[reads % bytes.count] % 7) + 1
    }
}

let test: FuzzTest = { data, size in
    let bytes = fuzzBytes(data, size)
    var limits = ReadLimits()
    limits.maxRecordBytes = 1 << 12
    limits.maxDepth = 64
    _ = try? JSONLinesCodec().lint(chunkedInput(bytes), context: ReadContext(limits: limits))
    // Records against raw records, for one kind and one writer an input.
    let kind: RecordKind = bytes.count % 2 == 0 ? .generic : .product
    expectRawMatchesRecords(kind: kind) {
        JSONReader(chunkedInput(bytes), layout: .lines, limits: limits)
    } writer: { output -> any RecordWriter in
        switch bytes.count % 3 {
        case 0: CSVWriter(output, dialect: CSVDialect(delimiter: UInt8(ascii: ",")))
        case 1: JSONWriter(output, style: .pretty)
        default: JSONWriter(output, style: .lines)
        }
    }
    return 0
}
exit(runFuzzer(test))
