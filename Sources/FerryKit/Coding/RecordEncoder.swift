#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// MARK: - Design
//
// The mirror of `RecordDecoder`: an `Encodable` value becomes a record,
// its coding keys the fields in the order it encodes them:
//
//     Product(name: "Wii", price: 269.00, photo: nil)
//        │
//        ▼
//     Record  name: "Wii"  price: 269.00  photo: null
//
// An optional that is nil is written as null, not left out, so that every
// record of a type has the same fields and a CSV file one header. Values
// go into an `EncodedBox`: a keyed box for the record and each nested
// struct, an unkeyed box for each array. Scalars are stored at once; a
// nested box is turned into a `Value` when the record is finished.

/// Encodes `Encodable` values as records.
struct RecordEncoding {
    /// The fields of the last record, reused while the names repeat, as
    /// they do for every value of one type.
    private var lastFields: FieldList?

    /// `value` as a record.
    /// - Throws: `encode.notARecord` when `value` encodes as anything but a
    ///   keyed container; `decode.failed` for an `EncodingError` its own
    ///   code throws.
    mutating func record<T: Encodable>(_ value: T) throws(FerryError) -> Record {
        let box = EncodedBox()
        do {
            try value.encode(to: RecordEncoder(box: box, path: []))
        } catch let error as FerryError {
            throw error
        } catch {
            throw .decodeFailed("", reason: "\(error)", at: .unknown)
        }
        guard case .keyed = box.shape else { throw .encodeNotARecord("\(T.self)") }
        let fields: FieldList
        if let lastFields, lastFields.names == box.keys {
            fields = lastFields
        } else {
            fields = FieldList(box.keys)
            lastFields = fields
        }
        return Record(fields: fields, values: box.items.map(\.value))
    }
}

/// What a container has written so far.
final class EncodedBox {
    enum Shape {
        case empty
        case keyed
        case unkeyed
        case single
    }

    var shape = Shape.empty
    var keys: [String] = []
    var items: [EncodedItem] = []

    /// Sets `item` under `key`, replacing an earlier value of the same key.
    func set(_ item: EncodedItem, for key: String) {
        if let index = keys.firstIndex(of: key) {
            items[index] = item
        } else {
            keys.append(key)
            items.append(item)
        }
    }

    var value: Value {
        switch shape {
        case .empty: .null
        case .keyed: .object(OrderedObject(Array(zip(keys, items.map(\.value)))))
        case .unkeyed: .array(items.map(\.value))
        case .single: items.first?.value ?? .null
        }
    }
}

/// A value written, or a container still being written.
enum EncodedItem {
    case value(Value)
    case box(EncodedBox)

    var value: Value {
        switch self {
        case .value(let value): value
        case .box(let box): box.value
        }
    }
}

/// The `Encoder` of one value: the record, or a value inside it.
struct RecordEncoder: Encoder {
    let box: EncodedBox
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(box: EncodedBox, path: [any CodingKey]) {
        self.box = box
        codingPath = path
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        box.shape = .keyed
        return KeyedEncodingContainer(RecordKeyedEncoder<Key>(box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        box.shape = .unkeyed
        return RecordUnkeyedEncoder(box: box, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        RecordSingleEncoder(box: box, codingPath: codingPath)
    }

    /// `value` as a `Value`: a scalar at once, anything else through its
    /// own `encode(to:)` into a box of its own.
    static func item<T: Encodable>(_ value: T, path: [any CodingKey]) throws -> EncodedItem {
        if let scalar = EncodedScalars.special(value) { return .value(scalar) }
        let box = EncodedBox()
        try value.encode(to: RecordEncoder(box: box, path: path))
        return .box(box)
    }
}

/// Turns the values `Encodable` hands over into `Value`s, as
/// `ValueScalars` reads them back.
enum EncodedScalars {
    static func integer<I: FixedWidthInteger>(_ number: I) -> Value {
        if let exact = Int64(exactly: number) { return .integer(exact) }
        return .number(NumberText(unchecked: String(number)))
    }

    static func double(_ number: Double) -> Value { .double(number) }

    /// A `Float` by its shortest text, so `19.99` stays 19.99 and does not
    /// become 19.989999771118164.
    static func float(_ number: Float) -> Value {
        number.isFinite ? .double(Double("\(number)") ?? Double(number)) : .double(Double(number))
    }

    /// The types Foundation's coders treat as scalars; nil for others.
    static func special<T: Encodable>(_ value: T) -> Value? {
        switch value {
        case let decimal as Decimal: return self.decimal(decimal)
        case let date as Date: return .date(date)
        case let data as Data: return .bytes(Array(data))
        case let url as URL: return .string(url.absoluteString)
        default: return nil
        }
    }

    /// A decimal by its text: an integer when it is one, a double when the
    /// double prints as the same text, else the text itself.
    static func decimal(_ decimal: Decimal) -> Value {
        var text = decimal.description
        if let integer = Int64(text) { return .integer(integer) }
        let printsAsWritten = text.withUTF8 { JSONText.printsAsWritten($0) }
        if printsAsWritten, let number = Double(text) { return .double(number) }
        return .number(NumberText(unchecked: text))
    }
}
