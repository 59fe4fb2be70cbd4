extension FerryError.Code {
    public static let encodingInvalidUTF16 = Self("encoding.invalidUTF16", .data)
}

/// Converts another input's text to UTF-8 as it is read, in flat memory.
///
/// Offsets in later errors count the UTF-8 bytes this input produces; line
/// and column are the same in either encoding.
package final class TranscodingInput: ByteInput {
    private let base: any ByteInput
    private let encoding: TextEncoding
    private var bigEndian: Bool
    private var sawStart = false
    private var source = [UInt8](repeating: 0, count: 1 << 16)
    /// Source bytes kept from the last read: an odd byte or a lone high surrogate.
    private var carry: [UInt8] = []
    private var pending: [UInt8] = []
    private var pendingPosition = 0
    private var sourceOffset = 0
    /// The source offset of the first byte being converted.
    private var chunkOffset = 0
    private var ended = false

    package init(_ base: any ByteInput, encoding: TextEncoding) {
        self.base = base
        self.encoding = encoding
        bigEndian = encoding != .utf16le
    }

    package var name: String { base.name }
    package var sizeHint: Int? { base.sizeHint }

    /// The input opened again and converted again from its start.
    package func reopened() -> (any ByteInput)? {
        base.reopened().map { TranscodingInput($0, encoding: encoding) }
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int {
        while pendingPosition == pending.count {
            if ended { return 0 }
            try convertChunk()
        }
        let count = min(buffer.count, pending.count - pendingPosition)
        for index in 0..<count { buffer[index] = pending[pendingPosition + index] }
        pendingPosition += count
        return count
    }

    private func convertChunk() throws(FerryError) {
        pending.removeAll(keepingCapacity: true)
        pendingPosition = 0
        let got = try source.withUnsafeMutableBytes { raw in
            Result { () throws(FerryError) in try base.read(into: raw) }
        }.get()
        if got == 0 {
            ended = true
            if !carry.isEmpty {
                throw FerryError(.encodingInvalidUTF16, [.ungrouped(sourceOffset)], at: SourceLocation(file: name))
            }
            return
        }
        var bytes = carry
        bytes.append(contentsOf: source[0..<got])
        chunkOffset = sourceOffset - carry.count
        carry.removeAll()
        switch encoding {
        case .utf8:
            pending = bytes
        case .windows1252:
            for byte in bytes { appendScalar(Windows1252.scalar(byte)) }
        case .utf16, .utf16le, .utf16be:
            try convertUTF16(bytes)
        }
        sourceOffset += got
    }

    private func convertUTF16(_ bytes: [UInt8]) throws(FerryError) {
        var index = 0
        if !sawStart && bytes.count >= 2 {
            sawStart = true
            if bytes[0] == 0xFF && bytes[1] == 0xFE && encoding != .utf16be {
                bigEndian = false
                index = 2
            } else if bytes[0] == 0xFE && bytes[1] == 0xFF && encoding != .utf16le {
                bigEndian = true
                index = 2
            }
        }
        func unit(at position: Int) -> UInt32 {
            bigEndian
                ? UInt32(bytes[position]) << 8 | UInt32(bytes[position + 1])
                : UInt32(bytes[position + 1]) << 8 | UInt32(bytes[position])
        }
        while index + 1 < bytes.count {
            let first = unit(at: index)
            switch first {
            case 0xD800...0xDBFF:
                guard index + 3 < bytes.count else {
                    carry = Array(bytes[index...])
                    return
                }
                let second = unit(at: index + 2)
                guard (0xDC00...0xDFFF).contains(second) else { throw invalid(at: index) }
                appendScalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
                index += 4
            case 0xDC00...0xDFFF:
                throw invalid(at: index)
            default:
                appendScalar(first)
                index += 2
            }
        }
        if index < bytes.count { carry = Array(bytes[index...]) }
    }

    private func invalid(at index: Int) -> FerryError {
        let offset = chunkOffset + index
        return FerryError(
            .encodingInvalidUTF16, [.ungrouped(offset)], at: SourceLocation(file: name, byteOffset: offset))
    }

    private func appendScalar(_ scalar: UInt32) {
        UTF8Validation.append(scalar: scalar, to: &pending)
    }
}
