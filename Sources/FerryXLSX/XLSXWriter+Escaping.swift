import FerryCore

// MARK: - Text as XML
//
// Most cell text needs no escaping: one pass counts its characters (for the
// column's width) and looks for a byte that needs care, and clean text is
// copied whole. Otherwise a second pass writes `&amp;`, `&lt;`, `&gt;`,
// keeps a carriage return as `&#13;` (a parser would turn a bare one into a
// line feed), and drops what XML 1.0 cannot hold at all: control
// characters other than tab, line feed and carriage return, and U+FFFE and
// U+FFFF (EF BF BE, EF BF BF).

extension XLSXWriter {
    /// Appends `utf8` as element text; returns its width in characters and
    /// whether characters XML cannot hold were dropped.
    static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to out: inout WriteBuffer) -> (Int, Bool) {
        guard let base = utf8.baseAddress else { return (0, false) }
        let count = utf8.count
        var continuations = 0
        var clean = true
        for index in 0..<count {
            let byte = base[index]
            continuations &+= byte & 0xC0 == 0x80 ? 1 : 0
            if byte < 0x20 || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
                || byte == 0xEF
            {
                clean = false
            }
        }
        let width = count - continuations
        if clean {
            out.append(utf8)
            return (width, false)
        }
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
            case 0..<0x20: dropped = true
            case 0xEF where index + 1 < count && base[index] == 0xBF && base[index + 1] >= 0xBE:
                index += 2
                dropped = true
            default: out.append(byte)
            }
        }
        return (width, dropped)
    }
}
