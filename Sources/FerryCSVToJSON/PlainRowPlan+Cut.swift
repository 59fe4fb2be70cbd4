import FerryCSV
import FerryCore

// MARK: - Design
//
// Cutting a row that may be plain: its bytes are read eight at a time and
// each word gets one mask of the bytes that matter (the delimiter, the
// quote, a backslash, bytes below 0x20 and above 0x7F); only those are
// looked at one by one. A quoted field is read byte by byte to its closing
// quote.
//
//     row     Wii,"Pad, ""Pro""",19.99 LF
//     ends    3, 18, 24 (the delimiters and the LF)
//     bits    field 1 quoted, doubled, escapes (its quotes)
//
// A row may end in CRLF, as RFC 4180 writes it: the CR then ends the last
// field, and the row ends at the LF after it.

extension PlainRowPlan {
    /// What `cut` found in a row: where its LF is (after a CR that ends the
    /// last field, in a CRLF row), and a bit per field for
    /// each of: quoted, holding doubled quotes, holding bytes above 0x7F,
    /// holding a byte JSON escapes (a quote, a backslash, a control byte).
    struct Row {
        var end = 0
        var quoted: UInt64 = 0
        var doubled: UInt64 = 0
        var nonASCII: UInt64 = 0
        var escapes: UInt64 = 0
    }

    /// Finds the fields of the row that starts at `start`: the end of each
    /// (its delimiter or LF) into `ends`.
    /// - Returns: nil unless the row ends in LF or CRLF within the bytes,
    ///   has as many fields as the header, holds no other CR and no NUL
    ///   outside quoted fields and no NUL inside, and each quoted field is
    ///   closed and followed by a delimiter, LF or CRLF.
    @inline(__always)
    func cut(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Row? {
        let raw = UnsafeRawPointer(base)
        let columns = cells.count
        let delimiter = self.delimiter
        let quote = self.quote
        let ones: UInt64 = 0x0101_0101_0101_0101
        let delimiters = ones &* UInt64(delimiter)
        let quotes = ones &* UInt64(quote)
        let backslashes: UInt64 = 0x5C5C_5C5C_5C5C_5C5C
        var row = Row()
        var field = 0
        var fieldStart = start

        /// What the byte at `at` does.
        enum Step {
            case next
            case ended
            case notPlain
            /// Read on from this index (past a quoted field).
            case resume(Int)
        }
        // Ends the current field at `at`, a delimiter or LF.
        @inline(__always)
        func end(at: Int, byte: UInt8) -> Step {
            ends[field] = at
            field += 1
            if byte == delimiter {
                fieldStart = at + 1
                return field < columns ? .next : .notPlain
            }
            row.end = at
            return field == columns ? .ended : .notPlain
        }
        // Ends the row at the CR at `at` when an LF follows it.
        @inline(__always)
        func endAtCR(_ at: Int) -> Step {
            guard at + 1 < count, base[at + 1] == 0x0A else { return .notPlain }
            ends[field] = at
            field += 1
            row.end = at + 1
            return field == columns ? .ended : .notPlain
        }
        @inline(__always)
        func look(_ at: Int) -> Step {
            let byte = base[at]
            if byte == delimiter || byte == 0x0A { return end(at: at, byte: byte) }
            let bit: UInt64 = 1 << UInt64(field)
            if byte >= 0x80 {
                row.nonASCII |= bit
                return .next
            }
            if byte == quote && at == fieldStart { return quotedField(from: at + 1, bit: bit) }
            if byte == 0x0D { return endAtCR(at) }
            if byte == 0 { return .notPlain }
            // A quote inside the field, a backslash or another control
            // byte: text, which JSON escapes. (Or a byte flagged by a borrow.)
            if byte == quote || byte == 0x5C || byte < 0x20 { row.escapes |= bit }
            return .next
        }
        // The quoted field whose text starts at `from`, byte by byte (few
        // fields are quoted), up to what follows its closing quote.
        func quotedField(from: Int, bit: UInt64) -> Step {
            row.quoted |= bit
            var at = from
            while at < count {
                let byte = base[at]
                if byte == quote {
                    guard at + 1 < count else { return .notPlain }
                    let next = base[at + 1]
                    if next == quote {
                        row.doubled |= bit
                        row.escapes |= bit
                        at += 2
                        continue
                    }
                    if next == 0x0D { return endAtCR(at + 1) }
                    guard next == delimiter || next == 0x0A else { return .notPlain }
                    if case .next = end(at: at + 1, byte: next) { return .resume(at + 2) }
                    return field == columns && next == 0x0A ? .ended : .notPlain
                }
                if byte >= 0x80 {
                    row.nonASCII |= bit
                } else if byte < 0x20 || byte == 0x5C {
                    if byte == 0 { return .notPlain }
                    row.escapes |= bit
                }
                at += 1
            }
            return .notPlain
        }
        var index = start
        scanning: while true {
            if index + 8 <= count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                // Zero bytes after the XORs, and bytes below 0x20, found with
                // a borrow: exact for the lowest in the word, and a byte above
                // one may be flagged as well, which `look` reads and passes.
                let matched = word ^ delimiters
                let quoted = word ^ quotes
                let slashed = word ^ backslashes
                var mask =
                    ((matched &- ones) & ~matched) | ((quoted &- ones) & ~quoted) | ((slashed &- ones) & ~slashed)
                    | ((word &- 0x2020_2020_2020_2020) & ~word) | word
                mask &= 0x8080_8080_8080_8080
                while mask != 0 {
                    let at = index &+ mask.trailingZeroBitCount &>> 3
                    mask &= mask &- 1
                    switch look(at) {
                    case .next: continue
                    case .ended: return row
                    case .notPlain: return nil
                    case .resume(let from):
                        index = from
                        continue scanning
                    }
                }
                index += 8
            } else if index < count {
                switch look(index) {
                case .next: index += 1
                case .ended: return row
                case .notPlain: return nil
                case .resume(let from): index = from
                }
            } else {
                return nil
            }
        }
    }
}
