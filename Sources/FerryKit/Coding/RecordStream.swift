/// One input read record by record for `FerryDecoder.Records`: the reader,
/// the kind's checks, and the decoding of each record.
///
/// A class, since the sequence's iterators share one reader, which reads
/// once.
final class RecordStream {
    /// The most warnings kept; past it they are only counted, so memory
    /// stays flat on a file with a warning on every line.
    static let keptWarnings = 1_000

    private let opened: OpenedInput
    private let reader: any RecordReader
    private let context: ReadContext
    private let path: String
    private let validates: Bool
    private var kind: RecordKind?
    private var validator: RecordValidator?
    private let rules: DecodingRules
    private var finished = false
    private(set) var warnings: [FerryWarning] = []
    private(set) var warningCount = 0

    /// - Parameter photoFolder: where photo file names are resolved; nil
    ///   when the bytes came from memory.
    /// - Throws: what recognising the format and making its reader throw.
    init(opened: OpenedInput, path: String, photoFolder: String?, decoder: FerryDecoder) throws(FerryError) {
        self.opened = opened
        self.path = path
        validates = decoder.validates
        kind = decoder.kind
        do throws(FerryError) {
            let codec = try FormatResolver(registry: try decoder.configuredRegistry()).inputCodec(
                path: opened.formatPath, prefix: opened.prefix, from: decoder.format?.rawValue)
            context = ReadContext(kind: decoder.kind, limits: decoder.limits)
            context.resumesAfterBadRecords = true
            context.jsonValue = { JSONCodec.value($0, maxDepth: $1) }
            reader = try opened.makeReader(codec, path: path, context: context)
        } catch {
            throw opened.input.unlessChanged(error).located(SourceLocation(file: path))
        }
        if let photoFolder {
            let store = PhotoStore(
                inputDirectory: photoFolder, outputDirectory: photoFolder, photosDirectory: nil, overwrite: false,
                maxPhotoBytes: decoder.limits.maxRecordBytes)
            rules = DecodingRules(photo: { (name) throws(FerryError) in try store.read(reference: name, at: .unknown) })
        } else {
            rules = DecodingRules()
        }
    }

    /// The next record as a `T`, or its error; nil at the end.
    func next<T: Decodable>(_ type: T.Type) -> Result<T, FerryError>? {
        guard !finished else { return nil }
        let record: Record
        do throws(FerryError) {
            defer { collectWarnings() }
            guard let read = try reader.next() else {
                finished = true
                try opened.input.checkIntact()
                return nil
            }
            record = read
        } catch {
            if !reader.resumesAfterError { finished = true }
            return .failure(opened.input.unlessChanged(error).located(SourceLocation(file: path)))
        }
        do throws(FerryError) {
            if validates {
                if validator == nil {
                    let kind = self.kind ?? reader.declaredKind ?? RecordKind.infer(from: record.fields)
                    self.kind = kind
                    validator = RecordValidator(kind: kind)
                }
                try validator?.validate(record, at: SourceLocation(file: path, record: record.origin.index))
            }
            return .success(try RecordDecoder.decode(T.self, from: record, rules: rules))
        } catch {
            return .failure(
                error.located(SourceLocation(file: path, record: record.origin.index))
                    .located(reader.location(of: error.location.field, inRecordAt: record.origin.byteOffset)))
        }
    }

    private func collectWarnings() {
        for warning in context.takeWarnings() {
            warningCount += 1
            if warnings.count < Self.keptWarnings {
                var warning = warning
                warning.location = warning.location.filling(from: SourceLocation(file: path))
                warnings.append(warning)
            }
        }
    }
}
