#if canImport(Glibc)
import Glibc
#endif
import FerryKit
import FuzzSupport

// JSON Lines, read in small chunks so refills land anywhere.
final class ChunkedInput: ByteInput {
    let name = "fuzz"
    let sizeHint: Int? = nil
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int {
        let step = bytes.isEmpty ? 1 : Int(bytes[position % bytes.count] % 7) + 1
        let count = min(step, buffer.count, bytes.count - position)
        for offset in 0..<max(count, 0) { buffer[offset] = bytes[position + offset] }
        position += max(count, 0)
        return max(count, 0)
    }
}

let test: FuzzTest = { data, size in
    let bytes = fuzzBytes(data, size)
    var limits = ReadLimits()
    limits.maxRecordBytes = 1 << 12
    limits.maxDepth = 64
    _ = try? JSONLinesCodec().lint(ChunkedInput(bytes), context: ReadContext(limits: limits))
    let reader = JSONReader(ChunkedInput(bytes), layout: .lines, limits: limits)
    let writer = JSONWriter(MemoryOutput(), style: .lines)
    while true {
        guard let record = try? reader.next() else { break }
        try? writer.write(record)
    }
    try? writer.finish()
    return 0
}
exit(runFuzzer(test))
