#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A data file opened for `ferry add`, `edit` and `remove`: read whole,
/// inflated when it is gzip, its records read by its codec, and an editor
/// ready (`RecordFileEditor`); `save()` writes the edited file in its place.
///
/// What stays of the file:
///
/// | file | saved |
/// |---|---|
/// | JSON, JSON Lines, CSV, TSV (UTF-8) | spliced: only the edited bytes change |
/// | Excel workbooks | the sheet's cells spliced; the other zip entries copied byte for byte |
/// | binary and XML plists, bundles | all records written again by the same codec |
/// | keyed archives | edited in their `$objects` (`KeyedArchiveEditor`): classes and form kept |
/// | `.gz` of any of these | the inner bytes as above, compressed again |
///
/// Saving goes through `OutputFile`: a temporary file beside the target (a
/// symbolic link's end: the link stays a link), with the file's mode and,
/// where the user may, its owner; synced, renamed over it, the folder
/// synced. A file that changed on disk since it was read (device, inode,
/// size or modification time) is not replaced (`edit.fileChanged`).
public final class EditedFile {
    /// The path as given.
    public let path: String
    /// The codec's id.
    public let format: String
    /// Whether the file is gzip (and is compressed again on saving).
    public let isCompressed: Bool
    /// The records' kind: `--kind`, else what the reader declares, else inferred from the first record.
    /// (A file with no records takes the kind of the first record added.)
    public internal(set) var kind: RecordKind
    /// The rules edits are checked against: `--schema`, else the kind's.
    public internal(set) var schema: Schema
    /// Whether the kind was inferred (neither `--kind` nor `--schema` nor the reader said it).
    let kindInferred: Bool
    package let editor: any RecordFileEditor
    private let identity: FileIdentity
    /// Whether the codec's own bytes are gzip already (a bundle).
    private let codecCompresses: Bool
    /// The name and time the gzip header stored (see `save`).
    private var gzipHeader: (name: String?, time: UInt32) = (nil, 0)

    /// Reads `path` and makes its editor.
    /// - Parameters:
    ///   - from: the format, when the content and the name do not say it.
    ///   - kind, schema: what the records are; nil to infer the kind.
    ///   - forEditing: false to only read the records (`ferry list`): a
    ///     format that cannot be edited is read all the same, and its
    ///     editor refuses every change.
    /// - Throws: `io.*`, `gzip.*`, the codec's reading errors,
    ///   `edit.formatNotEditable`, `edit.recordsAtNotEditable`, `edit.fileChanged`.
    public init(
        path: String, from: String? = nil, kind: RecordKind? = nil, schema: Schema? = nil,
        options: OptionValues = OptionValues(), limits: ReadLimits = ReadLimits(), registry: CodecRegistry = .standard,
        forEditing: Bool = true
    ) throws(FerryError) {
        self.path = path
        do throws(FerryError) {
            identity = try FileIdentity(of: path)
            let file = try FileInput(path: path)
            let raw = try file.readAll(limit: limits.maxInputBytes)
            file.close()
            guard try FileIdentity(of: path) == identity else { throw .editFileChanged(path) }
            isCompressed = GzipInput.isGzip(Array(raw.prefix(FormatResolver.sniffLength)))
            var bytes = raw
            if isCompressed {
                let gzip = try GzipInput(MemoryInput(raw, name: path), limits: limits)
                bytes = try gzip.readAll(limit: limits.maxInputBytes)
                gzipHeader = (gzip.storedName, gzip.storedTime)
            }
            let formatPath = path.lowercased().hasSuffix(".gz") ? String(path.dropLast(3)) : path
            let codec = try FormatResolver(registry: registry).inputCodec(
                path: formatPath, prefix: Array(bytes.prefix(FormatResolver.sniffLength)), from: from)
            format = codec.id
            codecCompresses = codec.capabilities.contains(.writesGzip)
            let context = ReadContext(kind: kind, schema: schema, options: options, limits: limits)
            // Every record, invalid ones too: a cell that does not fit its
            // type is read as its text, for the edit that fixes it.
            context.mismatchedCells = .keepText
            // An empty file holds no records, in every format (`EmptyInputReader`).
            let reader: any RecordReader =
                bytes.isEmpty ? EmptyInputReader() : try codec.makeReader(MemoryInput(bytes, name: path), context: context)
            var records: [Record] = []
            while let record = try reader.next() { records.append(record) }
            let chosen = kind ?? reader.declaredKind ?? records.first.map { RecordKind.infer(from: $0.fields) } ?? .generic
            self.kind = chosen
            self.schema = schema ?? chosen.schema
            kindInferred = kind == nil && schema == nil && reader.declaredKind == nil
            context.kind = chosen
            do throws(FerryError) {
                editor = try EditedFile.editor(
                    for: codec, bytes: codecCompresses ? raw : bytes, records: records, context: context,
                    splices: !bytes.isEmpty)
            } catch where !forEditing && (error.code == .editFormatNotEditable || error.code == .editRecordsAtNotEditable) {
                editor = ReadOnlyEditor(records: records, refusal: error)
            }
        } catch {
            throw error.located(SourceLocation(file: path))
        }
    }

