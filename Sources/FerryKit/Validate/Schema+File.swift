import FerryCore
import FerryJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Design
//
// A schema on disk may refer to others: `price.schema.json#/$defs/money`
// beside it (its base URI is `file://` + its absolute path), or
// `https://example.com/schemas/price.json`, which `--schema-dir` finds by
// the `$id` of the schemas in a folder. Nothing is fetched from a network:
// a reference neither finds is `schema.unresolvedReference` at load.

extension Schema {
    /// The largest schema file read (a schema is a page or two of JSON).
    package static let maxFileBytes = 16 << 20

    /// Reads the JSON Schema at `path` (`-` for standard input) and
    /// compiles it, for `ferry validate` or `ConversionOptions.schema`;
    /// `formats` as in `init(document:source:formats:)`.
    /// - Throws: `io.*` when it cannot be read; `json.*` when it is not
    ///   JSON; `format.notRecords` when it is not an object;
    ///   `limit.inputTooLarge` past `maxFileBytes`; the `schema.*` usage
    ///   codes of `init(document:source:)`.
    public init(
        contentsOf path: String, limits: ReadLimits = ReadLimits(), formats: SchemaFormatMode = .assert
    ) throws(FerryError) {
        try self.init(contentsOf: path, folders: [], limits: limits, formats: formats)
    }

    /// Reads the JSON Schema at `path` and compiles it, with the schemas it
    /// refers to: files beside it (a relative `$ref`), and the schemas of
    /// `folders` (their `.json` files, at any depth) by their `$id`.
    /// - Throws: as `init(contentsOf:limits:)`, for the referred files too;
    ///   `schema.unresolvedReference` for a reference to nothing there.
    public init(
        contentsOf path: String, folders: [String], limits: ReadLimits = ReadLimits(),
        formats: SchemaFormatMode = .assert
    ) throws(FerryError) {
        let document = try Self.readDocument(path, limits: limits)
        var known: [String: Value] = [:]
        for folder in folders {
            var info = stat()
            guard stat(folder, &info) == 0 else { throw .ioCannotOpen(folder, errno: errno) }
            guard info.st_mode & S_IFMT == S_IFDIR else { throw .ioCannotOpen(folder, errno: ENOTDIR) }
            for file in Self.jsonFiles(in: folder) {
                // A `.json` file that holds data (an array, a string) is no
                // schema, and stays out; a file that is not JSON is an error.
                let schema: Value
                do throws(FerryError) {
                    schema = try Self.readDocument(file, limits: limits)
                } catch where error.code == .formatNotRecords {
                    continue
                }
                guard case .object(let object) = schema, case .string(let id)? = object["$id"] else { continue }
                known[SchemaURI.withoutFragment(id)] = schema
            }
        }
        let base = Self.fileURI(path == "-" ? "./-" : path)
        try self.init(document: document, source: path, baseURI: base, formats: formats) { uri throws(FerryError) in
            if let schema = known[uri] { return schema }
            guard uri.hasPrefix("file://") else { return nil }
            let file = SchemaURI.percentDecoded(String(uri.dropFirst(7)))
            guard PhotoStore.exists(file) else { return nil }
            return try Self.readDocument(file, limits: limits)
        }
    }

    /// The schema document in the file at `path`: an object (or, at the
    /// root of a file, `true` or `false`).
    static func readDocument(_ path: String, limits: ReadLimits) throws(FerryError) -> Value {
        let input = try FileInput(path: path)
        defer { input.close() }
        let bytes = try InputBytes.read(input, limit: Self.maxFileBytes).array()
        // A JSON document reader also takes an array of objects: only an
        // object is a schema.
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        // `true` and `false` are schemas too.
        let text = bytes.filter { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        if text == Array("true".utf8) { return .bool(true) }
        if text == Array("false".utf8) { return .bool(false) }
        if let first, first != UInt8(ascii: "{") {
            let found: String? =
                switch first {
                case UInt8(ascii: "["): "array"
                case UInt8(ascii: "\""): "string"
                case UInt8(ascii: "t"), UInt8(ascii: "f"): "bool"
                case UInt8(ascii: "n"): "null"
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): "number"
                default: nil  // not JSON: the reader says where
                }
            if let found { throw .formatNotRecords(found: found, at: SourceLocation(file: path, byteOffset: 0)) }
        }
        let reader = JSONReader(MemoryInput(bytes, name: path), layout: .document, limits: limits)
        guard let record = try reader.next() else {
            throw .formatNotRecords(found: "null", at: SourceLocation(file: path, byteOffset: 0))
        }
        _ = try reader.next()
        return .object(OrderedObject(record.pairs))
    }

    // MARK: - Files and URIs

    /// `file://` and the absolute form of `path`.
    static func fileURI(_ path: String) -> String {
        var absolute = path
        if !path.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: 4096)
            if getcwd(&buffer, buffer.count) != nil {
                let folder = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                absolute = folder + "/" + path
            }
        }
        var uri = "file://"
        for byte in absolute.utf8 {
            // Enough escaping for a path to stay one URI: what RFC 3986 reserves in a path.
            switch byte {
            case UInt8(ascii: "%"), UInt8(ascii: "#"), UInt8(ascii: "?"), UInt8(ascii: " "), 0..<0x20, 0x7F...:
                uri += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            default:
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return uri
    }

    /// The `.json` files in `folder` and the folders inside it, sorted.
    static func jsonFiles(in folder: String) -> [String] {
        guard let stream = opendir(folder) else { return [] }
        defer { closedir(stream) }
        var files: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.hasPrefix(".") else { continue }
            let path = folder + "/" + name
            // A link to a folder is not followed: two links to `.` would
            // make the walk endless.
            var info = stat()
            if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                files += jsonFiles(in: path)
            } else if name.hasSuffix(".json") {
                files.append(path)
            }
        }
        return files.sorted()
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - count)) + self
    }
}
