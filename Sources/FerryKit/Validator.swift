/// What `ferry validate` should check, as its options say it.
public struct ValidationOptions: Sendable {
    /// The input format; nil to sniff each file's.
    public var from: String?
    /// The kind every file's records are checked as; nil to infer it per file.
    public var kind: RecordKind?
    /// Options of the codecs (the CSV dialect, …).
    public var codecOptions = OptionValues()
    public var limits = ReadLimits()
    /// The most errors reported; checking stops there. nil for no cap.
    public var maxErrors: Int? = 1000

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
        report.rulesChoice = options.kind == nil ? .inferred : .kind
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
                    let context = ReadContext(kind: options.kind, options: options.codecOptions, limits: options.limits)
                    context.keepsFieldOffsets = true
                    context.resumesAfterBadRecords = true
                    let reader = try codec.makeReader(opened.input, context: context)
                    let photos = PhotoStore(
                        inputDirectory: path == "-" ? "." : OutputFile.directory(of: path), outputDirectory: ".",
                        photosDirectory: nil, overwrite: false)
                    try run.check(reader, context: context, kind: options.kind, photos: photos)
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
        report.rules = kinds.map(\.rawValue).joined(separator: ", ")
        return report
    }
}

// MARK: - One file

/// The checking of one file: its counts, and the state that spans records.
private struct FileRun {
    let path: String
    let sink: DiagnosticCollector
    var file: ValidationReport.File
    /// The unique fields' values seen, with the record that had each first.
    private var seenKeys: [String: [String: Int]] = [:]
    /// Whether the current record has had an error yet.
    private var recordFailed = false

    init(path: String, sink: DiagnosticCollector, file: ValidationReport.File) {
        self.path = path
        self.sink = sink
        self.file = file
    }

    /// Reads `reader` to its end, or to an error it cannot read past.
    mutating func check(
        _ reader: any RecordReader, context: ReadContext, kind asked: RecordKind?, photos: PhotoStore
    ) throws(FerryError) {
        var rules: RecordRules?
        while true {
            let record: Record
            do throws(FerryError) {
                guard let next = try reader.next() else { break }
                record = next
            } catch {
                takeWarnings(context)
                guard reader.resumesAfterError else { throw error }
                file.records += 1
                if sink.reachedCap {
                    file.uncheckedRecords += 1
                } else {
                    recordFailed = false
                    report(Diagnostic(error.located(SourceLocation(file: path))))
                }
                continue
            }
            file.records += 1
            if sink.reachedCap {
                file.uncheckedRecords += 1
                continue
            }
            recordFailed = false
            let kind = asked ?? reader.declaredKind ?? rules?.kind ?? RecordKind.infer(from: record.fields)
            if rules == nil || rules?.kind != kind {
                rules = RecordRules(kind: kind)
                file.kind = kind
            }
            let offsets = reader.fieldOffsets
            let recordLocation = SourceLocation(file: path, record: record.origin.index)
            rules?.check(record) { diagnostic in
                report(locate(diagnostic, in: record, offsets: offsets, reader: reader, at: recordLocation))
            }
            checkUnique(record, rules: rules, offsets: offsets, reader: reader, at: recordLocation)
            if kind == .product { checkPhoto(record, photos: photos, offsets: offsets, reader: reader, at: recordLocation) }
            takeWarnings(context)
        }
        takeWarnings(context)
    }

    /// Hands a diagnostic to the sink and counts it, when the sink keeps it.
    mutating func report(_ diagnostic: Diagnostic) {
        let kept = sink.diagnostics.count
        sink.report(diagnostic)
        guard sink.diagnostics.count > kept else { return }
        switch diagnostic.severity {
        case .warning: file.warnings += 1
        case .error:
            file.errors += 1
            if !recordFailed {
                recordFailed = true
                file.invalidRecords += 1
            }
        }
    }

    private mutating func takeWarnings(_ context: ReadContext) {
        for warning in context.takeWarnings() {
            report(Diagnostic(warning).located(SourceLocation(file: path)))
        }
    }

