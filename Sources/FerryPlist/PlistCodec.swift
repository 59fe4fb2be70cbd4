import FerryCore

/// Binary property lists (`bplist00`): a top-level array of dictionaries is a
/// stream of records, a top-level dictionary one record.
public struct PlistCodec: Codec {
    public init() {}

    public let id = "plist"
    public let extensions = ["plist", "bplist"]
    /// plutil's name for the format (`plutil -convert binary1`).
    public let aliases = ["binary1"]
    public let capabilities: CodecCapabilities = [.read, .write, .readsRaw, .writesBinary, .writesBytes]

    /// The magic number; a keyed archive is a binary plist too, and its codec
    /// claims it more surely.
    public func sniff(_ prefix: [UInt8]) -> SniffResult {
        prefix.starts(with: BinaryPlistScanner.magic) ? .likely : .no
    }

    public func makeReader(_ input: any ByteInput, context: ReadContext) throws(FerryError) -> any RecordReader {
        let reader = try BinaryPlistReader(input, limits: context.limits)
        reader.resumesAfterBadRecords = context.resumesAfterBadRecords
        return reader
    }

    public func makeWriter(_ output: any ByteOutput, context: WriteContext) throws(FerryError) -> any RecordWriter {
        BinaryPlistWriter(output, losses: context.losses)
    }

    /// Any well-formed plist passes, whatever its top object: every object
    /// reachable from the top is decoded.
    public func lint(_ input: any ByteInput, context: ReadContext) throws(FerryError) {
        let contents = try InputBytes.read(input, limit: context.limits.maxInputBytes)
        let scanner = try BinaryPlistScanner(contents, name: input.name, limits: context.limits)
        var decoder = BinaryPlistDecoder(scanner, limits: context.limits, fileSize: contents.count)
        _ = try decoder.value(scanner.topObject)
    }
}
