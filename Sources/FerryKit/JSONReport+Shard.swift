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
//       "keys": [[0, "9f…32 hex digits", 25, 1130], …]
//     }
//
// `diagnostics` runs beside `errors`, one for one: each error's code
// category and its arguments, typed, so that combining renders them again
// in any report format and language. `keys` are the keys of unique fields
// the shard saw first: the field's index in `uniqueFields`, the 128-bit
// digest of the key's text (`KeyDigest`), the record (0-based, in the
// whole file) and the byte its record starts at.

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
        object.set(
            "keys",
            .array(
                trace.keys.map { key in
                    .array([
                        .integer(Int64(key.field)), .string(key.digest.hex), .integer(Int64(key.record)),
                        .integer(Int64(key.byteOffset)),
                    ])
                }))
        return object.value
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

extension KeyDigest {
    /// The digest as 32 hexadecimal digits, the high word first.
    var hex: String {
        func word(_ value: UInt64) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return word(high) + word(low)
    }

    init?(hex: String) {
        guard hex.utf8.count == 32, let high = UInt64(hex.prefix(16), radix: 16),
            let low = UInt64(hex.suffix(16), radix: 16)
        else { return nil }
        self.init(low: low, high: high)
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
