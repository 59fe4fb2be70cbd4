#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a conversion should do, as the `convert` command's options say it.
public struct ConversionOptions: Sendable {
    /// The input format; nil to sniff it.
    public var from: String?
    /// The output format; nil to take it from the output's extension.
    public var to: String?
    /// The kind of the records; nil to infer it from the first record's fields.
    public var kind: RecordKind?
    /// The schema the records are checked against, and CSV columns typed
    /// by; nil for the kind's built-in schema. The kind still decides how
    /// writers name records and whether photos are handled.
    public var schema: Schema?
    /// Where to write inline photos as files.
    public var photosDirectory: String?
    /// Read referenced photos into the output as bytes.
    public var embedPhotos = false
    /// Replace an existing output, and send binary output (a binary plist,
    /// an archive, gzip, a bundle) to a terminal (`--force`).
    public var overwrite = false
    /// Compress the output with gzip (also chosen by a `.gz` output suffix).
    /// A format that is gzip'd already (a bundle) refuses it.
    public var compressOutput = false
    /// The gzip level, 1 (fastest) to 9 (smallest); nil for the default, 6.
    /// Given without compressed output, it is refused.
    public var compressionLevel: Int?
    /// The cores the conversion may use (`--jobs`): gzip output is
    /// compressed on this many threads, as pigz does, and CSV to JSON lays
    /// out rows on a second thread when there are two. The default is the
    /// cores the process may use.
    public var jobs = Cores.usable
    /// Options of the codecs (`compact`, …).
    public var codecOptions = OptionValues()
    public var limits = ReadLimits()
    /// One shard of the input to read, not the whole file; its output is the
    /// part of the document that concatenates (Formats/shards.md).
    package var shard: ShardRange?
    /// Whether a conversion between two codecs that hand over raw records
    /// skips `Record`s (see `RawRecord`). The output is the same either way;
    /// tests (through `@testable import`) turn this off to compare the two
    /// paths. Not public: there is no reason to choose the slower path.
    var rawRecords = true
    /// Whether a reader that can lay plain records out as JSON text itself
    /// may, when the output is JSON that the writer lets it lay out (see
    /// FerryCSVToJSON); only with raw records. The output is the same
    /// either way. Internal, as `rawRecords` is.
    var laidOutRecords = true

    public init() {}
}

/// What a finished conversion did.
public struct ConversionSummary: Sendable {
    public var inputFormat: String
    public var outputFormat: String
    public var kind: RecordKind
    public var records: Int
    public var warnings: [FerryWarning]
    /// The values the output format could not hold as they came: each kind
    /// of change once per field, its first warning and how many it touched.
    public var losses: [LossTally.Loss] = []
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
        try options.codecOptions.check(against: registry.codecs)
        let opened = try OpenedInput(path: inputPath, limits: options.limits)
        let counting = opened.counting
        var input: any ByteInput = opened.input
        let resolver = FormatResolver(registry: registry)
        let inputCodec = try resolver.inputCodec(path: opened.formatPath, prefix: opened.prefix, from: options.from)
        var codecOptions = options.codecOptions
        var shard: (reading: ShardReading, part: DocumentPart)?
        if let range = options.shard {
            let source = try PartSource(
                path: inputPath, registry: registry, from: inputCodec.id, codecOptions: codecOptions,
                limits: options.limits)
            let reading = try ShardReading(source, range: range)
            shard = (reading, range.part(fileSize: source.file.size))
            input = reading.input
            codecOptions = source.codecOptions
        }
        let gzSuffix = outputPath?.lowercased().hasSuffix(".gz") ?? false
        let outputFormatPath = outputPath.map { gzSuffix ? String($0.dropLast(3)) : $0 }
        // A FIFO or a device (`/dev/stdout`) is a stream, as `-` is: its name
        // says a format only when it has a known extension.
        let namesFormat = outputPath.map {
            !OutputFile.writesDirectly($0) || registry.codec(forPath: outputFormatPath ?? $0) != nil
        }
        let outputCodec = try resolver.outputCodec(
            path: namesFormat == true ? outputPath : nil, to: options.to, inputCodec: inputCodec)
        let compress = try Converter.compresses(outputCodec, gzSuffix: gzSuffix, options: options)
        if shard != nil, compress || !outputCodec.capabilities.contains(.writesParts) {
            throw .shardOutputNotConcatenable(compress ? "gzip" : outputCodec.id)
        }

