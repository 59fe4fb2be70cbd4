import FerryCore

/// XML property lists: a top-level `<array>` of `<dict>`s, streamed record
/// by record, or one `<dict>` as one record.
///
/// The `plist` extension belongs to no codec alone, since binary and XML
/// property lists share it; content sniffing tells them apart.
public struct PlistXMLCodec: Codec {
    public init() {}

    public let id = "plist-xml"
    public let extensions: [String] = []
    /// plutil's name for the format (`plutil -convert xml1`).
    public let aliases = ["xml1"]
    public let capabilities: CodecCapabilities = [.read, .write, .writesBytes]

    /// `<plist` or `<!DOCTYPE plist` near the start, after an optional UTF-8
    /// byte order mark, white space and XML declaration, is likely an XML
    /// plist; other XML is only possible. Never certain: a keyed archive in
    /// XML is an XML plist too, and its codec claims it. A document in
    /// UTF-16 with a byte order mark is sniffed the same way.
    public func sniff(_ prefix: [UInt8]) -> SniffResult {
        var bytes = XMLPlistEncoding.sniffable(prefix)[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        bytes = bytes.drop { XMLPlistScanner.isSpace($0) }
        if bytes.starts(with: Array("<plist".utf8)) || bytes.starts(with: Array("<!DOCTYPE plist".utf8)) {
            return .likely
        }
        guard bytes.starts(with: Array("<?xml".utf8)) else { return .no }
        let head = Array(bytes.prefix(1024))
        for marker in ["<plist", "<!DOCTYPE plist"] where Self.contains(head, Array(marker.utf8)) {
            return .likely
        }
        return .possible
    }

    public func makeReader(_ input: any ByteInput, context: ReadContext) throws(FerryError) -> any RecordReader {
        try XMLPlistReader(input, limits: context.limits)
    }

    public func makeWriter(_ output: any ByteOutput, context: WriteContext) throws(FerryError) -> any RecordWriter {
        XMLPlistWriter(output, losses: context.losses)
    }

    /// Any XML property list is well formed, a scalar root included.
    public func lint(_ input: any ByteInput, context: ReadContext) throws(FerryError) {
        _ = try XMLPlistParser.parse(input, limits: context.limits)
    }

    private static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard bytes.count >= needle.count else { return false }
        for start in 0...(bytes.count - needle.count) where bytes[start..<(start + needle.count)].elementsEqual(needle)
        {
            return true
        }
        return false
    }
}
