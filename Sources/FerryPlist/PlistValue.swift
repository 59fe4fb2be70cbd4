#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

import FerryCore

/// One property-list object, as binary and XML property lists hold it.
///
/// Both scanners produce it and both writers take it; the keyed-archive
/// decoder reads `uid` references through it. It is wider than `Value`:
/// plists have UIDs and unsigned 64-bit integers, which `Value` lacks.
package enum PlistValue: Sendable, Hashable {
    case bool(Bool)
    /// A signed integer; binary plists store 1, 2, 4 and 8 byte integers.
    case integer(Int64)
    /// An integer above `Int64.max`, which binary plists store in 16 bytes.
    case unsignedInteger(UInt64)
    case real(Double)
    /// A number as text wrote it (`1.10`, 30 digits), which an XML plist
    /// keeps in `<integer>` or `<real>`; binary writers store its value.
    case number(NumberText)
    /// A date, as seconds since 2001-01-01T00:00:00Z in the file.
    case date(Date)
    case data([UInt8])
    case string(String)
    /// An object reference inside a keyed archive (`CF$UID` in XML).
    case uid(UInt64)
    case array([PlistValue])
    /// A dictionary; keys keep the order of the file.
    case dictionary(PlistDictionary)
    /// The binary `null` object (marker 0x00), which few writers emit.
    case null
}

/// A property-list dictionary whose keys keep their order.
package struct PlistDictionary: Sendable, Hashable {
    package private(set) var keys: [String]
    package private(set) var values: [PlistValue]

    package init() {
        keys = []
        values = []
    }

    package init(_ pairs: [(String, PlistValue)]) {
        keys = pairs.map(\.0)
        values = pairs.map(\.1)
    }

    package var count: Int { keys.count }

    /// The value of `key`, or nil. Keys are compared byte-wise.
    /// - Complexity: O(n).
    package subscript(key: String) -> PlistValue? {
        guard let index = keys.firstIndex(where: { $0.hasSameBytes(as: key) }) else { return nil }
        return values[index]
    }

    package mutating func append(key: String, value: PlistValue) {
        keys.append(key)
        values.append(value)
    }

    /// Sets the value of `key` where the key is, or appends the pair when
    /// the dictionary lacks it. Keys are compared byte-wise.
    package mutating func set(_ key: String, to value: PlistValue) {
        guard let index = keys.firstIndex(where: { $0.hasSameBytes(as: key) }) else { return append(key: key, value: value) }
        values[index] = value
    }

    /// Removes `key` and its value, keeping the other pairs' order.
    package mutating func remove(_ key: String) {
        guard let index = keys.firstIndex(where: { $0.hasSameBytes(as: key) }) else { return }
        keys.remove(at: index)
        values.remove(at: index)
    }
}

extension PlistValue {
    /// The plist name of the type, as messages show it (`dict`, `string`, …).
    package var typeName: String {
        switch self {
        case .bool: "bool"
        case .integer, .unsignedInteger: "integer"
        case .real: "real"
        case .number(let number): if case .integer = number.value { "integer" } else { "real" }
        case .date: "date"
        case .data: "data"
        case .string: "string"
        case .uid: "uid"
        case .array: "array"
        case .dictionary: "dict"
        case .null: "null"
        }
    }

    /// The seconds between 1970-01-01 and 2001-01-01, the plist epoch.
    package static let epochOffset: Double = 978_307_200
}
