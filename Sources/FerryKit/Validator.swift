/// What `ferry validate` should check, as its options say it.
public struct ValidationOptions: Sendable {
    /// The input format; nil to sniff each file's.
    public var from: String?
    /// The kind every file's records are checked as; nil to infer it per file.
    public var kind: RecordKind?
    /// A user's schema (`--schema`): then it alone applies, and it types CSV
    /// columns; `kind` is not used.
    public var schema: Schema?
    /// Options of the codecs (the CSV dialect, …).
    public var codecOptions = OptionValues()
    public var limits = ReadLimits()
    /// The most errors reported; checking stops there. nil for no cap.
    public var maxErrors: Int? = 1000
    /// Whether to check the records' rules, or only that each file is well
    /// formed (`ferry lint`: the codec's `lint`, with no kinds).
    public var wellFormednessOnly = false

    public init() {}
}

/// Checks files against their rules and reports every problem, in the
/// spirit of frictionless's `validate` and a compiler's error list.
///
///     input ─▶ reader (goes on after a bad record where the format allows)
///           ─▶ the kind's rules, per record ─▶ unique keys ─▶ photos
///           ─▶ diagnostics, up to the cap ─▶ ValidationReport
///
/// Memory stays flat but for the unique keys seen.
public struct Validator {
    public let registry: CodecRegistry

    public init(registry: CodecRegistry = .standard) { self.registry = registry }

    /// Checks every file in turn.
    /// - Returns: the report; errors in the data or the files are in it, not thrown.
    public func validate(_ paths: [String], options: ValidationOptions) -> ValidationReport {
        var report = ValidationReport()
        report.maxErrors = options.maxErrors
        report.rulesChoice =
            options.wellFormednessOnly ? .wellFormedness
            : options.schema != nil ? .schema : options.kind == nil ? .inferred : .kind
        let sink = DiagnosticCollector(maxErrors: options.maxErrors)
        var kinds: [RecordKind] = []
        for path in paths {
            var file = ValidationReport.File(path: path)
            var run = FileRun(path: path, sink: sink, file: file)
            do throws(FerryError) {
                try OpenedInput.reading(path, limits: options.limits) { (opened) throws(FerryError) in
                    let codec = try FormatResolver(registry: registry).inputCodec(
                        path: opened.formatPath, prefix: opened.prefix, from: options.from)
                    run.file.format = codec.id
                    let context = ReadContext(
                        kind: options.schema == nil ? options.kind : .generic, schema: options.schema,
                        options: options.codecOptions, limits: options.limits)
                    if options.wellFormednessOnly {
                        run.file.countsRecords = false
                        try run.lint(opened.input, codec: codec, context: context)
                        return
                    }
                    context.resumesAfterBadRecords = true
                    context.reportsEveryLoss = true
                    let reader = try codec.makeReader(opened.input, context: context)
                    let photos = PhotoStore(
                        inputDirectory: path == "-" ? "." : OutputFile.directory(of: path), outputDirectory: ".",
                        photosDirectory: nil, overwrite: false)
                    try run.check(reader, context: context, kind: options.kind, schema: options.schema, photos: photos)
                }
            } catch {
                // The file could not be opened or read on: one error, located.
                run.file.complete = false
                run.report(Diagnostic(error.located(SourceLocation(file: path))))
            }
            file = run.file
            if let kind = file.kind, !kinds.contains(kind) { kinds.append(kind) }
            report.files.append(file)
        }
        report.diagnostics = sink.diagnostics
        report.reachedCap = sink.reachedCap
        report.errorCategories = sink.errorCategories
        report.rules = options.schema?.source ?? kinds.map(\.rawValue).joined(separator: ", ")
        return report
    }
}

// MARK: - One file

/// The checking of one file: its counts, and the state that spans records.
///
/// Records are checked as raw records (`RawRecord`) when the reader can hand
/// them out in place, so a valid record costs no `Value`s; a record that
/// fails is made whole and checked again for every problem, and each
/// problem's cell is found by scanning the record again
/// (`RecordReader.location(ofField:inRecordAt:)`).
private struct FileRun {
    let path: String
    let sink: DiagnosticCollector
    var file: ValidationReport.File
    private var rules: RecordRules?
    /// Where the unique fields and the photos sit in the field list seen last.
    private var positions: (fields: ObjectIdentifier?, unique: [Int?], photos: [Int]) = (nil, [], [])
    private var uniqueKeys: [UniqueKeys] = []
    /// Keys waiting to go into `uniqueKeys`: they go in a few dozen at a
    /// time, so that the cache misses of a large table overlap. They go in
    /// before any problem is reported, so the order of the report is that
    /// of the records, and while the reader still holds their records.
    private var pendingKeys: [PendingKey] = []
    private var pendingText: [UInt8] = []
    /// How many keys wait at most: 1 for readers that hand out one record at a time.
    private var pendingLimit = 64

