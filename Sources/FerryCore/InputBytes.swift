/// A whole input in memory, for formats that must see all of it at once (a
/// binary plist's offset table is at its end). It is read straight into
/// memory the object owns, sized from the input when the size is known, so
/// a large file is held once, not copied.
public final class InputBytes: @unchecked Sendable {
    /// The bytes; valid only while the object lives, so a caller keeps the
    /// object (as the binary plist scanner does) or uses the methods below,
    /// never `bytes` of a temporary.
    public let bytes: UnsafeRawBufferPointer
    private let storage: UnsafeMutableRawBufferPointer

    private init(storage: UnsafeMutableRawBufferPointer, count: Int) {
        self.storage = storage
        bytes = UnsafeRawBufferPointer(rebasing: storage[0..<count])
    }

    /// A copy of `array`.
    public convenience init(_ array: [UInt8]) {
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(array.count, 1), alignment: 8)
        array.withUnsafeBytes { storage.copyMemory(from: $0) }
        self.init(storage: storage, count: array.count)
    }

    deinit { storage.deallocate() }

    public var count: Int { bytes.count }

    /// A copy of the bytes as an array.
    public func array() -> [UInt8] { Array(bytes) }

    /// Whether the bytes start with `prefix`.
    public func starts(with prefix: [UInt8]) -> Bool { bytes.starts(with: prefix) }

    /// Every remaining byte of `input`.
    /// - Throws: `limit.inputTooLarge` as soon as the input passes `limit`;
    ///   `io.readFailed`.
    public static func read(_ input: any ByteInput, limit: Int) throws(FerryError) -> InputBytes {
        if let size = input.sizeHint, size > limit { throw .inputTooLarge(limit: limit, at: SourceLocation(file: input.name)) }
        // One byte more than announced, to notice a file that grew.
        var storage = UnsafeMutableRawBufferPointer.allocate(
            byteCount: min(input.sizeHint.map { $0 + 1 } ?? (1 << 16), limit + 1), alignment: 8)
        var count = 0
        var readRest = false
        do throws(FerryError) {
            while true {
                if count == storage.count {
                    guard count <= limit else { throw FerryError.inputTooLarge(limit: limit, at: SourceLocation(file: input.name)) }
                    let grown = UnsafeMutableRawBufferPointer.allocate(
                        byteCount: min(storage.count * 2, limit + 1), alignment: 8)
                    grown.copyMemory(from: UnsafeRawBufferPointer(storage))
                    storage.deallocate()
                    storage = grown
                }
                let room = UnsafeMutableRawBufferPointer(rebasing: storage[count...])
                // After the first read (which takes any peeked bytes), the
                // rest in one go if the input can.
                if count > 0, !readRest, let got = try input.readRemainder(into: room) {
                    readRest = true
                    count += got
                    continue
                }
                let got = try input.read(into: room)
                if got == 0 { break }
                count += got
            }
            guard count <= limit else { throw FerryError.inputTooLarge(limit: limit, at: SourceLocation(file: input.name)) }
        } catch {
            storage.deallocate()
            throw error
        }
        return InputBytes(storage: storage, count: count)
    }
}
