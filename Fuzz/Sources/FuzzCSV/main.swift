#if canImport(Glibc)
import Glibc
#endif
@testable import FerryCore
@testable import FerryCSV
@testable import FerryJSON
@testable import FerryKit
import FuzzSupport

// CSV read as one kind of record (typed cells for products and books, text
// for generic records) and written back as CSV, JSON Lines or JSON, as
// records, as raw records and (into JSON) through the CSV to JSON
// accelerator, which must all agree.
let test: FuzzTest = { data, size in
    let bytes = fuzzBytes(data, size)
    // The first byte picks the options and the kind, so the fuzzer explores
    // them too.
    let selector = bytes.first ?? 0
    var options: [String: String] = [:]
    if selector & 1 != 0 { options["ragged"] = selector & 2 != 0 ? "pad" : "truncate" }
    if selector & 4 != 0 { options["no-header"] = "" }
    if selector & 8 != 0 { options["encoding"] = selector & 16 != 0 ? "utf16" : "latin1" }
    if selector & 32 != 0 { options["delimiter"] = ";" }
    options["max-field-bytes"] = "4096"
    let kind = [RecordKind.product, .book, .generic][Int(selector >> 6) % 3]
    var limits = ReadLimits()
    limits.maxRecordBytes = 1 << 14
    let context = ReadContext(kind: kind, options: OptionValues(options), limits: limits)
    let csvWriter = bytes.count % 2 == 0
    let pair: (any Codec, any Codec) = (CSVCodec.csv, csvWriter ? CSVCodec.csv : JSONCodec())
    expectRawMatchesRecords(kind: kind, pair: pair) {
        try? CSVCodec.csv.makeReader(MemoryInput(Array(bytes.dropFirst())), context: context)
    } writer: { output -> any RecordWriter in
        if csvWriter, let writer = try? CSVCodec.csv.makeWriter(output, context: WriteContext(options: OptionValues(options))) {
            return writer
        }
        return JSONWriter(output, style: bytes.count % 3 == 0 ? .pretty : .lines)
    }
    return 0
}
exit(runFuzzer(test))
