import CZlib
import FerryCore

/// A raw-deflate decompressor owning one `z_stream`.
///
/// The stream is allocated once, so its address never moves (zlib keeps
/// pointers into it). `next_in`/`next_out` are set only inside the
/// `withUnsafe…` closures that own the memory, and cleared before they return.
package final class Inflater {
    private let zstream: ZStream
    private var stream: UnsafeMutablePointer<z_stream> { zstream.pointer }

    /// - Throws: `gzip.zlibFailed` when zlib cannot start (out of memory).
    package init() throws(FerryError) {
        // Raw deflate (-15): Ferry reads the gzip framing itself.
        zstream = try ZStream(start: { ferry_inflateInit2($0, -15) }, end: inflateEnd)
    }

    /// Frees zlib's state; ending twice is harmless.
    package func end() { zstream.end() }

    /// Starts a new deflate stream (the next gzip member).
    package func reset() { inflateReset(stream) }

    /// The outcome of one `inflate` call.
    package struct Step {
        package var consumed: Int
        package var produced: Int
        package var finished: Bool
    }

    /// Inflates from `input` into `output`.
    /// - Returns: how much was consumed and produced, and whether the deflate stream ended.
    /// - Throws: `gzip.corrupt` with zlib's reason.
    package func inflate(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(FerryError) -> Step {
        let inCount = UInt32(clamping: input.count)
        let outCount = UInt32(clamping: output.count)
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = inCount
        stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = outCount
        defer {
            stream.pointee.next_in = nil
            stream.pointee.next_out = nil
        }
        let status = CZlib.inflate(stream, Z_NO_FLUSH)
        let step = Step(
            consumed: Int(inCount - stream.pointee.avail_in), produced: Int(outCount - stream.pointee.avail_out),
            finished: status == Z_STREAM_END)
        switch status {
        case Z_OK, Z_STREAM_END, Z_BUF_ERROR:
            return step
        default:
            throw FerryError(.gzipCorrupt, [ZlibReason.argument(status: status, message: stream.pointee.msg)])
        }
    }
}