    private struct PendingKey {
        var digest: (low: UInt64, high: UInt64)
        var key: Int
        var record: Int
        var byteOffset: Int
        var text: Range<Int>
    }
    /// The last record that had an error, so that a record with several
    /// counts once among the invalid (reports come in the records' order).
    private var lastFailedRecord: Int?
    /// Whether the folder photo references name exists: the last one asked.
    private var photoFolder: (bytes: [UInt8], exists: Bool)?
    /// References in folders that do not exist: not checked, counted in one
    /// warning at the end, with the first.
    private var uncheckedPhotos = 0
    private var firstUncheckedPhoto: (reference: String, location: SourceLocation)?

    init(path: String, sink: DiagnosticCollector, file: ValidationReport.File) {
        self.path = path
        self.sink = sink
        self.file = file
    }

    /// Checks that `input` is well formed, through the codec's `lint`, with
    /// the problems it can read past reported and the rest thrown.
    mutating func lint(_ input: any ByteInput, codec: any Codec, context: ReadContext) throws(FerryError) {
        let counting = CountingSink(sink, path: path)
        context.diagnostics = counting
        defer {
            context.diagnostics = nil
            file.errors += counting.errors
            file.warnings += counting.warnings
        }
        try codec.lint(input, context: context)
        takeWarnings(context)
    }

    /// Reads `reader` to its end, or to an error it cannot read past.
    mutating func check(
        _ reader: any RecordReader, context: ReadContext, kind: RecordKind?, schema: Schema?, photos: PhotoStore
    ) throws(FerryError) {
        let raw = reader as? any RawRecordReader
        if raw == nil { pendingLimit = 1 }
        while true {
            do throws(FerryError) {
                if let raw {
                    let more = try raw.readRaw { record in
                        self.check(record, reader: reader, kind: kind, schema: schema, photos: photos)
                    }
                    // The records of that call are still in the reader's window.
                    flushKeys(reader)
                    guard more else { break }
                } else {
                    guard let record = try reader.next() else { break }
                    RawRecord.with(record) { self.check($0, reader: reader, kind: kind, schema: schema, photos: photos) }
                }
            } catch {
                flushKeys(reader)
                takeWarnings(context)
                guard reader.resumesAfterError else { throw error }
                // The reader went past one bad record.
                file.records += 1
                if sink.reachedCap {
                    file.uncheckedRecords += 1
                } else {
                    report(Diagnostic(error.located(SourceLocation(file: path))))
                }
                continue
            }
            takeWarnings(context)
        }
        flushKeys(reader)
        takeWarnings(context)
        if let first = firstUncheckedPhoto {
            report(
                Diagnostic(
                    .warning, .photoNotChecked, [.integer(uncheckedPhotos), .path(first.reference)], at: first.location,
                    value: first.reference, rule: "photo.format"))
        }
    }

    /// Checks one record: its kind's rules, its unique keys, its photo.
    private mutating func check(
        _ record: RawRecord, reader: any RecordReader, kind asked: RecordKind?, schema: Schema?, photos: PhotoStore
    ) {
        file.records += 1
        if sink.reachedCap {
            file.uncheckedRecords += 1
            return
        }
        if rules == nil {
            if let schema {
                rules = RecordRules(schema: schema)
            } else {
                let kind = asked ?? reader.declaredKind ?? RecordKind.infer(from: record.fields)
                rules = RecordRules(schema: kind.schema)
                file.kind = kind
            }
            uniqueKeys = (rules?.uniqueFields ?? []).map { _ in UniqueKeys() }
        }
        if rules?.passes(record) == false, let problems = rules?.problems(of: record) {
            flushKeys(reader)
            for problem in problems { report(locate(problem, of: record, reader: reader)) }
        }
        if positions.fields != ObjectIdentifier(record.fields), let rules {
            positions = (
                ObjectIdentifier(record.fields), rules.uniqueFields.map { record.fields.index(of: $0) },
                rules.photoFields.compactMap { record.fields.index(of: $0) }
            )
        }
        for (index, position) in positions.unique.enumerated() {
            if let position { checkUnique(record, at: position, key: index, reader: reader) }
        }
        for position in positions.photos { checkPhoto(record, at: position, photos: photos, reader: reader) }
    }

