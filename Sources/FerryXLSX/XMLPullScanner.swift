#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FerryCore

// MARK: - Design
//
// A pull scanner for the XML of a workbook's parts, read as they inflate:
// it holds a window of the part (64 KiB, grown only for a token larger
// than that, up to the record limit), and hands out one token at a time.
//
//     <row r="2"><c r="A2" t="s"><v>0</v></c><c r="B2"><v>19.99</v></c></row>
//     start row [r=2] · start c [r=A2, t=s] · start v · text "0" · end v · end c · …
//
// Names are local names (`x:row` is `row`); attribute values and text are
// slices of the window, valid until the next call, with their entities
// undone on demand (`appendText`). A DTD (`<!DOCTYPE`, `<!ENTITY`) is
// refused: the five predefined entities and character references are all
// SpreadsheetML needs, and declared entities are how XML bombs expand.
// Line and column are counted only when an error needs them, from the
// lines of the window's discarded bytes (counted as the window moves) and
// the bytes before the error.
//
// Why not the XML plist scanner: it reads a whole document from memory
// and builds plist values (dict, key, array), where a sheet must be read
// as it inflates, in a moving window, with attributes, which plists have
// none of; sharing it would slow plists or fetter both.

/// One XML token.
enum XMLToken: Equatable {
    /// A start tag; `isEmptyElement` tells `<x/>`, whose end follows.
    case start
    case end
    /// Character data (or CDATA) between tags.
    case text
    case endOfDocument
}

/// Pulls XML tokens out of a byte input.
///
/// Its state is read and written for every token, by one reader on one
/// thread: its access is not checked at run time (`@exclusivity(unchecked)`),
/// which cost about 15% of converting a sheet (480M of 3.2G instructions
/// for 100,000 rows).
final class XMLPullScanner {
    private let input: any ByteInput
    /// The part's name and the file's, for errors.
    let part: String
    let file: String
    private let maxTokenBytes: Int
    @exclusivity(unchecked) private var buffer: UnsafeMutableRawBufferPointer
    @exclusivity(unchecked) private var position = 0
    @exclusivity(unchecked) private var filled = 0
    private var inputEnded = false
    /// Lines and bytes before the window, for locations.
    private var discardedLines = 0
    private var discardedBytes = 0
    /// Columns (in scalars) of the current line that were discarded.
    private var discardedColumn = 0
    @exclusivity(unchecked) private var pendingEnd = false

    /// The current token's local name (start and end tags).
    @exclusivity(unchecked) private(set) var nameStart = 0
    @exclusivity(unchecked) private(set) var nameEnd = 0
    @exclusivity(unchecked) private(set) var isEmptyElement = false
    /// The current start tag's attributes: local name and raw value ranges.
    @exclusivity(unchecked) private(set) var attributes: [(name: Range<Int>, value: Range<Int>)] = []
    /// The current text's raw range, and whether it is CDATA (no entities).
    @exclusivity(unchecked) private(set) var textRange = 0..<0
    @exclusivity(unchecked) private(set) var isCDATA = false
    /// Where the current token starts in the window.
    @exclusivity(unchecked) private(set) var tokenStart = 0

    init(_ input: any ByteInput, part: String, file: String, maxTokenBytes: Int) {
        self.input = input
        self.part = part
        self.file = file
        self.maxTokenBytes = max(maxTokenBytes, 1 << 16)
        buffer = .allocate(byteCount: 1 << 16, alignment: 8)
    }

    deinit { buffer.deallocate() }

    @inline(__always) private func byte(_ index: Int) -> UInt8 { buffer[index] }

    // MARK: - Tokens

    /// The next token.
    /// - Throws: `xlsx.malformedXML`, `xlsx.dtdRefused`, the input's errors.
    func next() throws(FerryError) -> XMLToken {
        if pendingEnd {
            pendingEnd = false
            return .end
        }
        while true {
            if position == filled {
                guard try refill() else { return .endOfDocument }
            }
            tokenStart = position
            if byte(position) != UInt8(ascii: "<") {
                if let token = try scanText() { return token }
                continue
            }
            if let token = try scanMarkup() { return token }
        }
    }

