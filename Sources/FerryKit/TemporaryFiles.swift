#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The temporary files in progress, so that SIGINT, SIGTERM and SIGHUP can
/// remove them before the process dies and leave the destination untouched.
///
/// The signal handler may only call async-signal-safe functions, so the
/// paths are kept as C strings in a fixed table that it reads without
/// allocating or locking.
public enum TemporaryFiles {
    private static let capacity = 64
    nonisolated(unsafe) private static let table: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let table = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        table.initialize(repeating: nil, count: capacity)
        return table
    }()
    nonisolated(unsafe) private static var installed = false

    /// Installs the handlers; once is enough. The CLI calls it at start.
    ///
    /// SIGXFSZ (a write past `ulimit -f`) is ignored, so that the write fails
    /// with EFBIG and Ferry reports `io.writeFailed` and removes the temporary
    /// file, instead of dying with half a file.
    public static func removeOnSignals() {
        guard !installed else { return }
        installed = true
        _ = table
        signal(SIGXFSZ, SIG_IGN)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber) { received in
                for slot in 0..<TemporaryFiles.capacity {
                    if let path = TemporaryFiles.table[slot] { unlink(path) }
                }
                signal(received, SIG_DFL)
                raise(received)
            }
        }
    }

    /// Remembers `path` until `forget` is called with the returned slot.
    static func remember(_ path: String) -> Int? {
        for slot in 0..<capacity where table[slot] == nil {
            table[slot] = strdup(path)
            return slot
        }
        return nil
    }

    static func forget(_ slot: Int?) {
        guard let slot, let path = table[slot] else { return }
        table[slot] = nil
        free(path)
    }
}
