/// A 128-bit digest of a key's bytes: what `ferry validate` keeps of each
/// unique value (`UniqueKeys`), and what merge matches records by.
///
/// Two independent 64-bit lanes over the bytes, eight at a time (the last
/// word padded with zeros; the length is mixed in first). Two different keys
/// would have to share all 128 bits to be taken for one another: for a
/// billion keys the chance is below 10⁻²⁰. The digest is not keyed, so the
/// same bytes give the same digest in every process (shards of one file, or
/// runs that spill to disk, can compare theirs).
package struct KeyDigest: Hashable, Sendable {
    package var low: UInt64
    package var high: UInt64

    package init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    /// The digest of `bytes`.
    /// - Complexity: O(n), a multiplication per lane every eight bytes.
    package init(_ bytes: UnsafeRawBufferPointer) {
        let length = UInt64(bytes.count)
        var low = Self.mix(length ^ Self.primes.0, Self.primes.1)
        var high = Self.mix(length ^ Self.primes.2, Self.primes.3)
        var index = 0
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            low = Self.mix(low ^ word, Self.primes.1)
            high = Self.mix(high ^ word ^ Self.primes.0, Self.primes.3)
            index += 8
        }
        if index < bytes.count {
            let word = bytes.tailWord(from: index)
            low = Self.mix(low ^ word, Self.primes.1)
            high = Self.mix(high ^ word ^ Self.primes.0, Self.primes.3)
        }
        self.low = Self.mix(low, Self.primes.2)
        self.high = Self.mix(high, Self.primes.1)
    }

    /// The digest of a string's UTF-8 bytes, as they are.
    package init(_ text: String) {
        var text = text
        self = text.withUTF8 { KeyDigest(UnsafeRawBufferPointer($0)) }
    }

    private static let primes: (UInt64, UInt64, UInt64, UInt64) = (
        0xA076_1D64_78BD_642F, 0xE703_7ED1_A0B4_28DB, 0x8EBC_6AF0_9C88_C6E3, 0x5899_65CC_7537_4CC3
    )

    @inline(__always)
    private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }
}
