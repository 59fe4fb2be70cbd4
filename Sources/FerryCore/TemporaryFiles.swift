#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CFerrySystem
import Synchronization

/// The temporary files and folders in progress, so that SIGINT, SIGTERM and
/// SIGHUP can remove them before the process dies and leave the destination
/// untouched.
///
/// The signal handler may only call async-signal-safe functions, so the
/// paths are kept as C strings in fixed slots, never freed, that it reads
/// without allocating or locking. A folder (a bundle's spool) is first
/// renamed, so that threads still writing into it by path fail instead of
/// adding files, then emptied with `getdents64` and `unlinkat` system calls
/// into a buffer set aside beforehand, and removed; such folders hold files
/// only. The process does not exit while a handler cleans up.
package enum TemporaryFiles {
    private static let capacity = 64
    nonisolated(unsafe) private static let table: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let table = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        table.initialize(repeating: nil, count: capacity)
        return table
    }()
    /// The longest path a slot holds, with room for the tombstone's suffix.
    private static let slotBytes = 4096 + 16
    /// Where the slots' paths are kept: they are copied in, never freed, so
    /// the handler can read a slot even while another thread forgets it.
    nonisolated(unsafe) private static let paths = UnsafeMutablePointer<CChar>.allocate(capacity: capacity * slotBytes)
    /// For a folder, the name it is renamed to before it is emptied.
    nonisolated(unsafe) private static let tombstones = UnsafeMutablePointer<CChar>.allocate(
        capacity: capacity * slotBytes)
    /// Serializes `remember` and `forget` (never taken by the handler).
    private static let slots = Mutex<Void>(())
    /// Which slots hold folders rather than files.
    nonisolated(unsafe) private static let isFolder: UnsafeMutablePointer<Bool> = {
        let flags = UnsafeMutablePointer<Bool>.allocate(capacity: capacity)
        flags.initialize(repeating: false, count: capacity)
        return flags
    }()
    /// Where the handler reads folder entries.
    nonisolated(unsafe) private static let entries = UnsafeMutableRawPointer.allocate(byteCount: 1 << 16, alignment: 8)
    nonisolated(unsafe) private static var installed = false
    /// Set while a handler cleans up; the process must not exit under it.
    private static let cleaning = Atomic<Bool>(false)

    /// Installs the handlers; once is enough. The CLI calls it at start.
    ///
    /// SIGXFSZ (a write past `ulimit -f`) is ignored, so that the write fails
    /// with EFBIG and Ferry reports `io.writeFailed` and removes the temporary
    /// file, instead of dying with half a file.
    package static func removeOnSignals() {
        guard !installed else { return }
        installed = true
        _ = table
        _ = isFolder
        _ = paths
        _ = tombstones
        _ = cleaning.load(ordering: .relaxed)
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
                TemporaryFiles.cleaning.store(true, ordering: .sequentiallyConsistent)
                for slot in 0..<TemporaryFiles.capacity {
                    guard let path = TemporaryFiles.table[slot] else { continue }
                    if TemporaryFiles.isFolder[slot] {
                        // Other threads may still be adding files by path:
                        // once the folder has another name they cannot, and
                        // it can be emptied and removed.
                        var gone = path
                        let tombstone = TemporaryFiles.tombstones + slot * TemporaryFiles.slotBytes
                        if rename(path, tombstone) == 0 { gone = tombstone }
                        for _ in 0..<16 {
                            TemporaryFiles.emptyFolder(gone)
                            if rmdir(gone) == 0 || errno == ENOENT { break }
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

    /// Waits, if a signal handler is removing the temporary files, for it to
    /// finish and end the process with the signal: the main thread calls this
    /// before `exit`, which would otherwise cut the cleanup short (another
    /// thread can fail, and the conversion end, while the handler runs).
    package static func waitForSignalCleanup() {
        guard cleaning.load(ordering: .sequentiallyConsistent) else { return }
        while true { pause() }
    }

    /// Remembers the file at `path` until `forget` is called with the
    /// returned slot.
    package static func remember(_ path: String) -> Int? { remember(path, folder: false) }

    /// Remembers a folder of files, removed with its files on a signal.
    package static func remember(folder path: String) -> Int? { remember(path, folder: true) }

    private static func remember(_ path: String, folder: Bool) -> Int? {
        let utf8 = Array(path.utf8)
        let suffix = Array(".removing".utf8)
        guard utf8.count + suffix.count < slotBytes, !cleaning.load(ordering: .sequentiallyConsistent) else {
            return nil
        }
        return slots.withLock { _ -> Int? in
            for slot in 0..<capacity where table[slot] == nil {
                let name = paths + slot * slotBytes
                let tombstone = tombstones + slot * slotBytes
                for (index, byte) in utf8.enumerated() {
                    name[index] = CChar(bitPattern: byte)
                    tombstone[index] = CChar(bitPattern: byte)
                }
                name[utf8.count] = 0
                for (index, byte) in suffix.enumerated() { tombstone[utf8.count + index] = CChar(bitPattern: byte) }
                tombstone[utf8.count + suffix.count] = 0
                isFolder[slot] = folder
                // The path is whole before the handler can see the slot.
                atomicMemoryFence(ordering: .releasing)
                table[slot] = name
                return slot
            }
            return nil
        }
    }

    package static func forget(_ slot: Int?) {
        guard let slot else { return }
        slots.withLock { _ in table[slot] = nil }
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
