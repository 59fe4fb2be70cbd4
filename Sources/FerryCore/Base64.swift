/// Base64 (RFC 4648, standard alphabet, padded) for inline photos.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// Appends the Base64 form of `bytes` to `output`.
    public static func encode(_ bytes: [UInt8], into output: inout [UInt8]) {
        output.reserveCapacity(output.count + (bytes.count + 2) / 3 * 4)
        var index = 0
        let full = bytes.count - bytes.count % 3
        while index < full {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            output.append(alphabet[Int(chunk >> 6 & 63)])
            output.append(alphabet[Int(chunk & 63)])
            index += 3
        }
        let rest = bytes.count - full
        if rest > 0 {
            let chunk = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            output.append(rest == 2 ? alphabet[Int(chunk >> 6 & 63)] : UInt8(ascii: "="))
            output.append(UInt8(ascii: "="))
        }
    }

    public static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        encode(bytes, into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes Base64 text; padding may be left out.
    /// - Returns: nil when `text` holds anything outside the alphabet or is cut short.
    public static func decode<Bytes: Collection<UInt8>>(_ text: Bytes) -> [UInt8]? {
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
