import CFerryScan

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
        /// Where the last chunk left off (`FERRY_COMPACT_…`).
        private var state: UInt32 = 0

        package init() {}

        /// Copies `bytes` to `output` without the whitespace between tokens.
        /// `output` has room for `bytes.count` bytes and does not overlap them.
        /// - Returns: how many bytes were written, from `output`'s start.
        /// - Complexity: O(n): 3.4 instructions a byte on spaced lines as
        ///   Python writes them, 64 bytes at a time (`ferry_json_compact`,
        ///   CFerryScan, which says what it buys); a byte-at-a-time loop by
        ///   a table of byte classes took 11.
        package mutating func compact(_ bytes: UnsafeRawBufferPointer, into output: UnsafeMutableRawPointer) -> Int {
            guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
            return ferry_json_compact(
                base.assumingMemoryBound(to: UInt8.self), bytes.count, output.assumingMemoryBound(to: UInt8.self), &state)
        }
    }
}
