// MARK: - Codes of merge

extension FerryError.Code {
    /// An input whose records are of another kind than the first input's.
    public static let mergeKindMismatch = Self("merge.kindMismatch", .usage)
    /// Generic records, which have no default key, merged without `--key`.
    public static let mergeKeyRequired = Self("merge.keyRequired", .usage)
    /// Conflicting duplicates under `--on-conflict fail`: nothing is written.
    public static let mergeConflicts = Self("merge.conflicts", .data)
}

extension FerryError {
    /// - Parameters:
    ///   - path: the input whose records are of another kind.
    ///   - kind: their kind.
    ///   - first: the first input with records, which set the kind.
    ///   - expected: the kind it set.
    public static func mergeKindMismatch(
        _ path: String, kind: RecordKind, first: String, expected: RecordKind
    ) -> FerryError {
        FerryError(
            .mergeKindMismatch, [.path(path), .string(kind.rawValue), .path(first), .string(expected.rawValue)],
            at: SourceLocation(file: path))
    }

    public static func mergeKeyRequired() -> FerryError {
        FerryError(.mergeKeyRequired, [.string("--key")])
    }

    /// - Parameters:
    ///   - count: how many conflicts there were.
    ///   - output: the output that was not written.
    public static func mergeConflicts(_ count: Int, output: String) -> FerryError {
        FerryError(.mergeConflicts, [.count(count), .path(output)], at: SourceLocation(file: output))
    }
}