        let toFile = outputPath.map { $0 != "-" } ?? false
        let file = toFile ? try OutputFile(path: outputPath ?? "-", overwrite: options.overwrite) : nil
        let destination: any ByteOutput = file?.output ?? FileOutput.standardOutput()
        if !options.overwrite, compress || outputCodec.capabilities.contains(.writesBinary),
            file?.isTerminal ?? (isatty(1) == 1)
        {
            file?.discard()
            throw .outputBinaryToTerminal(compress ? "gzip" : outputCodec.id)
        }
        let gzip =
            compress
            ? try GzipOutput(
                destination, level: options.compressionLevel ?? 6, jobs: options.jobs,
                fileName: outputFormatPath.flatMap { $0 == "-" ? nil : $0.split(separator: "/").last.map(String.init) },
                modified: UInt32(clamping: time(nil)))
            : nil
        let output: any ByteOutput = gzip ?? destination
        let photos = PhotoStore(
            inputDirectory: inputPath == "-" ? "." : OutputFile.directory(of: inputPath),
            outputDirectory: toFile ? OutputFile.directory(of: outputPath ?? ".") : ".",
            photosDirectory: options.photosDirectory, overwrite: options.overwrite)
        var stopReading: (() -> Void)?
        // A faster way for this pair of codecs, from the registry.
        var accelerated: (any AcceleratedConversion)?
        do throws(FerryError) {
            let readContext = ReadContext(
                kind: options.kind, schema: options.schema, options: codecOptions, limits: options.limits)
            // A shard's own rows could type a column otherwise than another
            // shard's: every shard decides over the whole file.
            if shard != nil { readContext.wholeInput = { try? FileInput(path: inputPath) } }
            let reader =
                shard == nil
                ? try opened.makeReader(inputCodec, path: inputPath, context: readContext)
                : try inputCodec.makeReader(input, context: readContext)
            let embedPhotos = options.embedPhotos || outputCodec.embedsMedia
            let rawPath =
                options.rawRecords && !embedPhotos && options.photosDirectory == nil
                && inputCodec.capabilities.contains(.readsRaw) && outputCodec.capabilities.contains(.writesRaw)
            if rawPath && options.laidOutRecords {
                accelerated = registry.accelerate(
                    reader, from: inputCodec, to: outputCodec, destination: output, jobs: options.jobs)
            }
            let writerOutput = accelerated?.destination ?? output
            readContext.jsonValue = { JSONCodec.value($0, maxDepth: $1) }
            let writeContext = WriteContext(options: options.codecOptions)
            writeContext.schema = options.schema
            if let shard { writeContext.part = shard.part }
            func makeWriter(_ kind: RecordKind?) throws(FerryError) -> any RecordWriter {
                writeContext.kind = kind
                return try outputCodec.makeWriter(writerOutput, context: writeContext)
            }
            var stream = Stream(kind: options.kind, makeWriter: makeWriter)
            var laidOut = false
            if let accelerated {
                laidOut = try convert(
                    accelerated, reader: reader, inputPath: inputPath, kind: options.kind, schema: options.schema,
                    into: &stream, counting: counting)
            }
            if laidOut {
                // Read and written above.
            } else if rawPath, let raw = reader as? any RawRecordReader {
                let reading = BackgroundSource(
                    raw: raw, inputPath: inputPath, kind: options.kind, schema: options.schema, counting: counting)
                stopReading = reading.stop
                reading.start()
                try stream.copy(from: reading, counting: counting, progress: progress) { (tape, writer) throws(FerryError) in
                    let rawWriter = writer as? any RawRecordWriter
                    try tape.forEach { (record) throws(FerryError) in
                        do throws(FerryError) {
                            if let rawWriter { try rawWriter.writeRaw(record) } else { try writer.write(record.record()) }
                        } catch {
                            throw error.located(SourceLocation(file: inputPath, record: record.origin.index))
                        }
                    }
                    return tape.count
                }
            } else {
                let source = RecordSource(
                    reader: reader, inputPath: inputPath, kind: options.kind, schema: options.schema, photos: photos,
                    embedPhotos: embedPhotos, inlineAsBytes: outputCodec.capabilities.contains(.writesBytes),
                    context: readContext)
                let reading = BackgroundSource(source, counting: counting)
                stopReading = reading.stop
                reading.start()
                try stream.copy(from: reading, counting: counting, progress: progress) { (records, writer) throws(FerryError) in
                    for record in records {
                        do throws(FerryError) {
                            try writer.write(record)
                        } catch {
                            throw error.located(SourceLocation(file: inputPath, record: record.origin.index))
                        }
                    }
                    return records.count
                }
            }
            // A mapped input that shrank meanwhile read as zeros somewhere.
            try input.checkIntact()
            var writer = stream.writer
            let kind = stream.kind
            let count = stream.count
            if writer == nil { writer = try makeWriter(kind ?? .generic) }
            try writer?.finish()
            accelerated?.close()
            try gzip?.finish()
            try file?.commit()
            let shift = shard?.reading.shift
            return ConversionSummary(
                inputFormat: inputCodec.id, outputFormat: outputCodec.id, kind: kind ?? .generic, records: count,
                warnings: readContext.takeWarnings().map { warning in
                    var warning = warning
                    if let shift { warning.location = shift.apply(to: warning.location) }
                    return warning
                },
                losses: (readContext.losses.losses + writeContext.losses.losses).map { loss in
                    var loss = loss
                    if let shift { loss.warning.location = shift.apply(to: loss.warning.location) }
                    loss.warning.location = loss.warning.location.filling(from: SourceLocation(file: inputPath))
                    return loss
                })
        } catch {
            stopReading?()
            accelerated?.close()
            file?.discard()
            photos.removeWrittenFiles()
            var located = input.unlessChanged(error)
            if let shift = shard?.reading.shift { located.location = shift.apply(to: located.location) }
            throw located.located(SourceLocation(file: inputPath))
        }
    }
}

