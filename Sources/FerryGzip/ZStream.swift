import CZlib
import FerryCore

/// One `z_stream`, allocated once so that its address never moves (zlib
/// keeps pointers into it), started by `start` and ended exactly once.
///
/// `Inflater` and `Deflater` each own one. If `start` fails, zlib holds
/// nothing, so only the memory is released.
final class ZStream {
    let pointer: UnsafeMutablePointer<z_stream>
    private let endStream: (z_streamp) -> Int32
    private var ended = false

    /// - Throws: `gzip.zlibFailed` with zlib's status when `start` fails.
    init(start: (z_streamp) -> Int32, end: @escaping (z_streamp) -> Int32) throws(FerryError) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: z_stream())
        endStream = end
        let status = start(pointer)
        guard status == Z_OK else {
            ended = true  // deinit still runs after a throwing init, and must not end the stream
            throw FerryError(.zlibFailed, [.ungrouped(Int(status))])
        }
    }

    deinit {
        end()
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    /// Frees zlib's state; ending twice is harmless.
    func end() {
        guard !ended else { return }
        ended = true
        _ = endStream(pointer)
    }
}
