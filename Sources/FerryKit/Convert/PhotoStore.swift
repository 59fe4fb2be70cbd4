#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Moves photos between their two forms: inline bytes and files referenced
/// by a relative path.
///
/// - References are read relative to the input's folder, never outside it
///   (symbolic links included), and only when bytes are needed.
/// - With a photos folder, inline photos are written there as files named after
///   their record, and the record keeps their path relative to the output's folder.
package final class PhotoStore {
    /// Where references are resolved.
    package let inputDirectory: String
    /// Where written photos go, if anywhere.
    package let photosDirectory: String?
    /// The folder that stored references are relative to.
    package let outputDirectory: String
    /// The largest photo read from a file.
    package let maxPhotoBytes: Int
    package let overwrite: Bool
    /// The files this store wrote, so a failed conversion can remove them.
    package private(set) var writtenFiles: [String] = []
    private var usedNames: Set<String> = []
    /// The listings of the folders references named, for `missingReason`.
    private var folders = PhotoFolders()

    package init(
        inputDirectory: String, outputDirectory: String, photosDirectory: String?, overwrite: Bool,
        maxPhotoBytes: Int = 64 << 20
    ) {
        self.inputDirectory = inputDirectory
        self.outputDirectory = outputDirectory
        self.photosDirectory = photosDirectory
        self.overwrite = overwrite
        self.maxPhotoBytes = maxPhotoBytes
    }

    // MARK: - Reading references

    /// The bytes of the file a reference names.
    /// - Throws: `photo.outsideFolder`, `photo.unreadable`, `limit.photoTooLarge`.
    package func read(reference: String, at location: SourceLocation) throws(FerryError) -> [UInt8] {
        var text = reference
        guard !text.withUTF8(PhotoStore.leavesFolder) else { throw .photoOutsideFolder(reference, at: location) }
        let candidate = inputDirectory + "/" + reference
        guard let root = PhotoStore.realPath(inputDirectory) else {
            throw .photoUnreadable(reference, errno: errno, at: location)
        }
        guard let resolved = PhotoStore.realPath(candidate) else {
            throw .photoUnreadable(reference, errno: errno, at: location)
        }
        guard resolved.hasPrefix(root == "/" ? "/" : root + "/") else {
            throw .photoOutsideFolder(reference, at: location)
        }
        do throws(FerryError) {
            let input = try FileInput(path: resolved)
            defer { input.close() }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = try chunk.withUnsafeMutableBytes { buffer in
                    Result { () throws(FerryError) in try input.read(into: buffer) }
                }.get()
                if count == 0 { return bytes }
                bytes.append(contentsOf: chunk[0..<count])
                if bytes.count > maxPhotoBytes { throw FerryError.photoTooLarge(reference, limit: maxPhotoBytes, at: location) }
            }
        } catch {
            if error.code == .photoTooLarge { throw error }
            // Keep the reason (`errno.ENOENT`, …) of the open or read that failed.
            let reason = error.arguments.count > 1 ? error.arguments[1] : FerryError.reason(errno: EIO)
            throw FerryError(.photoUnreadable, [.path(reference), reason], at: location)
        }
    }

    /// Whether a reference leaves the input's folder by its text alone: an
    /// absolute path, a `..` component, or no component at all. Such a
    /// reference is refused wherever the photos are (`photo.outsideFolder`);
    /// a symbolic link out of the folder shows only when it is read.
    package static func leavesFolder(_ reference: UnsafeBufferPointer<UInt8>) -> Bool {
        let slash = UInt8(ascii: "/")
        let dot = UInt8(ascii: ".")
        if reference.first == slash { return true }
        var componentStart = 0
        var hasComponent = false
        for index in 0...reference.count where index == reference.count || reference[index] == slash {
            let length = index - componentStart
            if length == 2 && reference[componentStart] == dot && reference[componentStart + 1] == dot { return true }
            if length > 0 { hasComponent = true }
            componentStart = index + 1
        }
        return !hasComponent
    }

    /// The reason reading `reference` would fail with when a listing of
    /// its folder shows the file is not there (`ENOENT`), or the folder
    /// cannot be (`ENOENT`, `ENOTDIR`); nil when it must be read to tell.
    /// Each folder is listed once (`PhotoFolders`).
    func missingReason(_ reference: UnsafeBufferPointer<UInt8>) -> Int32? {
        folders.missingReason(reference, in: inputDirectory)
    }

    // MARK: - Writing files

    /// Writes `bytes` as a file in the photos folder, named after `name`.
    /// - Returns: the file's path relative to the output's folder.
    /// - Throws: `io.temporaryFile`, `io.writeFailed`, `io.renameFailed`.
    package func write(_ bytes: [UInt8], named name: String) throws(FerryError) -> String {
        guard let photosDirectory else { return Photo.dataURI(bytes) }
        try PhotoStore.makeDirectories(photosDirectory)
        let fileExtension = Photo.imageType(of: bytes).fileExtension
        let stem = PhotoStore.slug(name)
        var candidate = "\(stem).\(fileExtension)"
        var suffix = 2
        while usedNames.contains(candidate) || (!overwrite && PhotoStore.exists(photosDirectory + "/" + candidate)) {
            candidate = "\(stem)-\(suffix).\(fileExtension)"
            suffix += 1
        }
        usedNames.insert(candidate)
        let path = photosDirectory + "/" + candidate
        let file = try OutputFile(path: path, overwrite: true)
        try file.output.write(bytes)
        try file.commit()
        writtenFiles.append(path)
        return PhotoStore.relativePath(from: outputDirectory, to: path)
    }

    /// Removes the files this store wrote.
    package func removeWrittenFiles() {
        for path in writtenFiles { unlink(path) }
        writtenFiles.removeAll()
    }

    // MARK: - Paths

    /// A file name stem from a record's name (`Photo.fileStem`).
    package static func slug(_ name: String) -> String { Photo.fileStem(name) }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether `path` is a folder (following symbolic links).
    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    static func makeDirectories(_ path: String) throws(FerryError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o777) != 0 && errno != EEXIST {
                throw .ioCannotOpen(path, errno: errno)
            }
        }
    }

    /// `target` relative to the folder `base`, both taken from the current folder.
    static func relativePath(from base: String, to target: String) -> String {
        let absolute = { (path: String) -> [Substring] in
            let full = path.hasPrefix("/") ? path : (realPath(".") ?? ".") + "/" + path
            var parts: [Substring] = []
            for part in full.split(separator: "/") where part != "." {
                if part == ".." { _ = parts.popLast() } else { parts.append(part) }
            }
            return parts
        }
        let from = absolute(base)
        let to = absolute(target)
        var shared = 0
        while shared < min(from.count, to.count - 1) && from[shared] == to[shared] { shared += 1 }
        let ups = Array(repeating: "..", count: from.count - shared)
        return (ups + to[shared...].map(String.init)).joined(separator: "/")
    }
}
