import FerryCore

// MARK: - Where a field's value starts

// An error's line and column are those of its field's value, found by
// scanning the record again (`JSONReader.location(ofField:inRecordAt:)`).
// This scan makes no key string and no `Value` (it skips the values as
// `skipValue(depth:)` does): parsing the record whole for it ran 3,900
// instructions an error (10.9M of 100,000 products against
// Scripts/bench-schemas/shop.schema.json).
//
//     {"name":"Tetris","price":462.5,"currency":"JPY"}
//                              ^ the value of `price`, window index 26

extension JSONScanner {
    /// Where the value of the record's last field named `wanted` starts (a
    /// window index), as `parseRecord(…, valueStarts:)` places it; the
    /// position holds the record's `{`.
    /// - Returns: nil when the record has no such field.
    /// - Throws: when the record is not well formed, or when the name or a
    ///   key is not plain ASCII (escaped, or beyond ASCII: such strings may
    ///   be equal as `String`s and not as bytes, `K` and U+212A); the
    ///   caller then parses the record whole.
    mutating func valueStart(ofField wanted: UnsafeBufferPointer<UInt8>) throws(JSONScanError) -> Int? {
        guard wanted.allSatisfy({ $0 < 0x80 }) else { throw unexpected(at: position) }
        try checkDepth(1)
        position += 1  // {
        if try peekSignificant() == UInt8(ascii: "}") {
            position += 1
            return nil
        }
        var found: Int?
        while true {
            guard try peekSignificant() == UInt8(ascii: "\"") else { throw unexpected(at: position) }
            let keyStart = position
            let key = try scanString()
            guard !key.hasEscapes && !key.hasNonASCII else { throw unexpected(at: keyStart) }
            let matches = key.end - key.start == wanted.count && bytes[key.start..<key.end].elementsEqual(wanted)
            try expect(UInt8(ascii: ":"))
            _ = try peekSignificant()
            if matches { found = position }
            try skipValue(depth: 1)
            switch try peekSignificant() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return found
            default: throw unexpected(at: position)
            }
        }
    }
}
