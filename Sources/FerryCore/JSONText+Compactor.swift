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
    package struct Compactor {
        private var inString = false
        private var escaped = false

        package init() {}

        /// What each byte is to the compactor: 1 whitespace (space, tab,
        /// CR), 2 a quote, 3 a backslash, 0 anything else.
        private static let classes: [UInt8] = (0..<256).map { byte in
            switch byte {
            case 0x20, 0x09, 0x0D: 1
            case 0x22: 2
            case 0x5C: 3
            default: 0
            }
        }

        /// Compacts `bytes` in place.
        /// - Returns: how many bytes are left, from the start.
        /// - Complexity: O(n): 11 instructions a byte, by a table of byte
        ///   classes and a tight loop for each side of a quote (a loop of
        ///   tests on the state in `self` took 17, and one copying eight
        ///   bytes at a time 24 on this data, whose strings are short).
        package mutating func compact(_ bytes: UnsafeMutableRawBufferPointer) -> Int {
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
            let count = bytes.count
            var read = 0
            var kept = 0
            // In locals: the stores through `base` could alias `self`.
            var inString = self.inString
            var escaped = self.escaped
            Self.classes.withUnsafeBufferPointer { classes in
                while read < count {
                    if escaped {
                        escaped = false
                        base[kept] = base[read]
                        kept += 1
                        read += 1
                    } else if inString {
                        // To the closing quote, or a backslash.
                        while read < count {
                            let byte = base[read]
                            base[kept] = byte
                            kept += 1
                            read += 1
                            let kind = classes[Int(byte)]
                            if kind >= 2 {
                                if kind == 2 { inString = false } else { escaped = true }
                                break
                            }
                        }
                    } else {
                        // To the next string's opening quote, whitespace dropped.
                        while read < count {
                            let byte = base[read]
                            read += 1
                            let kind = classes[Int(byte)]
                            if kind == 1 { continue }
                            base[kept] = byte
                            kept += 1
                            if kind == 2 {
                                inString = true
                                break
                            }
                        }
                    }
                }
            }
            self.inString = inString
            self.escaped = escaped
            return kept
        }
    }
}