    /// Hands a diagnostic to the sink and counts it; errors only when kept.
    mutating func report(_ diagnostic: Diagnostic) {
        let kept = sink.diagnostics.count
        sink.report(diagnostic)
        if diagnostic.severity == .warning {
            file.warnings += 1
            return
        }
        guard sink.diagnostics.count > kept else { return }
        file.errors += 1
        let record = diagnostic.location.record
        if record == nil || record != lastFailedRecord {
            lastFailedRecord = record
            file.invalidRecords += 1
        }
    }

    private mutating func takeWarnings(_ context: ReadContext) {
        for warning in context.takeWarnings() {
            var diagnostic = Diagnostic(warning)
            // RFC 8259 says names should be unique: validate holds it to that.
            if warning.code == .jsonDuplicateName { diagnostic.severity = .error }
            report(diagnostic.located(SourceLocation(file: path)))
        }
    }

    /// The diagnostic at its field's own line and column where the reader
    /// can find it; else at the record's start.
    private func locate(_ diagnostic: Diagnostic, of record: RawRecord, reader: any RecordReader) -> Diagnostic {
        let field = diagnostic.location.field.map { String($0.split(separator: "/", maxSplits: 1).first ?? "") }
        return diagnostic.located(SourceLocation(file: path, record: record.origin.index))
            .located(reader.location(of: field, inRecordAt: record.origin.byteOffset))
    }

    // MARK: - Unique keys

    /// Queues the value at `position` to be checked against the keys of
    /// unique field `key`.
    private mutating func checkUnique(_ record: RawRecord, at position: Int, key: Int, reader: any RecordReader) {
        let start = pendingText.count
        switch record.values[position] {
        case .null:
            return
        case .text(let bytes):
            pendingText.append(contentsOf: bytes)
        default:
            guard let text = Self.keyText(record.value(at: position)) else { return }
            pendingText.append(contentsOf: text.utf8)
        }
        let digest = pendingText.withUnsafeBytes { UniqueKeys.digest(UnsafeRawBufferPointer(rebasing: $0[start...])) }
        pendingKeys.append(
            PendingKey(
                digest: digest, key: key, record: record.origin.index, byteOffset: record.origin.byteOffset,
                text: start..<pendingText.count))
        if pendingKeys.count >= pendingLimit { flushKeys(reader) }
    }

    /// Puts the waiting keys into their tables, in order, and reports those
    /// an earlier record had.
    private mutating func flushKeys(_ reader: any RecordReader) {
        guard !pendingKeys.isEmpty else { return }
        var duplicates: [(PendingKey, first: Int)] = []
        for pending in pendingKeys { uniqueKeys[pending.key].prefetch(pending.digest) }
        for pending in pendingKeys {
            if let first = uniqueKeys[pending.key].insert(pending.digest, record: pending.record) {
                duplicates.append((pending, first))
            }
        }
        let texts = duplicates.map { String(decoding: pendingText[$0.0.text], as: UTF8.self) }
        pendingKeys.removeAll(keepingCapacity: true)
        pendingText.removeAll(keepingCapacity: true)
        guard let rules else { return }
        for ((pending, first), text) in zip(duplicates, texts) {
            let field = rules.uniqueFields[pending.key]
            let diagnostic = Diagnostic(
                .error, .recordDuplicateKey, [.string(field), .string(text), .integer(first + 1)],
                at: SourceLocation(file: path, record: pending.record, field: field), value: text,
                rule: rules.uniqueRule(field))
            report(diagnostic.located(reader.location(of: field, inRecordAt: pending.byteOffset)))
        }
    }

    /// A key's text: strings as they are, numbers as written; nil for null
    /// and for values that are no key (bytes, arrays, objects).
    static func keyText(_ value: Value) -> String? {
        switch value {
        case .string(let text): text
        case .integer(let number): String(number)
        case .double(let number): number.description
        case .number(let number): number.text
        case .bool(let flag): flag ? "true" : "false"
        default: nil
        }
    }

    // MARK: - Photos

