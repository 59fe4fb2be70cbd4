import FerryCore
import FerryGzip

/// Streams the records of a bundle, each `media/…` reference replaced by the
/// photo's bytes, so that any writer gets the photo.
///
/// The first call to `next()` reads the whole bundle once, checking it
/// against its manifest and spooling the records and photos to a private
/// folder (`BundleUnpacker`); records then stream from the spooled records
/// entry through the records codec, and each photo is read when its record
/// is. The spool folder is removed at the end, on an error, and in `deinit`.
final class BundleReader: RecordReader {
    private enum State {
        case start
        case reading(UnpackedBundle, any RecordReader)
        case done
        case failed(FerryError)
    }

    private let input: any ByteInput
    private let records: any Codec
    private let context: ReadContext
    private var state = State.start
    private var count = 0

    /// - Parameters:
    ///   - input: the bundle: its tar stream, or the tar stream gzip-compressed.
    ///   - records: the codec of the records entry, JSON Lines.
    init(_ input: any ByteInput, records: any Codec, context: ReadContext) {
        self.input = input
        self.records = records
        self.context = context
    }

    /// - Throws: `bundle.*`, `tar.*`, `limit.*`, `gzip.*` and the records
    ///   codec's errors; once failed, the same error again.
    func next() throws(FerryError) -> Record? {
        do throws(FerryError) {
            switch state {
            case .done: return nil
            case .failed(let error): throw error
            case .start:
                try open()
                return try next()
            case .reading(let bundle, let reader):
                guard var record = try reader.next() else {
                    try checkCount(bundle, reader: reader)
                    finish()
                    return nil
                }
                count += 1
                if count > bundle.manifest.count { try checkCount(bundle, reader: reader) }
                try resolveMedia(in: &record, bundle: bundle, reader: reader)
                return record
            }
        } catch {
            if case .failed = state {} else {
                finish()
                state = .failed(error)
            }
            throw error
        }
    }

    /// Where a byte offset of the records entry is, in that entry.
    func location(ofByteOffset offset: Int) -> SourceLocation {
        if case .reading(_, let reader) = state { return reader.location(ofByteOffset: offset) }
        return SourceLocation(file: input.name, byteOffset: offset)
    }

    // MARK: - Steps

    private func open() throws(FerryError) {
        let peekable = PeekableInput(input)
        let tar: any ByteInput =
            GzipInput.isGzip(try peekable.peek(2)) ? try GzipInput(peekable, limits: context.limits) : peekable
        let scanner = TarScanner(tar, archiveName: input.name, limits: context.limits)
        let bundle = try BundleUnpacker(scanner: scanner, archiveName: input.name, records: records, context: context)
            .unpack()
        let spooled = try FileInput(path: bundle.recordsFile)
        let name = input.name + "/" + bundle.manifest.records
        let reader = try records.makeReader(RenamedInput(spooled, name: name), context: context)
        state = .reading(bundle, reader)
    }

    /// Replaces each top-level string that names a spooled photo by its bytes.
    /// - Throws: `bundle.missingMedia` for a `photo` under `media/` that the bundle lacks.
    private func resolveMedia(in record: inout Record, bundle: UnpackedBundle, reader: any RecordReader)
        throws(FerryError)
    {
        for (index, value) in record.values.enumerated() {
            guard case .string(let reference) = value, EntryPath.isMedia(reference) else { continue }
            let field = record.fields.names[index]
            guard let file = bundle.media[reference] else {
                guard field != "photo" else {
                    let here = SourceLocation(record: record.origin.index, field: field)
                    throw .bundleMissingMedia(reference: reference, at: here)
                        .located(reader.location(ofByteOffset: record.origin.byteOffset))
                }
                continue
            }
            let photo = try FileInput(path: file.file)
            defer { photo.close() }
            record.values[index] = .bytes(try photo.readAll(limit: file.bytes))
        }
    }

    /// Compares the manifest's count with the records, reading the rest of
    /// them once there are too many, so the error gives the true number.
    /// - Throws: `bundle.countMismatch`.
    private func checkCount(_ bundle: UnpackedBundle, reader: any RecordReader) throws(FerryError) {
        if count > bundle.manifest.count {
            while try reader.next() != nil { count += 1 }
        }
        guard count == bundle.manifest.count else {
            throw .bundleCountMismatch(
                expected: bundle.manifest.count, found: count, at: SourceLocation(file: input.name))
        }
    }

    private func finish() {
        if case .reading(let bundle, _) = state { bundle.spool.remove() }
        state = .done
    }

    deinit { finish() }
}

/// Another input under another name, so that messages about the spooled
/// records entry name it inside its bundle (`products.ferry.tgz/records.jsonl`).
private final class RenamedInput: ByteInput {
    private let base: any ByteInput
    let name: String

    init(_ base: any ByteInput, name: String) {
        self.base = base
        self.name = name
    }

    var sizeHint: Int? { base.sizeHint }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int {
        try base.read(into: buffer)
    }
}