    /// The editor a codec gives, or one that writes the records again: an
    /// empty file has no bytes to splice into.
    private static func editor(
        for codec: any Codec, bytes: [UInt8], records: [Record], context: ReadContext, splices: Bool
    ) throws(FerryError) -> any RecordFileEditor {
        if splices, let editable = codec as? any EditableCodec {
            return try editable.makeEditor(bytes, records: records, context: context)
        }
        guard codec.capabilities.contains(.write) else { throw .editFormatNotEditable(codec.id) }
        return RecodingEditor(codec: codec, records: records, context: context)
    }

    /// Writes the edited file in the place of the one read.
    /// - Throws: `edit.fileChanged` when the file changed since it was read
    ///   (nothing is written); `io.*` (the file stays as it was).
    public func save() throws(FerryError) {
        do throws(FerryError) {
            var bytes = try editor.encoded()
            if isCompressed && !codecCompresses {
                let compressed = MemoryOutput(name: path)
                // The header keeps the name it had; a time it had becomes
                // the edit's, as gzip would store compressing the edited file.
                let stamp = gzipHeader.time == 0 ? 0 : UInt32(truncatingIfNeeded: time(nil))
                let gzip = try GzipOutput(compressed, level: 6, fileName: gzipHeader.name, modified: stamp)
                try gzip.write(bytes)
                try gzip.finish()
                bytes = compressed.bytes
            }
            guard try FileIdentity(of: path) == identity else { throw .editFileChanged(path) }
            let output = try OutputFile(path: path, overwrite: true, keepingOwner: true)
            do throws(FerryError) {
                try output.output.write(bytes)
                guard try FileIdentity(of: path) == identity else { throw .editFileChanged(path) }
                try output.commit()
            } catch {
                output.discard()
                throw error
            }
        } catch {
            throw error.located(SourceLocation(file: path))
        }
    }
}

/// The records of a file that cannot be edited, for listing: every change
/// throws the refusal its codec gave.
final class ReadOnlyEditor: RecordFileEditor {
    let records: [Record]
    let keepsLayout = true
    private let refusal: FerryError

    init(records: [Record], refusal: FerryError) {
        self.records = records
        self.refusal = refusal
    }

    func replace(at index: Int, with record: Record) throws(FerryError) { throw refusal }
    func append(_ record: Record) throws(FerryError) { throw refusal }
    func remove(at index: Int) throws(FerryError) { throw refusal }
    func encoded() throws(FerryError) -> [UInt8] { throw refusal }
}

/// What tells a file apart from the one read: device, inode, size and
/// modification time, to the nanosecond.
struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var seconds: Int
    var nanoseconds: Int

    /// - Throws: `io.cannotOpen` when `path` cannot be looked at.
    init(of path: String) throws(FerryError) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .ioCannotOpen(path, errno: errno) }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        seconds = Int(info.st_mtim.tv_sec)
        nanoseconds = Int(info.st_mtim.tv_nsec)
    }
}
