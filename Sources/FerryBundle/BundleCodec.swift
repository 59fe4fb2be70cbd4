import FerryCore
import FerryGzip

/// A Ferry bundle (`.ferry.tgz`): a gzip-compressed POSIX tar holding
/// `manifest.json`, the records as JSON Lines and their photos under
/// `media/`, specified in Formats/bundle.md.
///
/// Codecs never depend on one another, so the bundle gets the codec of its
/// records entry from whoever registers it: FerryKit registers
/// `BundleCodec(records: JSONLinesCodec())`. That codec reads the manifest,
/// a JSON object, too.
public struct BundleCodec: Codec {
    /// The codec of `records.jsonl`, which must read and write JSON Lines.
    public let records: any Codec

    public init(records: any Codec) { self.records = records }

    public let id = "bundle"
    public let extensions = ["ferry.tgz"]
    public let capabilities: CodecCapabilities = [.read, .write, .writesGzip, .writesBinary]
    /// The writer stores photos as files, so it needs their bytes.
    public var embedsMedia: Bool { true }

    /// A tar header (`ustar` at offset 257) is certain; so is gzip whose
    /// first bytes inflate to one.
    public func sniff(_ prefix: [UInt8]) -> SniffResult {
        if BundleCodec.isTar(prefix) { return .certain }
        guard GzipInput.isGzip(prefix), let input = try? GzipInput(MemoryInput(prefix)) else { return .no }
        var inflated = [UInt8](repeating: 0, count: TarHeader.blockSize)
        var filled = 0
        while filled < inflated.count {
            let count = inflated.withUnsafeMutableBytes { raw in
                (try? input.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]))) ?? 0
            }
            if count == 0 { break }
            filled += count
        }
        return BundleCodec.isTar(Array(inflated[0..<filled])) ? .certain : .no
    }

    /// Reads a bundle from its tar stream, inflated or not.
    public func makeReader(_ input: any ByteInput, context: ReadContext) throws(FerryError) -> any RecordReader {
        BundleReader(input, records: records, context: context)
    }

    public func makeWriter(_ output: any ByteOutput, context: WriteContext) throws(FerryError) -> any RecordWriter {
        try BundleWriter(output, records: records, context: context)
    }

    static func isTar(_ prefix: [UInt8]) -> Bool {
        prefix.count >= 262 && prefix[257..<262].elementsEqual("ustar".utf8)
    }
}
