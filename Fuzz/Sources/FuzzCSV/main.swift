#if canImport(Glibc)
import Glibc
#endif
import FerryKit
import FuzzSupport

// CSV read as products (typed cells) and as generic text, then written back.
let test: FuzzTest = { data, size in
    let bytes = fuzzBytes(data, size)
    // The first byte picks options, so the fuzzer explores them too.
    let selector = bytes.first ?? 0
    var options: [String: String] = [:]
    if selector & 1 != 0 { options["ragged"] = selector & 2 != 0 ? "pad" : "truncate" }
    if selector & 4 != 0 { options["no-header"] = "" }
    if selector & 8 != 0 { options["encoding"] = selector & 16 != 0 ? "utf16" : "latin1" }
    if selector & 32 != 0 { options["delimiter"] = ";" }
    options["max-field-bytes"] = "4096"
    for kind in [RecordKind.product, .book, .generic] {
        var limits = ReadLimits()
        limits.maxRecordBytes = 1 << 14
        let context = ReadContext(kind: kind, options: OptionValues(options), limits: limits)
        guard let reader = try? CSVCodec.csv.makeReader(MemoryInput(Array(bytes.dropFirst())), context: context),
            let writer = try? CSVCodec.csv.makeWriter(MemoryOutput(), context: WriteContext(options: OptionValues(options)))
        else { continue }
        while true {
            guard let record = try? reader.next() else { break }
            try? writer.write(record)
        }
        try? writer.finish()
        // Raw records against records, for one kind an input (it doubles the work).
        guard kind == [RecordKind.product, .book, .generic][Int(selector >> 6) % 3] else { continue }
        expectRawMatchesRecords(kind: kind) {
            try? CSVCodec.csv.makeReader(
                MemoryInput(Array(bytes.dropFirst())), context: ReadContext(kind: kind, options: OptionValues(options), limits: limits))
        } writer: { JSONWriter($0, style: .lines) }
    }
    return 0
}
exit(runFuzzer(test))
