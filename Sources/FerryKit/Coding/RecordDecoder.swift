#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// MARK: - Design
//
// A record becomes the caller's `Decodable` type the way `JSONDecoder`
// turns an object into one, with the record's fields as the top-level keys:
//
//     Record  name: "Wii"  price: 269.00  photo: null
//        │
//        ▼     struct Product: Decodable { let name: String
//              let price: Decimal?; let photo: Data? }
//     Product(name: "Wii", price: 269.00, photo: nil)
//
// One `RecordDecoder` serves a whole record; its keyed container answers
// every scalar and the types Foundation's coders treat as scalars
// (`Decimal`, `Date`, `Data`, `URL`) without allocating. Only a nested
// `Decodable` (a struct inside a field, an array) gets a child decoder,
// which points to its parent: the coding path is worked out only when an
// error needs it.
//
// What a value may become is `ValueScalars`' business; errors are
// `FerryError`s naming the field path (`dimensions.width`, `tags[2]`) and
// the record's top-level field, which the reader turns into a line and a
// column.

/// Decodes a `Decodable` value from a record or one of its values.
final class RecordDecoder: Decoder {
    /// What the decoder reads: a record at the top, a value below it.
    enum Content {
        /// Borrowed for the decoding only (`decode(_:from:rules:)`): its
        /// cells point into the reader's window or a tape.
        case record(RawRecord)
        case value(Value)
    }

    private(set) var content: Content
    let rules: DecodingRules
    private let parent: RecordDecoder?
    private let key: (any CodingKey)?
    /// How many fields of the record have been looked up so far.
    var lookups = 0

    init(_ content: Content, rules: DecodingRules, parent: RecordDecoder? = nil, key: (any CodingKey)? = nil) {
        self.content = content
        self.rules = rules
        self.parent = parent
        self.key = key
    }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var decoder: RecordDecoder? = self
        while let current = decoder, let key = current.key {
            path.append(key)
            decoder = current.parent
        }
        return path.reversed()
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Whether this decoder reads a whole record, where a null field counts
    /// as a missing one (as CSV's empty cells are null).
    var isRecord: Bool {
        if case .record = content { return true }
        return false
    }

    /// The record this decoder reads, while the decoding lasts: a type
    /// that keeps its decoder, or a container, past its `init(from:)`
    /// finds no fields then, never memory that has moved on.
    var record: RawRecord? {
        if case .record(let record) = content { return record }
        return nil
    }

    /// Ends the borrowing of the record (see `record`): from then on the
    /// decoder reads an empty object.
    func expire() {
        if isRecord { content = .value(.object(OrderedObject())) }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        switch content {
        case .record:
            return KeyedDecodingContainer(RecordKeyedContainer<Key>(decoder: self, fields: .record))
        case .value(.object(let object)):
            return KeyedDecodingContainer(RecordKeyedContainer<Key>(decoder: self, fields: .object(object)))
        case .value(let value):
            throw mismatch(expected: "object", found: value)
        }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch content {
        case .value(.array(let elements)):
            return RecordUnkeyedContainer(decoder: self, elements: elements)
        case .value(let value):
            throw mismatch(expected: "array", found: value)
        case .record:
            throw mismatch(expected: "array", found: .object(OrderedObject()))
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: Decoding a value below this decoder

    /// Decodes `value`, found under `key`, as `type`.
    func decode<T: Decodable>(_ type: T.Type, from value: Value, key: any CodingKey) throws -> T {
        if let scalar = try ValueScalars.special(type, from: value, rules: rules, at: { self.path(appending: key) }) {
            return scalar
        }
        return try T(from: RecordDecoder(.value(value), rules: rules, parent: self, key: key))
    }

    // MARK: Errors

    /// The coding path as text, `dimensions.width` or `tags[2]`, with `key`
    /// after it when given.
    func path(appending key: (any CodingKey)? = nil) -> FieldPath {
        FieldPath(codingPath + (key.map { [$0] } ?? []))
    }

    func mismatch(expected: String, found: Value, key: (any CodingKey)? = nil) -> FerryError {
        let path = path(appending: key)
        return .recordWrongType(path.text, expected: expected, found: found.typeName, at: path.location)
    }

    func missing(_ key: any CodingKey) -> FerryError {
        let path = path(appending: key)
        return .recordMissingField(path.text, at: path.location)
    }
}

/// Options of a decoding that hold for every record.
struct DecodingRules {
    /// Where each field was found in the records before; shared by every
    /// record of a decoding.
    let guesses = FieldGuesses()

    /// Turns a photo's file name into its bytes, for a `Data` field that
    /// holds a name (a bundle's file, a file beside the input); nil when
    /// names cannot be resolved, and decoding `Data` from one fails.
    var photo: ((String) throws(FerryError) -> [UInt8])?

    init(photo: ((String) throws(FerryError) -> [UInt8])? = nil) {
        self.photo = photo
    }
}

/// A coding path as the errors show it, and the top-level field the
/// reader can locate.
struct FieldPath {
    let text: String
    let topField: String?

    init(_ keys: [any CodingKey]) {
        var text = ""
        for key in keys {
            if key is IndexKey, let index = key.intValue {
                text += "[\(index)]"
            } else {
                if !text.isEmpty { text += "." }
                text += key.stringValue
            }
        }
        self.text = text
        topField = keys.first?.stringValue
    }

    var location: SourceLocation { SourceLocation(field: topField) }
}

/// The key of an array's element in a coding path.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }

    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

// MARK: - A single value

extension RecordDecoder: SingleValueDecodingContainer {
    private var single: Value {
        switch content {
        case .value(let value): value
        case .record(let record):
            .object(OrderedObject(record.values.indices.map { (record.fields.names[$0], record.value(at: $0)) }))
        }
    }

    func decodeNil() -> Bool {
        if case .value(.null) = content { return true }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool { try ValueScalars.bool(single, decoder: self, key: nil) }
    func decode(_ type: String.Type) throws -> String { try ValueScalars.string(single, decoder: self, key: nil) }
    func decode(_ type: Double.Type) throws -> Double { try ValueScalars.double(single, decoder: self, key: nil) }
    func decode(_ type: Float.Type) throws -> Float { try ValueScalars.float(single, decoder: self, key: nil) }
    func decode(_ type: Int.Type) throws -> Int { try ValueScalars.integer(single, decoder: self, key: nil) }
    func decode(_ type: Int8.Type) throws -> Int8 { try ValueScalars.integer(single, decoder: self, key: nil) }
    func decode(_ type: Int16.Type) throws -> Int16 { try ValueScalars.integer(single, decoder: self, key: nil) }
    func decode(_ type: Int32.Type) throws -> Int32 { try ValueScalars.integer(single, decoder: self, key: nil) }
    func decode(_ type: Int64.Type) throws -> Int64 { try ValueScalars.integer(single, decoder: self, key: nil) }
    func decode(_ type: UInt.Type) throws -> UInt { try ValueScalars.integer(single, decoder: self, key: nil) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try ValueScalars.integer(single, decoder: self, key: nil) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try ValueScalars.integer(single, decoder: self, key: nil) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try ValueScalars.integer(single, decoder: self, key: nil) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try ValueScalars.integer(single, decoder: self, key: nil) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = single
        if let scalar = try ValueScalars.special(type, from: value, rules: rules, at: { self.path() }) {
            return scalar
        }
        return try T(from: self)
    }
}