    /// Text up to the next `<`; nil when the window needs more bytes first.
    private func scanText() throws(FerryError) -> XMLToken? {
        let base = buffer.baseAddress! + position
        if let found = memchr(base, Int32(UInt8(ascii: "<")), filled - position) {
            let end = position + (UnsafeRawPointer(found) - UnsafeRawPointer(base))
            textRange = position..<end
            position = end
        } else if inputEnded {
            textRange = position..<filled
            position = filled
        } else {
            guard try refill() else { return nil }
            return nil
        }
        isCDATA = false
        return .text
    }

    /// A tag, a comment, a processing instruction, CDATA or a DTD; nil
    /// when the window needs more bytes, or the markup was skipped.
    private func scanMarkup() throws(FerryError) -> XMLToken? {
        guard position + 1 < filled else { return try more() }
        let second = byte(position + 1)
        if second == UInt8(ascii: "?") {
            guard let end = find("?>", from: position + 2) else { return try more() }
            position = end + 2
            return nil
        }
        if second == UInt8(ascii: "!") {
            if startsWith("<!--") {
                guard let end = find("-->", from: position + 4) else { return try more() }
                position = end + 3
                return nil
            }
            if startsWith("<![CDATA[") {
                guard let end = find("]]>", from: position + 9) else { return try more() }
                textRange = (position + 9)..<end
                isCDATA = true
                position = end + 3
                return .text
            }
            guard position + 9 <= filled || inputEnded else { return try more() }
            if startsWith("<!DOCTYPE") || startsWith("<!ENTITY") {
                throw .xlsxDTDRefused(part: part, at: location(at: position))
            }
            throw malformed(at: position)
        }
        if second == UInt8(ascii: "/") {
            var index = position + 2
            guard let name = scanName(&index) else { return try more() }
            while index < filled && isSpace(byte(index)) { index += 1 }
            guard index < filled else { return try more() }
            guard byte(index) == UInt8(ascii: ">"), !name.isEmpty else { throw malformed(at: index) }
            setName(name)
            position = index + 1
            return .end
        }
        return try scanStartTag()
    }

    private func scanStartTag() throws(FerryError) -> XMLToken? {
        var index = position + 1
        guard let name = scanName(&index) else { return try more() }
        guard !name.isEmpty else { throw malformed(at: index) }
        attributes.removeAll(keepingCapacity: true)
        while true {
            while index < filled && isSpace(byte(index)) { index += 1 }
            guard index < filled else { return try more() }
            let current = byte(index)
            if current == UInt8(ascii: ">") {
                isEmptyElement = false
                position = index + 1
                break
            }
            if current == UInt8(ascii: "/") {
                guard index + 1 < filled else { return try more() }
                guard byte(index + 1) == UInt8(ascii: ">") else { throw malformed(at: index) }
                isEmptyElement = true
                pendingEnd = true
                position = index + 2
                break
            }
            guard let attribute = scanName(&index) else { return try more() }
            guard !attribute.isEmpty else { throw malformed(at: index) }
            while index < filled && isSpace(byte(index)) { index += 1 }
            guard index < filled else { return try more() }
            guard byte(index) == UInt8(ascii: "=") else { throw malformed(at: index) }
            index += 1
            while index < filled && isSpace(byte(index)) { index += 1 }
            guard index < filled else { return try more() }
            let quote = byte(index)
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { throw malformed(at: index) }
            let valueStart = index + 1
            let base = buffer.baseAddress! + valueStart
            guard let found = memchr(base, Int32(quote), filled - valueStart) else { return try more() }
            let valueEnd = valueStart + (UnsafeRawPointer(found) - UnsafeRawPointer(base))
            attributes.append((attribute, valueStart..<valueEnd))
            index = valueEnd + 1
        }
        setName(name)
        return .start
    }

    /// Scans a name at `index`, moving past it; the local name's range
    /// (after any prefix), or nil when the window ends inside it.
    private func scanName(_ index: inout Int) -> Range<Int>? {
        let start = index
        var local = index
        while index < filled {
            let current = byte(index)
            if isSpace(current) || current == UInt8(ascii: ">") || current == UInt8(ascii: "/")
                || current == UInt8(ascii: "=") || current == UInt8(ascii: "<")
            {
                return local..<index
            }
            if current == UInt8(ascii: ":") { local = index + 1 }
            index += 1
        }
        return inputEnded ? (start < index ? local..<index : nil) : nil
    }

