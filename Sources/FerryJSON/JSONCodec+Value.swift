import FerryCore

// MARK: - One value from text

extension JSONCodec {
    /// The JSON value `bytes` hold, alone but for white space after it (a
    /// CSV cell read with `--nested json`).
    /// - Returns: nil when they hold anything else.
    package static func value(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) -> Value? {
        var scanner = JSONScanner(bytes, position: 0, isFinal: true, maxDepth: maxDepth)
        guard let value = try? scanner.parseValue(depth: 0) else { return nil }
        while scanner.position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[scanner.position]) {
            scanner.position += 1
        }
        return scanner.position == bytes.count ? value : nil
    }
}
