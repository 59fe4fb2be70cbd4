#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The fields a keyed container reads: its decoder's record, or a nested
/// object's.
enum DecodedFields {
    case record
    case object(OrderedObject)
}

extension RecordKeyedContainer {
    /// The value of field `name`, found by name alone.
    fileprivate func value(_ name: String) -> Value? {
        switch fields {
        case .record:
            guard let record = decoder.record, let index = record.fields.index(of: name),
                index < record.values.count
            else { return nil }
            return record.value(at: index)
        case .object(let object): return object[name]
        }
    }
}

// MARK: - Keyed

/// A record's fields, or an object's members, by coding key.
///
/// A field that is absent, or null at a record's top level, is missing:
/// `decodeIfPresent` gives nil for it and `decode` throws
/// `record.missingField`.
struct RecordKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: RecordDecoder
    let fields: DecodedFields

    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] {
        let names: [String]
        switch fields {
        case .record: names = decoder.record.map { Array($0.fields.names.prefix($0.values.count)) } ?? []
        case .object(let object): names = object.keys
        }
        return names.compactMap { Key(stringValue: $0) }
    }

    /// The value of `key`, nil when it is missing.
    private func present(_ key: Key) -> Value? {
        let found: Value?
        if case .record = fields {
            guard let record = decoder.record else { return nil }
            found = decoder.rules.guesses.value(key.stringValue, in: record, lookup: decoder.lookups)
            decoder.lookups += 1
        } else {
            found = value(key.stringValue)
        }
        guard let value = found else { return nil }
        if case .null = value, decoder.isRecord { return nil }
        return value
    }

    private func required(_ key: Key) throws(FerryError) -> Value {
        guard let value = present(key) else { throw decoder.missing(key) }
        if case .null = value { throw decoder.missing(key) }
        return value
    }

    func contains(_ key: Key) -> Bool { present(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let value = present(key) else { return true }
        if case .null = value { return true }
        return false
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try ValueScalars.bool(required(key), decoder: decoder, key: key)
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try ValueScalars.string(required(key), decoder: decoder, key: key)
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try ValueScalars.double(required(key), decoder: decoder, key: key)
    }

    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try ValueScalars.float(required(key), decoder: decoder, key: key)
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }

    private func integer<I: FixedWidthInteger>(_ key: Key) throws -> I {
        try ValueScalars.integer(required(key), decoder: decoder, key: key)
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.decode(type, from: required(key), key: key)
    }

    // The optional forms, without the protocol's default second lookup.

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let value = nonNull(key) else { return nil }
        return try ValueScalars.string(value, decoder: decoder, key: key)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let value = nonNull(key) else { return nil }
        return try ValueScalars.bool(value, decoder: decoder, key: key)
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let value = nonNull(key) else { return nil }
        return try ValueScalars.double(value, decoder: decoder, key: key)
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let value = nonNull(key) else { return nil }
        return try ValueScalars.integer(value, decoder: decoder, key: key)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = nonNull(key) else { return nil }
        return try decoder.decode(type, from: value, key: key)
    }

    private func nonNull(_ key: Key) -> Value? {
        guard let value = present(key) else { return nil }
        if case .null = value { return nil }
        return value
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try RecordDecoder(.value(required(key)), rules: decoder.rules, parent: decoder, key: key)
            .container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try RecordDecoder(.value(required(key)), rules: decoder.rules, parent: decoder, key: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        RecordDecoder(.value(value("super") ?? .null), rules: decoder.rules, parent: decoder, key: IndexKey(0))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        RecordDecoder(.value(value(key.stringValue) ?? .null), rules: decoder.rules, parent: decoder, key: key)
    }
}

// MARK: - Unkeyed

/// An array's elements, in order.
struct RecordUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: RecordDecoder
    let elements: [Value]
    private(set) var currentIndex = 0

    init(decoder: RecordDecoder, elements: [Value]) {
        self.decoder = decoder
        self.elements = elements
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The next element, and its key for errors; past the end, a
    /// missing-field error for the index.
    private mutating func next() throws(FerryError) -> (Value, IndexKey) {
        let key = IndexKey(currentIndex)
        guard currentIndex < elements.count else { throw decoder.missing(key) }
        defer { currentIndex += 1 }
        return (elements[currentIndex], key)
    }

    mutating func decodeNil() throws -> Bool {
        guard currentIndex < elements.count, case .null = elements[currentIndex] else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let (value, key) = try next()
        return try ValueScalars.bool(value, decoder: decoder, key: key)
    }

    mutating func decode(_ type: String.Type) throws -> String {
        let (value, key) = try next()
        return try ValueScalars.string(value, decoder: decoder, key: key)
    }

    mutating func decode(_ type: Double.Type) throws -> Double {
        let (value, key) = try next()
        return try ValueScalars.double(value, decoder: decoder, key: key)
    }

    mutating func decode(_ type: Float.Type) throws -> Float {
        let (value, key) = try next()
        return try ValueScalars.float(value, decoder: decoder, key: key)
    }

    mutating func decode(_ type: Int.Type) throws -> Int { try integer() }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer() }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }

    private mutating func integer<I: FixedWidthInteger>() throws -> I {
        let (value, key) = try next()
        return try ValueScalars.integer(value, decoder: decoder, key: key)
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, key) = try next()
        return try decoder.decode(type, from: value, key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let (value, key) = try next()
        return try RecordDecoder(.value(value), rules: decoder.rules, parent: decoder, key: key).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, key) = try next()
        return try RecordDecoder(.value(value), rules: decoder.rules, parent: decoder, key: key).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, key) = try next()
        return RecordDecoder(.value(value), rules: decoder.rules, parent: decoder, key: key)
    }
}
