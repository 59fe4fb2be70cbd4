#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A sliding window over a `ByteInput`, for scanners that read records one at
/// a time in flat memory.
///
/// The window holds `bytes[0..<count]`, which are input bytes
/// `baseOffset..<baseOffset + count`. A scanner works inside it with plain
/// indexes. When it runs out in the middle of a record it calls
/// `refill(keepingFrom:)` with the index where that record started: the bytes
/// before it are dropped, the rest slide to the front, and more are read.
/// The scanner then scans the record again from its start, which costs little
/// because it happens once a chunk.
///
/// Lines are counted only in the bytes dropped, so that line and column can
/// be worked out for any byte still in the window when an error needs them.
///
///     input:  {"a":1}\n{"b":2}\n{"c":
///     window after refill(keepingFrom: 16): baseOffset 16, 2 lines dropped
package final class InputWindow {
    package let input: any ByteInput
    /// The bytes in the window. Only `bytes[0..<count]` are valid.
    package private(set) var bytes: [UInt8]
    package private(set) var count = 0
    /// The input offset of `bytes[0]`.
    package private(set) var baseOffset = 0
    /// True once the input has returned its last byte.
    package private(set) var isAtEnd = false
    /// The most bytes one record may take; a larger one is `limit.recordTooLarge`.
    package let limit: Int
    /// Whether lines are counted, for locations. Off, a location has its
    /// byte offset but no line or column; a reader whose errors are only
    /// ever dropped turns it off (`ReadContext.countsLines`): counting took
    /// 3% of a merge's instructions.
    package var countsLines = true
    private let chunk: Int
    /// How many bytes the next read asks for: it starts small for an input
    /// of unknown size, and doubles up to `chunk` while reads fill it, so a
    /// pipe soon reads a whole chunk at a time while a short input (or one
    /// that trickles) never costs a full chunk of memory.
    private var step: Int

    /// Lines and column over the bytes already dropped.
    private var droppedCounter = LineCounter()
    /// The window index last located and the count up to it, until the
    /// window moves: errors come in the order of the bytes, so the next one
    /// counts on from there, not from the window's start. Each error of a
    /// 20,000-product file whose photos were all missing recounted up to a
    /// MiB: 31% of that validation's instructions were this count.
    private var lastLocated: (index: Int, counter: LineCounter)?
    /// Whether the input starts with a UTF-8 byte order mark.
    private var startsWithBOM = false

    /// - Parameters:
    ///   - input: where the bytes come from.
    ///   - chunk: how many bytes to ask the input for at once.
    ///   - limit: the most bytes one record may take.
    package init(_ input: any ByteInput, chunk: Int = 1 << 20, limit: Int = 64 << 20) {
        self.input = input
        // A small input of known size needs no full chunk.
        let wanted = input.sizeHint.map { min(chunk, $0 + 64) } ?? chunk
        self.chunk = max(wanted, 16)
        self.limit = max(limit, 1)
        step = input.sizeHint == nil ? min(self.chunk, 1 << 16) : self.chunk
        bytes = [UInt8](repeating: 0, count: step)
    }

    /// Drops the bytes before `keep`, moves the rest to the front and reads more.
    ///
    /// - Returns: the number of bytes dropped, which the caller subtracts from
    ///   its indexes; or nil when nothing more could be read (the end).
    /// - Throws: `io.readFailed`; `limit.recordTooLarge` when a record starting
    ///   at `keep` fills the whole window.
    package func refill(keepingFrom keep: Int) throws(FerryError) -> Int? {
        if isAtEnd { return nil }
        let dropped = keep
        if dropped > 0 {
            lastLocated = nil
            if countsLines {
                bytes.withUnsafeBytes { self.droppedCounter.consume(UnsafeRawBufferPointer(rebasing: $0[0..<dropped])) }
            }
            bytes.withUnsafeMutableBytes { raw in
                let base = raw.baseAddress!
                base.copyMemory(from: base + dropped, byteCount: count - dropped)
            }
            count -= dropped
            baseOffset += dropped
        }
        // The caller refills because the record at `keep` is incomplete; if
        // it already has `limit` bytes, it is too large.
        guard count < limit else {
            throw .recordTooLarge(limit: limit, at: location(of: 0))
        }
        if bytes.count - count < step / 2 {
            let grown = min(max(bytes.count * 2, count + step), limit + chunk)
            bytes.append(contentsOf: repeatElement(0, count: grown - bytes.count))
        }
        let got = try bytes.withUnsafeMutableBytes { [count] raw in
            Result { () throws(FerryError) in
                try input.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[count...]))
            }
        }.get()
        if got == 0 {
            isAtEnd = true
            return dropped > 0 ? dropped : nil
        }
        count += got
        if got >= step / 2 && step < chunk { step = min(step * 2, chunk) }
        if baseOffset == 0 && count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
            startsWithBOM = true
        }
        return dropped
    }

    /// Refills for a scanner that ran out of bytes inside an unfinished piece
    /// (a record, a field) starting at `keep`, which it will scan again from
    /// its start: drops the bytes before it, then reads at least as many
    /// bytes again as the piece already holds. A piece arriving in small
    /// reads (a pipe, a trickle) is then rescanned O(log n) times, not O(n).
    ///
    /// - Returns: as `refill(keepingFrom:)`.
    /// - Throws: as `refill(keepingFrom:)`.
    package func refillForRescan(keepingFrom keep: Int) throws(FerryError) -> Int? {
        // What the piece holds before this read; after it, the piece starts
        // at index 0, and the window should hold it twice over.
        let unfinished = count - keep
        let dropped = try refill(keepingFrom: keep)
        try fill(atLeast: min(2 * unfinished, limit))
        return dropped
    }

    /// Reads until the window holds at least `needed` bytes or the input ends.
    package func fill(atLeast needed: Int) throws(FerryError) {
        while count < needed, try refill(keepingFrom: 0) != nil {}
    }

    // MARK: - Locations

    /// The location of the byte at window index `index`, with line and column.
    package func location(of index: Int) -> SourceLocation {
        let end = min(max(index, 0), count)
        guard countsLines else { return SourceLocation(file: input.name, byteOffset: baseOffset + end) }
        var counter = droppedCounter
        var start = 0
        if let lastLocated, lastLocated.index <= end {
            counter = lastLocated.counter
            start = lastLocated.index
        }
        bytes.withUnsafeBytes { counter.consume(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
        lastLocated = (end, counter)
        // A byte order mark is not a character an editor shows.
        if counter.lines == 0 && startsWithBOM && counter.column > 0 { counter.column -= 1 }
        return SourceLocation(
            file: input.name, byteOffset: baseOffset + end, line: counter.lines + 1, column: counter.column + 1)
    }
}

/// Counts lines (LF, CRLF or a lone CR each end one) and the column, in
/// Unicode scalars, after the last line end.
package struct LineCounter {
    package var lines = 0
    var column = 0
    var endsInCR = false

    package init() {}

    /// The 1-based line the next byte is on.
    package var line: Int { lines + 1 }

    /// Advances over `chunk`. A chunk without a CR (nearly every one) has
    /// its LFs counted sixteen bytes at a time; otherwise each line's end is
    /// found with `memchr`, so that long runs without line ends cost little.
    package mutating func consume(_ chunk: UnsafeRawBufferPointer) {
        guard let base = chunk.baseAddress, chunk.count > 0 else { return }
        let end = base + chunk.count
        var lastLineStart = base
        var cursor = base
        if endsInCR && chunk[0] == 0x0A {
            // The LF of a CRLF split across chunks ends no new line.
            cursor += 1
            lastLineStart = cursor
            column = 0
        }
        if memchr(cursor, 0x0D, end - cursor) == nil {
            // No CR (the common case): the lines are the LFs, and the last
            // one starts the column.
            let found = LineCounter.lineFeeds(from: cursor, to: end)
            if found > 0 {
                lines += found
                var last = end - 1
                while last.load(as: UInt8.self) != 0x0A { last -= 1 }
                lastLineStart = last + 1
                column = 0
            }
        } else {
            while cursor < end {
                guard let found = memchr(cursor, 0x0A, end - cursor) else { break }
                let newline = found.assumingMemoryBound(to: UInt8.self)
                lines += 1 + countLoneCRs(UnsafeRawPointer(cursor), UnsafeRawPointer(newline), lfFollows: true)
                cursor = UnsafeRawPointer(newline) + 1
                lastLineStart = cursor
                column = 0
            }
            // The tail after the last LF may still hold lone CRs.
            var crCursor = lastLineStart
            while crCursor < end, let found = memchr(crCursor, 0x0D, end - crCursor) {
                lines += 1
                crCursor = UnsafeRawPointer(found) + 1
                lastLineStart = crCursor
                column = 0
            }
        }
        endsInCR = end > base && end.load(fromByteOffset: -1, as: UInt8.self) == 0x0D
        column += LineCounter.scalarCount(from: lastLineStart, to: end)
    }

    /// The LF bytes in `start..<end`.
    static func lineFeeds(from start: UnsafeRawPointer, to end: UnsafeRawPointer) -> Int {
        occurrences(of: 0x0A, from: start, to: end)
    }

    /// The bytes equal to `byte` in `start..<end`, compared sixteen at a
    /// time: each lane of `counts` adds up its matches for up to 255 steps
    /// before they are summed, so that it cannot wrap.
    ///
    /// Sixty-four bytes a step, in four counts, while that many are left:
    /// a step of sixteen spent eight of its eleven instructions on the loop
    /// (counting the lines of 100,000 products for their errors' places
    /// ran 13.8M instructions).
    @inline(__always)
    package static func occurrences(of byte: UInt8, from start: UnsafeRawPointer, to end: UnsafeRawPointer) -> Int {
        let wanted = SIMD16<UInt8>(repeating: byte)
        let zeros = SIMD16<UInt8>(repeating: 0)
        var cursor = start
        var found = 0
        while end - cursor >= 64 {
            var (first, second, third, fourth) = (zeros, zeros, zeros, zeros)
            var steps = 0
            while steps < 255 && end - cursor >= 64 {
                first &+= zeros.replacing(with: 1, where: cursor.loadUnaligned(as: SIMD16<UInt8>.self) .== wanted)
                second &+= zeros.replacing(
                    with: 1, where: cursor.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self) .== wanted)
                third &+= zeros.replacing(
                    with: 1, where: cursor.loadUnaligned(fromByteOffset: 32, as: SIMD16<UInt8>.self) .== wanted)
                fourth &+= zeros.replacing(
                    with: 1, where: cursor.loadUnaligned(fromByteOffset: 48, as: SIMD16<UInt8>.self) .== wanted)
                cursor += 64
                steps += 1
            }
            // At most 4 × 255 a lane: no wrap in 16 bits.
            let sum =
                SIMD16<UInt16>(truncatingIfNeeded: first) &+ SIMD16<UInt16>(truncatingIfNeeded: second)
                &+ SIMD16<UInt16>(truncatingIfNeeded: third) &+ SIMD16<UInt16>(truncatingIfNeeded: fourth)
            found += Int(sum.wrappedSum())
        }
        while end - cursor >= 16 {
            var counts = zeros
            var steps = 0
            while steps < 255 && end - cursor >= 16 {
                let bytes = cursor.loadUnaligned(as: SIMD16<UInt8>.self)
                counts &+= zeros.replacing(with: 1, where: bytes .== wanted)
                cursor += 16
                steps += 1
            }
            found += Int(SIMD16<UInt16>(truncatingIfNeeded: counts).wrappedSum())
        }
        while cursor < end {
            if cursor.load(as: UInt8.self) == byte { found += 1 }
            cursor += 1
        }
        return found
    }

    /// The Unicode scalars in the UTF-8 bytes `start..<end`: the bytes that
    /// are not continuation bytes (`10xxxxxx`), counted eight at a time.
    static func scalarCount(from start: UnsafeRawPointer, to end: UnsafeRawPointer) -> Int {
        var cursor = start
        var scalars = 0
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func continuations(_ word: UInt64) -> Int { (word & ~(word << 1) & highs).nonzeroBitCount }
        while end - cursor >= 32 {
            let a = cursor.loadUnaligned(as: UInt64.self)
            let b = cursor.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            let c = cursor.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
            let d = cursor.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
            if (a | b | c | d) & highs == 0 {
                scalars += 32  // all ASCII
            } else {
                scalars += 32 - continuations(a) - continuations(b) - continuations(c) - continuations(d)
            }
            cursor += 32
        }
        while end - cursor >= 8 {
            let word = cursor.loadUnaligned(as: UInt64.self)
            let continuation = word & ~(word << 1) & 0x8080_8080_8080_8080
            scalars += 8 - continuation.nonzeroBitCount
            cursor += 8
        }
        while cursor < end {
            if cursor.load(as: UInt8.self) & 0xC0 != 0x80 { scalars += 1 }
            cursor += 1
        }
        return scalars
    }

    /// The CRs in `start..<end` that end a line of their own; a CR right before
    /// `end` is part of a CRLF when `lfFollows`.
    private func countLoneCRs(_ start: UnsafeRawPointer, _ end: UnsafeRawPointer, lfFollows: Bool) -> Int {
        var found = 0
        var cursor = start
        while cursor < end, let hit = memchr(cursor, 0x0D, end - cursor) {
            let position = UnsafeRawPointer(hit)
            if !(lfFollows && position + 1 == end) { found += 1 }
            cursor = position + 1
        }
        return found
    }
}
