import FerryKit
import Testing

@Suite struct XLSXSniffTests {
    private let codec = XLSXCodec()

    @Test func aZipWithContentTypesIsLikely() {
        let prefix = [0x50, 0x4B, 0x03, 0x04] + [UInt8](repeating: 0, count: 26) + Array("[Content_Types].xml".utf8)
        #expect(codec.sniff(prefix) == .likely)
    }

    @Test func anyOtherZipIsOnlyPossible() {
        let prefix = [0x50, 0x4B, 0x03, 0x04] + [UInt8](repeating: 0, count: 26) + Array("mimetype".utf8)
        #expect(codec.sniff(prefix) == .possible)
        #expect(codec.sniff(Array("{\"name\": 1}".utf8)) == .no)
    }

    @Test func theStandardRegistryKnowsTheExtension() {
        #expect(CodecRegistry.standard.codec(forPath: "catalog.xlsx")?.id == "xlsx")
    }
}
