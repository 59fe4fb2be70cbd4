import FerryCore
import FerryPlist
import Testing

/// An `XMLPlistReader` made directly, not through the codec, reads the
/// encodings the codec reads: UTF-8, and UTF-16 after a byte order mark.
@Suite struct XMLPlistReaderEncodingTests {
    static let text = """
        <?xml version="1.0" encoding="UTF-16"?>
        <plist version="1.0"><array>
        <dict><key>name</key><string>Café 🎮</string><key>price</key><integer>269</integer></dict>
        </array></plist>
        """

    /// `text` in UTF-16, with its byte order mark.
    static func utf16(bigEndian: Bool) -> [UInt8] {
        var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
        for unit in text.utf16 {
            let (high, low) = (UInt8(unit >> 8), UInt8(unit & 0xFF))
            bytes += bigEndian ? [high, low] : [low, high]
        }
        return bytes
    }

    @Test(arguments: [false, true]) func readsUTF16(bigEndian: Bool) throws {
        let reader = try XMLPlistReader(MemoryInput(Self.utf16(bigEndian: bigEndian)))
        let record = try #require(try reader.next())
        #expect(record["name"] == .string("Café 🎮"))
        #expect(record["price"] == .integer(269))
        #expect(try reader.next() == nil)
    }

    @Test func readsUTF8AsBefore() throws {
        let reader = try XMLPlistReader(MemoryInput(Array(Self.text.utf8)))
        #expect(try reader.next()?["name"] == .string("Café 🎮"))
    }

    /// UTF-16 that breaks off in a surrogate pair is the transcoder's error.
    @Test func brokenUTF16IsCoded() throws {
        let bytes = Self.utf16(bigEndian: false) + [0x3D, 0xD8]
        let reader = try XMLPlistReader(MemoryInput(bytes))
        let error = try #require(throws: FerryError.self) { while try reader.next() != nil {} }
        #expect(error.code == .encodingInvalidUTF16)
    }
}
