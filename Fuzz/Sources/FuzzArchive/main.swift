#if canImport(Glibc)
import Glibc
#endif
@testable import FerryCore
@testable import FerryJSON
@testable import FerryPlist
@testable import FerryKit
import FuzzSupport

// Keyed archives, binary or XML: the object graph (UIDs, cycles, classes),
// the records of every kind, the structure `ferry inspect` reports, and raw
// records against records.
let test: FuzzTest = { data, size in
    let bytes = fuzzBytes(data, size)
    var limits = ReadLimits()
    limits.maxObjects = 1 << 16
    _ = try? ArchiveCodec().lint(MemoryInput(bytes), context: ReadContext(limits: limits))
    let kind: RecordKind? = bytes.count > 40 ? [nil, .product, .book][Int(bytes[40] % 3)] : nil
    let context = ReadContext(kind: kind, options: OptionValues(["class-map": "Item=product"]), limits: limits)
    guard let reader = try? ArchiveCodec().makeReader(MemoryInput(bytes), context: context) else { return 0 }
    var records: [Record] = []
    while let record = try? reader.next() { records.append(record) }
    _ = try? (reader as? any StructureReporting)?.structure()
    let output = MemoryOutput()
    guard let writer = try? ArchiveCodec().makeWriter(output, context: WriteContext(kind: kind ?? .generic)) else { return 0 }
    for record in records { try? writer.write(record) }
    try? writer.finish()
    // Instances read in place against the general path.
    expectRawMatchesRecords(kind: kind ?? .generic) {
        try? ArchiveCodec().makeReader(MemoryInput(bytes), context: context)
    } writer: { JSONWriter($0, style: .lines) }
    return 0
}
exit(runFuzzer(test))
