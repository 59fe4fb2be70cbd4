import FerryCSV
import FerryCore
import FerryJSON

/// How the plain rows of one header are laid out as JSON for one writer
/// (see CSVToJSONRun.swift for what makes a row plain). The layout's
/// bytes, the columns' rules and the row's field ends live in plain memory
/// made once, so a row costs no reference counting.
final class PlainRowPlan {
    /// What a column takes in a plain row; a plain value (no payloads), so
    /// that comparing cells is comparing bytes.
    enum Cell: UInt8 {
        /// A field the schema leaves free, or a required string that may be
        /// empty: any text.
        case text
        /// An optional string or photo: text, or null when empty.
        case optionalText
        /// A required string that is not empty: text that is not empty.
        case requiredText
        case number, requiredNumber
        case integer, requiredInteger
        case bool, requiredBool
        /// Always the general path: a field whose rule has other constraints.
        case never
        /// An optional string or photo that is not empty: text, or null when
        /// empty and unquoted (a quoted empty one takes the general path).
        case optionalNonEmptyText

        /// What a column of `rule` takes (see `ColumnRule`).
        init(_ rule: ColumnRule) {
            guard !rule.hasOtherConstraints, !rule.nonBlank || rule.nonEmpty else {
                self = .never
                return
            }
            let required = rule.required
            switch rule.type {
            case nil: self = .text
            case .string?, .photo?:
                switch (required, rule.nonEmpty) {
                case (true, true): self = .requiredText
                case (true, false): self = .text
                case (false, true): self = .optionalNonEmptyText
                case (false, false): self = .optionalText
                }
            case .number?: self = required ? .requiredNumber : .number
            case .integer?: self = required ? .requiredInteger : .integer
            case .bool?: self = required ? .requiredBool : .bool
            }
        }

        /// Whether an empty cell must take the general path (null fails).
        var isRequired: Bool { self == .requiredNumber || self == .requiredInteger || self == .requiredBool }
    }

    /// The writer's layout.
    private let layout: JSONRecordLayout
    let cells: UnsafeMutableBufferPointer<Cell>
    /// The layout's pieces, each in a slot of `pieceStride` bytes: the first
    /// opening, the opening, the separators before values 1…, the closing.
    /// A slot is at least 32 bytes, zeros after its piece, so that a piece
    /// of up to 32 bytes is copied 32 bytes at a time (see `piece(_:)`).
    let pieceSlots: UnsafeMutableRawPointer
    let pieceStride: Int
    let pieceLengths: UnsafeMutablePointer<Int>
    /// The pieces' bytes together.
    let layoutBytes: Int
    /// The end of each field of the row being laid out.
    let ends: UnsafeMutablePointer<Int>
    /// The classification of the bytes being laid out the block path: three
    /// arrays of `chunkBlocks` words (see `layOutBlocks`).
    let bitmaps: UnsafeMutablePointer<UInt64>
    let delimiter: UInt8
    let quote: UInt8
    let maxFieldBytes: Int
    /// A bit per column (as in `Row`): the columns whose text is copied
    /// between quotes as it is (`text`), the same when not empty (the other
    /// strings and photos), and the numbers copied when printed as written.
    let textColumns: UInt64
    let stringColumns: UInt64
    /// The string columns whose rule wants a character other than white
    /// space (`ColumnRule.nonBlank`): a cell that starts with a byte that
    /// may begin white space takes the general path, which checks it.
    let nonBlankColumns: UInt64
    let numberColumns: UInt64
    /// The integer columns, copied as the numbers are when they have no point.
    let integerColumns: UInt64
    /// The number and integer columns whose rule has no minimum of zero:
    /// their negative numbers are copied too.
    let signedColumns: UInt64

