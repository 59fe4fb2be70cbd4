import FerryTestSupport
import Foundation
import Testing

@testable import FerryKit

/// The packed `keys` of a shard's json report (Formats/shards.md): what is
/// written reads back the same, and a damaged string is refused.
@Suite struct ShardKeysTests {
    let keys = [
        ShardTrace.Key(field: 0, digest: KeyDigest(low: 1, high: 0xFFFF_FFFF_FFFF_FFFF), record: 0, byteOffset: 15),
        ShardTrace.Key(field: 1, digest: KeyDigest(low: 0x0123_4567_89AB_CDEF, high: 42), record: 0, byteOffset: 15),
        ShardTrace.Key(field: 0, digest: KeyDigest(low: 7, high: 8), record: 5_000_000_000, byteOffset: 1 << 40),
    ]

    @Test func packedKeysReadBackTheSame() throws {
        let packed = ShardTrace.Key.packed(keys, fields: 2)
        #expect(packed.count == 2)
        // 32 bytes a key: two keys of field 0, one of field 1.
        #expect(packed.map { Data(base64Encoded: $0)?.count } == [64, 32])
        let field0 = try #require(ShardTrace.Key.unpacked(packed[0], field: 0))
        let field1 = try #require(ShardTrace.Key.unpacked(packed[1], field: 1))
        #expect(field0 == [keys[0], keys[2]])
        #expect(field1 == [keys[1]])
    }

    /// Python reads them as the format says: little-endian words, the
    /// digest's high word first.
    @Test func theLayoutIsTheDocumentedOne() throws {
        let packed = ShardTrace.Key.packed([keys[1]], fields: 2)[1]
        let bytes = try #require(Data(base64Encoded: packed))
        let words = (0..<4).map { index in
            bytes[(index * 8)..<(index * 8 + 8)].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }
        #expect(words == [42, 0x0123_4567_89AB_CDEF, 0, 15])
    }

    @Test func damagedKeysAreRefused() {
        let good = ShardTrace.Key.packed([keys[0]], fields: 1)[0]
        #expect(ShardTrace.Key.unpacked("not base64!", field: 0) == nil)
        #expect(ShardTrace.Key.unpacked(String(good.dropLast(4)), field: 0) == nil)  // not whole keys
        let negative = ShardTrace.Key(field: 0, digest: KeyDigest(low: 1, high: 1), record: -1, byteOffset: 0)
        #expect(ShardTrace.Key.unpacked(ShardTrace.Key.packed([negative], fields: 1)[0], field: 0) == nil)
        #expect(ShardTrace.Key.unpacked("", field: 0) == [])
        // `--combine` matches keys in a `KeyLog`, whose entries hold 48 bits of a record.
        let past = ShardTrace.Key(field: 0, digest: KeyDigest(low: 1, high: 1), record: 1 << 48, byteOffset: 0)
        #expect(ShardTrace.Key.unpacked(ShardTrace.Key.packed([past], fields: 1)[0], field: 0) == nil)
        var last = past
        last.record -= 1
        #expect(ShardTrace.Key.unpacked(ShardTrace.Key.packed([last], fields: 1)[0], field: 0) == [last])
    }
}
