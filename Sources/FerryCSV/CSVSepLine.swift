import FerryCore

// MARK: - Design
//
// Excel reads a first line `sep=;` as the delimiter to split the file by,
// and users (and some exporters) write one so that Excel opens the file
// right whatever the region's list separator:
//
//     bytes:  s e p = ; \r \n n a m e ; p r i c e \r \n …
//     line:   0..<7, delimiter ';'; the header starts at 7
//
// The line is `sep=` (any case), then the delimiter (one ASCII character,
// a tab, or the two characters `\t`), then a line break or the input's end.
// It is not a record: the reader skips it, and without `--delimiter` its
// delimiter is the file's, with no guessing. An explicit `--delimiter`
// wins, as an explicit option wins over what csvkit or pandas infer; the
// line is skipped all the same.

/// Excel's `sep=` first line (see the design above).
package struct CSVSepLine: Sendable, Hashable {
    /// The delimiter the line names.
    package let delimiter: UInt8
    /// The line's bytes, its line break included.
    package let length: Int

    /// The longest line: `sep=\t` and CRLF.
    package static let maxLength = 8

    /// The `sep=` line at the start of `bytes` (after any byte order mark),
    /// or nil when the first line is none.
    /// - Parameters:
    ///   - isWhole: whether `bytes` is the whole input, so that a line that
    ///     ends at its end counts.
    ///   - quote: the quote, which no line may name.
    package init?(_ bytes: some Collection<UInt8>, isWhole: Bool, quote: UInt8) {
        let line = Array(bytes.prefix(Self.maxLength))
        guard line.count >= 5, line[0] | 0x20 == UInt8(ascii: "s"), line[1] | 0x20 == UInt8(ascii: "e"),
            line[2] | 0x20 == UInt8(ascii: "p"), line[3] == UInt8(ascii: "=")
        else { return nil }
        let valueEnd = line[4...].firstIndex { $0 == 0x0A || $0 == 0x0D } ?? line.count
        let value = line[4..<valueEnd]
        let named: UInt8?
        switch Array(value) {
        case [0x5C, UInt8(ascii: "t")]: named = 0x09
        case let one where one.count == 1: named = one[0]
        default: named = nil
        }
        guard let named, named != 0, named < 0x80, named != quote else { return nil }
        var end = valueEnd
        if end < line.count {
            end += line[end] == 0x0D && end + 1 < line.count && line[end + 1] == 0x0A ? 2 : 1
            // A CR at the end of what is at hand may be the start of CRLF.
            if line[end - 1] == 0x0D && end == line.count && !isWhole && bytes.count == end { return nil }
        } else if !isWhole || bytes.count > line.count {
            return nil
        }
        delimiter = named
        length = end
    }

    /// The length of the `sep=` line and the byte order mark before it at
    /// the start of `bytes`, 0 when there is none.
    package static func length(in bytes: [UInt8], isWhole: Bool, quote: UInt8) -> Int {
        let bom = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        return CSVSepLine(bytes[bom...], isWhole: isWhole, quote: quote).map { bom + $0.length } ?? 0
    }
}
