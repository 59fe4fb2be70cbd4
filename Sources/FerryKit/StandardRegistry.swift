extension CodecRegistry {
    /// Every codec that ships with Ferry. Add a built-in codec here, with one line.
    public static let standard = CodecRegistry([
        JSONCodec(),
        JSONLinesCodec(),
        CSVCodec.csv,
        CSVCodec.tsv,
        PlistCodec(),
        ArchiveCodec(),
        PlistXMLCodec(),
        BundleCodec(records: JSONLinesCodec()),
        XLSXCodec(),
    ], accelerators: [CSVToJSONAccelerator()])
}
