import FerryCSV
import FerryJSON

// MARK: - Design
//
// `ferry plan` reads the file once, from its start, and cuts it at the
// first record boundary at or after each of N−1 evenly spaced offsets:
//
//     size 100, 4 shards: targets 25, 50, 75
//     rows end at 0…19, 19…41, 41…48, 48…90, 90…100
//     cuts:             41 (≥ 25), 90 (≥ 50), 90 (≥ 75)
//     shards:           0..<41, 41..<90, 90..<90 (empty), 90..<100
//
// A row ends at a line feed outside quotes (`RowEndScanner`, the quote rule
// the halves of a validation use too); a JSON array is cut at the commas
// between its elements (`JSONArrayCutter`). On the way it counts records
// (rows that are not blank, the header aside) and lines (as `LineCounter`
// counts them for locations), so that each shard knows the number of its
// first record and the line it starts on, and a reader of it names every
// place as a reader of the whole file would.

/// Plans the shards of a CSV, TSV, JSON Lines or JSON array file.
public struct ShardPlanner {
    public let registry: CodecRegistry

    public init(registry: CodecRegistry = .standard) { self.registry = registry }

    /// Cuts the file at `path` into `count` ranges.
    /// - Parameter options: the input format (`from`) and the codec options
    ///   (the CSV dialect) it is read with.
    /// - Throws: `shard.compressed`, `shard.notSplittable`, `io.*`.
    public func plan(_ path: String, shards count: Int, options: ValidationOptions) throws(FerryError) -> ShardPlan {
        let source = try ShardSource(
            path: path, registry: registry, from: options.from, codecOptions: options.codecOptions,
            limits: options.limits)
        let file = source.file
        // A file of no bytes is one empty shard, which writes the empty document.
        let targets = file.size == 0 ? [] : (1..<max(count, 1)).map { Int((Int64(file.size) * Int64($0)) / Int64(count)) }
        var cuts = Cuts(targets: targets)
        if source.codec.id == "json" {
            try cutArray(file, into: &cuts)
        } else {
            try cutRows(file, from: source.header?.end ?? 0, quote: source.quote, csv: source.quote != nil, into: &cuts)
        }
        cuts.finish(size: file.size)
        var shards: [ShardPlan.Shard] = []
        let starts = [(start: 0, records: 0, line: 1)] + cuts.found
        for (index, start) in starts.enumerated() {
            let next = index + 1 < starts.count ? starts[index + 1] : (file.size, cuts.records, 0)
            shards.append(
                ShardPlan.Shard(
                    start: start.start, end: next.0, firstRecord: start.records + 1, firstLine: start.line,
                    records: next.1 - start.records))
        }
        return ShardPlan(
            input: path, size: file.size, format: source.codec.id, delimiter: source.delimiter, header: source.header,
            records: cuts.records, shards: shards)
    }

    /// The cuts found so far, and the records and lines counted.
    private struct Cuts {
        let targets: [Int]
        var found: [(start: Int, records: Int, line: Int)] = []
        var records = 0
        var lines = LineCounter()

        /// Cuts at `offset` for every target at or before it; `lines` has
        /// counted the bytes before it.
        mutating func cut(at offset: Int) {
            while found.count < targets.count && targets[found.count] <= offset {
                found.append((offset, records, lines.lines + 1))
            }
        }

        var wantsMore: Bool { found.count < targets.count }

        mutating func finish(size: Int) {
            while found.count < targets.count { found.append((size, records, lines.lines + 1)) }
        }
    }

    /// Rows of CSV, TSV or JSON Lines, from `start` (after the header).
    private func cutRows(
        _ file: RandomAccessFile, from start: Int, quote: UInt8?, csv: Bool, into cuts: inout Cuts
    ) throws(FerryError) {
        var rows = RowEndScanner(quote: quote)
        var rowHasContent = false
        /// Whether bytes of a row hold a record: a CSV row that is more
        /// than a line end, a JSON Lines line that is more than white space.
        func content(_ bytes: UnsafeRawBufferPointer) -> Bool {
            csv ? bytes.contains { $0 != 0x0D && $0 != 0x0A } : bytes.contains { ![0x20, 0x09, 0x0D, 0x0A].contains($0) }
        }
        if start > 0 { try file.scan(0..<start) { chunk, _ in cuts.lines.consume(chunk); return true } }
        try file.scan(start..<file.size) { chunk, offset in
            var rowStart = 0
            var counted = 0
            _ = rows.scan(chunk) { end in
                if rowHasContent || content(UnsafeRawBufferPointer(rebasing: chunk[rowStart..<end])) { cuts.records += 1 }
                rowHasContent = false
                rowStart = end
                if cuts.wantsMore && cuts.targets[cuts.found.count] <= offset + end {
                    cuts.lines.consume(UnsafeRawBufferPointer(rebasing: chunk[counted..<end]))
                    counted = end
                    cuts.cut(at: offset + end)
                }
                return true
            }
            // A row that goes on in the next chunk.
            if !rowHasContent && rowStart < chunk.count {
                rowHasContent = content(UnsafeRawBufferPointer(rebasing: chunk[rowStart...]))
            }
            cuts.lines.consume(UnsafeRawBufferPointer(rebasing: chunk[counted...]))
            return true
        }
        if rowHasContent { cuts.records += 1 }
    }

    /// The elements of a JSON array.
    private func cutArray(_ file: RandomAccessFile, into cuts: inout Cuts) throws(FerryError) {
        var cutter = JSONArrayCutter()
        try file.scan(0..<file.size) { chunk, offset in
            var counted = 0
            _ = cutter.scan(chunk) { index, elements in
                if cuts.wantsMore && cuts.targets[cuts.found.count] <= offset + index {
                    cuts.lines.consume(UnsafeRawBufferPointer(rebasing: chunk[counted..<index]))
                    counted = index
                    cuts.records = elements
                    cuts.cut(at: offset + index)
                }
                return true
            }
            cuts.lines.consume(UnsafeRawBufferPointer(rebasing: chunk[counted...]))
            return cutter.state != .notArray
        }
        if cutter.state == .notArray || (cutter.state == .before && file.size > 0) {
            throw .shardNotSplittable(file.path, format: "json")
        }
        cuts.records = cutter.elements
    }
}
