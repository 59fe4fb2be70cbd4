/// Chooses the codecs of a conversion: by content, by extension, or as asked.
package struct FormatResolver: Sendable {
    package let registry: CodecRegistry

    package init(registry: CodecRegistry) { self.registry = registry }

    /// How many bytes of an input are looked at to sniff its format.
    package static let sniffLength = 4096

    /// The codec that reads an input.
    ///
    /// `--from` wins when given. Otherwise the content decides when it is
    /// clear (a magic number, or `[` for JSON); when it is only possible (a
    /// lone `{` object is JSON and JSON Lines; a line with commas may be CSV),
    /// the extension settles it; with no match at all, the extension alone.
    /// - Throws: `format.unknown`, `format.cannotRead`, `format.undetected`.
    package func inputCodec(path: String, prefix: [UInt8], from: String?) throws(FerryError) -> any Codec {
        if let from {
            guard let codec = registry.codec(id: from) else { throw .formatUnknown(from) }
            guard codec.capabilities.contains(.read) else { throw .formatCannotRead(codec.id) }
            return codec
        }
        let byExtension = registry.codec(forPath: path).flatMap { $0.capabilities.contains(.read) ? $0 : nil }
        if let sniffed = registry.sniff(prefix) {
            if sniffed.confidence == .possible, let byExtension { return byExtension }
            return sniffed.codec
        }
        if let byExtension { return byExtension }
        throw .formatUndetected(path)
    }

    /// The codec that writes an output: `--to`, else the output's extension
    /// (before a `.gz`);
    /// standard output (nil or `-`) without `--to` gets the input's format.
    ///
    /// An output name whose extension no codec claims (`out.xml`, `out.txt`,
    /// `out`) is refused rather than written in some other format than its
    /// name says.
    /// - Throws: `format.unknown`, `format.cannotWrite`, `output.unknownExtension`.
    package func outputCodec(path: String?, to: String?, inputCodec: any Codec) throws(FerryError) -> any Codec {
        let codec: any Codec
        if let to {
            guard let named = registry.codec(id: to) else { throw .formatUnknown(to) }
            codec = named
        } else if let path, path != "-" {
            // `out.csv.gz` is CSV, gzip'd.
            let named = path.lowercased().hasSuffix(".gz") ? String(path.dropLast(3)) : path
            guard let byExtension = registry.codec(forPath: named) else {
                throw .outputUnknownExtension(path, formats: writableFormats)
            }
            codec = byExtension
        } else {
            codec = inputCodec
        }
        guard codec.capabilities.contains(.write) else { throw .formatCannotWrite(codec.id) }
        return codec
    }

    /// The ids of the codecs that write, in the registry's order.
    package var writableFormats: [String] {
        registry.codecs.filter { $0.capabilities.contains(.write) }.map(\.id)
    }
}
