#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FerryCore

// MARK: - Records

/// A key compared by its UTF-8 bytes. JSON keys are equal only when their
/// code points are (RFC 8259), while Swift's `String` equality also joins
/// canonically equivalent ones, such as a precomposed é and e + U+0301.
struct KeyBytes: Hashable {
    let key: String

    static func == (lhs: KeyBytes, rhs: KeyBytes) -> Bool { lhs.key.utf8.elementsEqual(rhs.key.utf8) }

    func hash(into hasher: inout Hasher) {
        var key = key
        key.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

/// The keys of one object as they are read, with a table that takes over
/// from linear search once there are many, so a hostile object with a
/// million keys costs O(n), not O(n²). Keys are compared by their bytes.
struct KeyCollector {
    private(set) var keys: [String]
    private var lookup: [KeyBytes: Int]?

    init(_ keys: [String] = []) { self.keys = keys }

    var count: Int { keys.count }

    /// The position of `key` if it was already seen.
    mutating func index(of key: String) -> Int? {
        if lookup == nil && keys.count >= 16 {
            var table: [KeyBytes: Int] = [:]
            for (index, name) in keys.enumerated() where table[KeyBytes(key: name)] == nil {
                table[KeyBytes(key: name)] = index
            }
            lookup = table
        }
        if let lookup { return lookup[KeyBytes(key: key)] }
        return keys.firstIndex { $0.utf8.elementsEqual(key.utf8) }
    }

    mutating func append(_ key: String) {
        lookup?[KeyBytes(key: key)] = keys.count
        keys.append(key)
    }
}

/// Remembers recent field lists, so that records whose keys come in another
/// order, or a few different shapes that alternate, still share them.
struct FieldListCache {
    /// Whether none of `fields`' names holds a byte that JSON escapes.
    static func hasPlainNames(_ fields: FieldList) -> Bool {
        fields.utf8Names.allSatisfy { name in !name.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C } }
    }

    private var lists: [[KeyBytes]: FieldList] = [:]

    mutating func fieldList(for keys: [String]) -> FieldList {
        let identity = keys.map { KeyBytes(key: $0) }
        if let known = lists[identity] { return known }
        let made = FieldList(keys)
        if lists.count >= 256 { lists.removeAll(keepingCapacity: true) }
        lists[identity] = made
        return made
    }
}

extension JSONScanner {
    /// Parses the object at the position as a record, nested `depth` deep
    /// (1 for a top-level object, 2 inside the top-level array).
    ///
    /// While its keys match `expected` in order, no key string is built: the
    /// raw bytes are compared with the interned names. `plainNames` says that
    /// no expected name holds a byte JSON escapes, so equal bytes followed by
    /// a quote are the same key. The first key that
    /// differs switches to collecting names, and the record gets a field list
    /// from `cache`. Duplicate keys keep the last value.
    mutating func parseRecord(
        depth: Int, expecting expected: FieldList?, plainNames: Bool, cache: inout FieldListCache
    ) throws(JSONScanError) -> (FieldList, [Value]) {
        var none: [Int]? = nil
        return try parseRecord(depth: depth, expecting: expected, plainNames: plainNames, cache: &cache, valueStarts: &none)
    }

