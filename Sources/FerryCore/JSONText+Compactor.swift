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
        /// - Complexity: O(n).
        public mutating func compact(_ bytes: UnsafeMutableRawBufferPointer) -> Int {
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
            var kept = 0
            for index in 0..<bytes.count {
                let byte = base[index]
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
                base[kept] = byte
                kept += 1
            }
            return kept
        }
    }
}
