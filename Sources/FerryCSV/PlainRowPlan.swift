import FerryCore

/// How the plain rows of one header are laid out as JSON for one writer
/// (see CSVReader+JSON.swift for what makes a row plain). The layout's
/// bytes, the columns' rules and the row's field ends live in plain memory
/// made once, so a row costs no reference counting.
final class PlainRowPlan {
    /// What a column takes in a plain row.
    enum Cell {
        /// A field the kind does not name: any text.
        case text
        /// An optional string or photo: text, or null when empty.
        case optionalText
        /// A required string: text that is not empty.
        case requiredText
        case number(required: Bool)
        case integer(required: Bool)
        case bool(required: Bool)
        /// Always the general way (a required photo, which no kind has).
        case never

        init(_ column: CSVReader.Column) {
            switch column.type {
            case nil: self = .text
            case .string?: self = column.required ? .requiredText : .optionalText
            case .photo?: self = column.required ? .never : .optionalText
            case .number?: self = .number(required: column.required)
            case .integer?: self = .integer(required: column.required)
            case .bool?: self = .bool(required: column.required)
            }
        }
    }

    /// The writer the layout is for.
    let writer: ObjectIdentifier
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

    /// - Returns: nil for more than 64 columns (the plain path keeps one bit
    ///   per column) or none.
    init?(
        writer: ObjectIdentifier, layout: JSONRecordLayout, cells: [Cell], delimiter: UInt8, quote: UInt8,
        maxFieldBytes: Int
    ) {
        guard !cells.isEmpty, cells.count <= 64, layout.separators.count == cells.count else { return nil }
        self.writer = writer
        self.cells = .allocate(capacity: cells.count)
        _ = self.cells.initialize(from: cells)
        let all = [layout.firstOpening, layout.opening] + layout.separators.dropFirst() + [layout.closing]
        text = .allocate(capacity: max(all.reduce(0) { $0 + $1.count }, 1))
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
        cells.deallocate()
        text.deallocate()
        pieces.deallocate()
        ends.deallocate()
    }

    /// Appends piece `index` of the layout (see `pieces`), where the row's
    /// reservation has made room.
    @inline(__always)
    private func append(piece index: Int, to out: inout WriteBuffer) {
        out.appendUnchecked(UnsafeBufferPointer(start: text + pieces[index], count: pieces[index + 1] - pieces[index]))
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

    /// Hands the records in `block` to `writer`.
    func hand(to writer: any JSONLayoutWriter) throws(FerryError) {
        guard blockRecords > 0 else { return }
        try writer.appendLaidOut(&block, records: blockRecords)
        blockRecords = 0
    }

    func layOut(_ scanner: inout CSVScanner, first: Bool, into out: inout WriteBuffer) -> Bool {
        guard let base = scanner.bytes.baseAddress else { return false }
        let start = scanner.position
        guard let (rowEnd, nonASCII) = cut(base, from: start, count: scanner.bytes.count) else { return false }
        let mark = out.count
        // Room for the whole record: the layout, and each value's bytes
        // escaped (six bytes at most for one) or a word like `false`.
        out.reserve(pieces[cells.count + 2] + (rowEnd - start) * 6 + cells.count * 5 + 2)
        append(piece: first ? 0 : 1, to: &out)
        var fieldStart = start
        for index in 0..<cells.count {
            if index > 0 { append(piece: index + 1, to: &out) }
            let value = UnsafeBufferPointer(start: base + fieldStart, count: ends[index] - fieldStart)
            fieldStart = ends[index] + 1
            if value.count > maxFieldBytes
                || (nonASCII & (1 << UInt64(index)) != 0
                    && UTF8Validation.firstInvalidIndex(in: value, 0..<value.count) != nil)
                || !Self.append(value, as: cells[index], to: &out)
            {
                out.truncate(to: mark)
                return false
            }
        }
        append(piece: cells.count + 1, to: &out)
        scanner.position = rowEnd + 1
        return true
    }

    /// Finds the fields of the row that starts at `start`, into `ends`.
    /// - Returns: where its LF is and a bit per field holding bytes above
    ///   0x7F; nil unless the row ends in LF within the bytes, has as many
    ///   fields as the header, and holds no quote, CR or NUL.
    @inline(__always)
    private func cut(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> (Int, UInt64)? {
        let raw = UnsafeRawPointer(base)
        let columns = cells.count
        let delimiter = self.delimiter
        let quote = self.quote
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let delimiters = 0x0101_0101_0101_0101 &* UInt64(delimiter)
        let quotes = 0x0101_0101_0101_0101 &* UInt64(quote)
        var field = 0
        var nonASCII: UInt64 = 0
        // What the byte at `at` does: nil to read on, true at the row's end,
        // false when the row is not plain.
        @inline(__always)
        func look(_ at: Int) -> Bool? {
            let byte = base[at]
            if byte == delimiter {
                ends[field] = at
                field += 1
                return field < columns ? nil : false
            }
            if byte >= 0x80 {
                nonASCII |= 1 << UInt64(field)
                return nil
            }
            if byte == 0x0A {
                ends[field] = at
                field += 1
                return field == columns
            }
            if byte == quote || byte == 0x0D || byte == 0 { return false }
            // Another control character: text, which JSON escapes.
            return nil
        }
        var index = start
        while index + 8 <= count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let matched = word ^ delimiters
            let quoted = word ^ quotes
            let isDelimiter = ~(((matched & lows) &+ lows) | matched)
            let isQuote = ~(((quoted & lows) &+ lows) | quoted)
            let isControl = ~(((word & lows) &+ 0x6060_6060_6060_6060) | word)
            var mask = (isDelimiter | isQuote | isControl | word) & 0x8080_8080_8080_8080
            while mask != 0 {
                let at = index &+ mask.trailingZeroBitCount &>> 3
                mask &= mask &- 1
                if let ended = look(at) { return ended ? (at, nonASCII) : nil }
            }
            index += 8
        }
        while index < count {
            if let ended = look(index) { return ended ? (index, nonASCII) : nil }
            index += 1
        }
        return nil
    }

    /// Appends `value` as a column of `cell` takes it.
    /// - Returns: false when the cell is not plain for that column.
    @inline(__always)
    private static func append(_ value: UnsafeBufferPointer<UInt8>, as cell: Cell, to out: inout WriteBuffer) -> Bool {
        switch cell {
        case .text:
            JSONText.appendQuoted(value, to: &out)
        case .optionalText:
            if value.isEmpty { out.append("null") } else { JSONText.appendQuoted(value, to: &out) }
        case .requiredText:
            guard !value.isEmpty else { return false }
            JSONText.appendQuoted(value, to: &out)
        case .number(let required), .integer(let required):
            if value.isEmpty {
                guard !required else { return false }
                out.append("null")
                return true
            }
            if JSONText.printsAsWritten(value) {
                // A double's text has a point; an integer column takes none.
                if case .integer = cell, value.contains(UInt8(ascii: ".")) { return false }
                out.append(value)
                return true
            }
            switch DecimalText.number(value) {
            case .integer(let number)? where number >= 0:
                JSONText.appendInteger(number, to: &out)
            case .double(let number)? where number >= 0:
                guard case .number = cell else { return false }
                JSONText.appendDouble(number, to: &out)
            default:
                return false
            }
        case .bool(let required):
            if value.isEmpty {
                guard !required else { return false }
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
}