    /// The diagnostic at its field's own line and column, when the reader
    /// kept where each field starts; else at the record's start.
    private func locate(
        _ diagnostic: Diagnostic, in record: Record, offsets: [Int], reader: any RecordReader,
        at recordLocation: SourceLocation
    ) -> Diagnostic {
        var offset = record.origin.byteOffset
        if let field = diagnostic.location.field, let index = record.fields.index(of: topLevel(field)),
            index < offsets.count
        {
            offset = offsets[index]
        }
        return diagnostic.located(recordLocation).located(reader.location(ofByteOffset: offset))
    }

    private func topLevel(_ field: String) -> String {
        String(field.split(separator: "/", maxSplits: 1).first ?? Substring(field))
    }

    // MARK: - Unique keys

    private mutating func checkUnique(
        _ record: Record, rules: RecordRules?, offsets: [Int], reader: any RecordReader,
        at recordLocation: SourceLocation
    ) {
        guard let rules else { return }
        for field in rules.uniqueFields {
            guard let value = record[field], let key = Self.keyText(value) else { continue }
            if let first = seenKeys[field, default: [:]][key] {
                let diagnostic = Diagnostic(
                    .error, .recordDuplicateKey, [.string(field), .string(key), .integer(first + 1)],
                    at: SourceLocation(field: field), value: key, rule: rules.uniqueRule(field))
                report(locate(diagnostic, in: record, offsets: offsets, reader: reader, at: recordLocation))
            } else {
                seenKeys[field, default: [:]][key] = record.origin.index
            }
        }
    }

    /// A key's text: strings trimmed, numbers as written; nil for null.
    static func keyText(_ value: Value) -> String? {
        switch value {
        case .null: nil
        case .string(let text): text
        case .integer(let number): String(number)
        case .double(let number): number.description
        case .bool(let flag): flag ? "true" : "false"
        default: nil
        }
    }

    // MARK: - Photos

    /// A product's photo, when present, must be a PNG or a JPEG, by its bytes;
    /// a reference is checked when its file can be read.
    private mutating func checkPhoto(
        _ record: Record, photos: PhotoStore, offsets: [Int], reader: any RecordReader,
        at recordLocation: SourceLocation
    ) {
        guard let value = record["photo"] else { return }
        let here = SourceLocation(field: "photo")
        let bytes: [UInt8]
        var shown: String?
        switch value {
        case .bytes(let inline):
            bytes = inline
        case .string(let text) where Photo.isDataURI(text):
            guard let decoded = Photo.bytes(fromDataURI: text) else {
                report(
                    locate(
                        Diagnostic(FerryError.photoInvalidDataURI(at: here), value: text, rule: "photo.format"),
                        in: record, offsets: offsets, reader: reader, at: recordLocation))
                return
            }
            bytes = decoded
            shown = text
        case .string(let reference) where !reference.isEmpty:
            do throws(FerryError) {
                bytes = try photos.read(reference: reference, at: here)
                shown = reference
            } catch {
                var warning = Diagnostic(error, value: reference, rule: "photo.format")
                warning.severity = .warning
                report(locate(warning, in: record, offsets: offsets, reader: reader, at: recordLocation))
                return
            }
        default:
            return
        }
        let type = Photo.imageType(of: bytes)
        guard type != .png && type != .jpeg else { return }
        let diagnostic = Diagnostic(
            .error, .photoNotImage, [.string(type.mediaType)], at: here, value: shown ?? "\(bytes.count) bytes",
            rule: "photo.format")
        report(locate(diagnostic, in: record, offsets: offsets, reader: reader, at: recordLocation))
    }
}

// MARK: - Rules

/// The rules a record is checked against.
struct RecordRules {
    let kind: RecordKind
    private var validator: RecordValidator

    init(kind: RecordKind) {
        self.kind = kind
        validator = RecordValidator(kind: kind)
    }

    /// The fields whose values must be unique in a file.
    var uniqueFields: [String] {
        switch kind {
        case .product: ["sku"]
        case .book: ["isbn"]
        case .generic: []
        }
    }

    func uniqueRule(_ field: String) -> String { "/properties/\(field)/x-ferry-unique" }

    /// Reports each problem of `record`.
    mutating func check(_ record: Record, _ report: (Diagnostic) -> Void) {
        do throws(FerryError) {
            try validator.validate(record, at: .unknown)
        } catch {
            let value = error.location.field.flatMap { record[$0] }.flatMap(FileRun.keyText)
            report(Diagnostic(error, value: value, rule: error.location.field.map { "/properties/\($0)" }))
        }
    }
}
