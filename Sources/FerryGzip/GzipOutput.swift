import CZlib
import FerryCore

/// Compresses what is written to it as one gzip member (RFC 1952) and hands
/// the result to another output. `finish()` writes the trailer; it must be
/// called once the last byte is written.
package final class GzipOutput: ByteOutput {
    private let base: any ByteOutput
    private var crc: UInt = 0
    private var size: UInt64 = 0
    private var pending = WriteBuffer(capacity: 1 << 17)
    private var finished = false
    private let compressor: ParallelDeflate

    /// - Parameters:
    ///   - base: where the compressed bytes go.
    ///   - level: 1 to 9.
    ///   - jobs: how many threads compress, beside the one that writes: one
    ///     compresses the whole stream as it comes; more compress blocks in
    ///     parallel, as pigz does.
    ///   - fileName: the name stored in the header (the output's name without `.gz`), if any.
    ///   - modified: the modification time stored in the header, in seconds since 1970; 0 for none.
    package init(
        _ base: any ByteOutput, level: Int, jobs: Int = 1, fileName: String? = nil, modified: UInt32 = 0
    ) throws(FerryError) {
        self.base = base
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
        compressor = try ParallelDeflate(level: level, jobs: jobs)
    }

    deinit {
        pending.release()
    }

    package var name: String { base.name }

    package func write(_ bytes: UnsafeRawBufferPointer) throws(FerryError) {
        guard let start = bytes.baseAddress, bytes.count > 0 else { return }
        crc = crc32(crc, start.assumingMemoryBound(to: Bytef.self), UInt32(bytes.count))
        size &+= UInt64(bytes.count)
        try compressor.write(bytes, emit: take)
    }

    /// Ends the deflate stream and writes the CRC-32 and size trailer.
    package func finish() throws(FerryError) {
        guard !finished else { return }
        finished = true
        try compressor.finish(emit: take)
        pending.append(withUnsafeBytes(of: UInt32(truncatingIfNeeded: crc).littleEndian, Array.init))
        pending.append(withUnsafeBytes(of: UInt32(truncatingIfNeeded: size).littleEndian, Array.init))
        try pending.drain(to: base)
        try base.flush()
    }

    /// Queues compressed bytes for the base output.
    private func take(_ block: [UInt8]) throws(FerryError) {
        pending.append(block)
        if pending.count >= 1 << 17 { try pending.drain(to: base) }
    }
}
