#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CFerrySystem

/// The temporary files and folders in progress, so that SIGINT, SIGTERM and
/// SIGHUP can remove them before the process dies and leave the destination
/// untouched.
///
/// The signal handler may only call async-signal-safe functions, so the
/// paths are kept as C strings in a fixed table that it reads without
/// allocating or locking. A folder (a bundle's spool) is emptied with
/// `getdents64` and `unlinkat` system calls into a buffer set aside
/// beforehand, then removed; such folders hold files only.
public enum TemporaryFiles {
    private static let capacity = 64
    nonisolated(unsafe) private static let table: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let table = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        table.initialize(repeating: nil, count: capacity)
        return table
    }()
    /// Which slots hold folders rather than files.
    nonisolated(unsafe) private static let isFolder: UnsafeMutablePointer<Bool> = {
        let flags = UnsafeMutablePointer<Bool>.allocate(capacity: capacity)
        flags.initialize(repeating: false, count: capacity)
        return flags
    }()
    /// Where the handler reads folder entries.
    nonisolated(unsafe) private static let entries = UnsafeMutableRawPointer.allocate(byteCount: 1 << 16, alignment: 8)
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
        _ = isFolder
        _ = entries
        signal(SIGXFSZ, SIG_IGN)
        // A parent may start Ferry with these signals blocked (the mask is
        // inherited); unblock them, or the cleanup could never run.
        var handled = sigset_t()
        sigemptyset(&handled)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&handled, signalNumber) }
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber) { received in
                for slot in 0..<TemporaryFiles.capacity {
                    guard let path = TemporaryFiles.table[slot] else { continue }
                    if TemporaryFiles.isFolder[slot] {
                        // Other threads may still be adding files: empty
                        // and remove again until the folder is gone.
                        for _ in 0..<16 {
                            TemporaryFiles.emptyFolder(path)
                            if rmdir(path) == 0 || errno == ENOENT { break }
                        }
                    } else {
                        unlink(path)
                    }
                }
                signal(received, SIG_DFL)
                raise(received)
            }
        }
    }

    /// Remembers the file at `path` until `forget` is called with the
    /// returned slot.
    public static func remember(_ path: String) -> Int? { remember(path, folder: false) }

    /// Remembers a folder of files, removed with its files on a signal.
    public static func remember(folder path: String) -> Int? { remember(path, folder: true) }

    private static func remember(_ path: String, folder: Bool) -> Int? {
        for slot in 0..<capacity where table[slot] == nil {
            isFolder[slot] = folder
            table[slot] = strdup(path)
            return slot
        }
        return nil
    }

    public static func forget(_ slot: Int?) {
        guard let slot, let path = table[slot] else { return }
        table[slot] = nil
        free(path)
    }

    /// Unlinks every entry of the folder at `path`, with system calls only
    /// (async-signal-safe).
    private static func emptyFolder(_ path: UnsafeMutablePointer<CChar>) {
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return }
        while true {
            let got = ferry_getdents64(folder, entries, 1 << 16)
            if got <= 0 { break }
            var offset = 0
            while offset < got {
                // struct linux_dirent64: ino (8), off (8), reclen (2), type (1), name.
                let record = entries + offset
                let length = Int(record.load(fromByteOffset: 16, as: UInt16.self))
                let name = (record + 19).assumingMemoryBound(to: CChar.self)
                let isDot = name[0] == 0x2E && (name[1] == 0 || (name[1] == 0x2E && name[2] == 0))
                if !isDot { unlinkat(folder, name, 0) }
                if length == 0 { break }
                offset += length
            }
        }
        close(folder)
    }
}
