import CZlib
import FerryCore

/// A raw-deflate compressor owning one `z_stream`, at a fixed address.
package final class Deflater {
    private let zstream: ZStream
    private var stream: UnsafeMutablePointer<z_stream> { zstream.pointer }

    /// - Parameter level: 1 (fastest) to 9 (smallest).
    /// - Throws: `gzip.zlibFailed` when zlib cannot start.
    package init(level: Int) throws(FerryError) {
        zstream = try ZStream(
            start: { ferry_deflateInit2($0, Int32(level), -15, 8, Z_DEFAULT_STRATEGY) }, end: deflateEnd)
    }

    /// Frees zlib's state; ending twice is harmless.
    package func end() { zstream.end() }

    /// Starts a new deflate stream with the same settings.
    package func reset() { deflateReset(stream) }

    /// Primes the stream with the data that came before, so that a block
    /// compressed on its own can still refer back to it (as pigz does).
    package func setDictionary(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        deflateSetDictionary(stream, base.assumingMemoryBound(to: Bytef.self), UInt32(bytes.count))
    }

    /// Compresses all of `input` and ends at a byte boundary with a sync
    /// flush, so that blocks compressed apart join into one deflate stream;
    /// with `finish`, ends the stream instead.
    package func deflateBlock(
        _ input: UnsafeRawBufferPointer, finish: Bool, scratch: UnsafeMutableRawBufferPointer,
        emit: (UnsafeRawBufferPointer) throws(FerryError) -> Void
    ) throws(FerryError) {
        try run(input, flush: finish ? Z_FINISH : Z_SYNC_FLUSH, scratch: scratch, emit: emit)
    }

    /// Compresses all of `input`, handing compressed bytes to `emit`; with
    /// `finish`, also ends the deflate stream.
    package func deflate(
        _ input: UnsafeRawBufferPointer, finish: Bool, scratch: UnsafeMutableRawBufferPointer,
        emit: (UnsafeRawBufferPointer) throws(FerryError) -> Void
    ) throws(FerryError) {
        try run(input, flush: finish ? Z_FINISH : Z_NO_FLUSH, scratch: scratch, emit: emit)
    }

    private func run(
        _ input: UnsafeRawBufferPointer, flush: Int32, scratch: UnsafeMutableRawBufferPointer,
        emit: (UnsafeRawBufferPointer) throws(FerryError) -> Void
    ) throws(FerryError) {
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = UInt32(input.count)
        defer {
            stream.pointee.next_in = nil
            stream.pointee.next_out = nil
        }
        while true {
            stream.pointee.next_out = scratch.baseAddress?.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = UInt32(scratch.count)
            let status = CZlib.deflate(stream, flush)
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                throw FerryError(.zlibFailed, [.ungrouped(Int(status))])
            }
            let produced = scratch.count - Int(stream.pointee.avail_out)
            if produced > 0 { try emit(UnsafeRawBufferPointer(rebasing: scratch[0..<produced])) }
            let done =
                flush == Z_FINISH
                ? status == Z_STREAM_END : (stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0)
            if done { return }
        }
    }
}
