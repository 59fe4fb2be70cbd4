/// What a conversion should do, as the `convert` command's options say it.
public struct ConversionOptions: Sendable {
    /// The input format; nil to sniff it.
    public var from: String?
    /// The output format; nil to take it from the output's extension.
    public var to: String?
    /// The kind of the records; nil to infer it from the first record's fields.
    public var kind: RecordKind?
    /// Where to write inline photos as files.
    public var photosDirectory: String?
    /// Read referenced photos into the output as bytes.
    public var embedPhotos = false
    /// Replace an existing output.
    public var overwrite = false
    /// Options of the codecs (`compact`, …).
    public var codecOptions = OptionValues()
    public var limits = ReadLimits()

    public init() {}
}

/// What a finished conversion did.
public struct ConversionSummary: Sendable {
    public var inputFormat: String
    public var outputFormat: String
    public var kind: RecordKind
    public var records: Int
    public var warnings: [FerryWarning]
}

/// Streams records from one input through the kind's checks and the photo
/// handling into one output.
///
///     input ─▶ reader ─▶ kind check ─▶ photos ─▶ writer ─▶ temporary file ─▶ rename
public struct Converter {
    public let registry: CodecRegistry
    /// Called now and then with the bytes read so far and the input's size, if known.
    public var progress: ((_ bytesRead: Int, _ total: Int?) -> Void)?

    public init(registry: CodecRegistry = .standard) { self.registry = registry }

    /// Converts the file at `inputPath` (`-` for standard input) into
    /// `outputPath` (nil or `-` for standard output).
    /// - Throws: the first error; the output is then left as it was.
    public func convert(
        _ inputPath: String, to outputPath: String?, options: ConversionOptions
    ) throws(FerryError) -> ConversionSummary {
        let counting = CountingInput(try FileInput(path: inputPath))
        let input = PeekableInput(counting)
        let resolver = FormatResolver(registry: registry)
        let inputCodec = try resolver.inputCodec(
            path: inputPath, prefix: try input.peek(FormatResolver.sniffLength), from: options.from)
        let outputCodec = try resolver.outputCodec(path: outputPath, to: options.to, inputCodec: inputCodec)

        let toFile = outputPath.map { $0 != "-" } ?? false
        let file = toFile ? try OutputFile(path: outputPath ?? "-", overwrite: options.overwrite) : nil
        let output: any ByteOutput = file?.output ?? FileOutput.standardOutput()
        let photos = PhotoStore(
            inputDirectory: inputPath == "-" ? "." : OutputFile.directory(of: inputPath),
            outputDirectory: toFile ? OutputFile.directory(of: outputPath ?? ".") : ".",
            photosDirectory: options.photosDirectory, overwrite: options.overwrite)
        do throws(FerryError) {
            let readContext = ReadContext(kind: options.kind, options: options.codecOptions, limits: options.limits)
            let reader = try inputCodec.makeReader(input, context: readContext)
            var kind = options.kind
            var validator: RecordValidator?
            var writer: (any RecordWriter)?
            var count = 0
            let embed = options.embedPhotos || outputCodec.embedsMedia
            while let original = try reader.next() {
                let resolvedKind = kind ?? RecordKind.infer(from: original.fields)
                kind = resolvedKind
                if validator == nil { validator = RecordValidator(kind: resolvedKind) }
                if writer == nil {
                    writer = try outputCodec.makeWriter(
                        output, context: WriteContext(kind: resolvedKind, options: options.codecOptions))
                }
                // Line and column are worked out only when something fails.
                let location = SourceLocation(file: inputPath, record: original.origin.index)
                var record = original
                do throws(FerryError) {
                    try validator?.validate(record, at: location)
                    if resolvedKind == .product && (embed || options.photosDirectory != nil) {
                        try handlePhoto(in: &record, store: photos, embed: embed, at: location)
                    }
                    try writer?.write(record)
                } catch {
                    throw error.located(reader.location(ofByteOffset: original.origin.byteOffset))
                }
                count += 1
                if count & 0xFFF == 0 { progress?(counting.bytesRead, counting.sizeHint) }
            }
            let finalKind = kind ?? .generic
            if writer == nil {
                writer = try outputCodec.makeWriter(output, context: WriteContext(kind: finalKind, options: options.codecOptions))
            }
            try writer?.finish()
            try file?.commit()
            progress?(counting.bytesRead, counting.sizeHint)
            return ConversionSummary(
                inputFormat: inputCodec.id, outputFormat: outputCodec.id, kind: finalKind, records: count,
                warnings: readContext.takeWarnings())
        } catch {
            file?.discard()
            photos.removeWrittenFiles()
            throw error.located(SourceLocation(file: inputPath))
        }
    }

    /// Puts a product's photo in the form the output needs.
    private func handlePhoto(
        in record: inout Record, store: PhotoStore, embed: Bool, at location: SourceLocation
    ) throws(FerryError) {
        guard let value = record["photo"] else { return }
        var here = location
        here.field = "photo"
        var bytes: [UInt8]?
        switch value {
        case .bytes(let inline):
            bytes = inline
        case .string(let text) where Photo.isDataURI(text):
            guard store.photosDirectory != nil || embed else { return }
            guard let decoded = Photo.bytes(fromDataURI: text) else { throw .photoInvalidDataURI(at: here) }
            bytes = decoded
        case .string(let reference):
            guard store.photosDirectory != nil || embed else { return }
            bytes = try store.read(reference: reference, at: here)
        default:
            return
        }
        guard let bytes else { return }
        if store.photosDirectory != nil {
            let name = record["name"]?.stringValue ?? "photo"
            record.set("photo", to: .string(try store.write(bytes, named: name)))
        } else {
            record.set("photo", to: .bytes(bytes))
        }
    }
}
