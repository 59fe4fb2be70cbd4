/// An input opened for a conversion or a lint: the file or standard input,
/// inflated when it is gzip, with its first bytes ready for sniffing.
struct OpenedInput {
    /// Counts the bytes read from the file itself, for progress.
    let counting: CountingInput
    /// The bytes a codec reads: the file's, or their inflated form.
    let input: PeekableInput
    /// The first bytes of `input`, for sniffing.
    let prefix: [UInt8]
    /// The path whose extension names the format: without `.gz` for gzip.
    let formatPath: String
    let isCompressed: Bool

    /// Opens `path` and calls `body` with it; a mapped input that shrank
    /// meanwhile (see `FileMapping`) turns the outcome, result or error,
    /// into `io.inputChanged`.
    /// - Throws: what opening or `body` throws, or `io.inputChanged`.
    static func reading<Result>(
        _ path: String, limits: ReadLimits, _ body: (OpenedInput) throws(FerryError) -> Result
    ) throws(FerryError) -> Result {
        let opened = try OpenedInput(path: path, limits: limits)
        do throws(FerryError) {
            let result = try body(opened)
            try opened.input.checkIntact()
            return result
        } catch {
            throw opened.input.unlessChanged(error)
        }
    }

    /// Opens `path` (`-` for standard input). Gzip is recognized by its magic
    /// number or a `.gz` suffix, and inflated as it is read.
    /// - Throws: `io.*`, and `gzip.*` for a damaged gzip header.
    init(path: String, limits: ReadLimits) throws(FerryError) {
        try self.init(try FileInput(path: path), path: path, limits: limits)
    }

    /// Opens `source`, whose name `path` gives (for the format's extension).
    init(_ source: any ByteInput, path: String, limits: ReadLimits) throws(FerryError) {
        counting = CountingInput(source)
        let raw = PeekableInput(counting)
        let rawPrefix = try raw.peek(FormatResolver.sniffLength)
        let gzipSuffix = path.lowercased().hasSuffix(".gz")
        // A 0-byte `.gz` file is empty, as its content would be (see
        // `EmptyInputReader`), not a damaged gzip header.
        if GzipInput.isGzip(rawPrefix) || (gzipSuffix && !rawPrefix.isEmpty) {
            // Inflating runs on its own thread, ahead of the parsing.
            input = PeekableInput(ReadAheadInput(try GzipInput(raw, limits: limits)))
            prefix = try input.peek(FormatResolver.sniffLength)
            formatPath = gzipSuffix ? String(path.dropLast(3)) : path
            isCompressed = true
        } else {
            input = raw
            prefix = rawPrefix
            formatPath = gzipSuffix ? String(path.dropLast(3)) : path
            isCompressed = gzipSuffix
        }
    }
}
