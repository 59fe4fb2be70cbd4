import CFerryScan
import FerryCSV
import FerryCore

// MARK: - Design
//
// The names of the three paths, used in code, comments and ARCHITECTURE.md:
// the **block path** (here) cuts rows by bit masks a block of 64 bytes at a
// time; the **cut path** (PlainRowPlan+Cut.swift) cuts one plain row at a
// time; the **general path** reads every other row as a raw record, which
// is validated and written by the writer. A *plain* row is one that either
// of the first two lays out.
//
// Most rows of a real file are block rows: under 64 bytes, no backslash, no
// control byte, quotes only around fields of text. They are cut by bit masks.
// `ferry_csv_classify_blocks` classifies 1 KiB at a time, a word per 64
// bytes for the delimiters, the line feeds and the bytes that need a closer
// look; the 64 bits from a row's start are two words shifted together:
//
//     bytes    Wii,269.00,LF Xbox 360,299.00,LF Wireless Contr…
//     lines    ............1 ................1 ………
//     fields   3, 10, 11      8, 15, 16
//
// A row that ends within those 64 bits, with one field per column, is a
// block row when none of its bytes needs a closer look, or when that look
// (`ferry_csv_classify64` from the row's start) finds only quotes around
// fields (their prefix XOR marks the delimiters inside them as text) and
// valid UTF-8. Each value is then written where it belongs in the layout,
// through a pointer kept in a register, with no scan of its bytes: strings
// between quotes, numbers when `JSONText.printsAsWritten`, empty cells as
// null. Any other row or cell is left to `layOut(_:first:into:)` (the cut path),
// which gives the same bytes (`RawRecordTests.mixedRowsConvertTheSame`
// compares them on rows of every sort).

extension PlainRowPlan {
    /// How many blocks of 64 bytes one classification takes (1 KiB).
    static let chunkBlocks = 16
    /// How many bytes from a row's start must lie within the bytes at hand
    /// for the block path: its 64 bytes, 64 more for the classification's
    /// last block, and 32, for a value is copied 32 bytes at a time.
    static let blockReach = 160

    /// Which bytes `bitmaps` classifies: `blocks` blocks from `start`, valid
    /// while the bytes stay as they are (one call of `layOut(_:most:)`).
    struct Classified {
        var start = 0
        var blocks = 0
    }

