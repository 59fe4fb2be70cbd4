import FerryCore

// MARK: - Design
//
// Where each record and each member of a whole JSON or JSON Lines document
// lies, for splicing edits (`JSONFileEditor`). The reader's own
// `JSONScanner` walks the document; values are skipped by parsing them, and
// only their byte ranges are kept:
//
//     bytes:   [ { " n a m e " : " W i i " , " p r i c e " : 2 6 9 } ]
//     index:   0 1 2         7 8 9       15 16      23 24 25  28 29
//     record 0 = 1..<29; members: name key 2..<8, value 9..<15;
//                                 price key 16..<23, value 24..<27
//
// The bytes between the pieces (indentation, the space after a colon) are
// what a new member or record copies, so it is written in the file's style.

/// One member of a mapped object.
struct JSONMappedMember {
    var name: String
    /// The key, quotes included.
    var key: Range<Int>
    var value: Range<Int>
}

/// The records of a whole JSON document or JSON Lines file (see the design
/// note): where each object lies; an object's members are mapped when an
/// edit needs them (`members(of:in:)`), so a large file costs a range a record.
struct JSONRecordMap {
    enum Shape {
        /// An array of records; where its `[` and `]` are.
        case array(open: Int, close: Int)
        /// One object, the whole document.
        case object
        /// JSON Lines: one record a line.
        case lines
    }

    var shape: Shape
    /// Each record's object, from `{` to after `}`.
    var records: [Range<Int>] = []
    private let maxDepth: Int
    private let format: String

    /// Maps `bytes`, a JSON document (`lines` false) or JSON Lines.
    /// - Throws: `edit.formatNotEditable` for a document whose records are
    ///   not all objects, or that the scanner cannot read.
    init(_ bytes: [UInt8], lines: Bool, maxDepth: Int, format: String) throws(FerryError) {
        self.maxDepth = maxDepth
        self.format = format
        let mapped: (Shape, [Range<Int>])? = bytes.withUnsafeBufferPointer { buffer in
            // A byte-order mark is passed over, as the reader passes it.
            let start = buffer.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            var scanner = JSONScanner(buffer, position: start, isFinal: true, maxDepth: maxDepth)
            return try? JSONRecordMap.walk(&scanner, lines: lines)
        }
        guard let mapped else { throw .editFormatNotEditable(format) }
        (shape, records) = mapped
    }

    /// The members of the object at `range` of `bytes`.
    func members(of range: Range<Int>, in bytes: [UInt8]) throws(FerryError) -> [JSONMappedMember] {
        let members: [JSONMappedMember]? = bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer, position: range.lowerBound, isFinal: true, maxDepth: maxDepth)
            var found: [JSONMappedMember]? = []
            guard (try? JSONRecordMap.object(&scanner, members: &found)) != nil else { return nil }
            return found
        }
        guard let members else { throw .editFormatNotEditable(format) }
        return members
    }

    private static func walk(_ scanner: inout JSONScanner, lines: Bool) throws(JSONScanError) -> (Shape, [Range<Int>]) {
        var records: [Range<Int>] = []
        var none: [JSONMappedMember]? = nil
        if lines {
            while true {
                scanner.skipWhitespace()
                if scanner.position == scanner.bytes.count { return (.lines, records) }
                records.append(try object(&scanner, members: &none))
            }
        }
        if try scanner.peekSignificant() == UInt8(ascii: "{") { return (.object, [try object(&scanner, members: &none)]) }
        try scanner.expect(UInt8(ascii: "["))
        let open = scanner.position - 1
        if try scanner.peekSignificant() != UInt8(ascii: "]") {
            while true {
                records.append(try object(&scanner, members: &none))
                guard try scanner.peekSignificant() == UInt8(ascii: ",") else { break }
                scanner.position += 1
            }
        }
        guard try scanner.peekSignificant() == UInt8(ascii: "]") else { throw scanner.unexpected(at: scanner.position) }
        return (.array(open: open, close: scanner.position), records)
    }

    /// Walks the object at the position (after white space), appending its
    /// members to `members` when it is not nil.
    /// - Returns: the object's range.
    private static func object(
        _ scanner: inout JSONScanner, members: inout [JSONMappedMember]?
    ) throws(JSONScanError) -> Range<Int> {
        try scanner.expect(UInt8(ascii: "{"))
        let start = scanner.position - 1
        if try scanner.peekSignificant() == UInt8(ascii: "}") {
            scanner.position += 1
            return start..<scanner.position
        }
        var others: [Value] = []
        while true {
            guard try scanner.peekSignificant() == UInt8(ascii: "\"") else { throw scanner.unexpected(at: scanner.position) }
            let keyStart = scanner.position
            let raw = try scanner.scanString()
            let key = keyStart..<scanner.position
            try scanner.expect(UInt8(ascii: ":"))
            scanner.skipWhitespace()
            let valueStart = scanner.position
            // Values are passed over as raw values: no string is made.
            others.removeAll(keepingCapacity: true)
            _ = try scanner.parseRawValue(depth: 1, others: &others)
            if members != nil {
                let name = try scanner.makeString(raw)
                members?.append(JSONMappedMember(name: name, key: key, value: valueStart..<scanner.position))
            }
            let next = try scanner.peekSignificant()
            scanner.position += 1
            if next == UInt8(ascii: "}") { break }
            guard next == UInt8(ascii: ",") else { throw scanner.unexpected(at: scanner.position - 1) }
        }
        return start..<scanner.position
    }
}
