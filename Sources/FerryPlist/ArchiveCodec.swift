import FerryCore

/// NSKeyedArchiver archives, binary or XML, such as the file the GameStore
/// app saved with `archiveRootObject(products, toFile:)`.
public struct ArchiveCodec: Codec {
    /// The class name the writer gives each record (`Product`, or the app's
    /// module-qualified `GameStore.Product`); nil for the kind's.
    /// `--class-name` overrides it.
    public var className: String?

    public init(className: String? = nil) { self.className = className }

    public let id = "archive"
    public let extensions = ["archive", "nskeyedarchive"]
    public let capabilities: CodecCapabilities = [.read, .write, .readsRaw, .writesBinary]
    public let embedsMedia = true
    public let options = [
        CodecOption(name: "class-map", helpKey: .optionArchiveClassMap, valueName: "name=kind", applies: .read),
        CodecOption(name: "class-name", helpKey: .optionArchiveClassName, valueName: "name", applies: .write),
    ]

    /// A binary or XML plist (UTF-8, or UTF-16 with a byte order mark) that
    /// names `$archiver` near its start, as NSKeyedArchiver and plistlib
    /// both write it.
    public func sniff(_ prefix: [UInt8]) -> SniffResult {
        let text = XMLPlistEncoding.sniffable(prefix)
        guard prefix.starts(with: BinaryPlistScanner.magic) || Self.looksLikeXML(text) else { return .no }
        return text.firstRange(of: Array("$archiver".utf8)) != nil ? .certain : .no
    }

    public func makeReader(_ input: any ByteInput, context: ReadContext) throws(FerryError) -> any RecordReader {
        try KeyedArchiveReader(try Self.objects(input, limits: context.limits), context: context, classMap: try Self.classMap(context))
    }

    public func makeWriter(_ output: any ByteOutput, context: WriteContext) throws(FerryError) -> any RecordWriter {
        KeyedArchiveWriter(output, kind: context.kind ?? .generic, className: context.options["class-name"] ?? className, losses: context.losses)
    }

    /// Checks the header, then decodes every object the root reaches.
    public func lint(_ input: any ByteInput, context: ReadContext) throws(FerryError) {
        let objects = try Self.objects(input, limits: context.limits)
        var decoder = KeyedArchiveDecoder(objects, limits: context.limits, classMap: try Self.classMap(context))
        _ = try decoder.value(uid: objects.root, depth: 1)
    }

    /// This codec writing records under `--class-name`, when given; a
    /// `--class-map` is checked here and read by each reader.
    /// - Throws: `usage.invalidValue` for a class map that does not parse.
    public func configured(by options: OptionValues) throws(FerryError) -> any Codec {
        if let text = options["class-map"] { _ = try ClassMap(parsing: text) }
        return ArchiveCodec(className: options["class-name"] ?? className)
    }

    /// The classes `--class-map` names.
    /// - Throws: `usage.invalidValue`.
    static func classMap(_ context: ReadContext) throws(FerryError) -> ClassMap {
        try context.options["class-map"].map { text throws(FerryError) in try ClassMap(parsing: text) } ?? ClassMap()
    }

    /// The objects of a binary or XML archive.
    static func objects(_ input: any ByteInput, limits: ReadLimits) throws(FerryError) -> KeyedArchiveObjects {
        let contents = try InputBytes.read(input, limit: limits.maxInputBytes)
        if contents.starts(with: BinaryPlistScanner.magic) {
            return try KeyedArchiveObjects(binary: contents, name: input.name, limits: limits)
        }
        let parsed = try XMLPlistParser.parse(contents.array(), name: input.name, limits: limits)
        return try KeyedArchiveObjects(parsed: parsed, name: input.name)
    }

    static func looksLikeXML(_ prefix: [UInt8]) -> Bool {
        var bytes = prefix[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let start = bytes.drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return start.starts(with: Array("<?xml".utf8)) || start.starts(with: Array("<plist".utf8))
            || start.starts(with: Array("<!DOCTYPE plist".utf8))
    }
}
