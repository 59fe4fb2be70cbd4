#if canImport(Glibc)
import Glibc
#endif
@testable import FerryCore
@testable import FerryPlist
@testable import FerryJSON
@testable import FerryKit
import FuzzSupport

// Binary plists: the whole value (cycles, depth, bombs), then the records,
// written back and read again, which must give the same records.
let test: FuzzTest = { data, size in
    let bytes = fuzzBytes(data, size)
    var limits = ReadLimits()
    limits.maxObjects = 1 << 16
    _ = try? PlistCodec().lint(MemoryInput(bytes), context: ReadContext(limits: limits))
    let context = ReadContext(limits: limits)
    guard let reader = try? PlistCodec().makeReader(MemoryInput(bytes), context: context) else { return 0 }
    var records: [Record] = []
    while let record = try? reader.next() { records.append(record) }
    let output = MemoryOutput()
    guard let writer = try? PlistCodec().makeWriter(output, context: WriteContext()) else { return 0 }
    for record in records { try? writer.write(record) }
    try? writer.finish()
    if let again = try? PlistCodec().makeReader(MemoryInput(output.bytes), context: ReadContext()) {
        while (try? again.next()) != nil {}
    }
    expectRawMatchesRecords(kind: .product) {
        try? PlistCodec().makeReader(MemoryInput(bytes), context: ReadContext(limits: limits))
    } writer: { JSONWriter($0, style: .lines) }
    return 0
}
exit(runFuzzer(test))
