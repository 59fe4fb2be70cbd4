import FerryCore

// MARK: - Design
//
// The columns of a CSV file that no kind or schema types are typed from
// what they hold: a column is an integer, a number or a boolean when every
// cell in it that is not empty (nor the `--null` text) is one, in JSON's
// spelling; otherwise it stays text. An empty cell of a typed column is
// null, as it is for the columns a schema types.
//
//     zip,price,stock,active,note          zip     text    (00123: a leading zero)
//     00123,1.50,3,true,                   price   number  (1.50 and 2 both are)
//     10115,2,,false,ok                    stock   integer (the empty cell is null)
//                                          active  boolean
//                                          note    text    (`ok`)
//
// JSON's spelling, because typed cells must come out as written and go
// back in as they came: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
// is a number (an integer without a fraction or exponent); `00123`, `+1`,
// `.5`, `5.`, `1,5`, `NaN` and `inf` are not (JSON holds no such text, and
// a zip code or a phone number keeps its zeros). Booleans are `true` and
// `false`, in lower case: a column of `yes`/`no` or `1`/`0` stays as it
// is (text, or integers), because those read back as something else.
//
// `observe` sees every cell of a column, in a first pass over the whole
// file when it can be read twice, else over the rows the reader's window
// holds (a sample); `types` then gives each column's type.

