import Foundation
import Testing

/// A value as an independent reader saw it, with its exact type: the common
/// ground on which Python's `json` and `plistlib`, Foundation's
/// `PropertyListSerialization` and `NSKeyedUnarchiver`, and the tests'
/// expectations are compared.
///
/// Python describes what it read in this form (see `PythonReader`); the
/// tests hand it back to Python to write plists from. Integers keep their
/// decimal digits so that values past 64 bits survive; doubles compare by
/// their bits; dictionaries keep their key order (`normalized` sorts it for
/// readers that lose it).
indirect enum Typed: Sendable, CustomStringConvertible {
    case null
    case bool(Bool)
    /// An integer's decimal digits.
    case int(String)
    case float(Double)
    case string(String)
    case bytes([UInt8])
    /// Seconds since 2001-01-01T00:00:00Z, as plists store dates.
    case date(Double)
    /// A keyed archive's object reference.
    case uid(UInt64)
    case array([Typed])
    case dict([(String, Typed)])

    static func integer(_ number: Int64) -> Typed { .int(String(number)) }

    /// The value of `key` in a dictionary.
    subscript(key: String) -> Typed? {
        guard case .dict(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    /// The element at `index` of an array.
    subscript(index: Int) -> Typed? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    var keys: [String] {
        guard case .dict(let pairs) = self else { return [] }
        return pairs.map(\.0)
    }

    var elements: [Typed] {
        guard case .array(let elements) = self else { return [] }
        return elements
    }

    /// The same value with every dictionary's keys sorted, for comparing
    /// with readers whose dictionaries have no order.
    var normalized: Typed {
        switch self {
        case .array(let elements): return .array(elements.map(\.normalized))
        case .dict(let pairs):
            return .dict(
                pairs.map { ($0.0, $0.1.normalized) }.sorted {
                    Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8))
                })
        default: return self
        }
    }

    var description: String {
        switch self {
        case .null: return "null"
        case .bool(let flag): return "bool(\(flag))"
        case .int(let digits): return "int(\(digits))"
        case .float(let number): return "float(\(number))"
        case .string(let text): return "string(\(text.debugDescription))"
        case .bytes(let bytes):
            return "bytes(\(bytes.count): \(bytes.prefix(8).map { String($0, radix: 16) }.joined(separator: " ")))"
        case .date(let seconds): return "date(\(seconds))"
        case .uid(let index): return "uid(\(index))"
        case .array(let elements): return "[" + elements.map(\.description).joined(separator: ", ") + "]"
        case .dict(let pairs):
            return "{" + pairs.map { "\($0.0.debugDescription): \($0.1)" }.joined(separator: ", ") + "}"
        }
    }
}

// MARK: - Equality

