/// A record's fields, or a nested struct's members.
struct RecordKeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: EncodedBox
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) { box.set(.value(.null), for: key.stringValue) }
    mutating func encode(_ value: Bool, forKey key: Key) { box.set(.value(.bool(value)), for: key.stringValue) }
    mutating func encode(_ value: String, forKey key: Key) { box.set(.value(.string(value)), for: key.stringValue) }
    mutating func encode(_ value: Double, forKey key: Key) {
        box.set(.value(EncodedScalars.double(value)), for: key.stringValue)
    }
    mutating func encode(_ value: Float, forKey key: Key) {
        box.set(.value(EncodedScalars.float(value)), for: key.stringValue)
    }
    mutating func encode(_ value: Int, forKey key: Key) { integer(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) { integer(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) { integer(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) { integer(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) { integer(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) { integer(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) { integer(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) { integer(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) { integer(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) { integer(value, key) }

    private func integer<I: FixedWidthInteger>(_ value: I, _ key: Key) {
        box.set(.value(EncodedScalars.integer(value)), for: key.stringValue)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        box.set(try RecordEncoder.item(value, path: codingPath + [key]), for: key.stringValue)
    }

    // A nil optional is written as null, so every record of a type has the
    // same fields.
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { return encodeNil(forKey: key) }
        try encode(value, forKey: key)
    }

    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        guard let value else { return encodeNil(forKey: key) }
        encode(value, forKey: key)
    }

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        guard let value else { return encodeNil(forKey: key) }
        encode(value, forKey: key)
    }

    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        guard let value else { return encodeNil(forKey: key) }
        encode(value, forKey: key)
    }

    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        guard let value else { return encodeNil(forKey: key) }
        encode(value, forKey: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = EncodedBox()
        box.set(.box(nested), for: key.stringValue)
        return RecordEncoder(box: nested, path: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = EncodedBox()
        box.set(.box(nested), for: key.stringValue)
        return RecordEncoder(box: nested, path: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let nested = EncodedBox()
        box.set(.box(nested), for: "super")
        return RecordEncoder(box: nested, path: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let nested = EncodedBox()
        box.set(.box(nested), for: key.stringValue)
        return RecordEncoder(box: nested, path: codingPath + [key])
    }
}

/// An array's elements.
struct RecordUnkeyedEncoder: UnkeyedEncodingContainer {
    let box: EncodedBox
    let codingPath: [any CodingKey]
    var count: Int { box.items.count }

    private var nextPath: [any CodingKey] { codingPath + [IndexKey(box.items.count)] }

    mutating func encodeNil() { box.items.append(.value(.null)) }
    mutating func encode(_ value: Bool) { box.items.append(.value(.bool(value))) }
    mutating func encode(_ value: String) { box.items.append(.value(.string(value))) }
    mutating func encode(_ value: Double) { box.items.append(.value(EncodedScalars.double(value))) }
    mutating func encode(_ value: Float) { box.items.append(.value(EncodedScalars.float(value))) }
    mutating func encode(_ value: Int) { box.items.append(.value(EncodedScalars.integer(value))) }
    mutating func encode(_ value: Int8) { box.items.append(.value(EncodedScalars.integer(value))) }
    mutating func encode(_ value: Int16) { box.items.append(.value(EncodedScalars.integer(value))) }
    mutating func encode(_ value: Int32) { box.items.append(.value(EncodedScalars.integer(value))) }
    mutating func encode(_ value: Int64) { box.items.append(.value(EncodedScalars.integer(value))) }
    mutating func encode(_ value: UInt) { box.items.append(.value(EncodedScalars.integer(value))) }
    mutating func encode(_ value: UInt8) { box.items.append(.value(EncodedScalars.integer(value))) }
    mutating func encode(_ value: UInt16) { box.items.append(.value(EncodedScalars.integer(value))) }
    mutating func encode(_ value: UInt32) { box.items.append(.value(EncodedScalars.integer(value))) }
    mutating func encode(_ value: UInt64) { box.items.append(.value(EncodedScalars.integer(value))) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        box.items.append(try RecordEncoder.item(value, path: nextPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = EncodedBox()
        let path = nextPath
        box.items.append(.box(nested))
        return RecordEncoder(box: nested, path: path).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = EncodedBox()
        let path = nextPath
        box.items.append(.box(nested))
        return RecordEncoder(box: nested, path: path).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let nested = EncodedBox()
        let path = nextPath
        box.items.append(.box(nested))
        return RecordEncoder(box: nested, path: path)
    }
}

/// One value: a scalar, or what a type that encodes itself as one writes
/// (an enum's raw value).
struct RecordSingleEncoder: SingleValueEncodingContainer {
    let box: EncodedBox
    let codingPath: [any CodingKey]

    private func set(_ value: Value) {
        box.shape = .single
        box.items = [.value(value)]
    }

    mutating func encodeNil() { set(.null) }
    mutating func encode(_ value: Bool) { set(.bool(value)) }
    mutating func encode(_ value: String) { set(.string(value)) }
    mutating func encode(_ value: Double) { set(EncodedScalars.double(value)) }
    mutating func encode(_ value: Float) { set(EncodedScalars.float(value)) }
    mutating func encode(_ value: Int) { set(EncodedScalars.integer(value)) }
    mutating func encode(_ value: Int8) { set(EncodedScalars.integer(value)) }
    mutating func encode(_ value: Int16) { set(EncodedScalars.integer(value)) }
    mutating func encode(_ value: Int32) { set(EncodedScalars.integer(value)) }
    mutating func encode(_ value: Int64) { set(EncodedScalars.integer(value)) }
    mutating func encode(_ value: UInt) { set(EncodedScalars.integer(value)) }
    mutating func encode(_ value: UInt8) { set(EncodedScalars.integer(value)) }
    mutating func encode(_ value: UInt16) { set(EncodedScalars.integer(value)) }
    mutating func encode(_ value: UInt32) { set(EncodedScalars.integer(value)) }
    mutating func encode(_ value: UInt64) { set(EncodedScalars.integer(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let item = try RecordEncoder.item(value, path: codingPath)
        box.shape = .single
        box.items = [item]
    }
}
