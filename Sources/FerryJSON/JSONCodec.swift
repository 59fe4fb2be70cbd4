import FerryCore

/// JSON (RFC 8259): a top-level array of objects, streamed record by record,
/// or a single object as one record.
public struct JSONCodec: LineSplittingCodec {
    /// How the writer lays out the array of records.
    public enum Style: Sendable, Hashable {
        /// One record a line, indented (the default).
        case pretty
        /// The whole array on one line (`--compact`).
        case compact
    }

    /// How records are written; `--compact` on the command line asks for
    /// `.compact` too.
    public var style: Style
    /// Where the array of records is, as an RFC 6901 pointer (`/products`);
    /// nil for a document that is the array. `--records-at` overrides it.
    public var recordsPointer: String?

    /// The codec as the standard registry holds it: pretty, the whole document.
    public init(style: Style = .pretty, recordsAt pointer: String? = nil) {
        self.style = style
        self.recordsPointer = pointer
    }

    public let id = "json"
    public let extensions = ["json"]
    public let capabilities: CodecCapabilities = [.read, .write, .readsRaw, .writesRaw, .splitsAtLineEnds, .writesParts]
    public let options = [
        CodecOption(name: "compact", helpKey: .optionJSONCompact, applies: .write),
        CodecOption(name: JSONCodec.recordsAt, helpKey: .optionJSONRecordsAt, valueName: "pointer", applies: .read),
    ]

    /// The option that names where the array of records is, as an RFC 6901
    /// pointer (`--records-at /products`); see `JSONPointer`.
    public static let recordsAt = "records-at"

    /// This codec with `--compact` as its style and `--records-at` as its
    /// pointer, when given.
    /// - Throws: `json.invalidPointer` for a pointer RFC 6901 refuses.
    public func configured(by options: OptionValues) throws(FerryError) -> any Codec {
        var copy = self
        if options.flag("compact") { copy.style = .compact }
        if let text = options[Self.recordsAt] {
            _ = try JSONPointer(text)
            copy.recordsPointer = text
        }
        return copy
    }

    /// The pointer `--records-at` gives, if any.
    /// - Throws: `json.invalidPointer`.
    static func pointer(_ context: ReadContext) throws(FerryError) -> JSONPointer? {
        guard let text = context.options[recordsAt] else { return nil }
        return try JSONPointer(text)
    }

    /// The pointer `--records-at` gives, else the codec's own.
    /// - Throws: `json.invalidPointer`.
    func pointer(_ context: ReadContext) throws(FerryError) -> JSONPointer? {
        if let given = try Self.pointer(context) { return given }
        return try recordsPointer.map { text throws(FerryError) in try JSONPointer(text) }
    }

    /// A top-level array, cut at the commas between its elements; nil when
    /// `--records-at` reads records deeper in the document, or the text is
    /// not in UTF-8.
    public func lineSplitting(start: [UInt8], isWhole: Bool, options: OptionValues) throws(FerryError)
        -> LineSplitting?
    {
        guard options[Self.recordsAt] == nil, recordsPointer == nil, !TextEncoding.startsWithUTF16Mark(start)
        else { return nil }
        return LineSplitting(cut: .arrayElements, options: options)
    }

    /// `[` after optional whitespace is likely JSON; `{` could be JSON or JSON Lines.
    public func sniff(_ prefix: [UInt8]) -> SniffResult {
        switch JSONSniffing.firstSignificantByte(prefix) {
        case UInt8(ascii: "["): .likely
        case UInt8(ascii: "{"): .possible
        default: .no
        }
    }

    public func makeReader(_ input: any ByteInput, context: ReadContext) throws(FerryError) -> any RecordReader {
        JSONReader(input, layout: .document, context: context, pointer: try pointer(context))
    }

    public func makeWriter(_ output: any ByteOutput, context: WriteContext) throws(FerryError) -> any RecordWriter {
        let compact = style == .compact || context.options.flag("compact")
        return JSONWriter(output, style: compact ? .compact : .pretty, part: context.part)
    }

    /// Any JSON text is well formed, scalars included.
    public func lint(_ input: any ByteInput, context: ReadContext) throws(FerryError) {
        try JSONReader(input, layout: .document, limits: context.limits, acceptsAnyValue: true).skipToEnd()
    }
}

/// JSON Lines: one JSON value per line, objects for records.
public struct JSONLinesCodec: LineSplittingCodec {
    public init() {}

    public let id = "jsonl"
    public let extensions = ["jsonl", "ndjson"]
    public let capabilities: CodecCapabilities = [
        .read, .write, .readsRaw, .writesRaw, .splitsAtLineEnds, .writesParts, .writesLines,
    ]

    /// Lines, none hidden by a quote (a JSON string holds no raw line
    /// feed); nil for text not in UTF-8.
    public func lineSplitting(start: [UInt8], isWhole: Bool, options: OptionValues) throws(FerryError)
        -> LineSplitting?
    {
        guard !TextEncoding.startsWithUTF16Mark(start) else { return nil }
        return LineSplitting(cut: .rows, options: options)
    }

    /// An object, a line break, and another object is JSON Lines.
    public func sniff(_ prefix: [UInt8]) -> SniffResult {
        guard JSONSniffing.firstSignificantByte(prefix) == UInt8(ascii: "{") else { return .no }
        return JSONSniffing.looksLikeLines(prefix) ? .likely : .possible
    }

    public func makeReader(_ input: any ByteInput, context: ReadContext) throws(FerryError) -> any RecordReader {
        JSONReader(input, layout: .lines, context: context)
    }

    public func makeWriter(_ output: any ByteOutput, context: WriteContext) throws(FerryError) -> any RecordWriter {
        JSONWriter(output, style: .lines)
    }

    public func lint(_ input: any ByteInput, context: ReadContext) throws(FerryError) {
        let reader = JSONReader(
            input, layout: .lines, limits: context.limits, acceptsAnyValue: true,
            resumesAfterBadRecords: context.resumesAfterBadRecords)
        try context.readToEnd { () throws(FerryError) in
            try reader.skipToEnd()
            return false
        } resumes: { reader.resumesAfterError }
    }
}

/// Content checks shared by the JSON codecs.
enum JSONSniffing {
    static func firstSignificantByte(_ prefix: [UInt8]) -> UInt8? {
        var bytes = prefix[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        return bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    }

    /// Whether the first line ends with `}` and the next non-blank line starts with `{`.
    static func looksLikeLines(_ prefix: [UInt8]) -> Bool {
        guard let newline = prefix.firstIndex(of: 0x0A) else { return false }
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0D }
        guard prefix[..<newline].last(where: { !isSpace($0) }) == UInt8(ascii: "}") else { return false }
        return prefix[(newline + 1)...].first { !isSpace($0) && $0 != 0x0A } == UInt8(ascii: "{")
    }
}
