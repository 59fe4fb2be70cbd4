import FerryCore

/// The names of a bundle's entries: which are safe, and their one canonical form.
enum EntryPath {
    static let manifest = "manifest.json"
    static let records = "records.jsonl"
    /// The folder photos live in; their names start with `media/`.
    static let mediaPrefix = "media/"

    /// The canonical form of an entry's name: its parts joined by `/`, with
    /// empty and `.` parts dropped (`./media//a.png` is `media/a.png`); empty
    /// for the archive's root folder.
    /// - Throws: `bundle.absolutePath` for a name starting with `/`;
    ///   `bundle.parentReference` for a name with a `..` part.
    static func canonical(_ name: String, at location: SourceLocation) throws(FerryError) -> String {
        guard !name.hasPrefix("/") else { throw .bundleAbsolutePath(entry: name, at: location) }
        let parts = name.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        guard !parts.contains("..") else { throw .bundleParentReference(entry: name, at: location) }
        return parts.joined(separator: "/")
    }

    /// Whether `path` is already canonical and names a file: relative, with
    /// no empty, `.` or `..` part and no NUL.
    static func isCanonical(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return !path.isEmpty && !path.utf8.contains(0)
            && parts.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
    }

    /// Whether `path` names a file under `media/`.
    static func isMedia(_ path: String) -> Bool {
        path.hasPrefix(mediaPrefix) && path.utf8.count > mediaPrefix.utf8.count
    }
}