    private func setName(_ range: Range<Int>) {
        nameStart = range.lowerBound
        nameEnd = range.upperBound
    }

    @inline(__always) private func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Asks for more bytes before the token can be scanned: nil to retry.
    /// - Throws: `xlsx.malformedXML` when the part ends inside the token.
    private func more() throws(FerryError) -> XMLToken? {
        guard try refill() else { throw malformed(at: filled) }
        return nil
    }

    private func startsWith(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard position + count <= filled else { return false }
        let pointer = text.utf8Start
        for offset in 0..<count where byte(position + offset) != pointer[offset] { return false }
        return true
    }

    private func find(_ text: StaticString, from start: Int) -> Int? {
        let count = text.utf8CodeUnitCount
        let pointer = text.utf8Start
        var index = start
        while index + count <= filled {
            let base = buffer.baseAddress! + index
            guard let found = memchr(base, Int32(pointer[0]), filled - count + 1 - index) else { return nil }
            index += UnsafeRawPointer(found) - UnsafeRawPointer(base)
            var matches = true
            for offset in 1..<count where byte(index + offset) != pointer[offset] {
                matches = false
                break
            }
            if matches { return index }
            index += 1
        }
        return nil
    }

    // MARK: - Names and values

    /// Whether the current tag's local name is `name`.
    @inline(__always)
    func nameIs(_ name: StaticString) -> Bool { equals(nameStart..<nameEnd, name) }

    @inline(__always)
    func equals(_ range: Range<Int>, _ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard range.count == count else { return false }
        let pointer = text.utf8Start
        for offset in 0..<count where byte(range.lowerBound + offset) != pointer[offset] { return false }
        return true
    }

    /// The raw value of the current tag's attribute `name`.
    func attribute(_ name: StaticString) -> Range<Int>? {
        for attribute in attributes where equals(attribute.name, name) { return attribute.value }
        return nil
    }

