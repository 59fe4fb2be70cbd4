/// Passes bytes through from another input and counts them, for progress.
public final class CountingInput: ByteInput {
    private let base: any ByteInput
    public private(set) var bytesRead = 0

    public init(_ base: any ByteInput) { self.base = base }

    public var name: String { base.name }
    public var sizeHint: Int? { base.sizeHint }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int {
        let count = try base.read(into: buffer)
        bytesRead += count
        return count
    }

    public func mapRemainder(holding unread: Int) -> (mapping: FileMapping, start: Int)? {
        guard let mapped = base.mapRemainder(holding: unread) else { return nil }
        // The bytes held unread were counted when they were read.
        bytesRead += mapped.mapping.bytes.count - mapped.start - unread
        return mapped
    }

    public func checkIntact() throws(FerryError) { try base.checkIntact() }

    /// The input opened again, not counted: progress counts one reading.
    public func reopened() -> (any ByteInput)? { base.reopened() }

    public func readRemainder(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int? {
        guard let count = try base.readRemainder(into: buffer) else { return nil }
        bytesRead += count
        return count
    }
}
