import FerryCore

/// The first entry of a bundle, `manifest.json`: what the bundle holds, so
/// that a reader can check the content against it (see Formats/bundle.md).
///
///     {
///       "format": "ferry-bundle",
///       "version": 1,
///       "kind": "product",
///       "records": "records.jsonl",
///       "count": 3,
///       "created": "2024-05-01T12:00:00Z",
///       "media": [
///         {"path": "media/xbox-360.png", "bytes": 349, "crc32": 1234567890}
///       ]
///     }
struct BundleManifest: Hashable {
    static let format = "ferry-bundle"
    static let version: Int64 = 1

    /// One file under `media/`.
    struct Media: Hashable {
        var path: String
        var bytes: Int
        var crc32: UInt32
    }

    /// The kind of the records, when known; readers take it as a hint only.
    var kind: String?
    /// The name of the records entry.
    var records = EntryPath.records
    /// How many records it holds.
    var count: Int
    /// When the bundle was made, in ISO 8601.
    var created: String?
    var media: [Media]

    init(kind: String?, count: Int, created: String?, media: [Media]) {
        self.kind = kind
        self.count = count
        self.created = created
        self.media = media
    }

    // MARK: - Writing

    /// The manifest as JSON text, two spaces a level, ending with a line break.
    func encoded() throws(FerryError) -> [UInt8] {
        var pairs: [(String, Value)] = [
            ("format", .string(BundleManifest.format)),
            ("version", .integer(BundleManifest.version)),
        ]
        if let kind { pairs.append(("kind", .string(kind))) }
        pairs.append(("records", .string(records)))
        pairs.append(("count", .integer(Int64(count))))
        if let created { pairs.append(("created", .string(created))) }
        let files = media.map { file in
            Value.object(
                OrderedObject([
                    ("path", .string(file.path)), ("bytes", .integer(Int64(file.bytes))),
                    ("crc32", .integer(Int64(file.crc32))),
                ]))
        }
        pairs.append(("media", .array(files)))
        var buffer = WriteBuffer(capacity: 256 + media.count * 96)
        defer { buffer.release() }
        try JSONText.appendValue(.object(OrderedObject(pairs)), to: &buffer, indentLevel: 0)
        buffer.append(0x0A)
        return buffer.bytes
    }

    // MARK: - Reading

    /// The manifest a JSON object holds, read as one record.
    /// - Throws: `bundle.notBundle`, `bundle.unsupportedVersion`,
    ///   `bundle.invalidManifest`, `bundle.duplicateEntry`, at `location`.
    init(_ record: Record, at location: SourceLocation) throws(FerryError) {
        func field(_ name: String, _ expected: MessageKey) -> FerryError {
            var here = location
            here.field = name
            return .bundleInvalidManifest(field: name, expected: expected, at: here)
        }
        guard case .string(let format)? = record["format"] else { throw field("format", .typeString) }
        guard format == BundleManifest.format else { throw .bundleNotBundle(format: format, at: location) }
        guard case .integer(let version)? = record["version"] else { throw field("version", .typeInteger) }
        guard version == BundleManifest.version else { throw .bundleUnsupportedVersion(version, at: location) }
        switch record["kind"] {
        case nil, .null?: kind = nil
        case .string(let text)?: kind = text
        default: throw field("kind", .typeString)
        }
        guard case .string(let records)? = record["records"], EntryPath.isCanonical(records),
            records != EntryPath.manifest, !EntryPath.isMedia(records)
        else { throw field("records", .bundleExpectedRecordsPath) }
        self.records = records
        guard case .integer(let count)? = record["count"], count >= 0, let exact = Int(exactly: count) else {
            throw field("count", .bundleExpectedCount)
        }
        self.count = exact
        switch record["created"] {
        case nil, .null?: created = nil
        case .string(let text)?: created = text
        default: throw field("created", .typeString)
        }
        var media: [Media] = []
        switch record["media"] {
        case nil, .null?: break
        case .array(let files)?:
            var seen = Set<String>()
            for (index, file) in files.enumerated() {
                let name = "media[\(index)]"
                guard case .object(let object) = file else { throw field(name, .typeObject) }
                guard case .string(let path)? = object["path"], EntryPath.isCanonical(path), EntryPath.isMedia(path)
                else { throw field(name + ".path", .bundleExpectedMediaPath) }
                guard seen.insert(path).inserted else { throw .bundleDuplicateEntry(entry: path, at: location) }
                guard case .integer(let bytes)? = object["bytes"], bytes >= 0, let size = Int(exactly: bytes) else {
                    throw field(name + ".bytes", .bundleExpectedCount)
                }
                guard case .integer(let crc)? = object["crc32"], let checksum = UInt32(exactly: crc) else {
                    throw field(name + ".crc32", .bundleExpectedCRC32)
                }
                media.append(Media(path: path, bytes: size, crc32: checksum))
            }
        default:
            throw field("media", .typeArray)
        }
        self.media = media
    }
}
