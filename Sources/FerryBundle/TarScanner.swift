import FerryCore

/// Streams the entries of a tar archive (see `TarHeader` for the layout):
/// `next()` gives an entry's header, `read(into:)` its content.
///
/// pax extended headers and GNU long names are folded into the entry they
/// describe. The scanner enforces the entry count and entry size limits and
/// checks every header; what an entry may be is the caller's business.
///
/// - Complexity: O(n) in the archive's size, with one 64 KiB buffer.
final class TarScanner {
    /// One entry, with the byte offset of its first header (a pax or GNU
    /// long name header when it has one) in the tar stream.
    struct Entry {
        var name: String
        var linkName: String
        var type: UInt8
        var size: Int
        var offset: Int
    }

    private let input: any ByteInput
    private let archiveName: String
    private let limits: ReadLimits
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var end = 0
    private var inputEnded = false
    /// The stream offset of `buffer[start]`.
    private var offset = 0
    /// Content of the current entry not yet read, and the padding after it.
    private var remaining = 0
    private var padding = 0
    private var current: Entry?
    private var entries = 0
    private var finished = false

    /// Extended headers are read into memory; they hold a few names and numbers.
    static let maxExtendedHeaderBytes = 1 << 20

    init(_ input: any ByteInput, archiveName: String, limits: ReadLimits) {
        self.input = input
        self.archiveName = archiveName
        self.limits = limits
    }

    /// The next entry, after skipping what is left of the current one.
    /// - Returns: nil at the end of the archive; the rest of the input is read
    ///   and dropped, so that a compressed input's trailer is checked.
    /// - Throws: `tar.*`, `limit.tooManyEntries`, `limit.entryTooLarge`, input errors.
    func next() throws(FerryError) -> Entry? {
        guard !finished else { return nil }
        try skip(remaining + padding)
        remaining = 0
        padding = 0
        current = nil
        var pax = PaxRecords()
        var longName: String?
        var longLink: String?
        let entryOffset = offset
        while true {
            let headerOffset = offset
            let here = location(headerOffset)
            guard let block = try readBlock(entry: longName ?? pax.path ?? "") else { return try endOfArchive() }
            guard let header = try TarHeader.parse(block, at: here) else { return try endOfArchive() }
            switch header.type {
            case UInt8(ascii: "x"), UInt8(ascii: "g"):
                let content = try extendedContent(header, at: headerOffset)
                guard let records = PaxRecords.parse(content) else {
                    throw .tarInvalidPaxHeader(entry: header.name, at: here)
                }
                // A global header applies to every later entry; bundles have
                // no use for one, so it is checked and set aside.
                if header.type == UInt8(ascii: "x") { pax = records }
            case UInt8(ascii: "L"):
                longName = TarHeader.text(try extendedContent(header, at: headerOffset)[...])
            case UInt8(ascii: "K"):
                longLink = TarHeader.text(try extendedContent(header, at: headerOffset)[...])
            default:
                let entry = Entry(
                    name: pax.path ?? longName ?? header.name, linkName: pax.linkPath ?? longLink ?? header.linkName,
                    type: header.type, size: header.hasContent ? pax.size ?? header.size : 0, offset: entryOffset)
                entries += 1
                guard entries <= limits.maxEntries else { throw .tooManyEntries(limit: limits.maxEntries, at: here) }
                guard entry.size <= limits.maxEntryBytes else {
                    throw .entryTooLarge(entry: entry.name, limit: limits.maxEntryBytes, at: here)
                }
                remaining = entry.size
                padding = TarScanner.padding(after: entry.size)
                current = entry
                return entry
            }
        }
    }

    /// Reads content of the current entry.
    /// - Returns: the number of bytes read; 0 at the end of the entry.
    /// - Throws: `tar.truncated`, input errors.
    func read(into destination: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int {
        guard remaining > 0, destination.count > 0 else { return 0 }
        if start == end, try !refill() {
            throw .tarTruncated(entry: current?.name ?? "", at: location(offset))
        }
        let count = min(destination.count, remaining, end - start)
        buffer.withUnsafeBytes { source in
            UnsafeMutableRawBufferPointer(rebasing: destination[0..<count])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[start..<start + count]))
        }
        consume(count)
        remaining -= count
        return count
    }

    /// The number of zero bytes that pad `size` bytes to a whole block.
    static func padding(after size: Int) -> Int {
        (TarHeader.blockSize - size % TarHeader.blockSize) % TarHeader.blockSize
    }

    // MARK: - Blocks

    /// The content of a pax header or GNU long name, bounded.
    private func extendedContent(_ header: TarHeader, at headerOffset: Int) throws(FerryError) -> [UInt8] {
        let limit = min(TarScanner.maxExtendedHeaderBytes, limits.maxEntryBytes)
        guard header.size <= limit else {
            throw .entryTooLarge(entry: header.name, limit: limit, at: location(headerOffset))
        }
        var content = [UInt8](repeating: 0, count: header.size)
        var filled = 0
        while filled < header.size {
            if start == end, try !refill() { throw .tarTruncated(entry: header.name, at: location(offset)) }
            let count = min(header.size - filled, end - start)
            content.replaceSubrange(filled..<filled + count, with: buffer[start..<start + count])
            consume(count)
            filled += count
        }
        try skip(TarScanner.padding(after: header.size))
        return content
    }

    /// The next 512 bytes, or nil when the input ends before them.
    private func readBlock(entry: String) throws(FerryError) -> [UInt8]? {
        var block: [UInt8] = []
        block.reserveCapacity(TarHeader.blockSize)
        while block.count < TarHeader.blockSize {
            if start == end, try !refill() {
                if block.isEmpty { return nil }
                throw .tarTruncated(entry: entry, at: location(offset))
            }
            let count = min(TarHeader.blockSize - block.count, end - start)
            block += buffer[start..<start + count]
            consume(count)
        }
        return block
    }

    /// Drops `count` bytes.
    /// - Throws: `tar.truncated` when the input ends first.
    private func skip(_ count: Int) throws(FerryError) {
        var left = count
        while left > 0 {
            if start == end, try !refill() {
                throw .tarTruncated(entry: current?.name ?? "", at: location(offset))
            }
            let step = min(left, end - start)
            consume(step)
            left -= step
        }
    }

    /// The end of the archive: the rest of the input (more zero blocks,
    /// padding to a record) is read and dropped.
    private func endOfArchive() throws(FerryError) -> Entry? {
        finished = true
        while true {
            consume(end - start)
            guard try refill() else { return nil }
        }
    }

    private func consume(_ count: Int) {
        start += count
        offset += count
    }

    /// - Returns: false at the end of the input.
    private func refill() throws(FerryError) -> Bool {
        guard !inputEnded else { return false }
        start = 0
        end = 0
        let got = try buffer.withUnsafeMutableBytes { raw in
            Result { () throws(FerryError) in try input.read(into: raw) }
        }.get()
        if got == 0 { inputEnded = true }
        end = got
        return got > 0
    }

    private func location(_ byteOffset: Int) -> SourceLocation {
        SourceLocation(file: archiveName, byteOffset: byteOffset)
    }
}
