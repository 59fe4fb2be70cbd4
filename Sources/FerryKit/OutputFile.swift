#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An output written safely: into a temporary file beside the destination,
/// synced and renamed over it only when everything was written. A failed or
/// abandoned run leaves no file behind and never touches an existing one.
public final class OutputFile {
    /// The destination path.
    public let path: String
    /// The temporary file, while it exists.
    public private(set) var temporaryPath: String?
    /// Where bytes go: the temporary file.
    public let output: FileOutput
    private var committed = false
    private var signalSlot: Int?

    /// Creates the temporary file for `path`.
    /// - Parameter overwrite: whether an existing destination may be replaced.
    /// - Throws: `io.outputExists`, `io.isDirectory`, `io.temporaryFile`.
    public init(path: String, overwrite: Bool) throws(FerryError) {
        self.path = path
        var info = stat()
        if stat(path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR { throw .ioIsDirectory(path) }
            if !overwrite { throw .ioOutputExists(path) }
        }
        let directory = OutputFile.directory(of: path)
        let base = path.split(separator: "/").last.map(String.init) ?? "output"
        var template = Array("\(directory)/.\(base).ferry-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw .ioTemporaryFile(directory, errno: errno) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        temporaryPath = temporary
        signalSlot = TemporaryFiles.remember(temporary)
        // mkstemp makes the file 0600; give it the usual mode for new files.
        let mask = umask(0)
        umask(mask)
        fchmod(descriptor, 0o666 & ~mask)
        output = FileOutput(descriptor: descriptor, name: path, owns: true)
        output.writesBackEarly = true
    }

    deinit { discard() }

    /// Syncs the temporary file and renames it over the destination.
    /// - Throws: `io.writeFailed`, `io.renameFailed`; the temporary file is removed.
    public func commit() throws(FerryError) {
        guard let temporaryPath, !committed else { return }
        do throws(FerryError) {
            try output.sync()
            output.close()
            guard rename(temporaryPath, path) == 0 else { throw .ioRenameFailed(path, errno: errno) }
        } catch {
            discard()
            throw error
        }
        committed = true
        self.temporaryPath = nil
        TemporaryFiles.forget(signalSlot)
        signalSlot = nil
    }

    /// Removes the temporary file; the destination stays as it was.
    public func discard() {
        output.close()
        if let temporaryPath, !committed { unlink(temporaryPath) }
        temporaryPath = nil
        TemporaryFiles.forget(signalSlot)
        signalSlot = nil
    }

    /// The folder part of a path, `.` when it has none.
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