    // What the reader's current call has laid out, kept here rather than in
    // variables its closures capture (which would be checked for exclusive
    // access on every row). One thread at a time uses a plan: the reader's,
    // or a twin's helper until it signals.
    /// The records laid out and not yet handed to the writer.
    @exclusivity(unchecked) var block = WriteBuffer(capacity: 1 << 16)
    @exclusivity(unchecked) var blockRecords = 0
    /// Whether the writer has a record before the next one.
    @exclusivity(unchecked) var anyWritten = false
    /// A quoted value with its doubled quotes undone.
    @exclusivity(unchecked) private var scratch = WriteBuffer(capacity: 256)

    /// - Returns: nil for more than 64 columns (the plain path keeps one bit
    ///   per column) or none.
    /// - Parameter signed: the columns (a bit each) whose negative numbers
    ///   the rules take.
    init?(
        layout: JSONRecordLayout, cells: [Cell], signed: UInt64, nonBlank: UInt64 = 0, delimiter: UInt8, quote: UInt8,
        maxFieldBytes: Int
    ) {
        guard !cells.isEmpty, cells.count <= 64, layout.separators.count == cells.count else { return nil }
        self.layout = layout
        self.cells = .allocate(capacity: cells.count)
        _ = self.cells.initialize(from: cells)
        let all = [layout.firstOpening, layout.opening] + layout.separators.dropFirst() + [layout.closing]
        pieceStride = all.reduce(32) { max($0, $1.count) }
        pieceSlots = .allocate(byteCount: all.count * pieceStride, alignment: 16)
        pieceSlots.initializeMemory(as: UInt8.self, repeating: 0, count: all.count * pieceStride)
        pieceLengths = .allocate(capacity: all.count)
        for (index, piece) in all.enumerated() {
            pieceLengths[index] = piece.count
            (pieceSlots + index * pieceStride).copyMemory(from: piece, byteCount: piece.count)
        }
        layoutBytes = all.reduce(0) { $0 + $1.count }
        ends = .allocate(capacity: cells.count)
        bitmaps = .allocate(capacity: 3 * Self.chunkBlocks)
        func columns(_ wanted: Set<Cell>) -> UInt64 {
            cells.indices.reduce(0) { wanted.contains(cells[$1]) ? $0 | 1 << UInt64($1) : $0 }
        }
        textColumns = columns([.text])
        stringColumns = columns([.optionalText, .optionalNonEmptyText, .requiredText])
        numberColumns = columns([.number, .requiredNumber])
        integerColumns = columns([.integer, .requiredInteger])
        signedColumns = signed & (numberColumns | integerColumns)
        nonBlankColumns = nonBlank & stringColumns
        self.delimiter = delimiter
        self.quote = quote
        self.maxFieldBytes = maxFieldBytes
    }

    deinit {
        block.release()
        scratch.release()
        cells.deallocate()
        pieceSlots.deallocate()
        pieceLengths.deallocate()
        ends.deallocate()
        bitmaps.deallocate()
    }

    /// The bytes of piece `index` (see `pieceSlots`).
    @inline(__always)
    func piece(_ index: Int) -> UnsafePointer<UInt8> {
        UnsafePointer((pieceSlots + index &* pieceStride).assumingMemoryBound(to: UInt8.self))
    }

    /// Appends piece `index` of the layout, where the row's reservation has
    /// made room.
    @inline(__always)
    private func append(piece index: Int, to out: inout WriteBuffer) {
        let count = pieceLengths[index]
        if count <= 32 {
            out.appendUnchecked(padded: piece(index), count: count)
        } else {
            out.appendUnchecked(UnsafeBufferPointer(start: piece(index), count: count))
        }
    }

