import CZlib
import FerryCore

/// A raw-deflate compressor owning one `z_stream`, at a fixed address.
final class Deflater {
    private let stream: UnsafeMutablePointer<z_stream>
    private var ended = false

    /// - Parameter level: 1 (fastest) to 9 (smallest).
    /// - Throws: `gzip.zlibFailed` when zlib cannot start.
    init(level: Int) throws(FerryError) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = ferry_deflateInit2(stream, Int32(level), -15, 8, Z_DEFAULT_STRATEGY)
        guard status == Z_OK else {
            // zlib holds nothing to free; deinit still runs and releases the stream.
            ended = true
            throw FerryError(.zlibFailed, [.integer(Int(status))])
        }
    }

    deinit {
        end()
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Frees zlib's state; ending twice is harmless.
    func end() {
        guard !ended else { return }
        ended = true
        deflateEnd(stream)
    }

    /// Compresses all of `input`, handing compressed bytes to `emit`; with
    /// `finish`, also ends the deflate stream.
    func deflate(
        _ input: UnsafeRawBufferPointer, finish: Bool, scratch: UnsafeMutableRawBufferPointer,
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
            let status = CZlib.deflate(stream, finish ? Z_FINISH : Z_NO_FLUSH)
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                throw FerryError(.zlibFailed, [.integer(Int(status))])
            }
            let produced = scratch.count - Int(stream.pointee.avail_out)
            if produced > 0 { try emit(UnsafeRawBufferPointer(rebasing: scratch[0..<produced])) }
            if finish ? status == Z_STREAM_END : (stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0) {
                return
            }
        }
    }
}
