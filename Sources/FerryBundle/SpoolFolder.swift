#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FerryCore

/// A private folder of temporary files, made with `mkdtemp` (mode 0700) in
/// `$TMPDIR` or `/tmp`, where bundles are spooled so that no photo is held in
/// memory longer than its record.
///
/// Files get names the folder chooses (`records`, `0`, `1`, …), never names
/// from a bundle, so nothing is written outside it. `remove()` deletes the
/// files and the folder; it is idempotent, and `deinit` calls it.
final class SpoolFolder {
    let path: String
    private var files: [String] = []
    private var removed = false
    /// The folder's place in the table of what a signal removes.
    private var signalSlot: Int?

    /// - Throws: `bundle.spoolFailed`.
    init() throws(FerryError) {
        let parent = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(parent)/ferry-bundle-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.flatMap { mkdtemp($0) } != nil
        }
        guard made else { throw .bundleSpoolFailed(parent, errno: errno) }
        path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        signalSlot = TemporaryFiles.remember(folder: path)
    }

    deinit { remove() }

    /// The path of the file called `name` in the folder.
    func file(_ name: String) -> String { path + "/" + name }

    /// Creates the new file `name` for writing.
    /// - Throws: `bundle.spoolFailed`.
    func create(_ name: String) throws(FerryError) -> FileOutput {
        let target = file(name)
        let descriptor = open(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .bundleSpoolFailed(path, errno: errno) }
        files.append(target)
        return FileOutput(descriptor: descriptor, name: target, owns: true)
    }

    /// Deletes the files and the folder.
    func remove() {
        guard !removed else { return }
        removed = true
        TemporaryFiles.forget(signalSlot)
        for file in files { unlink(file) }
        files.removeAll()
        rmdir(path)
    }
}
