import FerryCore

// MARK: - Design
//
// CF and plistlib read an XML property list in UTF-16 when it starts with a
// byte order mark, as test_plistlib's `test_xml_encodings` checks:
//
//     FF FE 3C 00 3F 00 78 00 …   UTF-16LE "<?x…"
//     FE FF 00 3C 00 3F 00 78 …   UTF-16BE "<?x…"
//
// Ferry converts such a document to UTF-8 as it is read (`TranscodingInput`),
// so the scanner only ever sees UTF-8; the declaration's `encoding="UTF-16"`
// is then ignored, as the byte order mark has said it. Byte offsets in later
// errors count the UTF-8 bytes; lines and columns are the same either way.

/// Finds UTF-16 XML property lists and hands them on as UTF-8.
enum XMLPlistEncoding {
    /// `input` as UTF-8: converted when it starts with a UTF-16 byte order
    /// mark, else as it is.
    /// - Throws: `io.readFailed` while looking at the first bytes; reading
    ///   the result throws `encoding.invalidUTF16` for broken UTF-16.
    static func utf8(_ input: any ByteInput) throws(FerryError) -> any ByteInput {
        let peekable = PeekableInput(input)
        guard TextEncoding.startsWithUTF16Mark(try peekable.peek(2)) else { return peekable }
        return TranscodingInput(peekable, encoding: .utf16)
    }

    /// A document already in memory as UTF-8, converted as `utf8(_:)` does.
    /// - Throws: `encoding.invalidUTF16`; `limit.inputTooLarge` when the
    ///   UTF-8 passes `limit` bytes.
    static func utf8(_ bytes: [UInt8], name: String, limit: Int) throws(FerryError) -> [UInt8] {
        guard TextEncoding.startsWithUTF16Mark(bytes) else { return bytes }
        return try TranscodingInput(MemoryInput(bytes, name: name), encoding: .utf16).readAll(limit: limit)
    }

    /// The first bytes of a file as sniffing reads them: a UTF-16 prefix
    /// (with its mark) becomes one byte a code unit, ASCII as it is and
    /// anything else 0x80, which no marker contains; other bytes stay.
    static func sniffable(_ prefix: [UInt8]) -> [UInt8] {
        guard TextEncoding.startsWithUTF16Mark(prefix) else { return prefix }
        let bigEndian = prefix[0] == 0xFE
        var text: [UInt8] = []
        text.reserveCapacity(prefix.count / 2)
        var index = 2
        while index + 1 < prefix.count {
            let (high, low) = bigEndian ? (prefix[index], prefix[index + 1]) : (prefix[index + 1], prefix[index])
            text.append(high == 0 && low < 0x80 ? low : 0x80)
            index += 2
        }
        return text
    }
}
