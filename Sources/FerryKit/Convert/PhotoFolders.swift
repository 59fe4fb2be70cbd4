#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Design
//
// `ferry validate` reads every photo a reference names. Most files name
// photos in one or two folders, and in CI the photos are often not there:
// each reference then cost a `realpath` that failed, and an error made and
// located, about 14 µs a record. Instead each folder a reference names is
// listed once, at its first reference, as the digests of its names:
//
//     photos/p1.png  ─▶ folder "photos": opendir + readdir, once
//                        { digest("p0.png"), digest("p2.png"), … }
//                     ─▶ digest("p1.png") is not there: ENOENT, no system call
//
// The listing only ever says "missing", with the reason the read would
// have met (ENOENT for a name or a folder that is not there, ENOTDIR for
// a folder that is a file). A name it has is read (`PhotoStore.read`),
// which still refuses a symbolic link out of the folder and finds a
// directory or an unreadable file; so does every name when the folder
// cannot be listed (no read permission), or on a file system that may
// compare names without regard to case (not Linux).
//
// Measured in instructions (Scripts/count-instructions.sh, release): 200k
// products, 60% naming `p<N>.jpg` beside the file where there is none,
// took 58.9 G instructions in JSON Lines before (0.50 G with null photos);
// with `--photos skip` it takes 0.505 G, and checked (each an error, up to
// the cap of 1,000) 0.627 G. At 1M: 2.47 G skipped and 2.08 G checked,
// against 2.44 G with null photos (CSV: 2.17 G, 1.66 G, 2.08 G).

/// The folders photo references name, each listed once (see above).
struct PhotoFolders {
    /// What is known of one folder.
    private enum Listing {
        /// The digests of the names it holds.
        case names(Set<KeyDigest>)
        /// Reading a reference in it fails for this reason.
        case missing(Int32)
        /// It could not be listed: each reference is read.
        case unlisted
    }

    /// The most folders kept; references in others are read.
    static let mostFolders = 4096
    /// Longer names and paths are read, for the reason a read gives them.
    private static let longestName = 255
    private static let longestPath = 4095

    private var listings: [[UInt8]: Listing] = [:]
    /// The folder asked last, and its listing: most references share one.
    private var lastFolder: [UInt8] = []
    private var last: Listing?

    /// The reason reading `reference`, relative to `directory`, fails
    /// without a doubt; nil when only reading it can tell.
    /// - Complexity: a hash of the name and a set lookup, once the
    ///   reference's folder is listed.
    mutating func missingReason(_ reference: UnsafeBufferPointer<UInt8>, in directory: String) -> Int32? {
        #if os(Linux)
        let slash = reference.lastIndex(of: UInt8(ascii: "/"))
        let folder = UnsafeBufferPointer(rebasing: reference[..<(slash ?? 0)])
        let name = UnsafeBufferPointer(rebasing: reference[(slash.map { $0 + 1 } ?? 0)...])
        guard name.count <= Self.longestName, directory.utf8.count + reference.count < Self.longestPath,
            !name.isEmpty, !name.contains(0), !folder.contains(0), !(name.count == 1 && name[0] == UInt8(ascii: "."))
        else { return nil }
        let listing = self.listing(of: folder, in: directory)
        switch listing {
        case .names(let names):
            return names.contains(KeyDigest(UnsafeRawBufferPointer(name))) ? nil : ENOENT
        case .missing(let reason):
            return reason
        case .unlisted:
            return nil
        }
        #else
        return nil
        #endif
    }

    /// The listing of `folder`, made at its first reference.
    private mutating func listing(of folder: UnsafeBufferPointer<UInt8>, in directory: String) -> Listing {
        // Folders are short: compared a byte at a time, with no call.
        if let last, lastFolder.count == folder.count,
            lastFolder.withUnsafeBufferPointer({ known in
                var index = 0
                while index < folder.count && known[index] == folder[index] { index &+= 1 }
                return index == folder.count
            })
        {
            return last
        }
        let key = Array(folder)
        let listing: Listing
        if let known = listings[key] {
            listing = known
        } else {
            listing = Self.list(directory + "/" + String(decoding: folder, as: UTF8.self))
            if listings.count < Self.mostFolders { listings[key] = listing }
        }
        lastFolder = key
        last = listing
        return listing
    }

    /// The names in the folder at `path`.
    private static func list(_ path: String) -> Listing {
        guard let stream = opendir(path) else {
            return errno == ENOENT || errno == ENOTDIR ? .missing(errno) : .unlisted
        }
        defer { closedir(stream) }
        var names = Set<KeyDigest>()
        errno = 0
        while let entry = readdir(stream) {
            let digest = withUnsafeBytes(of: &entry.pointee.d_name) { bytes in
                let length = bytes.firstIndex(of: 0) ?? bytes.count
                return KeyDigest(UnsafeRawBufferPointer(rebasing: bytes[..<length]))
            }
            names.insert(digest)
        }
        // A listing cut short by an error would call present files missing.
        return errno == 0 ? .names(names) : .unlisted
    }
}
