import FerryCore

/// Markdown tables (GitHub Flavored Markdown), write-only.
///
/// A plugin codec: it conforms to `Codec` from `FerryCore` and joins a
/// registry with `CodecRegistry.standard.registering(MarkdownTableCodec())`.
/// Ferry itself does not know it.
///
///     | name | price | photo |
///     | --- | --- | --- |
///     | Wii | 269.0 | photos/wii.png |
public struct MarkdownTableCodec: Codec {
    public init() {}

    public let id = "markdown"
    public let extensions = ["md", "markdown"]
    public let capabilities = CodecCapabilities.write

    /// The English templates of this codec's own codes. Ferry's catalogs do
    /// not know them; the CLI merges these in as the fallback text.
    public let messages = [
        FerryError.Code.markdownNoColumns.rawValue:
            "the first record has no fields, and a Markdown table needs at least one column"
    ]

    /// Markdown is never read, so no content is recognized as Markdown.
    public func sniff(_ prefix: [UInt8]) -> SniffResult { .no }

    public func makeWriter(_ output: any ByteOutput, context: WriteContext) throws(FerryError) -> any RecordWriter {
        MarkdownTableWriter(output)
    }
}
