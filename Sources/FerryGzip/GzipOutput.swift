import CZlib
import FerryCore

/// Compresses what is written to it as one gzip member (RFC 1952) and hands
/// the result to another output. `finish()` writes the trailer; it must be
/// called once the last byte is written.
public final class GzipOutput: ByteOutput {
    private let base: any ByteOutput
    private let deflater: Deflater
    private var crc: UInt = 0
    private var size: UInt64 = 0
    private var pending = WriteBuffer(capacity: 1 << 17)
    private var scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 17, alignment: 16)
    private var finished = false
    private var parallel: ParallelDeflate?

    /// - Parameters:
    ///   - base: where the compressed bytes go.
    ///   - level: 1 to 9.
    ///   - jobs: how many threads compress; with more than one, blocks are
    ///     compressed in parallel, as pigz does.
    ///   - fileName: the name stored in the header (the output's name without `.gz`), if any.
    ///   - modified: the modification time stored in the header, in seconds since 1970; 0 for none.
    public init(
        _ base: any ByteOutput, level: Int, jobs: Int = 1, fileName: String? = nil, modified: UInt32 = 0
    ) throws(FerryError) {
        self.base = base
        deflater = try Deflater(level: level)
        crc = crc32(0, nil, 0)
        var header: [UInt8] = [0x1F, 0x8B, 8, fileName == nil ? 0 : 0x08]
        header += withUnsafeBytes(of: modified.littleEndian, Array.init)
        header.append(level >= 9 ? 2 : level <= 1 ? 4 : 0)
        header.append(3)  // Unix
        if let fileName {
            // The name is Latin-1 in RFC 1952; keep ASCII and drop the rest.
            header += fileName.utf8.filter { $0 >= 0x20 && $0 < 0x7F }
            header.append(0)
        }
        pending.append(header)
        if jobs > 1 {
            parallel = try ParallelDeflate(level: level, jobs: jobs) { [unowned self] (block) throws(FerryError) in
                pending.append(block)
                if pending.count >= 1 << 17 { try pending.drain(to: self.base) }
            }
        }
    }

    deinit {
        pending.release()
        scratch.deallocate()
    }

    public var name: String { base.name }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(FerryError) {
        guard let start = bytes.baseAddress, bytes.count > 0 else { return }
        crc = crc32(crc, start.assumingMemoryBound(to: Bytef.self), UInt32(bytes.count))
        size &+= UInt64(bytes.count)
        if let parallel { return try parallel.write(bytes) }
        try compress(bytes, finish: false)
    }

    /// Ends the deflate stream and writes the CRC-32 and size trailer.
    public func finish() throws(FerryError) {
        guard !finished else { return }
        finished = true
        if let parallel {
            try parallel.finish()
        } else {
            try compress(UnsafeRawBufferPointer(start: nil, count: 0), finish: true)
        }
        pending.append(withUnsafeBytes(of: UInt32(truncatingIfNeeded: crc).littleEndian, Array.init))
        pending.append(withUnsafeBytes(of: UInt32(truncatingIfNeeded: size).littleEndian, Array.init))
        try pending.drain(to: base)
        deflater.end()
        try base.flush()
    }

    private func compress(_ bytes: UnsafeRawBufferPointer, finish: Bool) throws(FerryError) {
        var out = pending
        defer { pending = out }
        let base = self.base
        try deflater.deflate(bytes, finish: finish, scratch: scratch) { (chunk) throws(FerryError) in
            out.append(UnsafeBufferPointer(start: chunk.baseAddress?.assumingMemoryBound(to: UInt8.self), count: chunk.count))
            if out.count >= 1 << 17 { try out.drain(to: base) }
        }
    }
}
