#if canImport(Glibc)
import Glibc
#endif
@testable import FerryCore
@testable import FerryJSON
@testable import FerryKit
import FuzzSupport

// JSON documents: lint any value, convert records (kinds on), write them back.
let test: FuzzTest = { data, size in
    let bytes = fuzzBytes(data, size)
    var limits = ReadLimits()
    limits.maxRecordBytes = 1 << 16
    _ = try? JSONCodec().lint(MemoryInput(bytes), context: ReadContext(limits: limits))
    let reader = JSONReader(MemoryInput(bytes), layout: .document, limits: limits)
    let writer = JSONWriter(MemoryOutput(), style: .pretty)
    var validator = RecordValidator(kind: .product)
    while true {
        guard let record = try? reader.next() else { break }
        try? validator.validate(record, at: .unknown)
        try? writer.write(record)
        _ = reader.location(ofByteOffset: record.origin.byteOffset)
    }
    try? writer.finish()
    expectRawMatchesRecords(kind: .product) {
        JSONReader(MemoryInput(bytes), layout: .document, limits: limits)
    } writer: { JSONWriter($0, style: .compact) }
    return 0
}
exit(runFuzzer(test))
