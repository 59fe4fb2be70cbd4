#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

import FerryCore

// MARK: - Plist to record values

extension PlistValue {
    /// The value as records carry it.
    ///
    /// A UID becomes `{"CF$UID": n}`, as plutil shows it in JSON; a set
    /// arrives as an array. The binary `null` object becomes null. An
    /// integer above `Int64.max` (up to 2^64 − 1, as CF and plistlib write
    /// it) becomes a number kept as text, exact in every output.
    package func recordValue() throws(FerryError) -> Value {
        switch self {
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return .integer(number)
        case .unsignedInteger(let number): return Self.unsignedNumber(number)
        case .real(let number): return .double(number)
        case .number(let number): return .number(number)
        case .date(let date): return .date(date)
        case .data(let bytes): return .bytes(bytes)
        case .string(let text): return .string(text)
        case .uid(let index): return .object(OrderedObject([("CF$UID", .integer(Int64(clamping: index)))]))
        case .null: return .null
        case .array(let elements):
            var values: [Value] = []
            values.reserveCapacity(elements.count)
            for element in elements { values.append(try element.recordValue()) }
            return .array(values)
        case .dictionary(let dictionary):
            var object = OrderedObject()
            for (key, value) in zip(dictionary.keys, dictionary.values) {
                object.append(key: key, value: try value.recordValue())
            }
            return .object(object)
        }
    }
}

extension PlistValue {
    /// `number`, which may pass `Int64.max`, as records carry it.
    static func unsignedNumber(_ number: UInt64) -> Value {
        number <= UInt64(Int64.max) ? .integer(Int64(number)) : .number(NumberText(unchecked: String(number)))
    }
}

// MARK: - Record values to plist

extension Value {
    /// The value as a property list holds it, or nil for null, which plists
    /// cannot express: writers leave such a key out of its dictionary.
    /// - Throws: `plist.nullInArray` for a null inside an array, which has no
    ///   slot to leave out.
    package func plistValue() throws(FerryError) -> PlistValue? {
        switch self {
        case .null: return nil
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return .integer(number)
        case .double(let number): return .real(number)
        case .number(let number): return .number(number)
        case .string(let text): return .string(text)
        case .bytes(let bytes): return .data(bytes)
        case .date(let date): return .date(date)
        case .array(let elements):
            var converted: [PlistValue] = []
            converted.reserveCapacity(elements.count)
            for element in elements {
                guard let value = try element.plistValue() else { throw .plistNullInArray() }
                converted.append(value)
            }
            return .array(converted)
        case .object(let object):
            var dictionary = PlistDictionary()
            for (key, value) in zip(object.keys, object.values) {
                if let converted = try value.plistValue() { dictionary.append(key: key, value: converted) }
            }
            return .dictionary(dictionary)
        }
    }
}
