#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One value in a record, as the formats Ferry reads can express it.
///
/// The cases are the union of what JSON, CSV and property lists carry. A codec
/// maps its own types onto these and never invents others, so any reader can
/// feed any writer.
public enum Value: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A 64-bit signed integer. Readers keep integers apart from doubles.
    case integer(Int64)
    case double(Double)
    /// A number a text format wrote in a way the writers would not print
    /// back from its value (`1.10`, `1E2`, 30 digits): its text, kept.
    /// See `NumberText`.
    case number(NumberText)
    case string(String)
    /// Raw bytes, such as an inline photo.
    case bytes([UInt8])
    case date(Date)
    case array([Value])
    /// A nested object; its key order is kept.
    case object(OrderedObject)
}

// MARK: - Equality

extension Value {
    /// Values are equal case by case, as the synthesized equality would
    /// have them, except that a number kept as text equals what its value
    /// equals: `.number("1E2") == .double(100)`, `.number("1.10") ==
    /// .number("1.1")`. Text is the writers' business; equality is about
    /// the numbers.
    public static func == (lhs: Value, rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.number, _), (_, .number): lhs.numeric == rhs.numeric
        case (.string(let a), .string(let b)): a == b
        case (.bytes(let a), .bytes(let b)): a == b
        case (.date(let a), .date(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let flag):
            hasher.combine(1)
            hasher.combine(flag)
        case .integer(let number):
            hasher.combine(2)
            hasher.combine(number)
        case .double(let number):
            hasher.combine(3)
            hasher.combine(number)
        case .number(let number): number.value.hash(into: &hasher)
        case .string(let text):
            hasher.combine(4)
            hasher.combine(text)
        case .bytes(let bytes):
            hasher.combine(5)
            hasher.combine(bytes)
        case .date(let date):
            hasher.combine(6)
            hasher.combine(date)
        case .array(let elements):
            hasher.combine(7)
            hasher.combine(elements)
        case .object(let object):
            hasher.combine(8)
            hasher.combine(object)
        }
    }
}

// MARK: - Inspection

extension Value {
    /// The name of the case, as messages show it (`string`, `integer`, …).
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .integer: "integer"
        case .double: "double"
        case .number(let number): number.value.typeName
        case .string: "string"
        case .bytes: "bytes"
        case .date: "date"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The text, when the value is a string.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}

/// An object whose keys keep the order they were read or built in.
public struct OrderedObject: Sendable, Hashable {
    public private(set) var keys: [String]
    public private(set) var values: [Value]

    public init() {
        keys = []
        values = []
    }

    public init(_ pairs: [(String, Value)]) {
        keys = pairs.map(\.0)
        values = pairs.map(\.1)
    }

    public var count: Int { keys.count }

    /// The value for `key`, or nil when the object has no such key. Keys are
    /// compared as Swift strings (canonical equivalence).
    ///
    /// - Complexity: O(n); objects in records are small.
    public subscript(key: String) -> Value? {
        get { keys.firstIndex(of: key).map { values[$0] } }
        set {
            if let index = keys.firstIndex(of: key) {
                if let newValue { values[index] = newValue } else {
                    keys.remove(at: index)
                    values.remove(at: index)
                }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
            }
        }
    }

    /// Replaces the value of the pair at `index`.
    public mutating func replaceValue(at index: Int, with value: Value) {
        values[index] = value
    }

    /// Makes room for `count` pairs.
    public mutating func reserveCapacity(_ count: Int) {
        keys.reserveCapacity(count)
        values.reserveCapacity(count)
    }

    /// Appends a pair without looking for an existing key; readers use it after
    /// they have checked for duplicates themselves.
    public mutating func append(key: String, value: Value) {
        keys.append(key)
        values.append(value)
    }
}