    /// As `parseRecord(depth:expecting:plainNames:cache:)`, and, when
    /// `valueStarts` is not nil, appends where each field's value starts
    /// (window indices, in the record's field order).
    mutating func parseRecord(
        depth: Int, expecting expected: FieldList?, plainNames: Bool, cache: inout FieldListCache,
        valueStarts: inout [Int]?
    ) throws(JSONScanError) -> (FieldList, [Value]) {
        try checkDepth(depth)
        position += 1  // {
        var values: [Value] = []
        values.reserveCapacity(expected?.count ?? 8)
        var collected: KeyCollector?
        if try peekSignificant() == UInt8(ascii: "}") {
            position += 1
            return (cache.fieldList(for: []), values)
        }
        while true {
            guard try peekSignificant() == UInt8(ascii: "\"") else { throw unexpected(at: position) }
            let slot = values.count
            var duplicateOf: Int?
            if collected == nil, let expected, slot < expected.count, plainNames,
                skipKey(expected.utf8Names[slot])
            {
                // Still on the interned list.
            } else {
                let raw = try scanString()
                if collected == nil { collected = KeyCollector(Array((expected?.names ?? []).prefix(slot))) }
                let key = try makeString(raw)
                duplicateOf = collected?.index(of: key)
                if duplicateOf == nil { collected?.append(key) } else { sawDuplicateName = true }
            }
            try expect(UInt8(ascii: ":"))
            if valueStarts != nil {
                _ = try peekSignificant()
                if let duplicateOf { valueStarts?[duplicateOf] = position } else { valueStarts?.append(position) }
            }
            let value = try parseValue(depth: depth)
            if let duplicateOf { values[duplicateOf] = value } else { values.append(value) }
            switch try peekSignificant() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                if let collected { return (cache.fieldList(for: collected.keys), values) }
                if let expected, values.count == expected.count { return (expected, values) }
                return (cache.fieldList(for: Array((expected?.names ?? []).prefix(values.count))), values)
            default: throw unexpected(at: position)
            }
        }
    }

    /// Moves past the key at the position (its opening quote) if its bytes
    /// are `name` followed by the closing quote.
    @inline(__always)
    private mutating func skipKey(_ name: [UInt8]) -> Bool {
        let start = position + 1
        let length = name.count
        guard start + length < bytes.count, bytes[start + length] == 0x22, let base = bytes.baseAddress else {
            return false
        }
        // Names are short: compared eight bytes at a time in place, with no
        // call (memcmp took 5 to 7% of validating JSON Lines of products),
        // the last few by a word that overlaps the one before (or, below
        // eight, two of four), not a byte at a time (`name`, `price`,
        // `currency`: 25M instructions of 2M keys).
        let equal = name.withUnsafeBytes { expected -> Bool in
            let found = UnsafeRawPointer(base + start)
            if length >= 8 {
                var index = 0
                while index &+ 8 <= length {
                    guard found.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                        == expected.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    else { return false }
                    index &+= 8
                }
                return index == length
                    || found.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self)
                        == expected.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self)
            }
            if length >= 4 {
                return found.loadUnaligned(as: UInt32.self) == expected.loadUnaligned(as: UInt32.self)
                    && found.loadUnaligned(fromByteOffset: length &- 4, as: UInt32.self)
                        == expected.loadUnaligned(fromByteOffset: length &- 4, as: UInt32.self)
            }
            for index in 0..<length where found.load(fromByteOffset: index, as: UInt8.self) != expected[index] {
                return false
            }
            return true
        }
        if equal { position = start + length + 1 }
        return equal
    }

    /// Whether `byte` can start a JSON value.
    func startsValue(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "t"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: false
        }
    }

    /// The type name of the value starting at the position, for messages.
    func typeNameAtPosition() -> String {
        guard position < bytes.count else { return "null" }
        switch bytes[position] {
        case UInt8(ascii: "["): return "array"
        case UInt8(ascii: "\""): return "string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "bool"
        case UInt8(ascii: "n"): return "null"
        default: return "number"
        }
    }
}

// MARK: - Raw records