    /// Lays out the block rows (see the design above) from `position` into
    /// `block`, up to `most` of them, the first one that is not a block row, and
    /// the last that starts `blockReach` bytes before `count`. A record must
    /// have been written before (the rows take the layout's later opening).
    /// - Parameter classified: what `bitmaps` holds, kept from call to call
    ///   while the bytes are the same.
    /// - Returns: how many rows it laid out; `position` is moved past them.
    func layOutBlocks(
        _ base: UnsafePointer<UInt8>, at position: inout Int, count: Int, most: Int, classified: inout Classified
    ) -> Int {
        let delimiterBits = bitmaps
        let lineFeedBits = bitmaps + Self.chunkBlocks
        let specialBits = bitmaps + 2 &* Self.chunkBlocks
        var taken = 0
        while taken < most {
            // Rows start in all but the last block classified.
            if position < classified.start || position >= classified.start &+ (classified.blocks &- 1) &* 64 {
                // The blocks that lie within the bytes, 32 bytes to spare.
                let blocks = min(Self.chunkBlocks, (count &- position &- 32) / 64)
                guard blocks >= 2 else { break }
                ferry_csv_classify_blocks(
                    base + position, blocks, delimiter, quote, delimiterBits, lineFeedBits, specialBits)
                classified = Classified(start: position, blocks: blocks)
            }
            let chunk = base + classified.start
            let starts = (classified.blocks &- 1) &* 64
            var offset = position &- classified.start
            var stopped = false
            // Room for every row that can end in the chunk (each has a byte
            // per column at least): the layout, its bytes, two quotes or
            // `false` (five bytes) for each value, and 32 bytes for the last
            // copy.
            let columns = cells.count
            let room = (starts &+ 64 &- offset) / columns &+ 1
            block.append(upTo: room &* (layoutBytes &+ columns &* 5) &+ starts &+ 64 &+ 32) { target in
                var out = target
                while offset < starts && taken < most {
                    // The masks of the 64 bytes from the row's start.
                    let word = offset &>> 6
                    let shift = UInt64(offset & 63)
                    @inline(__always)
                    func bits(_ words: UnsafeMutablePointer<UInt64>) -> UInt64 {
                        // Shifting the next word by 1 and then 63 - shift moves
                        // it out whole when shift is 0.
                        (words[word] &>> shift) | ((words[word &+ 1] &<< 1) &<< (63 &- shift))
                    }
                    let lines = bits(lineFeedBits)
                    let lineLength = lines.trailingZeroBitCount
                    // A row of 64 bytes or more takes the cut path.
                    guard lines != 0, lineLength <= maxFieldBytes else {
                        stopped = true
                        break
                    }
                    // A CR before the LF (CRLF, RFC 4180's line end) ends
                    // the row's last field; any other CR is looked at below.
                    let length = lineLength > 0 && chunk[offset &+ lineLength &- 1] == 0x0D ? lineLength &- 1 : lineLength
                    let span: UInt64 = (1 &<< UInt64(length)) &- 1
                    let row = UnsafeBufferPointer(start: chunk + offset, count: length)
                    var delimiters = bits(delimiterBits) & span
                    var quotes: UInt64 = 0
                    if bits(specialBits) & span != 0 {
                        // A closer look, at the row's start.
                        let exact = ferry_csv_classify64(chunk + offset, delimiter, quote)
                        quotes = exact.quotes & span
                        if quotes != 0 {
                            // The bytes inside quotes, from an opening quote up
                            // to its closing one: the prefix XOR of the quotes.
                            // (An odd number of them, this LF inside a field,
                            // fails the check of the quotes in `layOutBlockRow`.)
                            var inside = quotes
                            inside ^= inside &<< 1
                            inside ^= inside &<< 2
                            inside ^= inside &<< 4
                            inside ^= inside &<< 8
                            inside ^= inside &<< 16
                            inside ^= inside &<< 32
                            // A tab, as the delimiter, inside a quoted field is
                            // text that JSON escapes.
                            guard delimiter >= 0x20 || delimiters & inside == 0 else {
                                stopped = true
                                break
                            }
                            delimiters &= ~inside
                        }
                        // Bytes above 0x7F are checked as UTF-8 in the whole
                        // row: its fields are valid when it is, as they are cut
                        // at ASCII bytes.
                        guard exact.others & span == 0,
                            exact.high & span == 0 || UTF8Validation.firstInvalidIndex(in: row, 0..<length) == nil
                        else {
                            stopped = true
                            break
                        }
                    }
                    let end =
                        quotes == 0
                        ? layOutBlockRow(row, delimiters: delimiters, quotes: 0, anyQuotes: false, to: out)
                        : layOutBlockRow(row, delimiters: delimiters, quotes: quotes, anyQuotes: true, to: out)
                    guard let end else {
                        stopped = true
                        break
                    }
                    out = end
                    offset &+= lineLength &+ 1
                    taken &+= 1
                }
                return out - target
            }
            position = classified.start &+ offset
            if stopped { break }
        }
        return taken
    }

