import CZlib

/// A running CRC-32 (ISO 3309, as gzip, zip and PNG use), by zlib.
package struct CRC32 {
    package private(set) var value: UInt32 = 0

    package init() {}

    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        var crc = UInt(value)
        var next = base.assumingMemoryBound(to: UInt8.self)
        var left = bytes.count
        while left > 0 {
            let step = min(left, 1 << 30)
            crc = crc32(crc, next, UInt32(step))
            next += step
            left -= step
        }
        value = UInt32(truncatingIfNeeded: crc)
    }

    package mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }
}
