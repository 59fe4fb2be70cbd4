extension JSONText {
    /// Drops the whitespace between the tokens of JSON text, a chunk at a
    /// time: a spaced JSON Lines line (`RawRecord.lineIsSpaced`), such as
    /// Python's `json.dumps` writes, becomes the compact line the JSON Lines
    /// writer writes for its record.
    ///
    ///     {"sku": "A-1", "name": "Wii U", "price": 269.0}\r\n
    ///     {"sku":"A-1","name":"Wii U","price":269.0}\n
    ///
    /// Space, tab and CR go; text between quotes stays as it is, and so do
    /// line feeds, which end the lines (a JSON string holds none). A chunk
    /// may end anywhere: inside a string or after a backslash, the next
    /// chunk goes on from there.
    public struct Compactor {
        private var inString = false
        private var escaped = false

        public init() {}

        /// Compacts `bytes` in place.
        /// - Returns: how many bytes are left, from the start.
        /// - Complexity: O(n). Text between quotes is copied eight bytes at
        ///   a time while none is a quote or a backslash, and the state is
        ///   kept in locals: a byte loop on the state in `self` took 14
        ///   instructions a byte, a fifth of a merge of spaced lines.
        public mutating func compact(_ bytes: UnsafeMutableRawBufferPointer) -> Int {
            guard let base = bytes.baseAddress else { return 0 }
            let text = base.assumingMemoryBound(to: UInt8.self)
            let count = bytes.count
            var read = 0
            var kept = 0
            // In locals: the stores through `text` could alias `self`, and
            // would make the loop load and store its state at every byte.
            var inString = self.inString
            var escaped = self.escaped
            defer {
                self.inString = inString
                self.escaped = escaped
            }
            while read < count {
                if inString && !escaped {
                    // Each word is loaded before the one at or before it is stored.
                    while read + 8 <= count {
                        let word = (base + read).loadUnaligned(as: UInt64.self)
                        if Self.hasQuoteOrBackslash(word) { break }
                        (base + kept).storeBytes(of: word, as: UInt64.self)
                        kept += 8
                        read += 8
                    }
                    if read == count { break }
                }
                let byte = text[read]
                read += 1
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        escaped = true
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                    }
                } else if byte == 0x20 || byte == 0x09 || byte == 0x0D {
                    continue
                } else if byte == UInt8(ascii: "\"") {
                    inString = true
                }
                text[kept] = byte
                kept += 1
            }
            return kept
        }

        /// Whether one of the eight bytes of `word` is a quote or a backslash.
        @inline(__always)
        private static func hasQuoteOrBackslash(_ word: UInt64) -> Bool {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            let quotes = word ^ (ones &* 0x22)
            let backslashes = word ^ (ones &* 0x5C)
            // A byte of zero in either, exactly (the classic zero-byte test).
            return ((quotes &- ones) & ~quotes | (backslashes &- ones) & ~backslashes) & highs != 0
        }
    }
}