    /// Lays out the plain rows from the scanner's position into `block`,
    /// up to `most` of them, the first row that is not plain, or the end of
    /// the scanner's bytes (see `layOut(_:first:into:)`).
    /// - Returns: how many rows it laid out.
    func layOut(_ scanner: inout CSVScanner, most: Int) -> Int {
        var first = !anyWritten
        var taken = 0
        let count = scanner.bytes.count
        var classified = Classified()
        // Room for the rows' JSON at once (about twice their bytes, for
        // products), so that the block is not copied as it grows row by row.
        if block.count == 0 { block.reserve(min(count &- scanner.position, 1 << 21) &* 3) }
        while taken < most && scanner.position < count {
            // Block rows 64 bytes at a time (PlainRowPlan+Block.swift),
            // when every piece of the layout fits 32 bytes; the cut for the
            // rest, and for the first record.
            if !first && pieceStride == 32 && scanner.position &+ Self.blockReach <= count,
                let base = scanner.bytes.baseAddress
            {
                let rows = layOutBlocks(
                    base, at: &scanner.position, count: count, most: most &- taken, classified: &classified)
                if rows > 0 {
                    taken &+= rows
                    continue
                }
            }
            guard layOut(&scanner, first: first, into: &block) else { break }
            first = false
            taken += 1
        }
        if taken > 0 { anyWritten = true }
        blockRecords += taken
        return taken
    }

    /// Whether a cell of `count` bytes at `value` may be only white space
    /// (`ColumnRule.mayBeBlank`); an empty one is left to the column's rule.
    @inline(__always)
    static func mayBeBlank(_ value: UnsafePointer<UInt8>?, _ count: Int) -> Bool {
        guard count > 0, let value else { return false }
        return ColumnRule.mayBeBlank(startingWith: value.pointee)
    }

    /// A plan like this one, for another thread.
    func twin() -> PlainRowPlan? {
        PlainRowPlan(
            layout: layout, cells: Array(cells), signed: signedColumns, nonBlank: nonBlankColumns, delimiter: delimiter,
            quote: quote, maxFieldBytes: maxFieldBytes)
    }