    /// The window's bytes of `range`.
    func bytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(
            start: UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: UInt8.self) + range.lowerBound,
            count: range.count)
    }

    /// Appends the text of `range` with its entities undone (CDATA as it is).
    /// - Throws: `xlsx.unknownEntity`, `xlsx.malformedXML`.
    func appendText(_ range: Range<Int>, cdata: Bool = false, to text: inout [UInt8]) throws(FerryError) {
        let raw = bytes(range)
        guard !cdata, raw.contains(UInt8(ascii: "&")) else {
            text.append(contentsOf: raw)
            return
        }
        var index = 0
        while index < raw.count {
            let current = raw[index]
            guard current == UInt8(ascii: "&") else {
                text.append(current)
                index += 1
                continue
            }
            guard let semicolon = raw[index...].firstIndex(of: UInt8(ascii: ";")), semicolon - index <= 12 else {
                throw malformed(at: range.lowerBound + index)
            }
            let name = raw[(index + 1)..<semicolon]
            if let scalar = Self.reference(name) {
                text.append(contentsOf: String(Character(scalar)).utf8)
            } else if let predefined = Self.predefined(name) {
                text.append(predefined)
            } else {
                throw .xlsxUnknownEntity(
                    String(decoding: name, as: UTF8.self), part: part, at: location(at: range.lowerBound + index))
            }
            index = semicolon + 1
        }
    }

    private static func predefined(_ name: Slice<UnsafeBufferPointer<UInt8>>) -> UInt8? {
        switch Array(name) {
        case Array("lt".utf8): UInt8(ascii: "<")
        case Array("gt".utf8): UInt8(ascii: ">")
        case Array("amp".utf8): UInt8(ascii: "&")
        case Array("quot".utf8): UInt8(ascii: "\"")
        case Array("apos".utf8): UInt8(ascii: "'")
        default: nil
        }
    }

    /// `#65` or `#x41`.
    private static func reference(_ name: Slice<UnsafeBufferPointer<UInt8>>) -> Unicode.Scalar? {
        guard name.first == UInt8(ascii: "#") else { return nil }
        var digits = name.dropFirst()
        var radix: UInt32 = 10
        if digits.first == UInt8(ascii: "x") {
            radix = 16
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty else { return nil }
        var value: UInt32 = 0
        for digit in digits {
            let number: UInt32
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): number = UInt32(digit - 0x30)
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: number = UInt32(digit - 0x57)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: number = UInt32(digit - 0x37)
            default: return nil
            }
            value = value &* radix &+ number
            guard value <= 0x10FFFF else { return nil }
        }
        return Unicode.Scalar(value)
    }

    // MARK: - Window

    /// Moves the unread bytes to the window's start, grows it when a token
    /// fills it, and reads more.
    /// - Returns: false at the end of the input.
    /// - Throws: `limit.recordTooLarge` for a token larger than the limit.
    private func refill() throws(FerryError) -> Bool {
        guard !inputEnded else { return false }
        // Keep the token being scanned.
        let keep = min(tokenStart, position)
        if keep > 0 {
            countLines(in: 0..<keep)
            let remaining = filled - keep
            if remaining > 0 { memmove(buffer.baseAddress!, buffer.baseAddress! + keep, remaining) }
            filled = remaining
            position -= keep
            tokenStart -= keep
            discardedBytes += keep
        }
        if filled == buffer.count {
            guard buffer.count < maxTokenBytes else {
                throw FerryError(.recordTooLarge, [.count(maxTokenBytes)], at: location(at: 0))
            }
            let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: min(buffer.count * 2, maxTokenBytes), alignment: 8)
            grown.copyMemory(from: UnsafeRawBufferPointer(buffer))
            buffer.deallocate()
            buffer = grown
        }
        let got = try input.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
        if got == 0 {
            inputEnded = true
            return false
        }
        filled += got
        return true
    }

    /// Counts the lines of the window's `range` before it is discarded,
    /// and the scalars after its last line break: memchr for the breaks,
    /// then a loop the compiler vectorizes (a sheet is often one line).
    private func countLines(in range: Range<Int>) {
        let base = UnsafeRawPointer(buffer.baseAddress!)
        var lineStart = range.lowerBound
        var index = range.lowerBound
        while index < range.upperBound,
            let found = memchr(base + index, 0x0A, range.upperBound - index)
        {
            index = (UnsafeRawPointer(found) - base) + 1
            discardedLines += 1
            discardedColumn = 0
            lineStart = index
        }
        // Scalars are the bytes that are no continuation byte (10xxxxxx),
        // counted eight at a time: a byte's bit 7 set and bit 6 clear.
        let tail = UnsafeRawBufferPointer(start: base + lineStart, count: range.upperBound - lineStart)
        var scalars = tail.count
        var offset = 0
        while offset + 8 <= tail.count {
            let word = tail.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            scalars &-= (word & ~(word << 1) & 0x8080_8080_8080_8080).nonzeroBitCount
            offset += 8
        }
        while offset < tail.count {
            if tail[offset] & 0xC0 == 0x80 { scalars &-= 1 }
            offset += 1
        }
        discardedColumn += scalars
    }

    // MARK: - Locations

    /// The part's line and column of window index `index`.
    func location(at index: Int) -> SourceLocation {
        var line = discardedLines + 1
        var column = discardedColumn + 1
        for offset in 0..<min(max(index, 0), filled) {
            let current = byte(offset)
            if current == 0x0A {
                line += 1
                column = 1
            } else if current & 0xC0 != 0x80 {
                column += 1
            }
        }
        return SourceLocation(file: file, byteOffset: discardedBytes + index, line: line, column: column)
    }

    /// The byte offset of the current token in the part, without its
    /// line and column (which cost a scan of the window).
    var tokenOffset: Int { discardedBytes + tokenStart }

    /// The byte offset in the part just past the current token (for the
    /// end that follows `<x/>`, past the `/>`).
    var tokenEndOffset: Int { discardedBytes + position }

    /// A range of the window (an attribute's value) as offsets in the part.
    func offsets(of range: Range<Int>) -> Range<Int> {
        (discardedBytes + range.lowerBound)..<(discardedBytes + range.upperBound)
    }

    /// The location of the current token.
    var tokenLocation: SourceLocation { location(at: tokenStart) }

    func malformed(at index: Int) -> FerryError {
        .xlsxMalformedXML(part: part, at: location(at: index))
    }
}
