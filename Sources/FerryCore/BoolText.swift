/// The words a typed boolean cell or value may be written as: true/false,
/// yes/no, 1/0, in any ASCII case. One rule for CSV and TSV cells, workbook
/// cells stored as text, and `edit --set` values.
package enum BoolText {
    /// The boolean `bytes` spell, or nil.
    @inline(__always)
    package static func value(of bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard bytes.count <= 5 else { return nil }
        // The bytes in lower case, packed into one word, first byte
        // lowest: "true" is 0x65_75_72_74.
        var word: UInt64 = 0
        for (index, byte) in bytes.enumerated() {
            let lower = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            word |= UInt64(lower) << UInt64(index &* 8)
        }
        // The length too: a NUL byte adds nothing to the word.
        switch (bytes.count, word) {
        case (4, 0x65_75_72_74), (3, 0x73_65_79), (1, 0x31): return true  // true, yes, 1
        case (5, 0x65_73_6C_61_66), (2, 0x6F_6E), (1, 0x30): return false  // false, no, 0
        default: return nil
        }
    }

    /// The boolean `text` spells, or nil.
    package static func value(of text: String) -> Bool? {
        var text = text
        return text.withUTF8 { value(of: $0) }
    }
}
