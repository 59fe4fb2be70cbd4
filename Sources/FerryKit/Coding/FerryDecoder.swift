#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes your own `Decodable` types from a file or bytes in any format
/// Ferry reads, as `JSONDecoder` does from JSON.
///
///     struct Product: Codable { var name: String; var price: Decimal?; var photo: Data? }
///     let products = try FerryDecoder().decode([Product].self, from: URL(filePath: "Products.archive"))
///
/// The format is `format` when set, else sniffed from the bytes, else
/// taken from the file's extension; gzip is inflated on the way. Each
/// record is checked by its kind's rules first (an empty `name`, a negative
/// `price` are errors, as `ferry validate` reports them) unless `validates`
/// is false. Errors are `FerryError`s located as the command line prints
/// them: file, line and column where the format has lines, record, field.
public struct FerryDecoder: Sendable {
    /// The format to read; nil to sniff it.
    public var format: FerryFormat?
    /// The kind whose rules apply; nil to infer it from the first record's
    /// fields (a `name` makes products, a `title` books).
    public var kind: RecordKind?
    /// Whether records are checked by their kind's rules before decoding.
    public var validates = true
    /// CSV's delimiter; nil to sniff it (`,`, `;`, tab, `|`).
    public var csvDelimiter: Character?
    /// Whether CSV numbers use a decimal comma (`19,99`), as European
    /// Excel writes them.
    public var decimalComma = false
    /// CSV's text encoding; nil to detect UTF-8, UTF-16 by its mark, or
    /// Windows-1252.
    public var encoding: TextEncoding?
    /// The CSV cell text that means null, besides an empty cell.
    public var nullText: String?
    /// A JSON pointer to the array of records inside a JSON document
    /// (`/data/items`); nil for a document that is the array.
    public var recordsAt: String?
    /// The limits every decoder keeps (depth, record size, expansion).
    public var limits = ReadLimits()
    /// The codecs that can be named or sniffed.
    public var registry: CodecRegistry = .standard
    /// The smallest file `decode` reads in parts (`DecodingParts`); tests
    /// lower it.
    var partsThreshold = PartPlan.threshold
    /// The parts `decode` cuts a large file into, each decoded on the next
    /// free core: the cores the process may use; tests vary it. The values
    /// are the same for every number.
    var jobs = Cores.usable

    public init(format: FerryFormat? = nil, kind: RecordKind? = nil) {
        self.format = format
        self.kind = kind
    }

    /// Every record of the file at `url`, as `T`s.
    /// - Throws: the first error, reading or decoding.
    public func decode<T: Decodable>(_ type: [T].Type, from url: URL) throws(FerryError) -> [T] {
        try decodeInOnePass(type, from: url)
    }

    /// Every record in `data`, as `T`s.
    /// - Throws: the first error, reading or decoding.
    public func decode<T: Decodable>(_ type: [T].Type, from data: Data) throws(FerryError) -> [T] {
        try collect(try records(of: T.self, from: data))
    }

    /// The records of the file at `url`, decoded one at a time as the
    /// sequence is iterated, in flat memory. A record that does not decode
    /// is a failure element, and reading goes on after it where the format
    /// allows (JSON Lines, CSV); after an error the reader cannot pass, the
    /// sequence ends. The sequence is read once.
    /// - Throws: what opening the file throws (`io.*`, an unknown format).
    public func records<T: Decodable>(of type: T.Type, from url: URL) throws(FerryError) -> Records<T> {
        let path = url.ferryPath
        let limits = limits
        let stream = try RecordStream(path: path, photoFolder: OutputFile.directory(of: path), decoder: self) {
            () throws(FerryError) in try OpenedInput(path: path, limits: limits)
        }
        return Records(stream: stream)
    }

    /// The records in `data`, decoded one at a time as the sequence is
    /// iterated (see `records(of:from:)` for a URL).
    /// - Throws: what recognising the format throws.
    public func records<T: Decodable>(of type: T.Type, from data: Data) throws(FerryError) -> Records<T> {
        let bytes = Array(data)
        let limits = limits
        let stream = try RecordStream(path: "-", photoFolder: nil, decoder: self) { () throws(FerryError) in
            try OpenedInput(MemoryInput(bytes, name: "-"), path: "-", limits: limits)
        }
        return Records(stream: stream)
    }

    private func collect<T>(_ records: Records<T>) throws(FerryError) -> [T] {
        var values: [T] = []
        for result in records { values.append(try result.get()) }
        return values
    }

    /// The registry with its CSV, TSV and JSON codecs configured by these
    /// properties (`CSVCodec.configured(_:)`, `JSONCodec(recordsAt:)`):
    /// the same typed configurations an app gives a `Converter`'s registry.
    /// A property set applies over the dialect the registry's codec has;
    /// one left alone keeps it, as `FerryEncoder` does.
    /// - Throws: `usage.invalidValue` for a delimiter CSV cannot use.
    func configuredRegistry() throws(FerryError) -> CodecRegistry {
        var configured = registry
        for case let codec as CSVCodec in registry.codecs {
            var dialect = codec.dialect ?? CSVDialect(delimiter: UInt8(ascii: ","))
            if let csvDelimiter { try dialect.setDelimiter(csvDelimiter) }
            if decimalComma { dialect.decimalComma = true }
            if let encoding { dialect.encoding = encoding }
            if let nullText { dialect.nullText = Array(nullText.utf8) }
            configured.register(codec.configured(dialect))
        }
        if let recordsAt, var json = registry.codec(id: FerryFormat.json.rawValue) as? JSONCodec {
            json.recordsPointer = recordsAt
            configured.register(json)
        }
        return configured
    }
}

extension FerryDecoder {
    /// The records of one input as `T`s, decoded as they are iterated; each
    /// element a value or the error of its record.
    public struct Records<T: Decodable>: Sequence {
        let stream: RecordStream

        public func makeIterator() -> Iterator { Iterator(stream: stream) }

        /// The warnings read so far (a skipped row, an empty input), the
        /// first thousand of them; `warningCount` counts them all.
        public var warnings: [FerryWarning] { stream.warnings }
        public var warningCount: Int { stream.warningCount }

        public struct Iterator: IteratorProtocol {
            let stream: RecordStream

            public mutating func next() -> Result<T, FerryError>? { stream.next(T.self) }
        }
    }
}