extension Converter {
    /// Whether the output is gzip'd on top of its format: by a `.gz` suffix
    /// or `compressOutput`.
    /// - Throws: `output.alreadyCompressed` for a format that is gzip'd
    ///   already (a bundle), `output.levelWithoutGzip` for a level without
    ///   compression.
    static func compresses(_ codec: any Codec, gzSuffix: Bool, options: ConversionOptions) throws(FerryError) -> Bool {
        let compress = gzSuffix || options.compressOutput
        if compress && codec.capabilities.contains(.writesGzip) { throw .outputAlreadyCompressed(codec.id) }
        if !compress && options.compressionLevel != nil { throw .outputLevelWithoutGzip() }
        return compress
    }

    /// Converts on this thread with an accelerator (see
    /// `ConversionAccelerator`); the records it hands back are checked and
    /// written as on the raw path.
    /// - Returns: false, with only the header read and the writer made in
    ///   `stream`, when the accelerator cannot lay records out for the writer.
    fileprivate func convert(
        _ accelerated: any AcceleratedConversion, reader: any RecordReader, inputPath: String, kind: RecordKind?,
        schema: Schema?, into stream: inout Stream, counting: CountingInput
    ) throws(FerryError) -> Bool {
        var recordKind = kind
        if recordKind == nil { recordKind = try accelerated.settleKind() }
        let made = try stream.makeWriter(recordKind)
        stream.writer = made
        guard accelerated.begin(with: made), let writer = made as? any RawRecordWriter else { return false }
        var validator = recordKind.map { RecordValidator(schema: schema ?? $0.schema) }
        while try accelerated.step(general: { (record) throws(FerryError) in
            if validator == nil {
                let inferred = RecordKind.infer(from: record.fields)
                recordKind = inferred
                validator = RecordValidator(schema: schema ?? inferred.schema)
            }
            do throws(FerryError) {
                try validator?.validate(record)
            } catch {
                throw error.located(SourceLocation(file: inputPath, record: record.origin.index))
                    .located(reader.location(of: error.location.field, inRecordAt: record.origin.byteOffset))
            }
            do throws(FerryError) {
                try writer.writeRaw(record)
            } catch {
                throw error.located(SourceLocation(file: inputPath, record: record.origin.index))
            }
        }) {
            progress?(counting.bytesRead, counting.sizeHint)
        }
        progress?(counting.bytesRead, counting.sizeHint)
        stream.count = accelerated.recordsWritten
        if stream.count > 0 { stream.kind = recordKind }
        return true
    }
}

/// The writing end of a conversion: it makes the writer once the kind is
/// known, and hands it the records of either path.
private struct Stream {
    var kind: RecordKind?
    let makeWriter: (RecordKind?) throws(FerryError) -> any RecordWriter
    var writer: (any RecordWriter)?
    var count = 0

    init(kind: RecordKind?, makeWriter: @escaping (RecordKind?) throws(FerryError) -> any RecordWriter) {
        self.kind = kind
        self.makeWriter = makeWriter
    }

    /// Batches read, checked and converted on a second thread; `write`
    /// writes one batch and returns how many records it held.
    mutating func copy<Batch>(
        from reading: BackgroundSource<Batch>, counting: CountingInput, progress: ((Int, Int?) -> Void)?,
        write: (Batch, any RecordWriter) throws(FerryError) -> Int
    ) throws(FerryError) {
        while true {
            switch reading.receive() {
            case .batch(let batch, let batchKind, let bytesRead):
                kind = batchKind
                let active: any RecordWriter
                if let writer { active = writer } else { active = try makeWriter(batchKind) }
                writer = active
                count += try write(batch, active)
                reading.recycle(batch)
                progress?(bytesRead, counting.sizeHint)
            case .end(let finalKind, let bytesRead):
                kind = finalKind ?? kind
                progress?(bytesRead, counting.sizeHint)
                return
            case .failure(let error):
                throw error
            }
        }
    }
}