    /// Writes the block row `row` (its LF excluded), whose delimiters
    /// (outside quotes) and quotes are the bits of `delimiters` and `quotes`,
    /// at `target`, where there is room.
    /// - Returns: the address after the record; nil when the row has not as
    ///   many fields as the header, holds a quote other than those around a
    ///   field of text, or a cell does not fit its column the block path.
    /// - Parameter anyQuotes: whether `quotes` has a bit; a constant in
    ///   each call, so that the row without quotes makes no checks of them.
    @inline(__always)
    private func layOutBlockRow(
        _ bytes: UnsafeBufferPointer<UInt8>, delimiters: UInt64, quotes: UInt64, anyQuotes: Bool,
        to target: UnsafeMutablePointer<UInt8>
    ) -> UnsafeMutablePointer<UInt8>? {
        guard let row = bytes.baseAddress else { return nil }
        let count = bytes.count
        let columns = cells.count
        let last = columns &- 1
        // A row of delimiters only (`;;;`, as many bytes as delimiters) is
        // skipped and counted by the general path.
        if columns > 1 && count == last { return nil }
        let textLike = textColumns | stringColumns
        var out = target
        out = copyPiece(1, to: out)
        var rest = delimiters
        // Where the quotes around quoted fields must be. A block row has
        // those and no other: no doubled quote, no quote inside a field
        // or after its closing one, none left open.
        var around: UInt64 = 0
        var fieldStart = 0
        for index in 0..<columns {
            if index > 0 { out = copyPiece(index &+ 1, to: out) }
            // A delimiter ends each field but the last; none is left then.
            let fieldEnd: Int
            if index < last {
                guard rest != 0 else { return nil }
                fieldEnd = rest.trailingZeroBitCount
                rest &= rest &- 1
            } else {
                guard rest == 0 else { return nil }
                fieldEnd = count
            }
            var value = row + fieldStart
            var length = fieldEnd &- fieldStart
            if anyQuotes && quotes & (1 &<< UInt64(fieldStart)) != 0 {
                // A quoted field: text between its first and last byte,
                // which must be its only quotes (checked below).
                guard length >= 2 else { return nil }
                around |= 1 &<< UInt64(fieldStart) | 1 &<< UInt64(fieldEnd &- 1)
                value += 1
                length &-= 2
                fieldStart = fieldEnd &+ 1
                if nonBlankColumns & (1 &<< UInt64(index)) != 0 && Self.mayBeBlank(value, length) { return nil }
                switch cells[index] {
                case .text, .optionalText: out = quoted(value, length, to: out)
                case .requiredText where length > 0, .optionalNonEmptyText where length > 0:
                    out = quoted(value, length, to: out)
                default: return nil  // the cut path
                }
                continue
            }
            fieldStart = fieldEnd &+ 1
            let bit: UInt64 = 1 &<< UInt64(index)
            if length > 0 {
                if nonBlankColumns & bit != 0 && Self.mayBeBlank(value, length) { return nil }
                // Most cells, by the plan's column masks: text, and numbers
                // printed as written (others are parsed and printed the
                // cut path).
                if textLike & bit != 0 {
                    out = quoted(value, length, to: out)
                    continue
                }
                if (numberColumns | integerColumns) & bit != 0 {
                    let text = UnsafeBufferPointer(start: value, count: length)
                    // A negative number, where the rule takes one, takes the cut path.
                    guard JSONText.printsAsWritten(text) else { return nil }
                    // A double's text has a point; an integer column takes none.
                    if integerColumns & bit != 0 && text.contains(UInt8(ascii: ".")) { return nil }
                    out = copy(value, length, to: out)
                    continue
                }
                // What is left with text: bools, and the columns that always
                // take the cut path.
                guard cells[index] == .bool || cells[index] == .requiredBool,
                    let flag = BoolText.value(of: UnsafeBufferPointer(start: value, count: length))
                else { return nil }
                out = flag ? word(Self.true, 4, to: out) : word(Self.false, 5, to: out)
                continue
            }
            // An empty cell: "" where the column takes any text, null where
            // it is optional.
            switch cells[index] {
            case .text: out = quoted(value, 0, to: out)
            case .requiredText, .never: return nil
            case let cell where cell.isRequired: return nil
            default: out = word(Self.null, 4, to: out)
            }
        }
        guard !anyQuotes || around == quotes else { return nil }
        return copyPiece(columns &+ 1, to: out)
    }

    // The words written for null, true and false, first byte lowest.
    private static var null: UInt64 { 0x6C_6C_75_6E }
    private static var `true`: UInt64 { 0x65_75_72_74 }
    private static var `false`: UInt64 { 0x65_73_6C_61_66 }

    /// Writes piece `index` of the layout at `out`: its slot's 32 bytes, as
    /// the block path runs only when every piece fits one (`pieceStride` is
    /// 32, which `layOut(_:most:)` checks).
    /// - Returns: the address after it.
    @inline(__always)
    private func copyPiece(_ index: Int, to out: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        WriteBuffer.copy32(to: out, from: pieceSlots + index &* 32)
        return out + pieceLengths[index]
    }

    /// Writes the `count` bytes at `source`, 32 at a time when they are at
    /// most 32 (a value: the source has that many readable bytes, within
    /// `blockReach`).
    @inline(__always)
    private func copy(
        _ source: UnsafePointer<UInt8>, _ count: Int, to out: UnsafeMutablePointer<UInt8>
    ) -> UnsafeMutablePointer<UInt8> {
        if count <= 32 {
            WriteBuffer.copy32(to: out, from: source)
        } else {
            out.update(from: source, count: count)
        }
        return out + count
    }

    /// Writes the value's bytes between quotes.
    @inline(__always)
    private func quoted(
        _ value: UnsafePointer<UInt8>, _ count: Int, to out: UnsafeMutablePointer<UInt8>
    ) -> UnsafeMutablePointer<UInt8> {
        out.pointee = UInt8(ascii: "\"")
        let end = copy(value, count, to: out + 1)
        end.pointee = UInt8(ascii: "\"")
        return end + 1
    }

    /// Writes the first `count` bytes of `word` (eight are stored).
    @inline(__always)
    private func word(_ word: UInt64, _ count: Int, to out: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        UnsafeMutableRawPointer(out).storeBytes(of: word.littleEndian, as: UInt64.self)
        return out + count
    }
}
