import FerryCore

// MARK: - Text as XML
//
// Most cell text is ASCII that needs no escaping: it is checked eight bytes
// at a time (one 64-bit word: is any byte below 0x20, `&`, `<`, `>` or
// above 0x7F?) and copied whole, its width its length. Measured on 100k
// products (`Scripts/count-instructions.sh`), the byte-at-a-time check
// took 84M instructions of 1,697M. Other text goes byte by byte: it counts
// characters (for the column's width), writes `&amp;`, `&lt;`, `&gt;`,
// keeps a carriage return as `&#13;` (a parser would turn a bare one into
// a line feed), and drops what XML 1.0 cannot hold at all: control
// characters other than tab, line feed and carriage return, and U+FFFE
// and U+FFFF (EF BF BE, EF BF BF).

extension XLSXWriter {
    /// Appends `utf8` as element text; returns its width (the characters
    /// written) and whether characters XML cannot hold were dropped.
    static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to out: inout WriteBuffer) -> (Int, Bool) {
        guard let base = utf8.baseAddress else { return (0, false) }
        if isPlainASCII(UnsafeRawPointer(base), count: utf8.count) {
            out.append(utf8)
            return (utf8.count, false)
        }
        return appendEscapedSlowly(base, count: utf8.count, to: &out)
    }

    /// Whether the `count` bytes at `base` are ASCII with no byte that
    /// needs care in XML text.
    @inline(__always)
    private static func isPlainASCII(_ base: UnsafeRawPointer, count: Int) -> Bool {
        var offset = 0
        while offset + 8 <= count {
            if needsCare(base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) { return false }
            offset += 8
        }
        guard offset < count else { return true }
        // The last bytes, padded with spaces, which need no care.
        var word: UInt64 = 0x2020_2020_2020_2020
        withUnsafeMutableBytes(of: &word) { $0.baseAddress?.copyMemory(from: base + offset, byteCount: count - offset) }
        return !needsCare(word)
    }

    /// Whether a byte of `word` is below 0x20, `&`, `<`, `>`, or not ASCII.
    /// A byte is zero in `x` when `(x - 0x01) & ~x & 0x80` has its top bit;
    /// borrows give false hits only above a true one, so "any" is exact.
    @inline(__always)
    private static func needsCare(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let tops: UInt64 = 0x8080_8080_8080_8080
        let below20 = (word &- ones &* 0x20) & ~word
        let ampersand = word ^ (ones &* 0x26)
        let less = word ^ (ones &* 0x3C)
        let greater = word ^ (ones &* 0x3E)
        let zeros = ((ampersand &- ones) & ~ampersand) | ((less &- ones) & ~less) | ((greater &- ones) & ~greater)
        return (below20 | zeros | word) & tops != 0
    }

    private static func appendEscapedSlowly(
        _ base: UnsafePointer<UInt8>, count: Int, to out: inout WriteBuffer
    ) -> (Int, Bool) {
        var continuations = 0
        var dropped = false
        var index = 0
        while index < count {
            let byte = base[index]
            index += 1
            switch byte {
            case UInt8(ascii: "&"): out.append("&amp;")
            case UInt8(ascii: "<"): out.append("&lt;")
            case UInt8(ascii: ">"): out.append("&gt;")
            case 0x0D: out.append("&#13;")
            case 0x09, 0x0A: out.append(byte)
            case 0..<0x20:
                dropped = true
                continuations += 1
            case 0x80..<0xC0:
                continuations += 1
                out.append(byte)
            case 0xEF where index + 1 < count && base[index] == 0xBF && base[index + 1] >= 0xBE:
                index += 2
                continuations += 3
                dropped = true
            default: out.append(byte)
            }
        }
        return (count - continuations, dropped)
    }
}
