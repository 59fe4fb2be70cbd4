extension Schema {
    /// The largest schema file read (a schema is a page or two of JSON).
    public static let maxFileBytes = 16 << 20

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
        let input = try FileInput(path: path)
        defer { input.close() }
        let bytes = try InputBytes.read(input, limit: Self.maxFileBytes).array()
        // A JSON document reader also takes an array of objects: only an
        // object is a schema.
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
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
        try self.init(document: .object(OrderedObject(record.pairs)), source: path, formats: formats)
    }
}
