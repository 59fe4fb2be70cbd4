/// Records a caller already holds, handed to the validation run as a
/// reader's would be, so that they go through the one check (rules, unique
/// keys, the cap) a file's records go through.
final class RecordsInMemory<Records: Sequence<Record>>: RecordReader {
    private var iterator: Records.Iterator
    private var index = 0

    init(_ records: Records) { iterator = records.makeIterator() }

    func next() throws(FerryError) -> Record? {
        guard var record = iterator.next() else { return nil }
        record.origin.index = index
        index += 1
        return record
    }
}

extension Validator {
    /// Checks records already in memory (built by your service, decoded
    /// from a request) by `kind`'s rules, with its unique keys (a `sku`
    /// twice is an error), as `ferry validate` checks a file's.
    ///
    ///     let report = Validator().validate(records, kind: .product)
    ///     if report.total.errors > 0 { … report.diagnostics … }
    ///
    /// Photo references are not read: they name files of no folder here.
    /// Locations name the record (0-based `record`) and the field; the
    /// report's one file is `-`.
    /// - Parameters:
    ///   - records: the records, read once, in order.
    ///   - kind: the kind whose rules apply; `options.schema`, when set,
    ///     applies instead.
    ///   - options: the cap on errors and `strict`; the input options do
    ///     not apply.
    /// - Returns: the report; the records' problems are in it, not thrown.
    public func validate(
        _ records: some Sequence<Record>, kind: RecordKind, options: ValidationOptions = ValidationOptions()
    ) -> ValidationReport {
        var report = ValidationReport()
        report.maxErrors = options.maxErrors
        report.rulesChoice = options.schema != nil ? .schema : .kind
        let sink = DiagnosticCollector(maxErrors: options.maxErrors)
        var run = FileCheck(path: "-", sink: sink, file: ValidationReport.File(path: "-"))
        run.countsWarningsAsErrors = options.strict
        let context = ReadContext(kind: kind, schema: options.schema, limits: options.limits)
        context.reportsEveryProblem()
        do throws(FerryError) {
            try run.check(
                RecordsInMemory(records), context: context, kind: kind, schema: options.schema, photos: nil)
        } catch {
            run.file.complete = false
            run.report(Diagnostic(error))
        }
        report.files.append(run.file)
        report.diagnostics = sink.diagnostics
        report.reachedCap = sink.reachedCap
        report.errorCategories = sink.errorCategories
        report.rules = options.schema?.source ?? kind.rawValue
        return report
    }
}