extension Typed: Equatable {
    /// Types must match exactly; doubles and dates compare by their bits;
    /// dictionaries compare in order.
    static func == (lhs: Typed, rhs: Typed) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.float(let a), .float(let b)): return a.bitPattern == b.bitPattern
        case (.string(let a), .string(let b)): return Array(a.unicodeScalars) == Array(b.unicodeScalars)
        case (.bytes(let a), .bytes(let b)): return a == b
        case (.date(let a), .date(let b)): return a.bitPattern == b.bitPattern
        case (.uid(let a), .uid(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.dict(let a), .dict(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }
}

// MARK: - The form Python reads and writes

/// `{"t": "int", "v": "42"}`, `{"t": "dict", "v": [["key", {…}], …]}`:
/// plain JSON of strings, arrays and objects, which no reader can misread.
extension Typed: Codable {
    private enum CodingKeys: String, CodingKey { case t, v }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let tag = try container.decode(String.self, forKey: .t)
        switch tag {
        case "null": self = .null
        case "bool": self = .bool(try container.decode(Bool.self, forKey: .v))
        case "int": self = .int(try container.decode(String.self, forKey: .v))
        case "float", "date":
            let text = try container.decode(String.self, forKey: .v)
            guard let number = Double(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .v, in: container, debugDescription: "not a double: \(text)")
            }
            self = tag == "float" ? .float(number) : .date(number)
        case "string": self = .string(try container.decode(String.self, forKey: .v))
        case "bytes":
            let text = try container.decode(String.self, forKey: .v)
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorruptedError(forKey: .v, in: container, debugDescription: "not base64")
            }
            self = .bytes([UInt8](data))
        case "uid":
            let text = try container.decode(String.self, forKey: .v)
            guard let index = UInt64(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .v, in: container, debugDescription: "not a UID: \(text)")
            }
            self = .uid(index)
        case "array": self = .array(try container.decode([Typed].self, forKey: .v))
        case "dict":
            var list = try container.nestedUnkeyedContainer(forKey: .v)
            var pairs: [(String, Typed)] = []
            while !list.isAtEnd {
                var pair = try list.nestedUnkeyedContainer()
                pairs.append((try pair.decode(String.self), try pair.decode(Typed.self)))
            }
            self = .dict(pairs)
        default:
            throw DecodingError.dataCorruptedError(forKey: .t, in: container, debugDescription: "unknown tag \(tag)")
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .null: try container.encode("null", forKey: .t)
        case .bool(let flag):
            try container.encode("bool", forKey: .t)
            try container.encode(flag, forKey: .v)
        case .int(let digits):
            try container.encode("int", forKey: .t)
            try container.encode(digits, forKey: .v)
        case .float(let number):
            try container.encode("float", forKey: .t)
            try container.encode("\(number)", forKey: .v)
        case .string(let text):
            try container.encode("string", forKey: .t)
            try container.encode(text, forKey: .v)
        case .bytes(let bytes):
            try container.encode("bytes", forKey: .t)
            try container.encode(Data(bytes).base64EncodedString(), forKey: .v)
        case .date(let seconds):
            try container.encode("date", forKey: .t)
            try container.encode("\(seconds)", forKey: .v)
        case .uid(let index):
            try container.encode("uid", forKey: .t)
            try container.encode(String(index), forKey: .v)
        case .array(let elements):
            try container.encode("array", forKey: .t)
            try container.encode(elements, forKey: .v)
        case .dict(let pairs):
            try container.encode("dict", forKey: .t)
            var list = container.nestedUnkeyedContainer(forKey: .v)
            for (key, value) in pairs {
                var pair = list.nestedUnkeyedContainer()
                try pair.encode(key)
                try pair.encode(value)
            }
        }
    }
}

// MARK: - Foundation objects

/// A Foundation object of a kind `Typed` does not cover.
struct UnexpectedObject: Error, CustomStringConvertible {
    var description: String
}

extension Typed {
    /// What Foundation handed back, typed by what it really is: a Swift
    /// `Bool` is a bool; an NSNumber is a double when its `objCType` says
    /// so and an integer otherwise. Dictionaries come out sorted by key.
    init(foundation object: Any) throws {
        if type(of: object) == Bool.self, let flag = object as? Bool {
            self = .bool(flag)
        } else if let number = object as? NSNumber, !(object is String) {
            switch String(cString: number.objCType) {
            case "d", "f": self = .float(number.doubleValue)
            case "Q", "L", "I", "S", "C":
                self = .int(String(number.uint64Value))
            default: self = .int(String(number.int64Value))
            }
        } else if let text = object as? String {
            self = .string(text)
        } else if let data = object as? Data {
            self = .bytes([UInt8](data))
        } else if let date = object as? Date {
            self = .date(date.timeIntervalSinceReferenceDate)
        } else if object is NSNull {
            self = .null
        } else if let array = object as? [Any] {
            self = .array(try array.map { try Typed(foundation: $0) })
        } else if let dictionary = object as? [AnyHashable: Any] {
            var pairs: [(String, Typed)] = []
            for (key, value) in dictionary {
                guard let name = key.base as? String else { throw UnexpectedObject(description: "key \(key)") }
                pairs.append((name, try Typed(foundation: value)))
            }
            self = Typed.dict(pairs).normalized
        } else {
            throw UnexpectedObject(description: "\(type(of: object)): \(object)")
        }
    }

