/// Passes bytes through from another input and counts them, for progress.
package final class CountingInput: ByteInput {
    private let base: any ByteInput
    package private(set) var bytesRead = 0

    package init(_ base: any ByteInput) { self.base = base }

    package var name: String { base.name }
    package var sizeHint: Int? { base.sizeHint }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int {
        let count = try base.read(into: buffer)
        bytesRead += count
        return count
    }

    package func mapRemainder(holding unread: Int) -> (mapping: FileMapping, start: Int)? {
        guard let mapped = base.mapRemainder(holding: unread) else { return nil }
        // The bytes held unread were counted when they were read.
        bytesRead += mapped.mapping.bytes.count - mapped.start - unread
        return mapped
    }

    package func checkIntact() throws(FerryError) { try base.checkIntact() }

    /// The input opened again, not counted: progress counts one reading.
    package func reopened() -> (any ByteInput)? { base.reopened() }

    package func readRemainder(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int? {
        guard let count = try base.readRemainder(into: buffer) else { return nil }
        bytesRead += count
        return count
    }
}
