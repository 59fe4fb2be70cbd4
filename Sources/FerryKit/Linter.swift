/// Checks that files are well formed, in the spirit of `plutil -lint` and `mlr check`.
public struct Linter {
    public let registry: CodecRegistry

    public init(registry: CodecRegistry = .standard) { self.registry = registry }

    /// Checks one file (`-` for standard input).
    /// - Returns: the format it was read as.
    /// - Throws: the first problem, located.
    public func lint(_ path: String, from: String?, limits: ReadLimits = ReadLimits()) throws(FerryError) -> String {
        do throws(FerryError) {
            return try OpenedInput.reading(path, limits: limits) { (opened) throws(FerryError) in
                let codec = try FormatResolver(registry: registry).inputCodec(
                    path: opened.formatPath, prefix: opened.prefix, from: from)
                try codec.lint(opened.input, context: ReadContext(limits: limits))
                return codec.id
            }
        } catch {
            throw error.located(SourceLocation(file: path))
        }
    }
}
