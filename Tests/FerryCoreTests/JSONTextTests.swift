import Testing

@testable import FerryCore

/// `JSONText.appendQuoted` against a byte-by-byte escaper, for strings of
/// every length around the word sizes its shortcuts read, with a byte that
/// needs an escape (or one just beside those that do) at every place.
@Suite struct JSONTextTests {
    static func reference(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x22]
        for byte in bytes {
            switch byte {
            case 0x22: out += Array(#"\""#.utf8)
            case 0x5C: out += Array(#"\\"#.utf8)
            case 0x08: out += Array(#"\b"#.utf8)
            case 0x0C: out += Array(#"\f"#.utf8)
            case 0x0A: out += Array(#"\n"#.utf8)
            case 0x0D: out += Array(#"\r"#.utf8)
            case 0x09: out += Array(#"\t"#.utf8)
            case ..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += Array(#"\u00"#.utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            default: out.append(byte)
            }
        }
        return out + [0x22]
    }

    static func quoted(_ bytes: [UInt8]) -> [UInt8] {
        var buffer = WriteBuffer(capacity: 1)
        defer { buffer.release() }
        bytes.withUnsafeBufferPointer { JSONText.appendQuoted($0, to: &buffer) }
        return buffer.bytes
    }

    @Test(arguments: [0x22, 0x5C, 0x00, 0x0A, 0x1F, 0x20, 0x21, 0x5B, 0x7F, 0x80, 0xFF] as [UInt8])
    func shortAndLongStringsMatchTheReference(special: UInt8) {
        for length in 0...40 {
            // Plain text of the length, then the special byte at each place.
            let plain = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
            #expect(Self.quoted(plain) == Self.reference(plain), "length \(length)")
            for place in 0..<length {
                var bytes = plain
                bytes[place] = special
                #expect(Self.quoted(bytes) == Self.reference(bytes), "length \(length), byte \(special) at \(place)")
            }
        }
    }
}
