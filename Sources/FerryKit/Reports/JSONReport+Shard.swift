// MARK: - Design
//
// The json report of one shard's validation has one key more, `shard`,
// with what `ferry validate --combine` needs to put the shards' reports
// together into the report of the whole file (Formats/shards.md):
//
//     "shard": {
//       "input": "products.csv", "size": 4512, "format": "csv",
//       "start": 1130, "end": 2264, "firstRecord": 26, "firstLine": 27,
//       "options": {"delimiter": "\\x2c"},
//       "errorCategories": ["data"],
//       "diagnostics": [{"category": "data", "arguments": [{"string": "price"}]}],
//       "uniqueFields": ["sku"],
//       "keys": ["base64 of 32 bytes a key …"]
//     }
//
// `diagnostics` runs beside `errors`, one for one: each error's code
// category and its arguments, typed, so that combining renders them again
// in any report format and language. `keys` are the keys of unique fields
// the shard saw first, one string for each field of `uniqueFields`: the
// base64 of 32 bytes a key, in the records' order, four little-endian
// 64-bit words each: the 128-bit digest of the key's text (`KeyDigest`),
// high word first, the record (0-based, in the whole file) and the byte its
// record starts at. A million keys are 43 MB of text, encoded and decoded
// without a JSON value a key (an array of four values a key took most of
// a shard's validation). ShardKeysTests checks the round trip.

extension JSONReport {
    /// The `shard` object of a shard's report.
    func shardValue(_ trace: ShardTrace) -> Value {
        var object = JSONObjectBuilder()
        object.set("input", trace.input)
        object.set("size", trace.size)
        object.set("format", trace.format)
        object.set("start", trace.range.start)
        object.set("end", trace.range.end)
        object.set("firstRecord", trace.range.firstRecord)
        object.set("firstLine", trace.range.firstLine)
        object.set(
            "options",
            .object(OrderedObject(trace.codecOptions.values.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
        object.set("errorCategories", .array(report.errorCategories.map(\.name).sorted().map(Value.string)))
        object.set(
            "diagnostics",
            .array(
                report.diagnostics.map { diagnostic in
                    var typed = JSONObjectBuilder()
                    typed.set("category", diagnostic.code.category.name)
                    typed.set("arguments", .array(diagnostic.arguments.map(\.jsonValue)))
                    return typed.value
                }))
        object.set("uniqueFields", .array(trace.uniqueFields.map(Value.string)))
        object.set("keys", .array(ShardTrace.Key.packed(trace.keys, fields: trace.uniqueFields.count).map(Value.string)))
        return object.value
    }
}

extension ShardTrace.Key {
    /// The bytes of one key in a report's `keys` (see the design note).
    static let packedCount = 32

    /// `keys` packed for a report: one base64 string for each of `fields`
    /// fields, its keys in the order given.
    static func packed(_ keys: [ShardTrace.Key], fields: Int) -> [String] {
        var bytes = [[UInt8]](repeating: [], count: fields)
        for key in keys where key.field >= 0 && key.field < fields {
            let words = (
                key.digest.high.littleEndian, key.digest.low.littleEndian, UInt64(truncatingIfNeeded: key.record).littleEndian,
                UInt64(truncatingIfNeeded: key.byteOffset).littleEndian
            )
            withUnsafeBytes(of: words) { bytes[key.field].append(contentsOf: $0) }
        }
        return bytes.map { Base64.encode($0) }
    }

    /// The keys of field `field` from its packed string; nil when it is not
    /// base64 of whole keys, or holds a negative record or offset, or a
    /// record past what `--combine`'s key log holds (2^48).
    static func unpacked(_ text: String, field: Int) -> [ShardTrace.Key]? {
        guard let bytes = Base64.decode(text.utf8), bytes.count % packedCount == 0 else { return nil }
        var keys: [ShardTrace.Key] = []
        keys.reserveCapacity(bytes.count / packedCount)
        return bytes.withUnsafeBytes { raw -> [ShardTrace.Key]? in
            func word(_ offset: Int) -> UInt64 { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
            for start in stride(from: 0, to: raw.count, by: packedCount) {
                let record = Int64(bitPattern: word(start + 16))
                let offset = Int64(bitPattern: word(start + 24))
                guard record >= 0, record < KeyLog.recordLimit, offset >= 0 else { return nil }
                keys.append(
                    ShardTrace.Key(
                        field: field, digest: KeyDigest(low: word(start + 8), high: word(start)), record: Int(record),
                        byteOffset: Int(offset)))
            }
            return keys
        }
    }
}

extension FerryError.Category {
    /// The category as reports name it.
    var name: String {
        switch self {
        case .data: "data"
        case .usage: "usage"
        case .io: "io"
        }
    }

    init?(name: String) {
        switch name {
        case "data": self = .data
        case "usage": self = .usage
        case "io": self = .io
        default: return nil
        }
    }
}

extension MessageArgument {
    /// The argument as JSON: an object of one key, its case.
    var jsonValue: Value {
        let (key, value): (String, Value) =
            switch self {
            case .string(let text): ("string", .string(text))
            case .integer(let number): ("integer", .integer(Int64(number)))
            case .count(let number): ("count", .integer(Int64(number)))
            case .ungrouped(let number): ("ungrouped", .integer(Int64(number)))
            case .double(let number): ("double", .double(number))
            case .path(let path): ("path", .string(path))
            case .byte(let byte): ("byte", .integer(Int64(byte)))
            case .message(let key): ("message", .string(key.rawValue))
            }
        return .object(OrderedObject([(key, value)]))
    }

    /// The argument `jsonValue` wrote.
    init?(json: Value) {
        guard case .object(let object) = json, object.count == 1, let value = object.values.first else { return nil }
        switch (object.keys[0], value) {
        case ("string", .string(let text)): self = .string(text)
        case ("path", .string(let text)): self = .path(text)
        case ("message", .string(let text)): self = .message(MessageKey(text))
        case ("double", _):
            guard let number = value.doubleValue else { return nil }
            self = .double(number)
        case (let kind, _):
            guard let number = value.intValue else { return nil }
            switch kind {
            case "integer": self = .integer(number)
            case "count": self = .count(number)
            case "ungrouped": self = .ungrouped(number)
            case "byte":
                guard let byte = UInt8(exactly: number) else { return nil }
                self = .byte(byte)
            default: return nil
            }
        }
    }
}

extension Value {
    /// The number as a double, when the value is one.
    var doubleValue: Double? {
        switch self {
        case .integer(let number): Double(number)
        case .double(let number): number
        case .number(let text): Double(text.text)
        default: nil
        }
    }
}
