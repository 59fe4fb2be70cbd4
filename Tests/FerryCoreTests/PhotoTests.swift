#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing

@testable import FerryCore

@Suite struct PhotoTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]

    static let magics: [([UInt8], ImageType)] = [
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], .png),
        ([0xFF, 0xD8, 0xFF, 0xE0], .jpeg),
        (Array("GIF89a..".utf8), .gif),
        (Array("RIFF\0\0\0\0WEBP".utf8), .webp),
        ([0, 0, 0, 24] + Array("ftypheic".utf8), .heic),
        ([0, 0, 0, 24] + Array("ftypmif1".utf8), .heic),
        (Array("GIF87a".utf8), .gif),
        ([0x49, 0x49, 0x2A, 0x00, 8], .tiff),
        ([0x4D, 0x4D, 0x00, 0x2A, 0], .tiff),
        (Array("BM".utf8) + Array(repeating: 0, count: 13), .bmp),
        // Near misses: one byte off, or cut short.
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0B], .unknown),
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A], .unknown),
        ([0xFF, 0xD8], .unknown),
        ([0x49, 0x49, 0x2A, 0x01], .unknown),
        (Array("BM".utf8), .unknown),
        (Array("RIFF\0\0\0\0WEBQ".utf8), .unknown),
        ([], .unknown),
        ([1, 2, 3], .unknown),
    ]

    @Test(arguments: Self.magics)
    func imageTypeComesFromMagic(bytes: [UInt8], type: ImageType) {
        #expect(Photo.imageType(of: bytes) == type)
    }

    /// File stems keep their letters: Latin and Greek lose their diacritics,
    /// decomposed marks are dropped, other scripts are kept.
    @Test(arguments: [
        ("Crème brûlée / 2", "creme-brulee-2"), ("Xbox 360", "xbox-360"), ("Straße", "strasse"),
        ("ÆØÅ æøå", "aeoa-aeoa"), ("Łódź", "lodz"), ("Crème", "creme"),
        ("Cre\u{300}me", "creme"), ("Καφές", "καφες"), ("Ελληνικό ΰ", "ελληνικο-υ"), ("日本", "日本"),
        ("Москва́", "москва"), ("  -- ", "photo"), ("", "photo"), ("Ⅻ ½", "ⅻ"),
    ])
    func fileStemsKeepLetters(_ name: String, expected: String) {
        #expect(Photo.fileStem(name) == expected)
    }

    @Test func fileStemsAreAtMost64Characters() {
        #expect(Photo.fileStem(String(repeating: "é", count: 100)) == String(repeating: "e", count: 64))
        #expect(Photo.fileStem(String(repeating: "ab ", count: 40)).count <= 64)
        #expect(!Photo.fileStem(String(repeating: "ab ", count: 40)).hasSuffix("-"))
        #expect(Photo.fileStem(String(repeating: "ß", count: 40)) == String(repeating: "ss", count: 32))
    }

    @Test func commonImageTypes() {
        #expect(Photo.commonTypes == [.png, .jpeg, .gif, .heic, .webp])
    }

    @Test func dataURIsRoundTrip() throws {
        let uri = Photo.dataURI(Self.png)
        #expect(uri.hasPrefix("data:image/png;base64,"))
        #expect(Photo.isDataURI(uri))
        #expect(try #require(Photo.bytes(fromDataURI: uri)) == Self.png)
        #expect(Photo.bytes(fromDataURI: "data:image/png,plain") == nil)
        #expect(Photo.bytes(fromDataURI: "data:image/png;base64,@@@") == nil)
        #expect(!Photo.isDataURI("photos/p1.png"))
    }

    @Test(arguments: 0..<40)
    func base64MatchesFoundation(length: Int) throws {
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ length) }
        let encoded = Base64.encode(bytes)
        #expect(encoded == Data(bytes).base64EncodedString())
        #expect(try #require(Base64.decode(Array(encoded.utf8))) == bytes)
    }

    /// Every byte value, at every position in a group of three.
    @Test func base64OfEveryByteMatchesFoundation() throws {
        var state: UInt64 = 11
        let bytes = (0..<3_001).map { index -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1442695040888963407
            return index < 768 ? UInt8(index / 3) : UInt8(truncatingIfNeeded: state >> 56)
        }
        #expect(Base64.encode(bytes) == Data(bytes).base64EncodedString())
    }

    /// The data URI as JSON and as text, built here independently: the
    /// media type by hand, the base64 by Foundation.
    static let photos: [([UInt8], String)] = [
        (Self.png, "image/png"), ([0xFF, 0xD8, 0xFF, 0xE0, 0x10], "image/jpeg"), ([], "application/octet-stream"),
        ([0x22, 0x5C, 0x0A], "application/octet-stream"),
    ]

    @Test(arguments: Self.photos)
    func dataURIsMatchAnIndependentSpelling(bytes: [UInt8], mediaType: String) {
        let expected = "data:\(mediaType);base64,\(Data(bytes).base64EncodedString())"
        #expect(Photo.dataURI(bytes) == expected)
        var buffer = WriteBuffer(capacity: 4)  // grows on the way
        defer { buffer.release() }
        buffer.append("[")
        JSONText.appendDataURI(bytes, to: &buffer)
        #expect(String(decoding: buffer.bytes, as: UTF8.self) == "[\"\(expected)\"")
    }

    @Test(arguments: ["A", "AB=C", "A===", "AAAA=", "AA AA"])
    func malformedBase64IsRejected(_ text: String) {
        #expect(Base64.decode(Array(text.utf8)) == nil)
    }

    @Test func timestampsAreISO8601() {
        #expect(Timestamp.iso8601(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(Timestamp.iso8601(Date(timeIntervalSince1970: 1_507_379_400.25)) == "2017-10-07T12:30:00.250Z")
        #expect(Timestamp.iso8601(Date(timeIntervalSince1970: -86_400)) == "1969-12-31T00:00:00Z")
        #expect(Timestamp.iso8601(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
    }
}
