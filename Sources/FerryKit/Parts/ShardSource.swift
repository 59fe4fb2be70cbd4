// MARK: - One shard

/// Which bytes of the file one shard is, as `--plan PLAN --shard K` or
/// `--range START:END --first-record R --first-line L` give them.
package struct ShardRange: Sendable, Hashable {
    package var start: Int
    package var end: Int
    package var firstRecord: Int
    package var firstLine: Int
    /// CSV output: `--header auto|always|never`; nil is auto (the first shard's only).
    package var writesHeader: Bool?

    package init(start: Int, end: Int, firstRecord: Int, firstLine: Int, writesHeader: Bool? = nil) {
        self.start = start
        self.end = end
        self.firstRecord = firstRecord
        self.firstLine = firstLine
        self.writesHeader = writesHeader
    }

    /// Shard `index` of `plan`.
    /// - Throws: `shard.noSuchShard`.
    package init(_ plan: ShardPlan, shard index: Int) throws(FerryError) {
        guard plan.shards.indices.contains(index) else { throw FerryError.shardNoSuchShard(index, count: plan.shards.count) }
        let shard = plan.shards[index]
        self.init(start: shard.start, end: shard.end, firstRecord: shard.firstRecord, firstLine: shard.firstLine)
    }

    /// The part of the output document this shard writes (Formats/shards.md).
    func part(fileSize: Int) -> DocumentPart {
        DocumentPart(
            continues: firstRecord > 1, closes: end == fileSize && (start < end || start == 0),
            writesHeader: writesHeader ?? (firstRecord == 1))
    }
}

/// What a reader of one shard reads, and how the places it names move to
/// the file's: the shard's bytes after the header row (CSV and TSV) or an
/// opening bracket (a JSON array's shard after the first, which starts at
/// the comma before its first element, read as the bracket), and a closing
/// bracket after a JSON shard that is not the last.
struct ShardReading {
    let input: FileRangeInput
    private(set) var shift: PartPlan.Shift
    /// The lines the bytes read before the shard's own take.
    let prefixLines: Int
    let isEmpty: Bool

    init(_ source: PartSource, range: ShardRange) throws(FerryError) {
        let file = source.file
        guard range.start >= 0, range.start <= range.end, range.end <= file.size else {
            throw FerryError.shardBadRange("\(range.start):\(range.end)", size: file.size)
        }
        // The numbers shift every diagnostic's: past the file, they would overflow (a library caller's range too).
        guard range.firstRecord >= 1, range.firstRecord - 1 <= file.size, range.firstLine >= 1,
            range.firstLine - 1 <= file.size
        else {
            throw FerryError.shardNumbersPastFile(
                firstRecord: range.firstRecord, firstLine: range.firstLine, size: file.size)
        }
        var prefix: [UInt8] = []
        var from = range.start
        var suffix: [UInt8] = []
        if source.header != nil, range.start > 0 {
            prefix = source.prefix
            prefixLines = source.prefixLines
        } else {
            prefixLines = 0
        }
        if source.splitting.cut == .arrayElements {
            if range.start > 0 {
                prefix = [UInt8(ascii: "[")]
                from += 1
            }
            // An empty shard at the end reads as `[]` too.
            if range.end < file.size || (range.start > 0 && range.start == range.end) { suffix = [UInt8(ascii: "]")] }
        }
        isEmpty = range.start == range.end
        input = FileRangeInput(file, range: min(from, range.end)..<range.end, prefix: prefix, suffix: suffix)
        var shift = PartPlan.Shift(
            records: range.firstRecord - 1, lines: range.firstLine - 1 - prefixLines, bytes: from - prefix.count)
        if from > 0 && from < range.end {
            // The reader has the first byte at the column after the prefix's last line.
            let prefixColumn = prefix.last == 0x0A ? 0 : prefix.withUnsafeBytes { LineCounter.column(after: $0) }
            shift.columns = try file.column(of: from) - prefixColumn
            shift.columnsLine = prefixLines + 1
        }
        self.shift = shift
    }
}

extension RandomAccessFile {
    /// The bytes of `range`, read.
    /// - Throws: `io.readFailed`.
    package func bytes(_ range: Range<Int>) throws(FerryError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(range.count)
        try scan(range) { chunk, _ in
            bytes.append(contentsOf: chunk)
            return true
        }
        return bytes
    }

    /// The offset just after the first line feed at or after `offset`,
    /// where a line starts: where the halves of a validation cut JSON Lines
    /// (no quote hides a line feed there), and the planner's halves cut any
    /// file, on a bet its first half checks. Nil when
    /// there is none within 4 MiB (lines with photos inline are long, but
    /// not that long), or when it ends the file.
    /// - Throws: `io.readFailed`.
    func lineStart(after offset: Int) throws(FerryError) -> Int? {
        var found: Int?
        try scan(offset..<min(size, offset + (4 << 20)), chunk: 1 << 16) { chunk, at in
            guard let index = chunk.firstIndex(of: 0x0A) else { return true }
            found = at + index + 1
            return false
        }
        return found.flatMap { $0 < size ? $0 : nil }
    }

    /// How many characters come before `offset` on its line.
    /// - Throws: `io.readFailed`.
    func column(of offset: Int) throws(FerryError) -> Int {
        var lineStart = offset
        let chunk = 1 << 16
        while lineStart > 0 {
            let bytes = try bytes(max(0, lineStart - chunk)..<lineStart)
            if let lineFeed = bytes.lastIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
                lineStart -= bytes.count - lineFeed - 1
                break
            }
            lineStart -= bytes.count
        }
        return try bytes(lineStart..<offset).withUnsafeBytes { LineCounter.column(after: $0) }
    }
}