/// Works out the types of a CSV file's free columns from their cells.
package struct CSVTypeInference {
    /// Each shape a cell may have, as a bit.
    package struct Shapes: OptionSet, Sendable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }

        package static let integer = Shapes(rawValue: 1)
        package static let number = Shapes(rawValue: 2)
        package static let boolean = Shapes(rawValue: 4)
        package static let all: Shapes = [.integer, .number, .boolean]
    }

    /// The shapes each column's cells all have so far; empty for columns
    /// that are text (or that a schema types, which are not looked at).
    private var shapes: [Shapes]
    /// Whether a column has had a cell that is not empty.
    private var filled: [Bool]
    private let nullText: [UInt8]?
    /// The rows looked at.
    package private(set) var rows = 0

    /// - Parameters:
    ///   - free: for each column of the header, whether it is to be inferred.
    ///   - nullText: the `--null` text, which counts as an empty cell.
    package init(free: [Bool], nullText: [UInt8]?) {
        shapes = free.map { $0 ? .all : [] }
        filled = Array(repeating: false, count: free.count)
        self.nullText = nullText
    }

    /// Whether every free column has turned out to be text: nothing more to look at.
    package var settled: Bool { shapes.allSatisfy { $0.isEmpty } }

    /// Looks at the cells of one scanned row.
    package mutating func observe(_ scanner: CSVScanner, _ fields: UnsafeBufferPointer<CSVField>) {
        rows += 1
        let count = min(fields.count, shapes.count)
        for index in 0..<count where !shapes[index].isEmpty {
            let field = fields[index]
            let bytes = UnsafeBufferPointer(rebasing: scanner.bytes[field.start..<field.end])
            if bytes.isEmpty || isNullText(bytes, quoted: field.quoted) { continue }
            filled[index] = true
            shapes[index].formIntersection(Self.shapes(of: bytes))
        }
    }

    /// The type of each column: nil for text, for a column that was not
    /// looked at, and for one whose cells were all empty.
    package func types() -> [FieldType?] {
        zip(shapes, filled).map(Self.type)
    }

    /// The type of a column whose cells that are not empty all have
    /// `shapes`: nil for text, and when `filled` is false (no such cell).
    package static func type(_ shapes: Shapes, filled: Bool) -> FieldType? {
        guard filled else { return nil }
        if shapes.contains(.integer) { return .integer }
        if shapes.contains(.number) { return .number }
        if shapes.contains(.boolean) { return .bool }
        return nil
    }

    /// One column's inference, for a caller that reads the cells itself
    /// (`ReadContext.defersTypeInference`): the same rule, cell by cell,
    /// and columns of several parts of a file merged into one.
    package struct Column: Sendable {
        /// The shapes its cells that are not empty all have so far.
        package private(set) var shapes = Shapes.all
        /// Whether it has had a cell that is not empty.
        package private(set) var filled = false

        package init() {}

        /// Whether it has turned out to be text.
        package var isText: Bool { shapes.isEmpty }

        /// Looks at the text of a cell (the `--null` text is no cell here).
        /// - Returns: the shapes of the cell.
        @inline(__always)
        package mutating func observe(_ bytes: UnsafeBufferPointer<UInt8>) -> Shapes {
            guard !bytes.isEmpty else { return [] }
            filled = true
            guard !shapes.isEmpty else { return [] }
            let found = CSVTypeInference.shapes(of: bytes)
            shapes.formIntersection(found)
            return found
        }

        /// Looks at a cell that is not empty and has no shape (a quoted
        /// cell whose doubled quotes were undone, a nested value).
        package mutating func observeText() {
            filled = true
            shapes = []
        }

        /// Adds what `other`, the column of a later part, saw.
        package mutating func merge(_ other: Column) {
            shapes.formIntersection(other.shapes)
            filled = filled || other.filled
        }

        /// The column's type, as `types()` gives it.
        package var type: FieldType? { CSVTypeInference.type(shapes, filled: filled) }
    }

    private func isNullText(_ bytes: UnsafeBufferPointer<UInt8>, quoted: Bool) -> Bool {
        guard let nullText, !quoted else { return false }
        return bytes.elementsEqual(nullText)
    }

    // MARK: - Cells

    /// Whether the text of a cell fits `type` as inference reads it
    /// (an empty cell fits every type).
    package static func fits(_ bytes: UnsafeBufferPointer<UInt8>, _ type: FieldType) -> Bool {
        if bytes.isEmpty { return true }
        let found = shapes(of: bytes)
        switch type {
        case .integer: return found.contains(.integer)
        case .number: return found.contains(.number)
        case .bool: return found.contains(.boolean)
        case .string, .photo: return true
        }
    }

    /// The shapes of a cell that is not empty: a JSON integer is also a
    /// number; `true` and `false` are booleans; anything else has none.
    /// - Complexity: O(n) in the cell's length, one look at each byte.
    @inline(__always)
    package static func shapes(of bytes: UnsafeBufferPointer<UInt8>) -> Shapes {
        let count = bytes.count
        guard let first = bytes.first else { return [] }
        // Byte by byte: `elementsEqual` over a string's UTF-8 view cost 62M
        // of 979M instructions converting 200,000 rows with a bool column.
        if first == UInt8(ascii: "t") {
            let isTrue = count == 4 && bytes[1] == UInt8(ascii: "r") && bytes[2] == UInt8(ascii: "u") && bytes[3] == UInt8(ascii: "e")
            return isTrue ? .boolean : []
        }
        if first == UInt8(ascii: "f") {
            let isFalse =
                count == 5 && bytes[1] == UInt8(ascii: "a") && bytes[2] == UInt8(ascii: "l") && bytes[3] == UInt8(ascii: "s")
                && bytes[4] == UInt8(ascii: "e")
            return isFalse ? .boolean : []
        }
        var index = 0
        if first == UInt8(ascii: "-") { index = 1 }
        // The whole part: 0, or digits that do not start with 0.
        guard index < count, bytes[index] &- 0x30 < 10 else { return [] }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < count, bytes[index] &- 0x30 < 10 { index += 1 }
        }
        if index == count { return [.integer, .number] }
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < count, bytes[index] &- 0x30 < 10 else { return [] }
            while index < count, bytes[index] &- 0x30 < 10 { index += 1 }
        }
        if index < count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < count, bytes[index] &- 0x30 < 10 else { return [] }
            while index < count, bytes[index] &- 0x30 < 10 { index += 1 }
        }
        return index == count ? .number : []
    }
}
