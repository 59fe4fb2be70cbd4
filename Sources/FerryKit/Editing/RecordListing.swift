/// What `ferry list` shows of a file: each record's number, key and main
/// fields, and its photo's type and size.
///
/// The main fields are a product's `name`, `price` and `sku`; a book's
/// `title`, `author`, `price`, `pages`, `readThisBook` and `isbn`; for other
/// records the first four fields (a photo aside). Only fields some record
/// has are shown.
package struct RecordListing {
    /// One record's line.
    package struct Row {
        /// The record's number, counted from 1 as every message counts
        /// records (and as `edit` and `remove` take it).
        package var number: Int
        package var key: String?
        /// The text of each main field (`columns`), empty for none.
        package var cells: [String]
        /// The photo: its type and size, or its reference; nil for none.
        package var photo: PhotoSummary?
    }

    /// A record's photo, described.
    package enum PhotoSummary: Equatable {
        /// Bytes held in the file (a plist's data, a `data:` URI): what
        /// they look like and how many.
        case bytes(ImageType, Int)
        /// A path or URL, as the record has it.
        case reference(String)
    }

    package let file: String
    package let format: String
    package let kind: RecordKind
    package let keyFields: [String]?
    /// The main fields shown.
    package let columns: [String]
    /// Whether a table shows the key in a column of its own: not when the
    /// key is one of the main fields shown (a product keyed by name), nor
    /// when there is none.
    package var showsKeyColumn: Bool {
        guard let keyFields else { return false }
        return !(keyFields.count == 1 && columns.contains(keyFields[0]))
    }
    package let rows: [Row]
    private let records: [Record]

    package init(_ file: EditedFile, key: [String]? = nil) {
        self.file = file.path
        format = file.format
        kind = file.kind
        records = file.records
        let selector = file.selector(key: key)
        keyFields = selector.keyFields
        let present = Set(records.flatMap(\.fields.names))
        let main: [String] =
            switch kind {
            case .product: ["name", "price", "sku"]
            case .book: ["title", "author", "price", "pages", "readThisBook", "isbn"]
            case .generic:
                Array(records.flatMap(\.fields.names).reduce(into: [String]()) { names, name in
                    if name != RecordChange.photoField && !names.contains(name) { names.append(name) }
                }.prefix(4))
            }
        let columns = main.filter(present.contains)
        self.columns = columns
        rows = records.enumerated().map { index, record in
            Row(
                number: index + 1, key: selector.keyText(of: index),
                cells: columns.map { record[$0].map(RecordListing.text) ?? "" },
                photo: record[RecordChange.photoField].flatMap(RecordListing.photo))
        }
    }

    /// A value as one cell of text: text as it is, others as JSON writes them.
    static func text(_ value: Value) -> String {
        switch value {
        case .null: ""
        case .string(let text): text
        case .bytes(let bytes): "\(bytes.count) B"
        default: (try? JSONText.compact(value)) ?? ""
        }
    }

    static func photo(_ value: Value) -> PhotoSummary? {
        switch value {
        case .bytes(let bytes): return .bytes(Photo.imageType(of: bytes), bytes.count)
        case .string(let text) where Photo.isDataURI(text):
            guard let bytes = Photo.bytes(fromDataURI: text) else { return .reference(String(text.prefix(32)) + "…") }
            return .bytes(Photo.imageType(of: bytes), bytes.count)
        case .string(let text) where !text.isEmpty: return .reference(text)
        default: return nil
        }
    }

    // MARK: - JSON

    /// The listing for programs, one JSON object (Formats/editing.md shows its shape):
    /// `{"file", "format", "kind", "key": [fields] or null, "records": [{"record",
    /// "key", "fields": {every field but the photo}, "photo": null or
    /// {"type", "bytes"} or {"reference"}}]}`.
    /// - Throws: `json.nonFiniteNumber` for a record holding one.
    package func json() throws(FerryError) -> String {
        var report = OrderedObject()
        report.append(key: "file", value: .string(file))
        report.append(key: "format", value: .string(format))
        report.append(key: "kind", value: .string(kind.rawValue))
        report.append(key: "key", value: keyFields.map { .array($0.map(Value.string)) } ?? .null)
        var entries: [Value] = []
        for (row, record) in zip(rows, records) {
            var entry = OrderedObject()
            entry.append(key: "record", value: .integer(Int64(row.number)))
            entry.append(key: "key", value: row.key.map(Value.string) ?? .null)
            var fields = OrderedObject()
            for (name, value) in record.pairs where name != RecordChange.photoField {
                fields.append(key: name, value: value)
            }
            entry.append(key: "fields", value: .object(fields))
            switch row.photo {
            case .bytes(let type, let count)?:
                entry.append(
                    key: "photo",
                    value: .object(OrderedObject([("type", .string(type.mediaType)), ("bytes", .integer(Int64(count)))])))
            case .reference(let reference)?:
                entry.append(key: "photo", value: .object(OrderedObject([("reference", .string(reference))])))
            case nil:
                entry.append(key: "photo", value: .null)
            }
            entries.append(.object(entry))
        }
        report.append(key: "records", value: .array(entries))
        return try JSONText.compact(.object(report))
    }
}
