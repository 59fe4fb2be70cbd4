import FerryCore
import FerryGzip

/// The bytes of one part of a zip, inflated as they are read: the part is
/// never held whole, nor written to disk.
///
/// Limits stop a bomb early and in little memory: a part larger than
/// `ReadLimits.maxEntryBytes`, or whose directory claims more than
/// `maxExpansionRatio` times its compressed size once past 64 MiB (the
/// floor gzip has too), is refused before a byte is inflated; a part that
/// inflates past the size its directory gives stops at that size. The CRC
/// and size are checked at the end.
final class ZipEntryInput: ByteInput {
    let name: String
    var sizeHint: Int? { entry.size }
    let entry: ZipEntry
    private let source: ZipSource
    private let inflater: Inflater?
    /// The next compressed byte to read, and where the part's data ends.
    private var sourceOffset: Int
    private let sourceEnd: Int
    /// Compressed bytes read but not yet inflated: `input[inputStart..<inputEnd]`.
    private var input: UnsafeMutableRawBufferPointer
    private var inputStart = 0
    private var inputEnd = 0
    private var produced = 0
    private var crc = CRC32()
    private var ended = false

    /// Expansion past this is checked against the ratio limit, as gzip's is.
    static let ratioFloor = 64 << 20

    /// - Throws: `xlsx.partTooLarge`, `xlsx.ratioTooHigh`, the local
    ///   header's errors (`ZipArchive.dataOffset(of:)`), `gzip.zlibFailed`.
    init(_ archive: ZipArchive, entry: ZipEntry, limits: ReadLimits) throws(FerryError) {
        source = archive.source
        self.entry = entry
        name = entry.name
        let here = SourceLocation(file: source.name, byteOffset: entry.localHeaderOffset)
        guard entry.size <= limits.maxEntryBytes else {
            throw .xlsxPartTooLarge(part: entry.name, limit: limits.maxEntryBytes, at: here)
        }
        if entry.size > Self.ratioFloor,
            entry.size / max(entry.compressedSize, 1) >= limits.maxExpansionRatio
        {
            throw .xlsxRatioTooHigh(part: entry.name, limit: limits.maxExpansionRatio, at: here)
        }
        sourceOffset = try archive.dataOffset(of: entry)
        sourceEnd = sourceOffset + entry.compressedSize
        if entry.method == 8 {
            inflater = try Inflater()
        } else {
            inflater = nil
            guard entry.compressedSize == entry.size else { throw .xlsxSizeMismatch(part: entry.name, at: here) }
        }
        input = .allocate(byteCount: 1 << 16, alignment: 8)
    }

    deinit {
        input.deallocate()
        inflater?.end()
    }

    private var location: SourceLocation { SourceLocation(file: source.name, byteOffset: entry.localHeaderOffset) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int {
        guard !ended, buffer.count > 0 else { return 0 }
        // Room for one byte past the declared size, to notice a part that
        // holds more than its directory says.
        let room = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(buffer.count, entry.size - produced + 1)])
        var got = 0
        if let inflater {
            while got == 0 {
                if inputStart == inputEnd && sourceOffset < sourceEnd {
                    let wanted = UnsafeMutableRawBufferPointer(rebasing: input[0..<min(input.count, sourceEnd - sourceOffset)])
                    let read = try source.read(into: wanted, at: sourceOffset)
                    guard read > 0 else { throw .xlsxTruncated(at: SourceLocation(file: source.name, byteOffset: sourceOffset)) }
                    sourceOffset += read
                    inputStart = 0
                    inputEnd = read
                }
                let step: Inflater.Step
                do throws(FerryError) {
                    step = try inflater.inflate(UnsafeRawBufferPointer(rebasing: input[inputStart..<inputEnd]), into: room)
                } catch {
                    throw .xlsxCorruptPart(part: entry.name, reason: error.arguments.first ?? .string(""), at: location)
                }
                inputStart += step.consumed
                got = step.produced
                if step.finished {
                    ended = true
                    break
                }
                if got == 0 && step.consumed == 0 && sourceOffset == sourceEnd && inputStart == inputEnd {
                    // The deflate stream needs more than the part holds.
                    throw .xlsxTruncated(at: SourceLocation(file: source.name, byteOffset: sourceEnd))
                }
            }
        } else {
            let wanted = UnsafeMutableRawBufferPointer(rebasing: room[0..<min(room.count, sourceEnd - sourceOffset)])
            got = wanted.isEmpty ? 0 : try source.read(into: wanted, at: sourceOffset)
            sourceOffset += got
            if got == 0 {
                guard sourceOffset == sourceEnd else { throw .xlsxTruncated(at: SourceLocation(file: source.name, byteOffset: sourceOffset)) }
                ended = true
            }
        }
        produced += got
        guard produced <= entry.size else { throw .xlsxSizeMismatch(part: entry.name, at: location) }
        crc.update(UnsafeRawBufferPointer(rebasing: buffer[0..<got]))
        if ended {
            guard produced == entry.size else { throw .xlsxSizeMismatch(part: entry.name, at: location) }
            guard crc.value == entry.crc else { throw .xlsxCRCMismatch(part: entry.name, at: location) }
        }
        return got
    }
}
