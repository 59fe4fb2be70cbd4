import CZlib
import FerryCore

// MARK: - Design
//
// A gzip file (RFC 1952) is one or more members, each a header, raw deflate
// data and an 8-byte trailer:
//
//     1f 8b 08 FLG MTIME(4) XFL OS [extra] [name\0] [comment\0] [hcrc(2)]
//     …deflate…
//     CRC32(4, little-endian) ISIZE(4, little-endian: size mod 2^32)
//
// Ferry reads the framing itself and lets zlib inflate the raw deflate data,
// so that the three ways a file can be bad are told apart: it ends early
// (`gzip.truncated`), its deflate data is damaged (`gzip.corrupt`), or it
// inflates cleanly to the wrong bytes (`gzip.crcMismatch`,
// `gzip.sizeMismatch`). Members follow one another until the input ends.
//
// Limits guard against decompression bombs: the expanded size, and the
// ratio of expanded to compressed bytes once more than 64 MiB has come out.

/// Inflates a gzip input as it is read, in flat memory.
package final class GzipInput: ByteInput {
    private enum State {
        case header(first: Bool)
        case body
        case trailer
        case done
    }

    private let base: any ByteInput
    private let limits: ReadLimits
    private let inflater: Inflater
    private var compressed: [UInt8]
    private var start = 0
    private var end = 0
    private var baseEnded = false
    private var state = State.header(first: true)
    /// Compressed bytes taken from the input so far.
    private var consumed = 0
    private var expanded: UInt64 = 0
    private var memberCRC: UInt = 0
    private var memberSize: UInt64 = 0
    /// The first member's header: the file name it stores (Latin-1, as RFC
    /// 1952 has it), if any, and its modification time (seconds since 1970,
    /// 0 for none); known once reading has begun.
    package private(set) var storedName: String?
    package private(set) var storedTime: UInt32 = 0

    /// Expansion past this is checked against the ratio limit.
    static let ratioFloor: UInt64 = 64 << 20

    package init(_ base: any ByteInput, limits: ReadLimits = ReadLimits()) throws(FerryError) {
        self.base = base
        self.limits = limits
        inflater = try Inflater()
        compressed = [UInt8](repeating: 0, count: base.sizeHint.map { min(1 << 18, max($0, 64)) } ?? 1 << 18)
    }

    package var name: String { base.name }
    /// The expanded size is not known in advance.
    package var sizeHint: Int? { nil }

    /// Whether `prefix` starts with the gzip magic number.
    package static func isGzip(_ prefix: [UInt8]) -> Bool {
        prefix.count >= 2 && prefix[0] == 0x1F && prefix[1] == 0x8B
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int {
        guard buffer.count > 0 else { return 0 }
        while true {
            switch state {
            case .done:
                return 0
            case .header(let first):
                try readHeader(first: first)
            case .trailer:
                try readTrailer()
            case .body:
                if start == end, try !refill() {
                    throw error(.gzipTruncated, [])
                }
                let step = try compressed.withUnsafeBytes { raw in
                    Result { () throws(FerryError) in
                        try inflater.inflate(UnsafeRawBufferPointer(rebasing: raw[start..<end]), into: buffer)
                    }
                }.get(orLocate: self)
                start += step.consumed
                consumed += step.consumed
                if step.produced > 0 {
                    memberCRC = crc32(memberCRC, buffer.baseAddress?.assumingMemoryBound(to: Bytef.self), UInt32(step.produced))
                    memberSize &+= UInt64(step.produced)
                    expanded &+= UInt64(step.produced)
                    try checkLimits()
                }
                if step.finished { state = .trailer }
                if step.produced > 0 { return step.produced }
                if step.consumed == 0 && !step.finished && start < end {
                    throw error(.gzipCorrupt, [.message(.gzipNoProgress)])
                }
            }
        }
    }

    // MARK: - Framing

    private func readHeader(first: Bool) throws(FerryError) {
        // Another member, or the end.
        if !first {
            if start == end, try !refill() {
                state = .done
                return
            }
        }
        let magic = try bytes(2, orEnd: first ? .gzipNotGzip : .gzipTrailingData)
        guard magic == [0x1F, 0x8B] else { throw error(first ? .gzipNotGzip : .gzipTrailingData, [], at: -2) }
        let fixed = try bytes(8, orEnd: .gzipTruncated)
        guard fixed[0] == 8 else { throw error(.gzipUnsupported, [.ungrouped(Int(fixed[0]))], at: -8) }
        let flags = fixed[1]
        guard flags & 0xE0 == 0 else { throw error(.gzipUnsupported, [.ungrouped(Int(flags))], at: -7) }
        if flags & 0x04 != 0 {  // FEXTRA
            let length = try bytes(2, orEnd: .gzipTruncated)
            _ = try bytes(Int(length[0]) | Int(length[1]) << 8, orEnd: .gzipTruncated)
        }
        if flags & 0x08 != 0 {  // FNAME
            let name = try zeroTerminated()
            if first { storedName = String(name.map { Character(Unicode.Scalar($0)) }) }
        }
        if first {
            storedTime = UInt32(fixed[2]) | UInt32(fixed[3]) << 8 | UInt32(fixed[4]) << 16 | UInt32(fixed[5]) << 24
        }
        if flags & 0x10 != 0 { try skipZeroTerminated() }  // FCOMMENT
        if flags & 0x02 != 0 { _ = try bytes(2, orEnd: .gzipTruncated) }  // FHCRC
        inflater.reset()
        memberCRC = crc32(0, nil, 0)
        memberSize = 0
        state = .body
    }

    private func readTrailer() throws(FerryError) {
        let trailer = try bytes(8, orEnd: .gzipTruncated)
        let crc = UInt32(trailer[0]) | UInt32(trailer[1]) << 8 | UInt32(trailer[2]) << 16 | UInt32(trailer[3]) << 24
        let size = UInt32(trailer[4]) | UInt32(trailer[5]) << 8 | UInt32(trailer[6]) << 16 | UInt32(trailer[7]) << 24
        guard crc == UInt32(truncatingIfNeeded: memberCRC) else { throw error(.gzipCRCMismatch, [], at: -8) }
        guard size == UInt32(truncatingIfNeeded: memberSize) else { throw error(.gzipSizeMismatch, [], at: -4) }
        state = .header(first: false)
    }

    private func skipZeroTerminated() throws(FerryError) {
        while try bytes(1, orEnd: .gzipTruncated)[0] != 0 {}
    }

    /// The bytes up to the next zero, which is skipped; at most 4 KiB are
    /// kept (a name), the rest skipped.
    private func zeroTerminated() throws(FerryError) -> [UInt8] {
        var kept: [UInt8] = []
        while true {
            let byte = try bytes(1, orEnd: .gzipTruncated)[0]
            if byte == 0 { return kept }
            if kept.count < 4096 { kept.append(byte) }
        }
    }

    /// The next `count` framing bytes.
    private func bytes(_ count: Int, orEnd code: FerryError.Code) throws(FerryError) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(min(count, 1 << 16))
        while result.count < count {
            if start == end, try !refill() { throw error(code, []) }
            let take = min(count - result.count, end - start)
            result += compressed[start..<start + take]
            start += take
            consumed += take
        }
        return result
    }

    /// Reads more compressed bytes.
    /// - Returns: false at the end of the input.
    private func refill() throws(FerryError) -> Bool {
        if baseEnded { return false }
        start = 0
        end = 0
        let got = try compressed.withUnsafeMutableBytes { raw in
            Result { () throws(FerryError) in try base.read(into: raw) }
        }.get()
        if got == 0 {
            baseEnded = true
            return false
        }
        end = got
        return true
    }

    // MARK: - Limits and errors

    private func checkLimits() throws(FerryError) {
        if expanded > UInt64(limits.maxExpandedBytes) {
            throw error(.gzipTooLarge, [.count(limits.maxExpandedBytes)])
        }
        if expanded > GzipInput.ratioFloor && expanded > UInt64(limits.maxExpansionRatio) * UInt64(max(consumed, 1)) {
            throw error(.gzipRatioTooHigh, [.count(limits.maxExpansionRatio)])
        }
    }

    /// An error at the compressed offset reached, moved back by `at` bytes.
    fileprivate func error(_ code: FerryError.Code, _ arguments: [MessageArgument], at offset: Int = 0) -> FerryError {
        FerryError(code, arguments, at: SourceLocation(file: base.name, byteOffset: max(consumed + offset, 0)))
    }
}

private extension Result where Failure == FerryError {
    /// The value, or the error located at the input's compressed offset.
    func get(orLocate input: GzipInput) throws(FerryError) -> Success {
        switch self {
        case .success(let value): return value
        case .failure(let failure): throw input.error(failure.code, failure.arguments)
        }
    }
}
