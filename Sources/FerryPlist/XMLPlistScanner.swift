import FerryCore

// MARK: - Design
//
// The scanner turns the UTF-8 bytes of an XML property list into markup and
// text. It works on an `UnsafeBufferPointer<UInt8>` (the whole document, or a
// reader's `InputWindow`) with a plain integer position, and never looks at
// `Character`s.
//
//     <dict><key>a &amp; b</key><integer>7</integer></dict>
//     ^     ^             ^     ^                   ^
//     0     6             20    26                  46
//
//     at 0   nextMarkup() → .open(.dict)
//     at 6   nextMarkup() → .open(.key); text(of: .key) decodes "a & b" into
//            `scratch`, since it holds a reference, and stops after </key>
//     at 26  nextMarkup() → .open(.integer); text(of: .integer) → 35..<36,
//            the "7" in place, and stops after </integer>
//     at 46  nextMarkup() → .close(.dict)
//
// `nextMarkup()` skips what carries no value before the next tag: white
// space, comments, processing instructions (`<?xml …?>`) and the DOCTYPE.
// Any other text there is an error. Only the eleven plist elements are
// known; attributes are checked for form and ignored.
//
// `text(of:)` reads an element's character data up to its end tag, which
// must match. Plain text is returned as a range of the buffer, uncopied.
// Text with references (`&amp;`, `&#233;`, `&#xE9;`), CDATA sections,
// comments or carriage returns (XML turns CR LF and lone CR into LF) is
// decoded into `scratch`. UTF-8 is checked on the raw bytes of the text.
//
// Entities are never expanded: only the five XML predefines and character
// references exist. A DOCTYPE whose internal subset declares an entity is
// refused (`xmlplist.entityDeclaration`), so no "billion laughs".
//
// When the bytes end inside a construct and the input has more, the scanner
// throws `.needMore`; a reader refills its window and scans the record again
// from its start. When the input has ended, the same place is a located
// `xmlplist.unterminated` at the end of the input.

/// Why a scan stopped early.
enum XMLPlistScanError: Error {
    /// The bytes ended inside a construct and the input has more.
    case needMore
    /// The input is malformed at byte `index` of the buffer.
    case failed(FerryError, index: Int)
}

/// The elements of a property list.
enum XMLPlistTag: Int, Sendable {
    case plist, dict, key, array, string, integer, real, `true`, `false`, date, data

    var name: String {
        switch self {
        case .plist: "plist"
        case .dict: "dict"
        case .key: "key"
        case .array: "array"
        case .string: "string"
        case .integer: "integer"
        case .real: "real"
        case .true: "true"
        case .false: "false"
        case .date: "date"
        case .data: "data"
        }
    }

    /// The start tag, as messages show it.
    var markup: String { "<\(name)>" }

    /// The type a value of this element has in records, as `type.*` catalog entries name it.
    var recordTypeName: String {
        switch self {
        case .dict, .plist, .key: "object"
        case .array: "array"
        case .string: "string"
        case .integer: "integer"
        case .real: "double"
        case .true, .false: "bool"
        case .date: "date"
        case .data: "bytes"
        }
    }

    /// The tag named by `bytes[range]`, or nil for another name.
    @inline(__always)
    static func named(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> XMLPlistTag? {
        func rest(_ tail: StaticString, _ tag: XMLPlistTag) -> XMLPlistTag? {
            guard range.count == tail.utf8CodeUnitCount + 1 else { return nil }
            let first = range.lowerBound + 1
            for offset in 0..<tail.utf8CodeUnitCount where bytes[first + offset] != tail.utf8Start[offset] {
                return nil
            }
            return tag
        }
        guard !range.isEmpty else { return nil }
        switch bytes[range.lowerBound] {
        case UInt8(ascii: "k"): return rest("ey", .key)
        case UInt8(ascii: "s"): return rest("tring", .string)
        case UInt8(ascii: "i"): return rest("nteger", .integer)
        case UInt8(ascii: "r"): return rest("eal", .real)
        case UInt8(ascii: "a"): return rest("rray", .array)
        case UInt8(ascii: "t"): return rest("rue", .true)
        case UInt8(ascii: "f"): return rest("alse", .false)
        case UInt8(ascii: "p"): return rest("list", .plist)
        case UInt8(ascii: "d"): return rest("ict", .dict) ?? rest("ate", .date) ?? rest("ata", .data)
        default: return nil
        }
    }
}

/// What the input ended inside of, for `xmlplist.unterminated`; its text is
/// built only when an error needs it.
enum XMLPlistConstruct {
    /// An element's content: `<string>`.
    case element(XMLPlistTag)
    /// A start or end tag: `<dict`, `</dict`.
    case startTag(XMLPlistTag)
    case endTag(XMLPlistTag)
    /// Markup whose name has not been read: `<`, `<!`.
    case markup
    case declaration
    case comment
    case cdata
    case doctype
    case processingInstruction

