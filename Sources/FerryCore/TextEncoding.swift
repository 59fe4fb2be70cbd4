/// Text encodings Ferry converts to UTF-8 on read.
///
/// A name is looked up as the WHATWG Encoding Standard looks up a label
/// (`TextEncoding(label:)`): whatever its case and surrounding spaces, and
/// with the standard's labels of windows-1252, so that `latin1`,
/// `iso-8859-1` and `ascii` decode as windows-1252, as browsers decode them.
public enum TextEncoding: String, Sendable, CaseIterable {
    case utf8
    /// Windows-1252, as Excel on Windows writes it: ISO 8859-1 with
    /// printable characters (`€ – „ “`) in 0x80…0x9F, per the WHATWG
    /// Encoding Standard, whose table maps the five bytes Windows leaves
    /// undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) to U+0081 and so on.
    case windows1252 = "windows-1252"
    /// UTF-16 with a byte order mark; big-endian without one, as RFC 2781 says.
    case utf16
    case utf16le
    case utf16be

    /// The encoding `label` names: a case's name, or one of the WHATWG
    /// labels of windows-1252, in any case, ASCII spaces around it ignored.
    public init?(label: String) {
        let folded = String(label.lowercased().drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        guard let found = TextEncoding(rawValue: folded) ?? Self.aliases[folded] else { return nil }
        self = found
    }

    /// The other names an encoding goes by: the WHATWG Encoding Standard's
    /// labels of windows-1252, and `utf-8`.
    public static let aliases: [String: TextEncoding] = {
        var aliases: [String: TextEncoding] = ["utf-8": .utf8]
        let windows1252 = [
            "ansi_x3.4-1968", "ascii", "cp1252", "cp819", "csisolatin1", "ibm819", "iso-8859-1", "iso-ir-100",
            "iso8859-1", "iso88591", "iso_8859-1", "iso_8859-1:1987", "l1", "latin1", "us-ascii", "x-cp1252",
        ]
        for label in windows1252 { aliases[label] = .windows1252 }
        return aliases
    }()
}

/// Windows-1252 (see `TextEncoding.windows1252`).
package enum Windows1252 {
    /// The code points of bytes 0x80…0x9F; every other byte is the code
    /// point of the same number.
    static let high: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D,
        0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
        0x0153, 0x009D, 0x017E, 0x0178,
    ]

    /// The code point of `byte`.
    @inline(__always)
    package static func scalar(_ byte: UInt8) -> UInt32 {
        byte & 0xE0 == 0x80 ? high[Int(byte & 0x1F)] : UInt32(byte)
    }

    /// Whether `bytes`, which are not UTF-8, are likely Windows-1252 text:
    /// none of them is one of the five bytes Windows leaves undefined
    /// (0x81, 0x8D, 0x8F, 0x90, 0x9D), which a text Excel wrote never holds.
    package static func fits(_ bytes: some Sequence<UInt8>) -> Bool {
        !bytes.contains { $0 == 0x81 || $0 == 0x8D || $0 == 0x8F || $0 == 0x90 || $0 == 0x9D }
    }
}

extension TextEncoding {
    /// Whether `bytes` start with a UTF-16 byte order mark (FF FE or FE FF):
    /// text every codec reads as UTF-16, converted, and never cuts into parts.
    package static func startsWithUTF16Mark(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
    }
}
