#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Encodes your own `Encodable` types as a dataset in any format Ferry
/// writes, as `JSONEncoder` does in JSON.
///
///     let data = try FerryEncoder(format: .csv).encode(products)
///     try FerryEncoder(format: .archive).encode(products, to: URL(filePath: "Products.archive"))
///
/// Each value is one record, its coding keys the fields; a nil optional
/// is a null field, so every record of a type has the same fields. The
/// kind (which decides how an archive names its class and whether a
/// bundle carries photos) is `kind`, else inferred from the fields.
public struct FerryEncoder: Sendable {
    public var format: FerryFormat
    /// The kind of the records; nil to infer it from the first one's fields.
    public var kind: RecordKind?
    /// JSON on one line, without indentation.
    public var compact = false
    /// Whether `encode(_:)`'s bytes are gzip'd; a URL's `.gz` suffix asks
    /// for it too.
    public var gzip = false
    /// The class name an archive gives each record (`Product`, or the
    /// app's module-qualified `GameStore.Product`); nil for the kind's.
    public var archiveClassName: String?
    /// CSV's delimiter; nil for a comma (a tab for TSV).
    public var csvDelimiter: Character?
    /// Whether CSV numbers are written with a decimal comma (`19,99`).
    public var decimalComma = false
    /// The codecs that can be named.
    public var registry: CodecRegistry = .standard

    public init(format: FerryFormat) { self.format = format }

    /// `values` as the bytes of one dataset.
    /// - Throws: `encode.notARecord`; what the format's writer refuses
    ///   (a value it cannot hold).
    public func encode<T: Encodable>(_ values: [T]) throws(FerryError) -> Data {
        let memory = MemoryOutput()
        try write(values, to: memory, gzip: gzip, fileName: nil)
        return Data(memory.bytes)
    }

    /// Writes `values` to the file at `url`, as the command line writes: to
    /// a temporary file beside it, renamed over it at the end, so a failure
    /// leaves the file as it was. A name ending in `.gz` is gzip'd.
    /// - Throws: as `encode(_:)`, and `io.*`.
    public func encode<T: Encodable>(_ values: [T], to url: URL) throws(FerryError) {
        let path = url.ferryPath
        let file = try OutputFile(path: path, overwrite: true)
        do throws(FerryError) {
            let name = path.split(separator: "/").last.map(String.init)
            let gzipped = gzip || path.lowercased().hasSuffix(".gz")
            // The name gzip stores is the file's without `.gz`.
            let stored = name.map { $0.lowercased().hasSuffix(".gz") ? String($0.dropLast(3)) : $0 }
            try write(values, to: file.output, gzip: gzipped, fileName: stored)
            try file.commit()
        } catch {
            file.discard()
            throw error.located(SourceLocation(file: path))
        }
    }

    private func write<T: Encodable>(
        _ values: [T], to destination: any ByteOutput, gzip: Bool, fileName: String?
    ) throws(FerryError) {
        let codec = try configuredCodec()
        guard codec.capabilities.contains(.write) else { throw .formatCannotWrite(codec.id) }
        if gzip && codec.capabilities.contains(.writesGzip) { throw .outputAlreadyCompressed(codec.id) }
        let compressor = gzip ? try GzipOutput(destination, level: 6, fileName: fileName) : nil
        let output: any ByteOutput = compressor ?? destination
        var encoding = RecordEncoding()
        let context = WriteContext()
        var writer: (any RecordWriter)?
        for (index, value) in values.enumerated() {
            var record = try encoding.record(value)
            record.origin.index = index
            if writer == nil {
                context.kind = kind ?? RecordKind.infer(from: record.fields)
                writer = try codec.makeWriter(output, context: context)
            }
            do throws(FerryError) {
                try writer?.write(record)
            } catch {
                throw error.located(SourceLocation(record: index))
            }
        }
        if writer == nil {
            context.kind = kind ?? .generic
            writer = try codec.makeWriter(output, context: context)
        }
        try writer?.finish()
        try compressor?.finish()
    }

    /// The codec of `format`, configured by these properties: a JSON
    /// codec with `style`, an archive's with `className`, a CSV codec with
    /// its dialect; the same typed configurations an app gives a registry.
    /// - Throws: `format.unknown`; `usage.invalidValue` for a delimiter
    ///   CSV cannot use.
    private func configuredCodec() throws(FerryError) -> any Codec {
        guard let codec = registry.codec(id: format.rawValue) else { throw .formatUnknown(format.rawValue) }
        switch codec {
        case var json as JSONCodec:
            if compact { json.style = .compact }
            return json
        case var archive as ArchiveCodec:
            if let archiveClassName { archive.className = archiveClassName }
            return archive
        case let csv as CSVCodec:
            var dialect = csv.dialect ?? CSVDialect(delimiter: UInt8(ascii: ","))
            if let csvDelimiter { try dialect.setDelimiter(csvDelimiter) }
            if decimalComma { dialect.decimalComma = true }
            return csv.configured(dialect)
        default:
            return codec
        }
    }
}
