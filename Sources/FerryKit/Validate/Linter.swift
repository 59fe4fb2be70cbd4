/// Checks that files are well formed, in the spirit of `plutil -lint` and
/// `mlr check`: the codecs' `lint`, with no kinds, reported as `validate`
/// reports (every problem the format lets a reader go past).
public struct Linter {
    public let registry: CodecRegistry

    public init(registry: CodecRegistry = .standard) { self.registry = registry }

    /// Checks every file in turn.
    /// - Returns: the report; `options.kind` is ignored.
    public func lint(_ paths: [String], options: ValidationOptions) -> ValidationReport {
        var options = options
        options.kind = nil
        options.wellFormednessOnly = true
        return Validator(registry: registry).validate(paths, options: options)
    }

    /// Checks one file (`-` for standard input).
    /// - Returns: the format it was read as.
    /// - Throws: the first problem, located.
    public func lint(_ path: String, from: String?, limits: ReadLimits = ReadLimits()) throws(FerryError) -> String {
        var options = ValidationOptions()
        options.from = from
        options.limits = limits
        options.maxErrors = 1
        let report = lint([path], options: options)
        if let first = report.diagnostics.first(where: { $0.severity == .error }) {
            throw FerryError(first.code, first.arguments, at: first.location)
        }
        return report.files.first?.format ?? ""
    }
}
