/// The reading half of a conversion: records come out of the reader checked
/// against their schema (the caller's, else their kind's), with their photos in the form the output needs.
///
/// Line and column are worked out only when something fails, from the
/// reader, which still holds the failing record's bytes.
final class RecordSource {
    private let reader: any RecordReader
    private let inputPath: String
    private let photos: PhotoStore
    private let embedPhotos: Bool
    /// Whether inline photos (`data:` URIs) become bytes, for an output
    /// with a type for them; references stay as they are.
    private let inlineAsBytes: Bool
    /// Where warnings go (a photo of no known image type).
    private let context: ReadContext
    private var validator: RecordValidator?
    /// The kind of the records: as asked, or inferred from the first record.
    private(set) var kind: RecordKind?
    /// The caller's schema; nil for the kind's.
    private let schema: Schema?

    init(
        reader: any RecordReader, inputPath: String, kind: RecordKind?, schema: Schema?, photos: PhotoStore,
        embedPhotos: Bool, inlineAsBytes: Bool = false, context: ReadContext
    ) {
        self.inlineAsBytes = inlineAsBytes
        self.context = context
        self.reader = reader
        self.inputPath = inputPath
        self.kind = kind
        self.schema = schema
        self.photos = photos
        self.embedPhotos = embedPhotos
    }

    /// The next record, checked and with its photo handled; nil at the end.
    /// - Throws: reader errors, `record.*` and `photo.*` errors, located.
    func next() throws(FerryError) -> Record? {
        guard var record = try reader.next() else { return nil }
        let kind = self.kind ?? reader.declaredKind ?? RecordKind.infer(from: record.fields)
        self.kind = kind
        if validator == nil { validator = RecordValidator(schema: schema ?? kind.schema) }
        let location = SourceLocation(file: inputPath, record: record.origin.index)
        do throws(FerryError) {
            try validator?.validate(record, at: location)
            if kind == .product && (embedPhotos || inlineAsBytes || photos.photosDirectory != nil) {
                try handlePhoto(in: &record, at: location)
            }
        } catch {
            throw error.located(reader.location(of: error.location.field, inRecordAt: record.origin.byteOffset))
        }
        return record
    }

    /// Puts a product's photo in the form the output needs: a file in the
    /// photos folder, or bytes when the output embeds them. Bytes that are
    /// not a PNG, JPEG, GIF, HEIC or WebP image are kept, with a warning.
    private func handlePhoto(in record: inout Record, at location: SourceLocation) throws(FerryError) {
        guard let value = record["photo"] else { return }
        var here = location
        here.field = "photo"
        let bytes: [UInt8]
        switch value {
        case .bytes(let inline):
            guard embedPhotos || photos.photosDirectory != nil else { return }
            bytes = inline
        case .string(let text) where Photo.isDataURI(text):
            guard let decoded = Photo.bytes(fromDataURI: text) else { throw .photoInvalidDataURI(at: here) }
            bytes = decoded
        case .string(let reference):
            // Only an embedding or a photos folder needs the file.
            guard embedPhotos || photos.photosDirectory != nil else { return }
            bytes = try photos.read(reference: reference, at: here)
        default:
            return
        }
        let type = Photo.imageType(of: bytes)
        if !Photo.commonTypes.contains(type) {
            context.warn(.photoUnknownType(type, at: here))
        }
        if photos.photosDirectory != nil {
            let name = record["name"]?.stringValue ?? "photo"
            record.set("photo", to: .string(try photos.write(bytes, named: name)))
        } else {
            record.set("photo", to: .bytes(bytes))
        }
    }
}