    /// The value as a Foundation object for PropertyListSerialization and
    /// NSKeyedArchiver.
    var foundation: Any {
        get throws {
            switch self {
            case .null: return NSNull()
            case .bool(let flag): return flag
            case .int(let digits):
                if let number = Int64(digits) { return NSNumber(value: number) }
                if let number = UInt64(digits) { return NSNumber(value: number) }
                throw UnexpectedObject(description: "integer \(digits)")
            case .float(let number): return NSNumber(value: number)
            case .string(let text): return text
            case .bytes(let bytes): return Data(bytes)
            case .date(let seconds): return Date(timeIntervalSinceReferenceDate: seconds)
            case .uid(let index): throw UnexpectedObject(description: "uid \(index)")
            case .array(let elements): return try elements.map { try $0.foundation } as NSArray
            case .dict(let pairs):
                let dictionary = NSMutableDictionary()
                for (key, value) in pairs { dictionary[key] = try value.foundation }
                return dictionary
            }
        }
    }
}

// MARK: - As Ferry writes JSON

extension Typed {
    /// The value as Ferry's JSON holds it: dates become ISO 8601 text in UTC
    /// (with milliseconds when there is a fraction) and bytes become
    /// `data:` URIs, typed `image/png` when the bytes are a PNG and
    /// `application/octet-stream` otherwise.
    var inJSON: Typed {
        switch self {
        case .date(let seconds):
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = TimeZone(identifier: "UTC")
            if seconds.rounded(.down) != seconds {
                formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            }
            return .string(formatter.string(from: Date(timeIntervalSinceReferenceDate: seconds)))
        case .bytes(let bytes) where bytes.starts(with: ExampleData.pngMagic):
            return .string(ExampleData.pngDataURI(bytes))
        case .bytes(let bytes):
            return .string("data:application/octet-stream;base64," + Data(bytes).base64EncodedString())
        case .array(let elements): return .array(elements.map(\.inJSON))
        case .dict(let pairs): return .dict(pairs.map { ($0.0, $0.1.inJSON) })
        default: return self
        }
    }

    /// A product as Ferry's JSON holds it: the photo as a PNG data URI.
    var productInJSON: Typed {
        guard case .dict(let pairs) = self else { return self }
        return .dict(
            pairs.map { key, value in
                if key == "photo", case .bytes(let bytes) = value {
                    return (key, .string(ExampleData.pngDataURI(bytes)))
                }
                return (key, value)
            })
    }
}

// MARK: - Comparing

/// Reports the first place where `actual` and `expected` differ, with a path
/// such as `$[2].photo`, instead of printing two whole trees.
func firstDifference(_ actual: Typed, _ expected: Typed, at path: String = "$") -> String? {
    switch (actual, expected) {
    case (.array(let a), .array(let b)):
        guard a.count == b.count else { return "\(path): \(a.count) elements, expected \(b.count)" }
        for (index, (x, y)) in zip(a, b).enumerated() {
            if let found = firstDifference(x, y, at: "\(path)[\(index)]") { return found }
        }
        return nil
    case (.dict(let a), .dict(let b)):
        guard a.map(\.0) == b.map(\.0) else { return "\(path): keys \(a.map(\.0)), expected \(b.map(\.0))" }
        for ((key, x), (_, y)) in zip(a, b) {
            if let found = firstDifference(x, y, at: "\(path).\(key)") { return found }
        }
        return nil
    default:
        return actual == expected ? nil : "\(path): \(actual), expected \(expected)"
    }
}

/// Expects `actual` to equal `expected` exactly, naming the first difference.
func expectSame(
    _ actual: Typed, _ expected: Typed, _ comment: String = "",
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    let difference = firstDifference(actual, expected)
    #expect(difference == nil, "\(comment) \(difference ?? "")", sourceLocation: sourceLocation)
}
