import CFerryScan

// MARK: - Design
//
// Where the rows of a CSV, TSV or JSON Lines file end, read once from its
// start: a line feed ends a row unless it lies inside quotes. Inside or
// outside is the parity of the quotes before it, counted from the start
// of the file; a doubled quote ("") inside a field counts twice, and so
// changes nothing:
//
//     name,notes\n Wii,"a\nb"\n Xbox,"say ""hi"""\n
//                ^          ^ not a row end: one quote before it on the row
//                ^ row end  (odd)            ^ row end: six quotes (even)
//
// This is the one quote rule of Ferry's cuts: the halves of a validation
// (`PartPlan`) and the shards of a plan (`ShardPlanner`) both ask it. The
// reader of each piece checks the quotes for itself; a stray quote that
// misleads the count shows there as an error.

/// Finds the ends of rows in bytes read in order, chunk by chunk.
///
/// 64 bytes at a time: `ferry_csv_line_bits64` (CFerryScan, SSE2, beside
/// the classifier the CSV to JSON path reads) gives a bit per line feed, per
/// carriage return and per quote; the prefix XOR of the quotes marks the bytes inside quotes, so a
/// line feed ends a row when its bit is not among them.
struct RowEndScanner {
    /// The quote byte; nil for JSON Lines, where every line feed ends a row.
    private let quote: UInt8?
    /// Whether the bytes read so far leave an open quote.
    private(set) var quoted = false
    /// The carriage returns and the line feeds (inside quotes too) of the
    /// last 64 bytes `rowEnds(in64:)` read, a bit each.
    private(set) var carriageReturns: UInt64 = 0
    private(set) var lineFeeds: UInt64 = 0
    /// The bytes of those 64 inside quotes.
    private(set) var insideQuotes: UInt64 = 0

    init(quote: UInt8?) { self.quote = quote }

    /// Counts the quotes of `chunk` without looking for row ends.
    mutating func skip(_ chunk: UnsafeRawBufferPointer) {
        guard let quote, let base = chunk.baseAddress else { return }
        if LineCounter.occurrences(of: quote, from: base, to: base + chunk.count) % 2 == 1 { quoted.toggle() }
    }

    /// The row ends among the 64 bytes at `bytes`, all readable: bit i for
    /// a line feed at byte i outside quotes.
    @inline(__always)
    mutating func rowEnds(in64 bytes: UnsafePointer<UInt8>) -> UInt64 {
        // The carriage returns come as the delimiters.
        let bits = ferry_csv_line_bits64(bytes, quote ?? 0)
        carriageReturns = bits.delimiters
        lineFeeds = bits.lineFeeds
        guard quote != nil else {
            insideQuotes = 0
            return bits.lineFeeds
        }
        // Bit i of `inside`: an odd number of quotes at or before byte i.
        var inside = bits.quotes
        inside ^= inside << 1
        inside ^= inside << 2
        inside ^= inside << 4
        inside ^= inside << 8
        inside ^= inside << 16
        inside ^= inside << 32
        // Its last bit is the parity of all the quotes: whether the block
        // leaves a quote open or closes one (no count of bits needed).
        let toggles = inside >> 63 == 1
        if quoted { inside = ~inside }
        insideQuotes = inside
        if toggles { quoted.toggle() }
        return bits.lineFeeds & ~inside
    }

    /// The row ends among the 64 bytes at `block` of the `count` at `base`,
    /// as `rowEnds(in64:)` gives them; the last block, when fewer than 64
    /// bytes are left, padded with zeros (neither a quote nor a line feed).
    @inline(__always)
    mutating func rowEnds(at block: Int, of base: UnsafePointer<UInt8>, count: Int) -> UInt64 {
        if block + 64 <= count { return rowEnds(in64: base + block) }
        var tail = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        return withUnsafeMutableBytes(of: &tail) { padded in
            padded.copyMemory(from: UnsafeRawBufferPointer(start: base + block, count: count - block))
            return padded.baseAddress.map { rowEnds(in64: $0.assumingMemoryBound(to: UInt8.self)) } ?? 0
        }
    }

    /// Calls `body` with the index just past each row end of `chunk`, in
    /// order, until it returns false.
    /// - Returns: false when `body` stopped the scan.
    /// - Complexity: O(n), 64 bytes a step.
    @inline(__always)
    mutating func scan(_ chunk: UnsafeRawBufferPointer, _ body: (Int) -> Bool) -> Bool {
        guard let base = chunk.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return true }
        var block = 0
        while block < chunk.count {
            var ends = rowEnds(at: block, of: base, count: chunk.count)
            while ends != 0 {
                if !body(block + ends.trailingZeroBitCount + 1) { return false }
                ends &= ends &- 1
            }
            block += 64
        }
        return true
    }
}