extension JSONScanner {
    /// Parses a record whose keys are exactly `expected`'s, in order, into
    /// `buffers`, leaving plain strings in place (see `RawValue`).
    /// - Returns: false, with the position back at the record's `{`, when
    ///   the keys differ in any way; the caller then parses it as a `Record`.
    mutating func parseRawRecord(
        depth: Int, expecting expected: FieldList, into buffers: inout RawRecordBuffers
    ) throws(JSONScanError) -> Bool {
        let start = position
        try checkDepth(depth)
        position += 1  // {
        buffers.removeAll()
        let names = expected.utf8Names
        // The cells are written in place, counted here (`emptySlots`).
        let cells = buffers.cells.emptySlots(names.count)
        var slot = 0
        if try peekSignificant() == UInt8(ascii: "}") {
            position += 1
            if names.isEmpty { return true }
            position = start
            return false
        }
        while true {
            guard try peekSignificant() == UInt8(ascii: "\"") else { throw unexpected(at: position) }
            guard slot < names.count, skipKey(names[slot]) else {
                position = start
                return false
            }
            try expect(UInt8(ascii: ":"))
            cells[slot] = try parseRawValue(depth: depth, others: &buffers.others)
            slot += 1
            switch try peekSignificant() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                guard slot == names.count else {
                    position = start
                    return false
                }
                buffers.cells.setFilled(slot)
                return true
            default: throw unexpected(at: position)
            }
        }
    }

    /// A string with escapes, unescaped into `others`; noted when the
    /// writer would escape it otherwise. Out of line: it is rare, and the
    /// loop that reads records stays small.
    @inline(never)
    mutating func escapedString(_ raw: RawString, others: inout [Value]) throws(JSONScanError) -> RawValue {
        let text = try makeString(raw)
        let written = UnsafeBufferPointer(rebasing: bytes[(raw.start - 1)...raw.end])
        if checksEscapes && !escapedOtherwise && !JSONText.quotes(text, as: written) { escapedOtherwise = true }
        others.append(.string(text))
        return .other(others.count - 1)
    }

    /// One value, as `parseValue` reads it, but with a string that needs no
    /// unescaping left in place; a value that cannot be is added to `others`.
    @inline(__always)
    mutating func parseRawValue(depth: Int, others: inout [Value]) throws(JSONScanError) -> RawValue {
        switch try peekSignificant() {
        case UInt8(ascii: "\""):
            let raw = try scanString()
            if raw.hasEscapes { return try escapedString(raw, others: &others) }
            if raw.hasNonASCII, let bad = UTF8Validation.firstInvalidIndex(in: bytes, raw.start..<raw.end) {
                throw .failed(.jsonInvalidUTF8, [.byte(bytes[bad])], index: bad)
            }
            return .text(UnsafeBufferPointer(rebasing: bytes[raw.start..<raw.end]))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try scanNumber()
        default:
            // Literals, arrays and objects.
            switch try parseValue(depth: depth) {
            case .null: return .null
            case .bool(let flag): return .bool(flag)
            case let value:
                others.append(value)
                return .other(others.count - 1)
            }
        }
    }
}

// MARK: - Repeated names

extension JSONScanner {
    /// The names repeated in the objects of the value at the position, each
    /// time one repeats, with where it starts (its opening quote), in the
    /// order they come; a second scan, only for a value whose first scan saw
    /// one (`sawDuplicateName`).
    mutating func duplicateNames() -> [(name: String, start: Int)] {
        var names: [(name: String, start: Int)] = []
        try? walkNames(depth: 0, into: &names)
        return names
    }

    private mutating func walkNames(depth: Int, into names: inout [(name: String, start: Int)]) throws(JSONScanError) {
        try checkDepth(depth)
        switch try peekSignificant() {
        case UInt8(ascii: "{"):
            position += 1
            if try peekSignificant() == UInt8(ascii: "}") { return position += 1 }
            var keys = KeyCollector()
            while true {
                let start = position
                let key = try parseString()
                if keys.index(of: key) != nil { names.append((key, start)) } else { keys.append(key) }
                try expect(UInt8(ascii: ":"))
                try walkNames(depth: depth + 1, into: &names)
                guard try peekSignificant() == UInt8(ascii: ",") else { return position += 1 }
                position += 1
                _ = try peekSignificant()
            }
        case UInt8(ascii: "["):
            position += 1
            if try peekSignificant() == UInt8(ascii: "]") { return position += 1 }
            while true {
                try walkNames(depth: depth + 1, into: &names)
                guard try peekSignificant() == UInt8(ascii: ",") else { return position += 1 }
                position += 1
            }
        default:
            _ = try parseValue(depth: depth)
        }
    }
}
