#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
// (`Halves`) and the shards of a plan (`ShardPlanner`) both ask it. The
// reader of each piece checks the quotes for itself; a stray quote that
// misleads the count shows there as an error.

/// Finds the ends of rows in bytes read in order, chunk by chunk.
struct RowEndScanner {
    /// The quote byte; nil for JSON Lines, where every line feed ends a row.
    let quote: UInt8?
    /// Whether the bytes read so far leave an open quote.
    private(set) var quoted = false

    init(quote: UInt8?) { self.quote = quote }

    /// Counts the quotes of `chunk` without looking for row ends.
    mutating func skip(_ chunk: UnsafeRawBufferPointer) {
        guard let quote, let base = chunk.baseAddress else { return }
        if LineCounter.occurrences(of: quote, from: base, to: base + chunk.count) % 2 == 1 { quoted.toggle() }
    }

    /// Calls `body` with the index just past each row end of `chunk`, in
    /// order, until it returns false.
    /// - Returns: false when `body` stopped the scan.
    /// - Complexity: O(n), a `memchr` per line and a vector count of the
    ///   quotes on it.
    mutating func scan(_ chunk: UnsafeRawBufferPointer, _ body: (Int) -> Bool) -> Bool {
        guard let base = chunk.baseAddress else { return true }
        let end = base + chunk.count
        var cursor = base
        while cursor < end {
            guard let found = memchr(cursor, 0x0A, end - cursor) else {
                skip(UnsafeRawBufferPointer(start: cursor, count: end - cursor))
                return true
            }
            let lineFeed = UnsafeRawPointer(found)
            if let quote, LineCounter.occurrences(of: quote, from: cursor, to: lineFeed) % 2 == 1 { quoted.toggle() }
            cursor = lineFeed + 1
            if !quoted && !body(cursor - base) { return false }
        }
        return true
    }
}
