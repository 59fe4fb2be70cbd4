import FerryCore

/// The names photos get in a bundle: `media/` and the slug of their record's
/// name, made unique with `-2`, `-3`, …, and the extension of their image type.
struct MediaNames {
    private var used = Set<String>()

    mutating func path(for name: String, type: ImageType) -> String {
        let stem = Photo.fileStem(name)
        var candidate = "\(stem).\(type.fileExtension)"
        var suffix = 2
        while used.contains(candidate) {
            candidate = "\(stem)-\(suffix).\(type.fileExtension)"
            suffix += 1
        }
        used.insert(candidate)
        return EntryPath.mediaPrefix + candidate
    }
}
