/// Checks that files are well formed, in the spirit of `plutil -lint` and `mlr check`.
public struct Linter {
    public let registry: CodecRegistry

    public init(registry: CodecRegistry = .standard) { self.registry = registry }

    /// Checks one file (`-` for standard input).
    /// - Returns: the format it was read as.
    /// - Throws: the first problem, located.
    public func lint(_ path: String, from: String?, limits: ReadLimits = ReadLimits()) throws(FerryError) -> String {
        var opened: OpenedInput?
        do throws(FerryError) {
            let input = try OpenedInput(path: path, limits: limits)
            opened = input
            let codec = try FormatResolver(registry: registry).inputCodec(
                path: input.formatPath, prefix: input.prefix, from: from)
            try codec.lint(input.input, context: ReadContext(limits: limits))
            try input.input.checkIntact()
            return codec.id
        } catch {
            throw (opened?.input.unlessChanged(error) ?? error).located(SourceLocation(file: path))
        }
    }
}
