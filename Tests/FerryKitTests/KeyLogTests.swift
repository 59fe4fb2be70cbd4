import Testing

@testable import FerryKit

/// The pieces of a file's check in halves that keep its keys: `KeyLog`
/// (its chunks cut from memory that moves as it grows) and `KeyDigest`.
@Suite struct KeyLogTests {
    /// Enough keys for the log's memory to grow several times (32 bytes a
    /// key, from 4 MiB): entries logged before a move are found after it.
    @Test func duplicatesAcrossGrowth() {
        let first = KeyLog()
        let second = KeyLog()
        let perHalf = 400_000
        // The first half repeats every 1,000th key of its own once; the
        // second half repeats every 7th key of the first.
        for record in 0..<perHalf {
            let key = record % 1_000 == 999 ? record - 1 : record
            first.append(digest(of: key), key: 0, record: record, byteOffset: record * 10)
        }
        for record in 0..<perHalf {
            let key = record % 7 == 0 ? record : perHalf + record
            second.append(digest(of: key), key: 0, record: record, byteOffset: record * 10)
        }
        #expect(first.count == perHalf && second.count == perHalf)
        let found = KeyLog.duplicates(first: first, second: second, records: perHalf, bytes: perHalf * 10)
        var expected: [KeyLog.Duplicate] = []
        for record in 0..<perHalf where record % 1_000 == 999 {
            expected.append(KeyLog.Duplicate(record: record, key: 0, first: record - 1, byteOffset: record * 10))
        }
        // Keys ending in 999 are not in the first half (its record 999 has key 998).
        for record in 0..<perHalf where record % 7 == 0 && record % 1_000 != 999 {
            expected.append(
                KeyLog.Duplicate(
                    record: perHalf + record, key: 0, first: record, byteOffset: perHalf * 10 + record * 10))
        }
        #expect(found.count == expected.count)
        let mismatch = zip(found, expected).first { $0.0.record != $0.1.record || $0.0.first != $0.1.first || $0.0.byteOffset != $0.1.byteOffset }
        #expect(mismatch == nil, "\(String(describing: mismatch))")
    }

    /// The digest reads only the key's own bytes, whatever its length and
    /// whatever lies around it (the last word is loaded from the key's end).
    @Test func digestOfTheKeyAlone() {
        for length in 0...40 {
            let key = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
            let alone = key.withUnsafeBytes { KeyDigest($0) }
            for filler: UInt8 in [0x00, 0xFF, 0x22] {
                let padded = [UInt8](repeating: filler, count: 9) + key + [UInt8](repeating: filler, count: 9)
                let inside = padded.withUnsafeBytes { KeyDigest(UnsafeRawBufferPointer(rebasing: $0[9..<(9 + length)])) }
                #expect(inside == alone, "length \(length)")
            }
            if length > 0 {
                // Every byte counts, the last ones too.
                var changed = key
                changed[length - 1] ^= 1
                #expect(changed.withUnsafeBytes { KeyDigest($0) } != alone, "length \(length)")
            }
        }
    }

    private func digest(of key: Int) -> (low: UInt64, high: UInt64) {
        let value = KeyDigest("K-\(key)")
        return (value.low, value.high)
    }
}
