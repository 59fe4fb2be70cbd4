/// Base64 (RFC 4648, standard alphabet, padded) for inline photos.
package enum Base64 {
    /// The alphabet, at a fixed address for the encoder's table lookups.
    private static let digits: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        let alphabet = UnsafeBufferPointer(start: digits.utf8Start, count: digits.utf8CodeUnitCount)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// The length of the Base64 form of `count` bytes, padding included.
    @inlinable
    package static func encodedCount(_ count: Int) -> Int { (count + 2) / 3 * 4 }

    /// Writes the Base64 form of `bytes` at `target`, which must have room
    /// for `encodedCount(bytes.count)` bytes.
    /// - Returns: the number of bytes written.
    package static func encode(_ bytes: UnsafeRawBufferPointer, to target: UnsafeMutablePointer<UInt8>) -> Int {
        let table = digits.utf8Start
        let count = bytes.count
        guard count > 0, let source = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
        var input = 0
        var output = target
        let full = count - count % 3
        // Three bytes in, four digits out, stored as one 32-bit word.
        while input < full {
            let chunk = UInt32(source[input]) << 16 | UInt32(source[input + 1]) << 8 | UInt32(source[input + 2])
            let word =
                UInt32(table[Int(chunk >> 18 & 63)]) | UInt32(table[Int(chunk >> 12 & 63)]) << 8
                | UInt32(table[Int(chunk >> 6 & 63)]) << 16 | UInt32(table[Int(chunk & 63)]) << 24
            UnsafeMutableRawPointer(output).storeBytes(of: word.littleEndian, as: UInt32.self)
            output += 4
            input += 3
        }
        let rest = count - full
        if rest > 0 {
            let chunk = UInt32(source[input]) << 16 | (rest == 2 ? UInt32(source[input + 1]) << 8 : 0)
            output[0] = table[Int(chunk >> 18 & 63)]
            output[1] = table[Int(chunk >> 12 & 63)]
            output[2] = rest == 2 ? table[Int(chunk >> 6 & 63)] : UInt8(ascii: "=")
            output[3] = UInt8(ascii: "=")
            output += 4
        }
        return output - target
    }

    /// Appends the Base64 form of `bytes` to `output`.
    package static func encode(_ bytes: [UInt8], into output: inout [UInt8]) {
        let start = output.count
        let length = encodedCount(bytes.count)
        output.append(contentsOf: repeatElement(0, count: length))
        output.withUnsafeMutableBufferPointer { target in
            bytes.withUnsafeBytes { _ = encode($0, to: target.baseAddress.unsafelyUnwrapped + start) }
        }
    }

    package static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        encode(bytes, into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes Base64 text; padding may be left out.
    /// - Returns: nil when `text` holds anything outside the alphabet or is cut short.
    package static func decode<Bytes: Collection<UInt8>>(_ text: Bytes) -> [UInt8]? {
        // The loop runs on contiguous bytes, compiled for them here: a
        // generic loop called from another module walks the collection
        // through its witness table, a call or more a byte.
        if let decoded = text.withContiguousStorageIfAvailable({ decode(contiguous: $0) }) { return decoded }
        return Array(text).withUnsafeBufferPointer { decode(contiguous: $0) }
    }

    private static func decode(contiguous text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.count / 4 * 3)
        var chunk: UInt32 = 0
        var filled = 0
        var padding = 0
        for byte in text {
            if byte == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            let digit = decodeTable[Int(byte)]
            guard digit != 0xFF, padding == 0 else { return nil }
            chunk = chunk << 6 | UInt32(digit)
            filled += 1
            if filled == 4 {
                output.append(UInt8(chunk >> 16 & 0xFF))
                output.append(UInt8(chunk >> 8 & 0xFF))
                output.append(UInt8(chunk & 0xFF))
                chunk = 0
                filled = 0
            }
        }
        switch filled {
        case 0: guard padding == 0 else { return nil }
        case 2:
            guard padding == 0 || padding == 2 else { return nil }
            output.append(UInt8(chunk >> 4 & 0xFF))
        case 3:
            guard padding == 0 || padding == 1 else { return nil }
            output.append(UInt8(chunk >> 10 & 0xFF))
            output.append(UInt8(chunk >> 2 & 0xFF))
        default: return nil
        }
        return output
    }
}
