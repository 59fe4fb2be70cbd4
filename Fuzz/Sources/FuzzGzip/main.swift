#if canImport(Glibc)
import Glibc
#endif
@testable import FerryCore
@testable import FerryGzip
@testable import FerryKit
import FuzzSupport

// gzip framing and inflation, with small limits so bombs stop quickly.
let test: FuzzTest = { data, size in
    var limits = ReadLimits()
    limits.maxExpandedBytes = 1 << 22
    limits.maxExpansionRatio = 50
    guard let input = try? GzipInput(MemoryInput(fuzzBytes(data, size)), limits: limits) else { return 0 }
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = buffer.withUnsafeMutableBytes { raw in (try? input.read(into: raw)) ?? 0 }
        if count == 0 { break }
    }
    return 0
}
exit(runFuzzer(test))