    var text: String {
        switch self {
        case .element(let tag): tag.markup
        case .startTag(let tag): "<" + tag.name
        case .endTag(let tag): "</" + tag.name
        case .markup: "<"
        case .declaration: "<!"
        case .comment: "<!--"
        case .cdata: "<![CDATA["
        case .doctype: "<!DOCTYPE"
        case .processingInstruction: "<?"
        }
    }
}

/// One piece of markup between values.
enum XMLPlistMarkup: Equatable, Sendable {
    /// `<dict>`
    case open(XMLPlistTag)
    /// `<dict/>`
    case empty(XMLPlistTag)
    /// `</dict>`
    case close(XMLPlistTag)
    /// The end of a final input.
    case end

    /// The markup as messages show it.
    var text: String {
        switch self {
        case .open(let tag): tag.markup
        case .empty(let tag): "<\(tag.name)/>"
        case .close(let tag): "</\(tag.name)>"
        case .end: ""
        }
    }
}

/// Reads XML property-list markup and text from a buffer. See the design note above.
///
/// - Complexity: O(n) in the bytes scanned; a rescan after `.needMore` starts
///   again from the record's start.
struct XMLPlistScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var position: Int
    /// True when the buffer holds the rest of the input, so running out of
    /// bytes is an error rather than a reason to refill.
    let isFinal: Bool
    /// Where the markup `nextMarkup()` returned last begins.
    private(set) var markupStart = 0
    /// The last decoded text, when `text(of:)` returned nil.
    private(set) var scratch: [UInt8] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>, position: Int, isFinal: Bool) {
        self.bytes = bytes
        self.position = position
        self.isFinal = isFinal
    }

    // MARK: - Markup

    /// The next tag, after skipping white space, comments, processing
    /// instructions and the DOCTYPE; `.end` at the end of a final input.
    /// - Throws: `xmlplist.unexpectedCharacter` for other text,
    ///   `xmlplist.unknownTag`, `xmlplist.unterminated`,
    ///   `xmlplist.entityDeclaration`, `xmlplist.invalidUTF8`.
    mutating func nextMarkup() throws(XMLPlistScanError) -> XMLPlistMarkup {
        let end = bytes.count
        while true {
            var index = position
            while index < end && Self.isSpace(bytes[index]) { index += 1 }
            position = index
            markupStart = index
            guard index < end else {
                if isFinal { return .end }
                throw .needMore
            }
            guard bytes[index] == UInt8(ascii: "<") else {
                throw .failed(.xmlPlistUnexpectedCharacter(bytes[index]), index: index)
            }
            try need(2, at: index, inside: .markup)
            switch bytes[index + 1] {
            case UInt8(ascii: "/"):
                let (tag, after) = try closeTag(at: index)
                position = after
                return .close(tag)
            case UInt8(ascii: "?"):
                position = try endOfProcessingInstruction(at: index)
            case UInt8(ascii: "!"):
                if try matches("<!--", at: index) {
                    position = try endOfComment(at: index)
                } else if try matches("<!DOCTYPE", at: index) {
                    position = try endOfDoctype(at: index)
                } else {
                    try need(3, at: index, inside: .declaration)
                    throw .failed(.xmlPlistUnexpectedCharacter(bytes[index + 2]), index: index + 2)
                }
            default:
                let (markup, after) = try openTag(at: index)
                position = after
                return markup
            }
        }
    }

    /// Reads `<name attributes>` or `<name attributes/>` at `start`.
    private func openTag(at start: Int) throws(XMLPlistScanError) -> (XMLPlistMarkup, Int) {
        let (tag, nameEnd) = try tagName(from: start + 1)
        var index = nameEnd
        let construct = XMLPlistConstruct.startTag(tag)
        while true {
            try need(1, at: index, inside: construct)
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: ">"): return (.open(tag), index + 1)
            case UInt8(ascii: "/"):
                try need(2, at: index, inside: construct)
                guard bytes[index + 1] == UInt8(ascii: ">") else {
                    throw .failed(.xmlPlistUnexpectedCharacter(bytes[index + 1]), index: index + 1)
                }
                return (.empty(tag), index + 2)
            case _ where Self.isSpace(byte): index += 1
            default:
                // An attribute, such as version="1.0"; its value is ignored.
                guard Self.isNameStart(byte) && Self.isSpace(bytes[index - 1]) else {
                    throw .failed(.xmlPlistUnexpectedCharacter(byte), index: index)
                }
                while true {
                    try need(1, at: index, inside: construct)
                    guard Self.isNameByte(bytes[index]) else { break }
                    index += 1
                }
                index = try skipSpace(from: index, inside: construct)
                guard bytes[index] == UInt8(ascii: "=") else {
                    throw .failed(.xmlPlistUnexpectedCharacter(bytes[index]), index: index)
                }
                index = try skipSpace(from: index + 1, inside: construct)
                let quote = bytes[index]
                guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                    throw .failed(.xmlPlistUnexpectedCharacter(quote), index: index)
                }
                index += 1
                while true {
                    try need(1, at: index, inside: construct)
                    let inner = bytes[index]
                    if inner == quote { break }
                    if inner == UInt8(ascii: "<") { throw .failed(.xmlPlistUnexpectedCharacter(inner), index: index) }
                    index += 1
                }
                try checkUTF8(start..<index)
                index += 1
            }
        }
    }

    /// Reads `</name>` at `start`.
    private func closeTag(at start: Int) throws(XMLPlistScanError) -> (XMLPlistTag, Int) {
        let (tag, nameEnd) = try tagName(from: start + 2)
        let index = try skipSpace(from: nameEnd, inside: .endTag(tag))
        guard bytes[index] == UInt8(ascii: ">") else {
            throw .failed(.xmlPlistUnexpectedCharacter(bytes[index]), index: index)
        }
        return (tag, index + 1)
    }

    /// The element name starting at `start` and the index after it.
    private func tagName(from start: Int) throws(XMLPlistScanError) -> (XMLPlistTag, Int) {
        var index = start
        while index < bytes.count && Self.isNameByte(bytes[index]) { index += 1 }
        try need(1, at: index, inside: .markup)
        guard index > start, Self.isNameStart(bytes[start]) else {
            throw .failed(.xmlPlistUnexpectedCharacter(bytes[start]), index: start)
        }
        guard let tag = XMLPlistTag.named(bytes, start..<index) else {
            try checkUTF8(start..<index)
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            throw .failed(.xmlPlistUnknownTag(name), index: start - 1)
        }
        return (tag, index)
    }

    // MARK: - Text

    /// Reads the character data of the element `tag`, whose start tag was
    /// just read, through its end tag.
    /// - Returns: the range of the text in `bytes` when it needed no
    ///   decoding; nil when the decoded text is in `scratch`.
    /// - Throws: `xmlplist.mismatchedTag`, `xmlplist.unexpectedTag` for an
    ///   element inside, `xmlplist.invalidEntity`, `xmlplist.invalidUTF8`,
    ///   `xmlplist.unterminated`.
    mutating func text(of tag: XMLPlistTag) throws(XMLPlistScanError) -> Range<Int>? {
        let start = position
        let end = bytes.count
        var index = start
        var runStart = start
        var decoded = false
        func flush(upTo stop: Int) {
            if !decoded {
                scratch.removeAll(keepingCapacity: true)
                decoded = true
            }
            scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<stop]))
        }
        while true {
            while index < end {
                let byte = bytes[index]
                if byte <= UInt8(ascii: "<")
                    && (byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") || byte == 0x0D)
                {
                    break
                }
                index += 1
            }
            try need(1, at: index, inside: .element(tag))
            switch bytes[index] {
            case UInt8(ascii: "&"):
                flush(upTo: index)
                index = try decodeReference(at: index, inside: .element(tag))
            case 0x0D:
                flush(upTo: index)
                scratch.append(0x0A)
                index += 1
                try need(1, at: index, inside: .element(tag))
                if bytes[index] == 0x0A { index += 1 }
            default:
                try need(2, at: index, inside: .element(tag))
                switch bytes[index + 1] {
                case UInt8(ascii: "/"):
                    let (found, after) = try closeTag(at: index)
                    guard found == tag else {
                        throw .failed(
                            .xmlPlistMismatchedTag(found: "</\(found.name)>", expected: "</\(tag.name)>"), index: index)
                    }
                    try checkUTF8(start..<index)
                    position = after
                    guard decoded else { return start..<index }
                    flush(upTo: index)
                    return nil
                case UInt8(ascii: "!"):
                    flush(upTo: index)
                    if try matches("<!--", at: index) {
                        index = try endOfComment(at: index)
                    } else if try matches("<![CDATA[", at: index) {
                        let close = try find("]]>", from: index + 9, inside: .cdata)
                        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[(index + 9)..<close]))
                        index = close + 3
                    } else {
                        try need(3, at: index, inside: .declaration)
                        throw .failed(.xmlPlistUnexpectedCharacter(bytes[index + 2]), index: index + 2)
                    }
                case UInt8(ascii: "?"):
                    flush(upTo: index)
                    index = try endOfProcessingInstruction(at: index)
                default:
                    let (markup, _) = try openTag(at: index)
                    throw .failed(.xmlPlistUnexpectedTag(markup.text), index: index)
                }
            }
            runStart = index
        }
    }

    /// Calls `body` with the text `text(of:)` returned.
    func withText<Result>(_ range: Range<Int>?, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let range { return body(UnsafeBufferPointer(rebasing: bytes[range])) }
        return scratch.withUnsafeBufferPointer(body)
    }

    /// The text of the element `tag` as a string.
    /// - Throws: as `text(of:)`.
    mutating func string(of tag: XMLPlistTag) throws(XMLPlistScanError) -> String {
        let range = try text(of: tag)
        return withText(range) { String(decoding: $0, as: UTF8.self) }
    }

    /// Decodes the reference at `start` (`&amp;`, `&#233;`, `&#xE9;`) into
    /// `scratch` and returns the index after its `;`.
    private mutating func decodeReference(
        at start: Int, inside construct: XMLPlistConstruct
    ) throws(XMLPlistScanError) -> Int {
        var index = start + 1
        while true {
            try need(1, at: index, inside: construct)
            let byte = bytes[index]
            if byte == UInt8(ascii: ";") { break }
            guard index - start < 16 && (Self.isNameByte(byte) || byte == UInt8(ascii: "#")) else {
                throw .failed(.xmlPlistInvalidEntity(reference(start..<index)), index: start)
            }
            index += 1
        }
        let name = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<index])
        let invalid = XMLPlistScanError.failed(.xmlPlistInvalidEntity(reference(start..<(index + 1))), index: start)
        if name.first == UInt8(ascii: "#") {
            let hex = name.count > 1 && name[1] == UInt8(ascii: "x")
            let digits = UnsafeBufferPointer(rebasing: name[(hex ? 2 : 1)...])
            guard !digits.isEmpty else { throw invalid }
            var scalar: UInt32 = 0
            for digit in digits {
                guard let value = Self.digitValue(digit, hex: hex), scalar <= 0x10FFFF else { throw invalid }
                scalar = scalar * (hex ? 16 : 10) + UInt32(value)
            }
            guard scalar > 0 && scalar <= 0x10FFFF && !(0xD800...0xDFFF).contains(scalar) else { throw invalid }
            UTF8Validation.append(scalar: scalar, to: &scratch)
            return index + 1
        }
        func named(_ literal: StaticString) -> Bool {
            name.count == literal.utf8CodeUnitCount
                && name.elementsEqual(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
        }
        let replacement: UInt8
        if named("amp") {
            replacement = UInt8(ascii: "&")
        } else if named("lt") {
            replacement = UInt8(ascii: "<")
        } else if named("gt") {
            replacement = UInt8(ascii: ">")
        } else if named("quot") {
            replacement = UInt8(ascii: "\"")
        } else if named("apos") {
            replacement = UInt8(ascii: "'")
        } else {
            throw invalid
        }
        scratch.append(replacement)
        return index + 1
    }

    private func reference(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    // MARK: - Skipped constructs

    /// The index after the comment `<!-- … -->` at `start`.
    private func endOfComment(at start: Int) throws(XMLPlistScanError) -> Int {
        let close = try find("-->", from: start + 4, inside: .comment)
        try checkUTF8(start..<close)
        return close + 3
    }

    /// The index after the processing instruction `<? … ?>` at `start`.
    private func endOfProcessingInstruction(at start: Int) throws(XMLPlistScanError) -> Int {
        let close = try find("?>", from: start + 2, inside: .processingInstruction)
        try checkUTF8(start..<close)
        return close + 2
    }

    /// The index after the DOCTYPE at `start`. An internal subset is skipped,
    /// unless it declares an entity.
    /// - Throws: `xmlplist.entityDeclaration`, `xmlplist.unterminated`.
    private func endOfDoctype(at start: Int) throws(XMLPlistScanError) -> Int {
        var index = start + 9
        var inSubset = false
        while true {
            try need(1, at: index, inside: .doctype)
            switch bytes[index] {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                let quote = bytes[index]
                index += 1
                while true {
                    try need(1, at: index, inside: .doctype)
                    if bytes[index] == quote { break }
                    index += 1
                }
                index += 1
            case UInt8(ascii: "["):
                inSubset = true
                index += 1
            case UInt8(ascii: "]"):
                inSubset = false
                index += 1
            case UInt8(ascii: ">") where !inSubset:
                try checkUTF8(start..<index)
                return index + 1
            case UInt8(ascii: "<") where inSubset:
                if try matches("<!ENTITY", at: index) {
                    throw .failed(.xmlPlistEntityDeclaration(), index: index)
                } else if try matches("<!--", at: index) {
                    index = try endOfComment(at: index)
                } else {
                    index += 1
                }
            default:
                index += 1
            }
        }
    }

    // MARK: - Bytes

    /// Makes sure `count` bytes from `index` are in the buffer.
    /// - Throws: `.needMore`, or `xmlplist.unterminated` for `construct` at
    ///   the end of a final input.
    @inline(__always)
    private func need(_ count: Int, at index: Int, inside construct: XMLPlistConstruct) throws(XMLPlistScanError) {
        if index + count <= bytes.count { return }
        if !isFinal { throw .needMore }
        throw .failed(.xmlPlistUnterminated(construct.text), index: bytes.count)
    }

    /// Whether `literal` is at `index`.
    /// - Throws: `.needMore` when the buffer ends inside a prefix of it.
    private func matches(_ literal: StaticString, at index: Int) throws(XMLPlistScanError) -> Bool {
        let length = literal.utf8CodeUnitCount
        let available = min(length, bytes.count - index)
        for offset in 0..<available where bytes[index + offset] != literal.utf8Start[offset] { return false }
        if available < length {
            if isFinal { return false }
            throw .needMore
        }
        return true
    }

    /// The index of the next `literal` at or after `index`.
    private func find(
        _ literal: StaticString, from index: Int, inside construct: XMLPlistConstruct
    ) throws(XMLPlistScanError) -> Int {
        let first = literal.utf8Start[0]
        let length = literal.utf8CodeUnitCount
        var index = index
        while true {
            while index < bytes.count && bytes[index] != first { index += 1 }
            try need(length, at: index, inside: construct)
            var same = true
            for offset in 1..<length where bytes[index + offset] != literal.utf8Start[offset] {
                same = false
                break
            }
            if same { return index }
            index += 1
        }
    }

    private func skipSpace(from index: Int, inside construct: XMLPlistConstruct) throws(XMLPlistScanError) -> Int {
        var index = index
        while index < bytes.count && Self.isSpace(bytes[index]) { index += 1 }
        try need(1, at: index, inside: construct)
        return index
    }

    /// - Throws: `xmlplist.invalidUTF8` at the first byte of `range` that is not valid UTF-8.
    @inline(__always)
    func checkUTF8(_ range: Range<Int>) throws(XMLPlistScanError) {
        if let bad = UTF8Validation.firstInvalidIndex(in: bytes, range) {
            throw .failed(.xmlPlistInvalidUTF8(), index: bad)
        }
    }

    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    @inline(__always)
    static func isNameStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: ":")
    }

    @inline(__always)
    static func isNameByte(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")
    }

    static func digitValue(_ byte: UInt8, hex: Bool) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

// MARK: - Locations

extension XMLPlistScanner {
    /// The location of byte `index` of a whole document: line and column
    /// counted as `InputWindow` counts them (LF, CRLF or a lone CR end a
    /// line; columns count Unicode scalars; a leading byte order mark is no column).
    static func location(of index: Int, in bytes: UnsafeBufferPointer<UInt8>, file: String) -> SourceLocation {
        let end = min(max(index, 0), bytes.count)
        var line = 1
        var lineStart = 0
        var cursor = 0
        while cursor < end {
            let byte = bytes[cursor]
            if byte == 0x0A || byte == 0x0D {
                // A CRLF ends one line, at its CR.
                if byte == 0x0D && cursor + 1 < end && bytes[cursor + 1] == 0x0A { cursor += 1 }
                line += 1
                lineStart = cursor + 1
            }
            cursor += 1
        }
        var column = 1
        for position in lineStart..<end where bytes[position] & 0xC0 != 0x80 { column += 1 }
        if line == 1 && end >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { column -= 1 }
        return SourceLocation(file: file, byteOffset: index, line: line, column: column)
    }
}
