import FerryCore

// MARK: - One rule for empty inputs

/// The reader of an input of no bytes at all: no records, in every format.
///
/// One rule for every codec, built-in or plugin, so that no codec decides
/// it alone: a 0-byte file (or a gzip stream that inflates to nothing)
/// holds zero records, as jq, Miller and csvkit read one; `convert` writes
/// an empty dataset in the output format, `validate`, `lint`, `inspect` and
/// `merge` find nothing in it, and each says so with the warning
/// `format.emptyInput`. A file of blanks is not empty, and each format
/// reads it by its own rules (JSON: `json.empty`).
final class EmptyInputReader: RecordReader {
    func next() throws(FerryError) -> Record? { nil }
    func location(ofByteOffset offset: Int) -> SourceLocation { SourceLocation(byteOffset: offset) }
    var declaredKind: RecordKind? { nil }
}

extension OpenedInput {
    /// Whether the input, inflated when it is gzip, has no bytes at all.
    var isEmpty: Bool { prefix.isEmpty }

    /// `codec`'s reader of the input; for an empty input, a reader of no
    /// records, with `format.emptyInput` on `context`.
    /// - Throws: what `codec.makeReader` throws.
    func makeReader(_ codec: any Codec, path: String, context: ReadContext) throws(FerryError) -> any RecordReader {
        guard isEmpty else { return try codec.makeReader(input, context: context) }
        context.warn(.formatEmptyInput(path))
        return EmptyInputReader()
    }
}