    /// A product's photo, when present, must be a PNG or a JPEG, by its bytes;
    /// a reference is checked when its folder exists beside the file.
    private mutating func checkPhoto(_ record: RawRecord, at position: Int, photos: PhotoStore, reader: any RecordReader) {
        let field = record.fields.names[position]
        let here = SourceLocation(field: field)
        switch record.values[position] {
        case .null:
            return
        case .bytes(let bytes):
            checkImage(bytes, shown: Photo.dataURI(bytes), field: field, record: record, reader: reader)
        case .text(let text) where !text.isEmpty && !text.starts(with: "data:".utf8):
            // Most references share a folder: compared in place, looked up on a change.
            let folder = text[..<(text.lastIndex(of: UInt8(ascii: "/")) ?? text.startIndex)]
            if photoFolder.map({ !$0.bytes.elementsEqual(folder) }) ?? true {
                let path = photos.inputDirectory + "/" + String(decoding: folder, as: UTF8.self)
                photoFolder = (Array(folder), PhotoStore.isDirectory(path))
            }
            guard photoFolder?.exists == true else {
                uncheckedPhotos += 1
                if firstUncheckedPhoto == nil {
                    let location = locate(Diagnostic(.warning, .photoNotChecked, at: here), of: record, reader: reader).location
                    firstUncheckedPhoto = (String(decoding: text, as: UTF8.self), location)
                }
                return
            }
            let reference = String(decoding: text, as: UTF8.self)
            do throws(FerryError) {
                let bytes = try photos.read(reference: reference, at: here)
                bytes.withUnsafeBytes { checkImage($0, shown: reference, field: field, record: record, reader: reader) }
            } catch {
                var problem = Diagnostic(error, value: reference, rule: "photo.format")
                // A file that is missing or unreadable is a warning; one outside the folder, an error.
                if error.code != .photoOutsideFolder { problem.severity = .warning }
                report(locate(problem, of: record, reader: reader))
            }
        default:
            switch record.value(at: position) {
            case .string(let text) where Photo.isDataURI(text):
                guard let decoded = Photo.bytes(fromDataURI: text) else {
                    let problem = Diagnostic(FerryError.photoInvalidDataURI(at: here), value: text, rule: "photo.format")
                    report(locate(problem, of: record, reader: reader))
                    return
                }
                decoded.withUnsafeBytes { checkImage($0, shown: text, field: field, record: record, reader: reader) }
            case .bytes(let bytes):
                bytes.withUnsafeBytes { checkImage($0, shown: Photo.dataURI($0), field: field, record: record, reader: reader) }
            default:
                return  // an empty reference, or a value of the wrong type, which the rules report
            }
        }
    }

    private mutating func checkImage(
        _ bytes: UnsafeRawBufferPointer, shown: @autoclosure () -> String, field: String, record: RawRecord,
        reader: any RecordReader
    ) {
        let type = Photo.imageType(of: bytes)
        guard type != .png && type != .jpeg else { return }
        let diagnostic = Diagnostic(
            .error, .photoNotImage, [.string(type.mediaType)], at: SourceLocation(field: field), value: shown(),
            rule: "photo.format")
        report(locate(diagnostic, of: record, reader: reader))
    }
}

// MARK: - Rules

/// The rules a record is checked against: a schema, the built-in one of
/// its kind or the user's, compiled once (`Schema`).
struct RecordRules {
    let schema: Schema
    private var validator: RecordValidator
    /// The fields whose values must be unique in a file (`x-ferry-unique`).
    let uniqueFields: [String]
    /// The fields that hold photos (`format: photo`), whose bytes must be a
    /// PNG or a JPEG.
    let photoFields: [String]

    init(schema: Schema) {
        self.schema = schema
        validator = RecordValidator(schema: schema)
        uniqueFields = schema.uniqueFields
        photoFields = schema.fieldRules.filter { $0.type == .photo }.map(\.name)
    }

    func uniqueRule(_ field: String) -> String { "/properties/\(field)/x-ferry-unique" }

    /// Whether `record` breaks none of the rules; it looks no further than
    /// the first problem, and makes no `Value` for a valid record.
    mutating func passes(_ record: RawRecord) -> Bool {
        do throws(FerryError) {
            try validator.validate(record)
            return true
        } catch {
            return false
        }
    }

    /// Every problem of `record`, each naming its field, value and rule.
    mutating func problems(of record: RawRecord) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        schema.check(record.record(), at: .unknown) { problem in
            problems.append(problem)
            return true
        }
        if problems.isEmpty {
            // The first-violation check and the full one agree (tests hold
            // them to it); should they not, the record still fails, loudly.
            do throws(FerryError) {
                try validator.validate(record)
            } catch {
                problems.append(Diagnostic(error))
            }
        }
        return problems
    }
}

/// A sink that places diagnostics in their file and counts those kept
/// before it hands them on.
private final class CountingSink: DiagnosticSink {
    private let sink: DiagnosticCollector
    private let path: String
    private(set) var errors = 0
    private(set) var warnings = 0

    init(_ sink: DiagnosticCollector, path: String) {
        self.sink = sink
        self.path = path
    }

    func report(_ diagnostic: Diagnostic) -> Bool {
        let kept = sink.diagnostics.count
        let more = sink.report(diagnostic.located(SourceLocation(file: path)))
        if diagnostic.severity == .warning {
            warnings += 1
        } else if sink.diagnostics.count > kept {
            errors += 1
        }
        return more
    }
}
