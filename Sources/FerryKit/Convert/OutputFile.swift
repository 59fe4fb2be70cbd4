#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An output written safely: into a temporary file beside the destination,
/// synced and renamed over it only when everything was written. A failed or
/// abandoned run leaves no file behind and never touches an existing one.
///
/// What the destination is decides how it is written:
///
/// | destination                          | written                                   |
/// |--------------------------------------|-------------------------------------------|
/// | nothing yet                          | temporary file, renamed                   |
/// | a regular file (`--force`)           | temporary file with its mode, renamed     |
/// | a symbolic link (to any of these)    | as its target; the link stays a link      |
/// | a FIFO, a device, a socket           | directly: no temporary file, no `--force` |
/// | `/dev/stdout`, `/dev/fd/…`, `/proc/…`  | directly: the shell's descriptor          |
///
/// After a rename the folder is synced too, so the new name survives a crash.
package final class OutputFile {
    /// The destination path, as given.
    package let path: String
    /// The file that is replaced: `path`, or the end of its symbolic links.
    package let target: String
    /// The temporary file, while it exists; nil when writing directly.
    package private(set) var temporaryPath: String?
    /// Where bytes go: the temporary file, or the destination itself.
    package let output: FileOutput
    /// Whether the destination is written in place (a FIFO, a device).
    package let isDirect: Bool
    private var committed = false
    private var signalSlot: Int?

    /// How many symbolic links are followed before giving up, as the kernel does.
    private static let maxLinks = 40

    /// Opens `path` for writing: a temporary file beside what it names, or,
    /// for a special file, the file itself.
    /// - Parameters:
    ///   - overwrite: whether an existing regular file may be replaced.
    ///   - keepingOwner: whether a replaced file keeps its owner and group,
    ///     where the user may give them (`ferry edit`); else the new file
    ///     is the user's, as a new file is.
    /// - Throws: `io.outputExists`, `io.isDirectory`, `io.cannotOpen`,
    ///   `output.folderMissing`, `io.temporaryFile`.
    package init(path: String, overwrite: Bool, keepingOwner: Bool = false) throws(FerryError) {
        self.path = path
        var info = stat()
        let exists = stat(path, &info) == 0
        let kind = exists ? info.st_mode & S_IFMT : 0
        if exists && kind == S_IFDIR { throw .ioIsDirectory(path) }
        if (exists && kind != S_IFREG) || OutputFile.isSystemPath(path) {
            // A FIFO, a device or a socket: there is nothing to replace, and a
            // reader may be waiting on this very file.
            // A path that names one of this process's descriptors shares it,
            // offset and append mode included (`>> log` appends), as the
            // shell's redirection means; anything else is opened.
            let shared = OutputFile.descriptorNumber(path).map { fcntl($0, F_DUPFD_CLOEXEC, 3) } ?? -1
            let descriptor =
                shared >= 0 ? shared : open(path, O_WRONLY | O_CLOEXEC | (exists ? 0 : O_CREAT | O_TRUNC), 0o666)
            guard descriptor >= 0 else { throw .ioCannotOpen(path, errno: errno) }
            target = path
            isDirect = true
            output = FileOutput(descriptor: descriptor, name: path, owns: true)
            return
        }
        if exists && !overwrite { throw .ioOutputExists(path) }
        target = try OutputFile.resolveLinks(path)
        isDirect = false
        let directory = OutputFile.directory(of: target)
        var folder = stat()
        guard stat(directory, &folder) == 0 else {
            throw errno == ENOENT || errno == ENOTDIR
                ? .outputFolderMissing(directory, for: path) : .ioTemporaryFile(directory, errno: errno)
        }
        let base = target.split(separator: "/").last.map(String.init) ?? "output"
        var template = Array("\(directory)/.\(base).ferry-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw .ioTemporaryFile(directory, errno: errno) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        temporaryPath = temporary
        signalSlot = TemporaryFiles.remember(temporary)
        // mkstemp makes the file 0600: a replaced file keeps its mode, a new
        // one gets the usual mode for new files.
        if exists {
            // Owner first: a change of owner clears the set-user-ID bits,
            // which the mode then puts back. EPERM (another user's file)
            // leaves the file the user's.
            if keepingOwner { _ = fchown(descriptor, info.st_uid, info.st_gid) }
            fchmod(descriptor, info.st_mode & 0o7777)
        } else {
            let mask = umask(0)
            umask(mask)
            fchmod(descriptor, 0o666 & ~mask)
        }
        output = FileOutput(descriptor: descriptor, name: path, owns: true)
        output.writesBackEarly = true
    }

    deinit { discard() }

    /// Whether the bytes go to a terminal.
    package var isTerminal: Bool { isatty(output.descriptor) == 1 }

    /// Syncs the temporary file, renames it over the destination and syncs
    /// the folder; a direct output is only closed.
    /// - Throws: `io.writeFailed`, `io.renameFailed`; the temporary file is removed.
    package func commit() throws(FerryError) {
        if isDirect {
            output.close()
            committed = true
            return
        }
        guard let temporaryPath, !committed else { return }
        do throws(FerryError) {
            try output.sync()
            output.close()
            guard rename(temporaryPath, target) == 0 else { throw .ioRenameFailed(path, errno: errno) }
        } catch {
            discard()
            throw error
        }
        committed = true
        self.temporaryPath = nil
        TemporaryFiles.forget(signalSlot)
        signalSlot = nil
        try OutputFile.syncFolder(of: target, reportingAs: path)
    }

    /// Removes the temporary file; the destination stays as it was.
    /// Writes `text` as the whole file and commits it; on a failure the
    /// file is discarded, and what it named is left as it was.
    package func commit(text: String) throws(FerryError) {
        do throws(FerryError) {
            try output.write(Array(text.utf8))
            try commit()
        } catch {
            discard()
            throw error
        }
    }

    package func discard() {
        output.close()
        if let temporaryPath, !committed { unlink(temporaryPath) }
        temporaryPath = nil
        TemporaryFiles.forget(signalSlot)
        signalSlot = nil
    }

    // MARK: - Paths

    /// The folder part of a path, `.` when it has none.
    package static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Whether `path` is written in place rather than replaced: an existing
    /// file that is not regular (a FIFO, a device, a socket), or a path that
    /// names a descriptor (`/dev/stdout`, `/dev/fd/3`, `/proc/self/fd/1`).
    /// Such a name need not say a format.
    package static func writesDirectly(_ path: String) -> Bool {
        var info = stat()
        if isSystemPath(path) { return true }
        guard stat(path, &info) == 0 else { return false }
        let kind = info.st_mode & S_IFMT
        return kind != S_IFREG && kind != S_IFDIR
    }

    /// Paths that name a descriptor of the process (`/dev/stdout` is
    /// `/proc/self/fd/1`, the shell's redirection): written in place, never
    /// replaced by a rename, even when the descriptor is a regular file. A
    /// regular file elsewhere under `/dev` (`/dev/shm`) is replaced as usual.
    static func isSystemPath(_ path: String) -> Bool {
        ["/dev/stdout", "/dev/stderr"].contains(path) || path.hasPrefix("/dev/fd/") || path.hasPrefix("/proc/")
    }

    /// The descriptor a path names: 1 for `/dev/stdout`, 2 for
    /// `/dev/stderr`, N for `/dev/fd/N` and `/proc/self/fd/N`.
    static func descriptorNumber(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                return Int32(path.dropFirst(prefix.count))
            }
            return nil
        }
    }

    /// The path a chain of symbolic links ends at; `path` itself when it is
    /// not a link. The end need not exist (a link to a file not yet made).
    /// - Throws: `io.cannotOpen` with `ELOOP` for a chain that does not end.
    static func resolveLinks(_ path: String) throws(FerryError) -> String {
        var current = path
        for _ in 0..<maxLinks {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { throw .ioCannotOpen(path, errno: errno) }
            let link = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = link.hasPrefix("/") ? link : directory(of: current) + "/" + link
        }
        throw .ioCannotOpen(path, errno: ELOOP)
    }

    /// Syncs the folder holding `path`, so that a rename into it is on the disk.
    /// - Throws: `io.writeFailed` when the sync fails (a folder that cannot
    ///   be opened, or a file system that cannot sync folders, is let be).
    static func syncFolder(of path: String, reportingAs name: String) throws(FerryError) {
        let folder = open(directory(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return }
        defer { close(folder) }
        if fsync(folder) != 0 && errno != EINVAL && errno != EROFS {
            throw .ioWriteFailed(name, errno: errno)
        }
    }
}

// MARK: - Outputs that are inputs

extension OutputFile {
    /// Refuses outputs that are one of the inputs: the same regular file,
    /// by device and inode, whatever links lead to it (`validate a.json -o
    /// a.json --force` replaced the data with its report). Standard input
    /// and output (`-`), outputs that do not exist yet and special files
    /// (a FIFO, `/dev/stdout`) are no input's.
    /// - Parameters:
    ///   - outputs: the files a command writes, as given; nil for none.
    ///   - inputs: the files it reads, as given.
    /// - Throws: `output.isInput`, for the first output that is an input.
    package static func refuseInputs(_ outputs: [String?], inputs: [String]) throws(FerryError) {
        func identity(_ path: String) -> (UInt64, UInt64)? {
            var info = stat()
            guard path != "-", stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            return (UInt64(info.st_dev), UInt64(info.st_ino))
        }
        let read = inputs.compactMap { input in identity(input).map { (input, $0) } }
        for case let output? in outputs {
            guard let written = identity(output) else { continue }
            if let (input, _) = read.first(where: { $0.1 == written }) { throw .outputIsInput(output, input: input) }
        }
    }
}
