#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing

@testable import FerryCore

@Suite struct PhotoTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]

    @Test(arguments: [
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] as [UInt8], ImageType.png),
        ([0xFF, 0xD8, 0xFF, 0xE0], .jpeg),
        (Array("GIF89a..".utf8), .gif),
        (Array("RIFF\0\0\0\0WEBP".utf8), .webp),
        ([0, 0, 0, 24] + Array("ftypheic".utf8), .heic),
        ([1, 2, 3], .unknown),
    ])
    func imageTypeComesFromMagic(bytes: [UInt8], type: ImageType) {
        #expect(Photo.imageType(of: bytes) == type)
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
