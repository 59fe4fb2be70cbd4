extension UnsafeRawBufferPointer {
    /// The bytes from `index` to the end, fewer than eight, as one
    /// little-endian word (the first in the lowest byte, zeros above the
    /// last), read with at most three loads rather than a byte at a time:
    /// the tail of a word-at-a-time hash.
    @inlinable @inline(__always)
    package func tailWord(from index: Int) -> UInt64 {
        let left = count - index
        guard left > 0 else { return 0 }
        if count >= 8 {
            // The last eight bytes, shifted down to the ones left.
            let last = UInt64(littleEndian: loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
            return last >> UInt64(8 * (8 - left))
        }
        if left >= 4 {
            // Two words of four that overlap when fewer than eight are left.
            let low = UInt64(UInt32(littleEndian: loadUnaligned(fromByteOffset: index, as: UInt32.self)))
            let high = UInt64(UInt32(littleEndian: loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)))
            return low | high << UInt64(8 * (left - 4))
        }
        // One to three bytes: the first, the middle and the last (which may be the same).
        let first = UInt64(self[index])
        let middle = UInt64(self[index + left / 2]) << UInt64(8 * (left / 2))
        let last = UInt64(self[count - 1]) << UInt64(8 * (left - 1))
        return first | middle | last
    }
}
