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

/// One record of a mapped document: an object.
struct JSONMappedRecord {
    /// From `{` to after `}`.
    var range: Range<Int>
    var members: [JSONMappedMember]
}

/// The records of a whole JSON document or JSON Lines file (see the design note).
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
    var records: [JSONMappedRecord] = []

    /// Maps `bytes`, a JSON document (`lines` false) or JSON Lines.
    /// - Throws: `edit.formatNotEditable` for a document whose records are
    ///   not all objects, or that the scanner cannot read.
    init(_ bytes: [UInt8], lines: Bool, maxDepth: Int, format: String) throws(FerryError) {
        let mapped: (Shape, [JSONMappedRecord])? = bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer, position: 0, isFinal: true, maxDepth: maxDepth)
            return try? JSONRecordMap.walk(&scanner, lines: lines)
        }
        guard let mapped else { throw .editFormatNotEditable(format) }
        (shape, records) = mapped
    }

    private static func walk(_ scanner: inout JSONScanner, lines: Bool) throws(JSONScanError) -> (Shape, [JSONMappedRecord]) {
        var records: [JSONMappedRecord] = []
        if lines {
            while true {
                scanner.skipWhitespace()
                if scanner.position == scanner.bytes.count { return (.lines, records) }
                records.append(try object(&scanner))
            }
        }
        if try scanner.peekSignificant() == UInt8(ascii: "{") { return (.object, [try object(&scanner)]) }
        try scanner.expect(UInt8(ascii: "["))
        let open = scanner.position - 1
        if try scanner.peekSignificant() != UInt8(ascii: "]") {
            while true {
                records.append(try object(&scanner))
                guard try scanner.peekSignificant() == UInt8(ascii: ",") else { break }
                scanner.position += 1
            }
        }
        guard try scanner.peekSignificant() == UInt8(ascii: "]") else { throw scanner.unexpected(at: scanner.position) }
        return (.array(open: open, close: scanner.position), records)
    }

    /// Maps the object at the position (after white space).
    private static func object(_ scanner: inout JSONScanner) throws(JSONScanError) -> JSONMappedRecord {
        try scanner.expect(UInt8(ascii: "{"))
        let start = scanner.position - 1
        var members: [JSONMappedMember] = []
        if try scanner.peekSignificant() == UInt8(ascii: "}") {
            scanner.position += 1
            return JSONMappedRecord(range: start..<scanner.position, members: [])
        }
        while true {
            guard try scanner.peekSignificant() == UInt8(ascii: "\"") else { throw scanner.unexpected(at: scanner.position) }
            let keyStart = scanner.position
            let name = try scanner.parseString()
            let key = keyStart..<scanner.position
            try scanner.expect(UInt8(ascii: ":"))
            scanner.skipWhitespace()
            let valueStart = scanner.position
            _ = try scanner.parseValue(depth: 1)
            members.append(JSONMappedMember(name: name, key: key, value: valueStart..<scanner.position))
            let next = try scanner.peekSignificant()
            scanner.position += 1
            if next == UInt8(ascii: "}") { break }
            guard next == UInt8(ascii: ",") else { throw scanner.unexpected(at: scanner.position - 1) }
        }
        return JSONMappedRecord(range: start..<scanner.position, members: members)
    }
}
