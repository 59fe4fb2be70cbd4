#if canImport(Glibc)
import Glibc
#endif
@testable import FerryCore
@testable import FerryBundle
@testable import FerryJSON
@testable import FerryKit
import FuzzSupport

// Bundles: tar headers (checksums, octal and base-256 numbers, pax records),
// unsafe entries and the manifest's checks, with small limits. The input is
// the tar stream itself (gzip is fuzzed on its own), which the reader also
// accepts uncompressed.
let codec = BundleCodec(records: JSONLinesCodec())
let test: FuzzTest = { data, size in
    var limits = ReadLimits()
    limits.maxEntries = 64
    limits.maxEntryBytes = 1 << 16
    let context = ReadContext(limits: limits)
    guard let reader = try? codec.makeReader(MemoryInput(fuzzBytes(data, size)), context: context) else { return 0 }
    while (try? reader.next()) != nil {}
    return 0
}
exit(runFuzzer(test))