    /// Hands the records `twin` laid out to `writer`, as if they had been
    /// laid out here next: `twin` opened its first one as a later record, so
    /// when none came before, that opening becomes the first one.
    func adopt(_ twin: PlainRowPlan, to writer: JSONWriter) throws(FerryError) {
        guard twin.blockRecords > 0 else { return }
        if !anyWritten {
            var fixed = WriteBuffer(capacity: twin.block.count + pieceLengths[0])
            fixed.append(UnsafeBufferPointer(start: piece(0), count: pieceLengths[0]))
            let rest = UnsafeRawBufferPointer(rebasing: twin.block.contents[pieceLengths[1]...])
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
    func hand(to writer: JSONWriter) throws(FerryError) {
        guard blockRecords > 0 else { return }
        try writer.appendLaidOut(&block, records: blockRecords)
        blockRecords = 0
    }

    /// Lays out the row at the scanner's position when it is plain, and moves
    /// the position past it.
    /// - Returns: false, with nothing appended and the position unchanged,
    ///   when the row must take the general path.
    func layOut(_ scanner: inout CSVScanner, first: Bool, into out: inout WriteBuffer) -> Bool {
        guard let base = scanner.bytes.baseAddress else { return false }
        let start = scanner.position
        guard let row = cut(base, from: start, count: scanner.bytes.count) else { return false }
        let mark = out.count
        let columns = cells.count
        // A row of delimiters only (`;;;`) is skipped and counted by the
        // general path.
        if columns > 1 && ends[columns &- 1] == start &+ columns &- 1 { return false }
        // Room for the whole record: the layout, and each value's bytes
        // escaped (six bytes at most for one) or a word like `false`.
        // 32 more for the last piece's copy (see `append(piece:to:)`).
        // Every term is bounded by the window's size: no overflow.
        out.reserve(layoutBytes &+ (row.end &- start) &* 6 &+ columns &* 5 &+ 34)
        append(piece: first ? 0 : 1, to: &out)
        // Only a row longer than the limit can have a field that is.
        let checkLength = row.end &- start > maxFieldBytes
        // The fields copied as they are: strings with nothing to escape.
        let copied = (textColumns | stringColumns) & ~row.escapes
        var fieldStart = start
        for index in 0..<columns {
            if index > 0 { append(piece: index &+ 1, to: &out) }
            let bit: UInt64 = 1 << UInt64(index)
            let end = ends[index]
            // A quoted field's value is what lies between its quotes.
            let value =
                row.quoted & bit == 0
                ? UnsafeBufferPointer(start: base + fieldStart, count: end &- fieldStart)
                : UnsafeBufferPointer(start: base + fieldStart + 1, count: end &- fieldStart &- 2)
            fieldStart = end &+ 1
            if (checkLength && value.count > maxFieldBytes)
                || (row.nonASCII & bit != 0 && UTF8Validation.firstInvalidIndex(in: value, 0..<value.count) != nil)
                || (nonBlankColumns & bit != 0 && Self.mayBeBlank(value.baseAddress, value.count))
            {
                out.truncate(to: mark)
                return false
            }
            // Most cells are strings that need no escape: copied between
            // quotes here (an empty one only where the column takes any
            // text); then numbers printed as written; any other goes
            // through `append`.
            if copied & bit != 0 && (!value.isEmpty || textColumns & bit != 0) {
                out.appendUnchecked(UInt8(ascii: "\""))
                out.appendUnchecked(value)
                out.appendUnchecked(UInt8(ascii: "\""))
            } else if numberColumns & bit != 0 && JSONText.printsAsWritten(value) {
                out.appendUnchecked(value)
            } else if !append(
                value, as: cells[index], quoted: row.quoted & bit != 0, doubled: row.doubled & bit != 0,
                escaped: row.escapes & bit != 0, signed: signedColumns & bit != 0, to: &out)
            {
                out.truncate(to: mark)
                return false
            }
        }
        append(piece: columns &+ 1, to: &out)
        scanner.position = row.end &+ 1
        return true
    }

    /// Appends `value` as a column of `cell` takes it, as `CellTyping`
    /// types it: `quoted` tells whether the field was quoted (`value` is
    /// what lies between the quotes), `doubled` whether it holds doubled
    /// quotes, `escaped` whether it holds a byte JSON escapes, `signed`
    /// whether the column's rule takes negative numbers.
    /// - Returns: false when the cell is not plain for that column.
    @inline(__always)
    private func append(
        _ value: UnsafeBufferPointer<UInt8>, as cell: Cell, quoted: Bool, doubled: Bool, escaped: Bool, signed: Bool,
        to out: inout WriteBuffer
    ) -> Bool {
        switch cell {
        case .text:
            appendString(value, doubled: doubled, escaped: escaped, to: &out)
        case .optionalText, .optionalNonEmptyText:
            // Only an unquoted empty cell is null; `""` is an empty string,
            // which a column that is not empty leaves to the general path.
            if value.isEmpty && !quoted {
                out.append("null")
            } else if value.isEmpty && cell == .optionalNonEmptyText {
                return false
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
            if JSONText.printsAsWritten(value) || (signed && JSONText.printsAsWrittenNegative(value)) {
                // A double's text has a point; an integer column takes none.
                if cell == .integer || cell == .requiredInteger, value.contains(UInt8(ascii: ".")) { return false }
                out.append(value)
                return true
            }
            // Any other number keeps its text, as `CellTyping` keeps it;
            // a sign the rule may refuse takes the general path.
            let integer = cell == .integer || cell == .requiredInteger
            switch integer ? DecimalText.integerCell(value) : DecimalText.cell(value) {
            case .integer(let number)? where number >= 0 || signed:
                JSONText.appendInteger(number, to: &out)
            case .double(let number)? where number >= 0 || signed:
                JSONText.appendDouble(number, to: &out)
            case .number(let text)? where signed || text.first != UInt8(ascii: "-"):
                JSONText.appendNumber(text, to: &out)
            default:
                return false
            }
        case .bool, .requiredBool:
            if value.isEmpty {
                guard !cell.isRequired else { return false }
                out.append("null")
                return true
            }
            guard let flag = BoolText.value(of: value) else { return false }
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
