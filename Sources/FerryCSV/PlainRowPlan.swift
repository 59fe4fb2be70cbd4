import FerryCore

/// How the plain rows of one header are laid out as JSON for one writer
/// (see CSVReader+JSON.swift for what makes a row plain). The layout's
/// bytes, the columns' rules and the row's field ends live in plain memory
/// made once, so a row costs no reference counting.
final class PlainRowPlan {
    /// What a column takes in a plain row.
    /// A plain value (no payloads, so that comparing cells is comparing
    /// bytes).
    enum Cell: UInt8 {
        /// A field the kind does not name: any text.
        case text
        /// An optional string or photo: text, or null when empty.
        case optionalText
        /// A required string: text that is not empty.
        case requiredText
        case number, requiredNumber
        case integer, requiredInteger
        case bool, requiredBool
        /// Always the general way (a required photo, which no kind has).
        case never

        init(_ column: CSVReader.Column) {
            let required = column.required
            switch column.type {
            case nil: self = .text
            case .string?: self = required ? .requiredText : .optionalText
            case .photo?: self = required ? .never : .optionalText
            case .number?: self = required ? .requiredNumber : .number
            case .integer?: self = required ? .requiredInteger : .integer
            case .bool?: self = required ? .requiredBool : .bool
            }
        }

        /// Whether an empty cell must go the general way (null fails).
        var isRequired: Bool { self == .requiredNumber || self == .requiredInteger || self == .requiredBool }
    }

    /// The writer the layout is for, and the layout.
    let writer: ObjectIdentifier
    private let layout: JSONRecordLayout
    private let cells: UnsafeMutableBufferPointer<Cell>
    /// The layout's bytes, one after the other: the two openings, the
    /// separators before values 1…, the closing.
    private let text: UnsafeMutablePointer<UInt8>
    /// Where each piece starts in `text`: the first opening, the opening,
    /// the separators from value 1 on, the closing, and the end.
    private let pieces: UnsafeMutableBufferPointer<Int>
    /// The end of each field of the row being laid out.
    private let ends: UnsafeMutablePointer<Int>
    private let delimiter: UInt8
    private let quote: UInt8
    private let maxFieldBytes: Int

    // What the reader's current call has laid out, kept here rather than in
    // variables its closures capture (which would be checked for exclusive
    // access on every row). The plan is never shared between threads.
    /// The records laid out and not yet handed to the writer.
    @exclusivity(unchecked) var block = WriteBuffer(capacity: 1 << 16)
    @exclusivity(unchecked) var blockRecords = 0
    /// Whether the writer has a record before the next one.
    @exclusivity(unchecked) var anyWritten = false
    /// A quoted value with its doubled quotes undone.
    @exclusivity(unchecked) private var scratch = WriteBuffer(capacity: 256)

    /// - Returns: nil for more than 64 columns (the plain path keeps one bit
    ///   per column) or none.
    init?(
        writer: ObjectIdentifier, layout: JSONRecordLayout, cells: [Cell], delimiter: UInt8, quote: UInt8,
        maxFieldBytes: Int
    ) {
        guard !cells.isEmpty, cells.count <= 64, layout.separators.count == cells.count else { return nil }
        self.writer = writer
        self.layout = layout
        self.cells = .allocate(capacity: cells.count)
        _ = self.cells.initialize(from: cells)
        let all = [layout.firstOpening, layout.opening] + layout.separators.dropFirst() + [layout.closing]
        // 32 bytes more, so that any piece can be copied 32 bytes at a time.
        let total = all.reduce(0) { $0 + $1.count }
        text = .allocate(capacity: total + 32)
        (text + total).initialize(repeating: 0, count: 32)
        pieces = .allocate(capacity: all.count + 1)
        var offset = 0
        for (index, piece) in all.enumerated() {
            pieces[index] = offset
            (text + offset).initialize(from: piece, count: piece.count)
            offset += piece.count
        }
        pieces[all.count] = offset
        ends = .allocate(capacity: cells.count)
        self.delimiter = delimiter
        self.quote = quote
        self.maxFieldBytes = maxFieldBytes
    }

    deinit {
        block.release()
        scratch.release()
        cells.deallocate()
        text.deallocate()
        pieces.deallocate()
        ends.deallocate()
    }

