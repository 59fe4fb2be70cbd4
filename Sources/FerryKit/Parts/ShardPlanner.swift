#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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
//
// The reader skips CSV rows of delimiters only (`,,,`, as Excel leaves
// below a table) as it skips blank rows, so they are no records here
// either. Such a row starts with the delimiter: only a row that does is
// looked at, from its first byte up to the first other one.
//
//     name,price\n ,,\n ,x,1\n       rows starting with ',' at 11 and 14
//                 ^^^             11: delimiters, then LF: skipped
//                     ^^^^^       14: ',' then 'x': a record

/// Plans the shards of a CSV, TSV, JSON Lines or JSON array file.
package struct ShardPlanner {
    package let registry: CodecRegistry

    package init(registry: CodecRegistry = .standard) { self.registry = registry }

    /// Cuts the file at `path` into `count` ranges.
    /// - Parameter options: the input format (`from`) and the codec options
    ///   (the CSV dialect) it is read with.
    /// - Throws: `shard.compressed`, `shard.notSplittable`, `io.*`.
    package func plan(_ path: String, shards count: Int, options: ValidationOptions) throws(FerryError) -> ShardPlan {
        let source = try PartSource(
            path: path, registry: registry, from: options.from, codecOptions: options.codecOptions,
            limits: options.limits)
        let file = source.file
        // A file of no bytes is one empty shard, which writes the empty document.
        let targets = file.size == 0 ? [] : (1..<max(count, 1)).map { Int((Int64(file.size) * Int64($0)) / Int64(count)) }
        var cuts = Cuts(targets: targets)
        if source.splitting.cut == .arrayElements {
            try cutArray(file, into: &cuts)
        } else {
            try cutRows(source, options: options, into: &cuts)
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
        var targets: [Int]
        var found: [(start: Int, records: Int, line: Int)] = []
        var records = 0
        var lines = LineCounter()

        init(targets: [Int], lines: LineCounter = LineCounter()) {
            self.targets = targets
            self.lines = lines
        }

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

    /// Rows of CSV, TSV or JSON Lines, from the source's data (after the header).
    ///
    /// A large file is read in the parts validate reads it in (`PartPlan`,
    /// `PartPlan.partsPerJob` a job), each by the next free core: each part
    /// from just after a line feed, as if no quote were open there. When a
    /// part before a cut ends with a quote open after all (the line feed
    /// was inside a quoted field), the parts' work is dropped and the rows
    /// are read again in one pass, in order.
    private func cutRows(_ source: PartSource, options: ValidationOptions, into cuts: inout Cuts) throws(FerryError) {
        let file = source.file
        let start = source.dataStart
        let format = source.codec.id
        if start > 0 { try file.scan(0..<start) { chunk, _ in cuts.lines.consume(chunk); return true } }
        func cutter(_ targets: [Int], lines: LineCounter, from offset: Int) -> RowCutter {
            RowCutter(
                cuts: Cuts(targets: targets, lines: lines), quote: source.quote, delimiter: source.delimiter,
                blankRowsAreRecords: source.blankRowsAreRecords, start: offset)
        }
        if let plan = PartPlan(
            source, threshold: options.partsThreshold, jobs: options.jobs, parts: options.jobs * PartPlan.partsPerJob)
        {
            // The first part's rows start after the header.
            let bounds = [start..<plan.ranges[0].upperBound] + plan.ranges.dropFirst()
            let last = bounds.count - 1
            let parts = bounds.enumerated().map { index, range in
                // Each target goes to the part that holds its offset.
                let targets = cuts.targets.filter {
                    (index == 0 || $0 > range.lowerBound) && (index == last || $0 <= range.upperBound)
                }
                return PartCutter(cutter(targets, lines: index == 0 ? cuts.lines : LineCounter(), from: range.lowerBound))
            }
            LargeStackThread.each(parts.count, threads: min(options.jobs, Cores.usable)) { parts[$0].scan(file, bounds[$0]) }
            if let error = parts[0].error { throw error }
            if parts.dropLast().allSatisfy({ !$0.cutter.rows.quoted && $0.cutter.loneCR == 0 }) {
                for part in parts { if let error = part.error { throw error } }
                try parts[last].cutter.finish(file, format: format)
                var joined = parts[0].cutter
                for part in parts.dropFirst() {
                    let next = joined.joined(with: part.cutter)
                    joined.cuts = next
                    joined.lines = next.lines.lines
                }
                cuts = joined.cuts
                return
            }
            // In order, in one pass.
        }
        var whole = cutter(cuts.targets, lines: cuts.lines, from: start)
        try whole.scan(file, start..<file.size)
        try whole.finish(file, format: format)
        cuts = whole.cuts
    }

    /// A part's cutter, scanned on a thread of its own; only that thread
    /// touches it until all are done.
    private final class PartCutter: @unchecked Sendable {
        var cutter: RowCutter
        var error: FerryError?
        init(_ cutter: RowCutter) { self.cutter = cutter }
        func scan(_ file: RandomAccessFile, _ range: Range<Int>) {
            do throws(FerryError) { try cutter.scan(file, range) } catch { self.error = error }
        }
    }

    /// The reading of rows from one offset on: the cuts, records and lines
    /// found, and the state that spans blocks of 64 bytes.
    private struct RowCutter {
        var cuts: Cuts
        let csv: Bool
        /// CSV and TSV: the delimiter, whose rows of it alone are no
        /// records; nil for JSON Lines.
        let delimiter: UInt8?
        /// All ones, or none for CSV of one column, where a blank row is a
        /// record: the blank rows' ends among the row ends are masked with it.
        let blankMask: UInt64
        var rows: RowEndScanner
        /// Whether a row starts at the next byte, and whether it is a CR
        /// that starts a row (a CRLF row, blank, across two blocks).
        var startCarry: UInt64 = 1
        var crCarry: UInt64 = 0
        var lastEnd: Int
        /// Lines are counted from the masks as `LineCounter` counts them: a
        /// LF, a CR LF or a lone CR each end one.
        var lines: Int
        var crAtEnd: UInt64 = 0
        /// 1 when the last byte read is a CR outside quotes; 2 once a lone one is found.
        var loneCR: UInt64 = 0
        /// The offset of the line feed that ends a row of delimiters only
        /// found in an earlier block, until its block is read; else -1.
        var skippedEnd = -1

        init(cuts: Cuts, quote: UInt8?, delimiter: UInt8?, blankRowsAreRecords: Bool, start: Int) {
            self.cuts = cuts
            self.delimiter = delimiter
            blankMask = blankRowsAreRecords ? 0 : .max
            csv = delimiter != nil
            rows = RowEndScanner(quote: quote)
            lastEnd = start
            lines = cuts.lines.lines
        }

        /// The cuts of this cutter, which read the bytes up to where
        /// `second` started, followed by those of `second`, counted in the file.
        func joined(with second: RowCutter) -> Cuts {
            var joined = cuts
            joined.targets += second.cuts.targets
            joined.found += second.cuts.found.map { ($0.start, $0.records + cuts.records, $0.line + lines) }
            joined.records = cuts.records + second.cuts.records
            joined.lines.lines = lines + second.lines
            return joined
        }

        /// The line ends among `lineFeeds` (`feeds` of them) and the
        /// carriage returns `returns`, where `crBefore` is 1 when a CR ends
        /// the block before.
        /// Counting bits costs a dozen instructions where the processor
        /// has no instruction for it (the baseline x86-64 of the build), so
        /// the usual blocks count one mask.
        @inline(__always)
        private func lineEnds(_ lineFeeds: UInt64, _ returns: UInt64, _ crBefore: UInt64, feeds: Int) -> Int {
            let joined = Int(crBefore & lineFeeds & 1)
            // No CR, or each followed by a LF (CRLF line ends): one end per LF.
            if returns & ~(lineFeeds >> 1) == 0 { return feeds &- joined }
            return feeds + returns.nonzeroBitCount - (returns & (lineFeeds >> 1)).nonzeroBitCount - joined
        }

        /// Checks what the end of the file leaves: a lone CR, and the last
        /// row when no line end closes it.
        mutating func finish(_ file: RandomAccessFile, format: String) throws(FerryError) {
            cuts.lines.lines = lines
            if csv && loneCR != 0 { throw .shardNotSplittable(file.path, format: format + " (CR line ends)") }
            if lastEnd < file.size, ShardPlanner.holdsRecord(try file.bytes(lastEnd..<file.size), delimiter: delimiter) {
                cuts.records += 1
            }
        }

        mutating func scan(_ file: RandomAccessFile, _ range: Range<Int>) throws(FerryError) {
            try file.scan(range) { chunk, offset in
                guard let base = chunk.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return true }
                var block = 0
                while block < chunk.count {
                    var ends = rows.rowEnds(at: block, of: base, count: chunk.count)
                    let lineFeeds = rows.lineFeeds
                    let returns = rows.carriageReturns
                    let feeds = lineFeeds.nonzeroBitCount
                    defer {
                        lines += lineEnds(lineFeeds, returns, crAtEnd, feeds: feeds)
                        crAtEnd = returns >> 63
                    }
                    // A CR outside quotes with no LF after it ends a CSV row for
                    // the reader, but is no cut here: such a file is refused.
                    let outsideReturns = returns & ~rows.insideQuotes
                    if csv && ((outsideReturns & ~(lineFeeds >> 1)) << 1 != 0 || (loneCR == 1 && lineFeeds & 1 == 0)) {
                        loneCR = 2
                        return false
                    }
                    loneCR = outsideReturns >> 63
                    let starts = (ends << 1) | startCarry
                    // The ends of this block's rows of delimiters only.
                    var skipped: UInt64 = 0
                    if let delimiter {
                        let blockStart = offset + block
                        if skippedEnd >= 0 && skippedEnd < blockStart + 64 {
                            skipped = 1 << UInt64(skippedEnd - blockStart)
                            skippedEnd = -1
                        }
                        var candidates = starts
                        while candidates != 0 {
                            let bit = candidates.trailingZeroBitCount
                            candidates &= candidates &- 1
                            // A row that starts with the delimiter, then one more,
                            // or a line end: the rest is read (an empty first
                            // cell, the usual case, goes on with a value).
                            let at = block + bit
                            guard at < chunk.count, base[at] == delimiter,
                                at + 1 == chunk.count || base[at + 1] == delimiter || base[at + 1] == 0x0A
                                    || base[at + 1] == 0x0D,
                                let end = ShardPlanner.delimitersOnlyRowEnd(
                                    from: blockStart + bit, in: chunk, at: offset, delimiter: delimiter, file: file)
                            else { continue }
                            if end < blockStart + 64 { skipped |= 1 << UInt64(end - blockStart) } else { skippedEnd = end }
                        }
                    }
                    if ends == 0 {
                        startCarry = 0
                        crCarry = 0
                        block += 64
                        continue
                    }
                    // CSV: a row that is a line end alone (LF, or CR LF) is blank,
                    // and one of delimiters only is skipped as blank.
                    // JSON Lines: a row is looked at when it starts with white space.
                    let crStarts = rows.carriageReturns & starts
                    let blankCSV = ends & ((starts | (crStarts << 1) | crCarry) & blankMask | skipped)
                    startCarry = ends >> 63
                    crCarry = crStarts >> 63
                    let end = offset + block + 64
                    if csv && !(cuts.wantsMore && cuts.targets[cuts.found.count] <= end) {
                        // Most blocks: no line feed inside quotes, no blank row.
                        let rows = ends == lineFeeds ? feeds : ends.nonzeroBitCount
                        cuts.records += blankCSV == 0 ? rows : rows - blankCSV.nonzeroBitCount
                        lastEnd = offset + block + 64 - ends.leadingZeroBitCount
                        block += 64
                        continue
                    }
                    while ends != 0 {
                        let bit = ends.trailingZeroBitCount
                        let rowEnd = block + bit + 1
                        let blank: Bool
                        if csv {
                            blank = blankCSV & (1 << UInt64(bit)) != 0
                        } else if lastEnd >= offset {
                            blank = !ShardPlanner.holdsRecord(
                                UnsafeRawBufferPointer(rebasing: chunk[(lastEnd - offset)..<rowEnd]), delimiter: nil)
                        } else {
                            // A line from the chunk before: read again, once.
                            blank = !ShardPlanner.holdsRecord(
                                (try? file.bytes(lastEnd..<offset + rowEnd)) ?? [], delimiter: nil)
                        }
                        if !blank { cuts.records += 1 }
                        lastEnd = offset + rowEnd
                        if cuts.wantsMore && cuts.targets[cuts.found.count] <= offset + rowEnd {
                            // The line ends of this block up to the row's.
                            let upTo = bit == 63 ? UInt64.max : (1 << UInt64(bit + 1)) - 1
                            cuts.lines.lines =
                                lines
                                + lineEnds(lineFeeds & upTo, returns & upTo, crAtEnd, feeds: (lineFeeds & upTo).nonzeroBitCount)
                            cuts.cut(at: offset + rowEnd)
                        }
                        ends &= ends &- 1
                    }
                    block += 64
                }
                return true
            }
        }
    }

    /// Whether the bytes of a row hold a record: a CSV row that is more than
    /// delimiters and a line end (`delimiter` given), a JSON Lines line that
    /// is more than white space (nil).
    static func holdsRecord<Bytes: Collection<UInt8>>(_ bytes: Bytes, delimiter: UInt8?) -> Bool {
        guard let delimiter else { return bytes.contains { ![0x20, 0x09, 0x0D, 0x0A].contains($0) } }
        return bytes.contains { $0 != 0x0D && $0 != 0x0A && $0 != delimiter }
    }

    /// The offset of the line feed that ends the row starting at `start`
    /// when the row is delimiters only, then LF or CR LF, as the CSV reader
    /// skips it; nil when another byte comes first. The bytes are read
    /// from `chunk` (at `offset` in the file) and, past it, from the file.
    /// - Complexity: O(n) in the delimiters at `start`.
    static func delimitersOnlyRowEnd(
        from start: Int, in chunk: UnsafeRawBufferPointer, at offset: Int, delimiter: UInt8, file: RandomAccessFile
    ) -> Int? {
        var more: [UInt8] = []
        var moreStart = offset + chunk.count
        func byte(_ at: Int) -> UInt8? {
            if at < offset + chunk.count { return chunk[at - offset] }
            if at - moreStart >= more.count {
                // A row of delimiters only across the chunk's end: rare, read on a little.
                moreStart = at
                more = (try? file.bytes(at..<min(at + 4096, file.size))) ?? []
                if more.isEmpty { return nil }
            }
            return more[at - moreStart]
        }
        var at = start
        while byte(at) == delimiter { at += 1 }
        switch byte(at) {
        case 0x0A: return at
        case 0x0D: return byte(at + 1) == 0x0A ? at + 1 : nil
        default: return nil
        }
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
