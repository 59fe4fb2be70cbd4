import FerryCore

/// What a cell's `t` says it holds.
enum CellType: UInt8 {
    /// `n` or none: a number (a date when its style says so).
    case number
    /// `s`: an index into the shared strings.
    case shared
    /// `inlineStr`: the text of its `<is>`.
    case inline
    /// `str`: a formula's text result.
    case formulaString
    /// `b`: 1 or 0.
    case bool
    /// `e`: an error such as `#N/A`.
    case error
    /// `d`: an ISO 8601 date as text.
    case date

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        switch bytes.count {
        case 1:
            switch bytes[0] {
            case UInt8(ascii: "s"): self = .shared
            case UInt8(ascii: "b"): self = .bool
            case UInt8(ascii: "e"): self = .error
            case UInt8(ascii: "d"): self = .date
            default: self = .number
            }
        case 3 where bytes[0] == UInt8(ascii: "s") && bytes[1] == UInt8(ascii: "t") && bytes[2] == UInt8(ascii: "r"):
            self = .formulaString
        // `inlineStr`: its first eight bytes as one little-endian word, then `r`.
        case 9
        where UnsafeRawBufferPointer(bytes).loadUnaligned(as: UInt64.self) == 0x74_53_65_6E_69_6C_6E_69
            && bytes[8] == UInt8(ascii: "r"):
            self = .inline
        default: self = .number
        }
    }
}

/// Which element of a cell the scanner is in, so that only a value's text
/// counts: a `<v>`, or a `<t>` of an inline string outside its phonetic
/// runs (`<rPh>`). The reader and the editor's map (`SheetMap`) share it,
/// so that both see the same rows as holding values.
struct CellTextState {
    private var inValue = false
    private var inInline = false
    private var inText = false
    private var phonetic = 0

    /// Whether text here is the cell's value.
    var holdsValue: Bool { inValue || (inText && phonetic == 0) }

    /// A start tag inside a `<c>`.
    @inline(__always)
    mutating func start(_ scanner: XMLPullScanner) {
        if scanner.nameIs("v") {
            inValue = true
        } else if scanner.nameIs("is") {
            inInline = true
        } else if inInline && scanner.nameIs("t") {
            inText = true
        } else if scanner.nameIs("rPh") {
            phonetic += 1
        }
    }

    /// An end tag inside a `<c>`, other than its own.
    @inline(__always)
    mutating func end(_ scanner: XMLPullScanner) {
        if scanner.nameIs("v") {
            inValue = false
        } else if scanner.nameIs("is") {
            inInline = false
        } else if scanner.nameIs("t") {
            inText = false
        } else if scanner.nameIs("rPh") {
            phonetic -= 1
        }
    }
}

/// The cells of one `<row>` as read: per cell its column, type, number
/// format and the text of its value, all in reused storage.
struct XLSXRow {
    var number = 0
    var previousNumber = 0
    /// Where the row's tag starts in the sheet part.
    var offset = 0
    private(set) var columns: [Int] = []
    private(set) var types: [CellType] = []
    private(set) var formats: [NumberFormatKind] = []
    /// Where each cell's text ends in `text`, and whether it had a value.
    private(set) var ends: [Int] = []
    private var valued: [Bool] = []
    /// Every cell's value text, one after the other.
    var text: [UInt8] = []

    var count: Int { columns.count }
    var isEmpty: Bool { !valued.contains(true) }
    /// The column a cell without a reference takes.
    var nextColumn: Int { (columns.last ?? -1) + 1 }

    mutating func removeAll() {
        columns.removeAll(keepingCapacity: true)
        types.removeAll(keepingCapacity: true)
        formats.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        valued.removeAll(keepingCapacity: true)
        text.removeAll(keepingCapacity: true)
    }

    mutating func startCell(column: Int, type: CellType, format: NumberFormatKind) {
        columns.append(column)
        types.append(type)
        formats.append(format)
        valued.append(false)
        ends.append(text.count)
    }

    mutating func cellHasValue() {
        guard !valued.isEmpty else { return }
        valued[valued.count - 1] = true
    }

    mutating func endCell() {
        guard !ends.isEmpty else { return }
        ends[ends.count - 1] = text.count
    }

    func hasValue(_ index: Int) -> Bool { valued[index] }

    /// The text of cell `index`, passed to `body`.
    func withText<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let start = index == 0 ? 0 : ends[index - 1]
        return text.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<ends[index]])) }
    }
}

/// A1 references: column letters, then the row's number.
struct CellReference {
    /// 0-based.
    var column: Int
    var row: Int

    /// Reads `B12`; nil when it is not a reference (XFD1048576 at most).
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        var index = 0
        var column = 0
        while index < bytes.count, (bytes[index] | 0x20) &- UInt8(ascii: "a") < 26 {
            column = column * 26 + Int((bytes[index] | 0x20) - UInt8(ascii: "a")) + 1
            index += 1
            guard index <= 3 else { return nil }
        }
        guard index > 0, let row = Self.number(UnsafeBufferPointer(rebasing: bytes[index...])) else { return nil }
        self.column = column - 1
        self.row = row
    }

    /// Decimal digits as a number; nil for none, others, or more than 9.
    static func number(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 9 else { return nil }
        var value = 0
        for byte in bytes {
            guard byte &- 0x30 < 10 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    /// `B12` for column 1, row 12.
    static func name(column: Int, row: Int) -> String {
        var letters: [UInt8] = []
        var rest = column + 1
        while rest > 0 {
            let digit = (rest - 1) % 26
            letters.append(UInt8(ascii: "A") + UInt8(digit))
            rest = (rest - 1) / 26
        }
        return String(decoding: letters.reversed(), as: UTF8.self) + String(row)
    }
}

/// A range of cells, `A1:C7` (or one cell, `B2`), as a `ref` attribute gives it.
struct CellRange {
    var first: CellReference
    var last: CellReference

    /// - Returns: nil when `bytes` is not one or two references.
    init?(_ bytes: ArraySlice<UInt8>) {
        let corners = bytes.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard corners.count <= 2, let from = corners.first, let to = corners.last,
            let first = Array(from).withUnsafeBufferPointer(CellReference.init),
            let last = Array(to).withUnsafeBufferPointer(CellReference.init)
        else { return nil }
        self.first = first
        self.last = last
    }

    func holds(column: Int, row: Int) -> Bool {
        column >= first.column && column <= last.column && holds(row: row)
    }

    func holds(row: Int) -> Bool { row >= first.row && row <= last.row }
}