    /// Appends piece `index` of the layout (see `pieces`), where the row's
    /// reservation has made room.
    @inline(__always)
    private func append(piece index: Int, to out: inout WriteBuffer) {
        let start = pieces[index]
        let count = pieces[index + 1] - start
        if count <= 32 {
            out.appendUnchecked(padded: text + start, count: count)
        } else {
            out.appendUnchecked(UnsafeBufferPointer(start: text + start, count: count))
        }
    }

    /// Lays out the row at the scanner's position when it is plain, and moves
    /// the position past it.
    /// - Returns: false, with nothing appended and the position unchanged,
    ///   when the row must go the general way.
    /// Lays out the row at the scanner's position into `block` when it is
    /// plain (see `layOut(_:first:into:)`).
    func layOut(_ scanner: inout CSVScanner) -> Bool {
        guard layOut(&scanner, first: !anyWritten, into: &block) else { return false }
        anyWritten = true
        blockRecords += 1
        return true
    }

    /// A plan like this one, for another thread.
    func twin() -> PlainRowPlan? {
        PlainRowPlan(
            writer: writer, layout: layout, cells: Array(cells), delimiter: delimiter, quote: quote,
            maxFieldBytes: maxFieldBytes)
    }

    /// Hands the records `twin` laid out to `writer`, as if they had been
    /// laid out here next: `twin` opened its first one as a later record, so
    /// when none came before, that opening becomes the first one.
    func adopt(_ twin: PlainRowPlan, to writer: any JSONLayoutWriter) throws(FerryError) {
        guard twin.blockRecords > 0 else { return }
        if !anyWritten {
            var fixed = WriteBuffer(capacity: twin.block.count + pieces[1])
            fixed.append(UnsafeBufferPointer(start: text, count: pieces[1]))
            let rest = UnsafeRawBufferPointer(rebasing: twin.block.contents[(pieces[2] - pieces[1])...])
            fixed.append(rest.assumingMemoryBound(to: UInt8.self))
            swap(&fixed, &twin.block)
            fixed.release()
        }
        try writer.appendLaidOut(&twin.block, records: twin.blockRecords)
        twin.blockRecords = 0
        anyWritten = true
    }

    /// Drops the records laid out and not handed over.
    func discard() {
        block.truncate(to: 0)
        blockRecords = 0
    }

    /// Hands the records in `block` to `writer`.
    func hand(to writer: any JSONLayoutWriter) throws(FerryError) {
        guard blockRecords > 0 else { return }
        try writer.appendLaidOut(&block, records: blockRecords)
        blockRecords = 0
    }

    func layOut(_ scanner: inout CSVScanner, first: Bool, into out: inout WriteBuffer) -> Bool {
        guard let base = scanner.bytes.baseAddress else { return false }
        let start = scanner.position
        guard let row = cut(base, from: start, count: scanner.bytes.count) else { return false }
        let mark = out.count
        // Room for the whole record: the layout, and each value's bytes
        // escaped (six bytes at most for one) or a word like `false`.
        // 32 more for the last piece's copy (see `append(piece:to:)`).
        out.reserve(pieces[cells.count + 2] + (row.end - start) * 6 + cells.count * 5 + 34)
        append(piece: first ? 0 : 1, to: &out)
        var fieldStart = start
        for index in 0..<cells.count {
            if index > 0 { append(piece: index + 1, to: &out) }
            let bit: UInt64 = 1 << UInt64(index)
            let quoted = row.quoted & bit != 0
            // A quoted field's value is what lies between its quotes.
            let value =
                quoted
                ? UnsafeBufferPointer(start: base + fieldStart + 1, count: ends[index] - fieldStart - 2)
                : UnsafeBufferPointer(start: base + fieldStart, count: ends[index] - fieldStart)
            fieldStart = ends[index] + 1
            if value.count > maxFieldBytes
                || (row.nonASCII & bit != 0 && UTF8Validation.firstInvalidIndex(in: value, 0..<value.count) != nil)
            {
                out.truncate(to: mark)
                return false
            }
            let cell = cells[index]
            // Most cells are strings that need no escape: copied between
            // quotes here; any other goes through `append`.
            if row.escapes & bit == 0, cell == .text || (!value.isEmpty && (cell == .optionalText || cell == .requiredText)) {
                out.appendUnchecked(UInt8(ascii: "\""))
                out.appendUnchecked(value)
                out.appendUnchecked(UInt8(ascii: "\""))
            } else if cell == .number || cell == .requiredNumber, JSONText.printsAsWritten(value) {
                out.appendUnchecked(value)
            } else if !append(
                value, as: cell, quoted: quoted, doubled: row.doubled & bit != 0, escaped: row.escapes & bit != 0,
                to: &out)
            {
                out.truncate(to: mark)
                return false
            }
        }
        append(piece: cells.count + 1, to: &out)
        scanner.position = row.end + 1
        return true
    }

