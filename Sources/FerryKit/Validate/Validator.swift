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
    /// Files of at least this many bytes are checked in parts at once
    /// (`Validator+Parts.swift`); tests lower it, or raise it to `.max`.
    var partsThreshold = PartPlan.threshold
    /// The threads to use (`--jobs`): one reads each file in one pass; N
    /// read a large file that splits at line ends in up to N parts at once,
    /// on up to N threads, no more than the cores (`PartPlan`). The report
    /// is the same for every number.
    public var jobs = Cores.usable
    /// One shard of the input to check, not the whole file; its report
    /// carries what `--combine` needs (`ShardTrace`).
    package var shard: ShardRange?
    /// Whether photo references are read (`--photos`).
    public var photos = PhotoPolicy.check
    /// Whether every warning is reported as an error (`--strict`).
    public var strict = false

    public init() {}
}

/// What `ferry validate` does with photo references (`--photos`).
public enum PhotoPolicy: String, Sendable, CaseIterable {
    /// Each file must be in the input's folder and be a PNG or a JPEG, as
    /// `convert` needs it to embed it: else `photo.unreadable`,
    /// `photo.outsideFolder` or `photo.notImage` at the reference's cell.
    case check
    /// The photos are elsewhere: no file is read. A reference that leaves
    /// the folder by its text (`/etc/passwd`, `../x.png`) is still refused.
    case skip
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
            var run = FileCheck(path: path, sink: sink, file: file)
            run.countsWarningsAsErrors = options.strict
            do throws(FerryError) {
                if let range = options.shard, !options.wellFormednessOnly {
                    report.shard = try check(shard: range, path: path, into: &run, options: options)
                } else {
                    try checkWhole(path, into: &run, options: options)
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

    /// Checks the whole of the file at `path` into `run`.
    private func checkWhole(_ path: String, into run: inout FileCheck, options: ValidationOptions) throws(FerryError) {
        try options.codecOptions.check(against: registry.codecs)
        try OpenedInput.reading(path, limits: options.limits) { (opened) throws(FerryError) in
            let codec = try FormatResolver(registry: registry).inputCodec(
                path: opened.formatPath, prefix: opened.prefix, from: options.from)
            run.file.format = codec.id
            let context = ReadContext(
                kind: options.schema == nil ? options.kind : .generic, schema: options.schema,
                options: options.codecOptions, limits: options.limits)
            // A free field passes whatever its type: no look over the file.
            context.infersTypes = false
            if options.wellFormednessOnly {
                run.file.countsRecords = false
                try run.lint(opened, path: path, codec: codec, context: context)
                return
            }
            context.reportsEveryProblem()
            if let plan = PartPlan(path: path, codec: codec, opened: opened, options: options),
                check(plan, into: &run, codec: codec, options: options)
            {
                return
            }
            if !opened.isCompressed { run.expectedBytes = opened.input.sizeHint }
            let reader = try opened.makeReader(codec, path: path, context: context)
            try run.check(
                reader, context: context, kind: options.kind, schema: options.schema,
                photos: Self.photoStore(for: path, options: options))
        }
    }

    /// Where the photo references of the file at `path` are read: its
    /// folder (the current one for standard input); nil under `--photos skip`.
    static func photoStore(for path: String, options: ValidationOptions) -> PhotoStore? {
        guard options.photos == .check else { return nil }
        return PhotoStore(
            inputDirectory: path == "-" ? "." : OutputFile.directory(of: path), outputDirectory: ".",
            photosDirectory: nil, overwrite: false)
    }
}

extension ReadContext {
    /// Sets what a check of every problem needs of its reader, whole file,
    /// half or shard: it goes on after a bad record and a bad cell, and
    /// reports every change it makes to a value.
    func reportsEveryProblem() {
        resumesAfterBadRecords = true
        reportsEveryLoss = true
        mismatchedCells = .collect
    }
}

// MARK: - Rules

/// The rules a record is checked against: a schema, the built-in one of
/// its kind or the user's, compiled once (`Schema`). A class: the check of
/// each record refers to it without copying what it holds.
final class RecordRules {
    let schema: Schema
    /// Mutated by every record's check (it keeps where the fields sit); a
    /// run's rules are used by its one thread, so the run-time check of
    /// exclusive access, a call a record, is left out.
    @exclusivity(unchecked) private var validator: RecordValidator
    /// The fields whose values must be unique in a file (`x-ferry-unique`).
    let uniqueFields: [String]
    /// Whether the schema types each unique field: an empty value is then no key.
    let uniqueTyped: [Bool]
    /// The fields that hold photos (`format: photo`), whose bytes must be a
    /// PNG or a JPEG.
    let photoFields: [String]

    init(schema: Schema) {
        self.schema = schema
        validator = RecordValidator(schema: schema)
        uniqueFields = schema.uniqueFields
        let typed = Set(schema.fieldRules.filter { $0.type != nil }.map(\.name))
        uniqueTyped = schema.uniqueFields.map(typed.contains)
        photoFields = schema.fieldRules.filter { $0.type == .photo }.map(\.name)
    }

    func uniqueRule(_ field: String) -> String { "/properties/\(field)/x-ferry-unique" }

    /// Whether `record` breaks none of the rules; it looks no further than
    /// the first problem, and makes no `Value` for a valid record.
    /// A record it cannot judge over its raw cells counts as failing here:
    /// `problems(of:)` then says whether it does (the first error would
    /// be thrown away, and cost a full check of its own).
    func passes(_ record: RawRecord) -> Bool {
        validator.passesQuickly(record)
    }

    /// Every problem of `record`, each naming its field, value and rule.
    func problems(of record: RawRecord) -> [Diagnostic] {
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
final class CountingSink: DiagnosticSink {
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
