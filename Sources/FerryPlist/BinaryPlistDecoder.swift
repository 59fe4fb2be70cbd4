#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

import FerryCore

/// Turns the objects of a binary plist into values, following references.
///
/// References make a graph, not a tree. The decoder refuses three things a
/// hostile file can do with that graph:
/// - a cycle (an array that holds itself), found with a mark on every object
///   on the current path: `bplist.cycle`;
/// - nesting deeper than the limit: `limit.nestingTooDeep`;
/// - sharing that multiplies (each level holding the one below twice, so 40
///   objects expand to a trillion values): every decoded value is counted
///   against a budget proportional to the file's size, `limit.expansionTooLarge`.
package struct BinaryPlistDecoder {
    package let scanner: BinaryPlistScanner
    private let maxDepth: Int
    /// Objects on the path being decoded: a class, one bit an object, as in
    /// `KeyedArchiveDecoder` (copies of a decoder share it; every entry is
    /// left again, errors included, so none sees another's path).
    private let onPath: PathBits
    /// Values that may still be decoded.
    private var budget: Int
    private let initialBudget: Int
    /// Key strings by object; writers share keys, so few are ever decoded.
    private var keys: [Int: String] = [:]

    package init(_ scanner: BinaryPlistScanner, limits: ReadLimits, fileSize: Int) {
        self.scanner = scanner
        maxDepth = limits.maxDepth
        onPath = PathBits(count: scanner.objectCount)
        // A tree of N references decodes to at most N values; allow sharing of
        // small parts (dates, class names) many times over, but no more.
        initialBudget = max(fileSize, 1 << 16) * 8
        budget = initialBudget
    }

    /// Object `index` and everything it refers to.
    /// - Parameter depth: the nesting of the object (1 for the top object).
    /// - Throws: `bplist.*` errors, `limit.nestingTooDeep`, `limit.expansionTooLarge`.
    package mutating func value(_ index: Int, depth: Int = 1) throws(FerryError) -> PlistValue {
        try spend(index)
        switch try scanner.object(index) {
        case .null, .fill: return .null
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return .integer(number)
        case .unsignedInteger(let number): return .unsignedInteger(number)
        case .real(let number): return .real(number)
        case .date(let seconds): return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .data(let range): return .data(Array(scanner.payload(range)))
        case .asciiString(let range): return .string(try scanner.asciiString(range, index: index))
        case .utf16String(let range): return .string(try scanner.utf16String(range, index: index))
        case .uid(let number): return .uid(number)
        case .array(let list, let count), .set(let list, let count):
            try enter(index, depth: depth)
            defer { onPath.remove(index) }
            var elements: [PlistValue] = []
            elements.reserveCapacity(count)
            for position in 0..<count {
                elements.append(try element(try scanner.reference(list, position), depth: depth + 1))
            }
            return .array(elements)
        case .dictionary(let list, let count):
            return .dictionary(try dictionary(index, list: list, count: count, depth: depth, separating: nil).0)
        }
    }

    /// Dictionary `index` as `value(_:depth:)` decodes it, except that the
    /// value of `key`, when it is an array of UIDs only, is checked and
    /// counted as decoding it would, and comes back as plain numbers
    /// (`uids`), with an empty array in its place in the dictionary. A keyed
    /// archive's root array holds a UID per record: a `PlistValue` each cost
    /// several times as much.
    /// - Returns: nil when `index` is no dictionary.
    package mutating func dictionary(
        _ index: Int, depth: Int, separating key: String
    ) throws(FerryError) -> (PlistDictionary, uids: [UInt64]?)? {
        guard case .dictionary(let list, let count) = try scanner.object(index) else { return nil }
        try spend(index)
        return try dictionary(index, list: list, count: count, depth: depth, separating: key)
    }

    /// The entries of dictionary `index`, which `value` has counted.
    private mutating func dictionary(
        _ index: Int, list: Int, count: Int, depth: Int, separating key: String?
    ) throws(FerryError) -> (PlistDictionary, uids: [UInt64]?) {
        try enter(index, depth: depth)
        defer { onPath.remove(index) }
        var dictionary = PlistDictionary()
        var separated: [UInt64]?
        for position in 0..<count {
            let name = try cachedKey(try scanner.reference(list, position), of: index)
            let valueIndex = try scanner.reference(list, count + position)
            if separated == nil, let key, name == key, let uids = try uidArray(valueIndex) {
                try spend(1 + uids.count, at: valueIndex)
                try enter(valueIndex, depth: depth + 1)
                onPath.remove(valueIndex)
                separated = uids
                dictionary.append(key: name, value: .array([]))
                continue
            }
            dictionary.append(key: name, value: try element(valueIndex, depth: depth + 1))
        }
        return (dictionary, separated)
    }

    /// The numbers of array `index` when every element is a well-formed UID;
    /// nil otherwise.
    private func uidArray(_ index: Int) throws(FerryError) -> [UInt64]? {
        guard case .array(let list, let count) = try scanner.object(index) else { return nil }
        var uids: [UInt64] = []
        uids.reserveCapacity(count)
        for position in 0..<count {
            guard let reference = try? scanner.reference(list, position), let uid = scanner.uidValue(reference) else {
                return nil
            }
            uids.append(uid)
        }
        return uids
    }

    /// A container's element: `value(_:depth:)`, with a UID (what keyed
    /// archives' arrays and instances mostly hold) taken without the call.
    @inline(__always)
    private mutating func element(_ index: Int, depth: Int) throws(FerryError) -> PlistValue {
        if let uid = scanner.uidValue(index) {
            try spend(index)
            return .uid(uid)
        }
        return try value(index, depth: depth)
    }

    /// Object `index` as a record value, without the detour through
    /// `PlistValue` for scalars.
    package mutating func recordValue(_ index: Int, depth: Int) throws(FerryError) -> Value {
        try spend(index)
        switch try scanner.object(index) {
        case .null, .fill: return .null
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return .integer(number)
        case .unsignedInteger(let number): return PlistValue.unsignedNumber(number)
        case .real(let number): return .double(number)
        case .date(let seconds): return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .data(let range): return .bytes(Array(scanner.payload(range)))
        case .asciiString(let range): return .string(try scanner.asciiString(range, index: index))
        case .utf16String(let range): return .string(try scanner.utf16String(range, index: index))
        case .uid, .array, .set, .dictionary:
            budget += 1  // `value` counts this object again.
            return try value(index, depth: depth).recordValue()
        }
    }

    /// A record field's value as `recordValue` gives it, with an ASCII
    /// string or data left in place (see `RawRecord`): valid while the
    /// scanner is.
    /// Other values are added to `others`.
    @inline(__always)
    package mutating func rawValue(_ index: Int, depth: Int, others: inout [Value]) throws(FerryError) -> RawValue {
        try spend(index)
        if let scalar = try scanner.rawScalar(index) { return scalar }
        switch try scanner.object(index) {
        case .null, .fill: return .null
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return .integer(number)
        case .real(let number): return .double(number)
        case .asciiString(let range): return .text(try scanner.asciiBytes(range, index: index))
        case .data(let range): return .bytes(scanner.payload(range))
        default:
            budget += 1  // `recordValue` counts this object again.
            others.append(try recordValue(index, depth: depth))
            return .other(others.count - 1)
        }
    }

    /// The text of a dictionary key, decoded once per key object (up to 4,096
    /// of them): writers share key strings between dictionaries.
    /// - Throws: as `keyString(_:of:)`.
    package mutating func cachedKey(_ index: Int, of dictionary: Int) throws(FerryError) -> String {
        if let known = keys[index] { return known }
        let key = try keyString(index, of: dictionary)
        if keys.count < 4096 { keys[index] = key }
        return key
    }

    /// The text of a dictionary key.
    /// - Throws: `bplist.keyNotString` when the key is no string.
    package func keyString(_ index: Int, of dictionary: Int) throws(FerryError) -> String {
        switch try scanner.object(index) {
        case .asciiString(let range): return try scanner.asciiString(range, index: index)
        case .utf16String(let range): return try scanner.utf16String(range, index: index)
        default: throw .bplistKeyNotString(dictionary, at: scanner.location(try scanner.offset(of: index)))
        }
    }

    /// Marks a container as on the path.
    /// - Throws: `bplist.cycle` when it already is; `limit.nestingTooDeep`.
    @inline(__always)
    package mutating func enter(_ index: Int, depth: Int) throws(FerryError) {
        guard depth <= maxDepth else {
            throw .nestingTooDeep(limit: maxDepth, at: scanner.location(try scanner.offset(of: index)))
        }
        guard onPath.insert(index) else { throw .bplistCycle(index, at: scanner.location(try scanner.offset(of: index))) }
    }

    package mutating func leave(_ index: Int) { onPath.remove(index) }

    @inline(__always)
    private mutating func spend(_ index: Int) throws(FerryError) {
        try spend(1, at: index)
    }

    /// Counts `count` decoded values against the budget, as decoding them
    /// one by one would: for readers that decode objects in place.
    /// - Throws: `limit.expansionTooLarge`.
    @inline(__always)
    mutating func spend(_ count: Int, at index: Int) throws(FerryError) {
        budget -= count
        if budget < 0 {
            throw .expansionTooLarge(limit: initialBudget, at: scanner.location(try scanner.offset(of: index)))
        }
    }
}