    /// What `cut` found in a row: where its LF is, and a bit per field for
    /// each of: quoted, holding doubled quotes, holding bytes above 0x7F,
    /// holding a byte JSON escapes (a quote, a backslash, a control byte).
    private struct Row {
        var end = 0
        var quoted: UInt64 = 0
        var doubled: UInt64 = 0
        var nonASCII: UInt64 = 0
        var escapes: UInt64 = 0
    }

    /// Finds the fields of the row that starts at `start`: the end of each
    /// (its delimiter or LF) into `ends`.
    /// - Returns: nil unless the row ends in LF within the bytes, has as
    ///   many fields as the header, holds no CR or NUL outside quoted
    ///   fields and no NUL inside, and each quoted field is closed and
    ///   followed by a delimiter or LF.
    @inline(__always)
    private func cut(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Row? {
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
            if byte == 0x0D || byte == 0 { return .notPlain }
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

    /// Appends `value` as a column of `cell` takes it, as `CellTyping`
    /// types it: `quoted` tells whether the field was quoted (`value` is
    /// what lies between the quotes), `doubled` whether it holds doubled
    /// quotes, `escaped` whether it holds a byte JSON escapes.
    /// - Returns: false when the cell is not plain for that column.
    @inline(__always)
    private func append(
        _ value: UnsafeBufferPointer<UInt8>, as cell: Cell, quoted: Bool, doubled: Bool, escaped: Bool,
        to out: inout WriteBuffer
    ) -> Bool {
        switch cell {
        case .text:
            appendString(value, doubled: doubled, escaped: escaped, to: &out)
        case .optionalText:
            // Only an unquoted empty cell is null; `""` is an empty string.
            if value.isEmpty && !quoted {
                out.append("null")
            } else {
                appendString(value, doubled: doubled, escaped: escaped, to: &out)
            }
        case .requiredText:
            guard !value.isEmpty else { return false }
            appendString(value, doubled: doubled, escaped: escaped, to: &out)
        case .number, .requiredNumber, .integer, .requiredInteger:
            if value.isEmpty {
                guard !cell.isRequired else { return false }
                out.append("null")
                return true
            }
            if JSONText.printsAsWritten(value) {
                // A double's text has a point; an integer column takes none.
                if cell == .integer || cell == .requiredInteger, value.contains(UInt8(ascii: ".")) { return false }
                out.append(value)
                return true
            }
            switch DecimalText.number(value) {
            case .integer(let number)? where number >= 0:
                JSONText.appendInteger(number, to: &out)
            case .double(let number)? where number >= 0:
                guard cell == .number || cell == .requiredNumber else { return false }
                JSONText.appendDouble(number, to: &out)
            default:
                return false
            }
        case .bool, .requiredBool:
            if value.isEmpty {
                guard !cell.isRequired else { return false }
                out.append("null")
                return true
            }
            guard let flag = CellTyping.bool(value) else { return false }
            out.append(flag ? "true" : "false")
        case .never:
            return false
        }
        return true
    }

    /// Appends `value` as a JSON string: copied between quotes when nothing
    /// in it needs escaping (the row's reservation has room), else as
    /// `JSONText.appendQuoted` writes it, doubled quotes undone first.
    @inline(__always)
    private func appendString(
        _ value: UnsafeBufferPointer<UInt8>, doubled: Bool, escaped: Bool, to out: inout WriteBuffer
    ) {
        if doubled {
            scratch.truncate(to: 0)
            var index = 0
            while index < value.count {
                scratch.append(value[index])
                index += value[index] == quote ? 2 : 1
            }
            return JSONText.appendQuoted(scratch.contents.assumingMemoryBound(to: UInt8.self), to: &out)
        }
        if escaped { return JSONText.appendQuoted(value, to: &out) }
        out.appendUnchecked(UInt8(ascii: "\""))
        out.appendUnchecked(value)
        out.appendUnchecked(UInt8(ascii: "\""))
    }
}
