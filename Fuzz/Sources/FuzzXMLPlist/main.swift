#if canImport(Glibc)
import Glibc
#endif
@testable import FerryCore
@testable import FerryPlist
@testable import FerryKit
import FuzzSupport

// XML property lists: the whole-document parser, and the streaming record
// reader fed 1 to 7 bytes a read, so refills land anywhere in a token; the
// records are written back as XML and read again.
let test: FuzzTest = { data, size in
    let bytes = fuzzBytes(data, size)
    _ = try? XMLPlistParser.parse(bytes)
    var state = UInt64(size) | 1
    let input = MemoryInput(bytes) {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int(state >> 61) % 7 + 1
    }
    guard let reader = try? XMLPlistReader(input) else { return 0 }
    var records: [Record] = []
    while let record = try? reader.next() { records.append(record) }
    let output = MemoryOutput()
    let writer = XMLPlistWriter(output)
    for record in records { try? writer.write(record) }
    try? writer.finish()
    if let again = try? XMLPlistReader(MemoryInput(output.bytes)) {
        while (try? again.next()) != nil {}
    }
    return 0
}
exit(runFuzzer(test))
