#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FerryCore

// MARK: - Design
//
// The scanner cuts one row of RFC 4180 CSV into fields, in bytes in memory
// (a reader's `InputWindow`), without copying them: each field is a range of
// the buffer plus what must be done to it.
//
//     bytes:   n a m e , p r i c e \n " X b o x   3 6 0 " , 2 9 9 . 0 0 \n
//     row 2:   field 0 = 12..<20, quoted     field 1 = 22..<28
//
// A field is quoted when its first byte is the quote: it then runs to the
// next quote that is not doubled, may hold delimiters and line breaks, and
// must be followed by a delimiter, a line break or the end. An unquoted field
// runs to the next delimiter or line break; a quote inside it is kept as a
// character, as Python's csv does. A row ends at LF, CRLF or a lone CR.
//
// When the bytes end inside a row and the input has more, the scanner throws
// `.needMore`, and the reader refills and scans the row again from its start.
// An unclosed quote at the end of the input is reported where it opened.

/// One field of a row: where it lies and what it needs.
package struct CSVField {
    var start: Int
    var end: Int
    var quoted: Bool
    /// The field holds doubled quotes to undo.
    var hasDoubledQuotes: Bool
    /// The field holds bytes above 0x7F, to check as UTF-8.
    var hasNonASCII: Bool
}

extension CSVField {
    /// Whether a row of `fields` is blank: a lone line break.
    @inline(__always)
    static func isBlank(_ fields: UnsafeBufferPointer<CSVField>) -> Bool {
        fields.count == 1 && fields[0].start == fields[0].end && !fields[0].quoted
    }

    /// Whether a row of `fields` holds delimiters only (`;;;;`, as Excel
    /// writes below a table): two fields or more, all empty and unquoted.
    @inline(__always)
    static func isDelimitersOnly(_ fields: UnsafeBufferPointer<CSVField>) -> Bool {
        guard fields.count > 1, fields[0].start == fields[0].end, !fields[0].quoted else { return false }
        for field in fields where field.start != field.end || field.quoted { return false }
        return true
    }
}

/// The fields of a row, in plain memory reused from row to row: an
/// array's `append` checks that its storage is unique each time, and a
/// typical row's fields are a few bytes each.
struct CSVFieldBuffer {
    private var base: UnsafeMutablePointer<CSVField>?
    private(set) var count = 0
    private var capacity = 0

    /// Frees the memory; the owner's `deinit` calls it.
    func deallocate() { base?.deallocate() }

    var fields: UnsafeBufferPointer<CSVField> { UnsafeBufferPointer(start: base, count: count) }

    mutating func removeAll() { count = 0 }

    @inline(__always)
    mutating func append(_ field: CSVField) {
        if count == capacity { grow() }
        base.unsafelyUnwrapped[count] = field
        count += 1
    }

    private mutating func grow() {
        let larger = max(16, capacity * 2)
        let grown = UnsafeMutablePointer<CSVField>.allocate(capacity: larger)
        if let base {
            grown.initialize(from: base, count: count)
            base.deallocate()
        }
        base = grown
        capacity = larger
    }
}

/// Why a scan stopped early.
package enum CSVScanError: Error {
    case needMore
    case failed(FerryError.Code, [MessageArgument], index: Int, field: String? = nil)
}

package struct CSVScanner {
    package let bytes: UnsafeBufferPointer<UInt8>
    /// The input offset of `bytes[0]`.
    package let baseOffset: Int
    package var position: Int
    let isFinal: Bool
    let delimiter: UInt8
    let quote: UInt8
    let maxFieldBytes: Int

    package init(
        bytes: UnsafeBufferPointer<UInt8>, baseOffset: Int, position: Int, isFinal: Bool, delimiter: UInt8,
        quote: UInt8, maxFieldBytes: Int
    ) {
        self.bytes = bytes
        self.baseOffset = baseOffset
        self.position = position
        self.isFinal = isFinal
        self.delimiter = delimiter
        self.quote = quote
        self.maxFieldBytes = maxFieldBytes
    }

    private func endOfBytes() -> CSVScanError { .needMore }

    /// Cuts the row at the position into `fields`.
    /// - Returns: false at the end of the input, when there is no row left.
    /// - Throws: `.needMore`, or a located `csv.*` failure.
    mutating func scanRow(into fields: inout CSVFieldBuffer) throws(CSVScanError) -> Bool {
        fields.removeAll()
        let count = bytes.count
        if position == count {
            if isFinal { return false }
            throw .needMore
        }
        while true {
            // Unquoted fields, as many as come in a row, in one pass.
            if bytes[position] != quote {
                if try scanUnquotedFields(into: &fields) { return true }
                continue
            }
            try add(try scanQuoted(), to: &fields)
            // What follows the field: a delimiter, a line break or the end.
            if position == count {
                if isFinal { return true }
                throw .needMore
            }
            let byte = bytes[position]
            if byte == delimiter {
                position += 1
                if position == count {
                    if !isFinal { throw .needMore }
                    // A delimiter at the very end leaves one empty field.
                    fields.append(CSVField(start: count, end: count, quoted: false, hasDoubledQuotes: false, hasNonASCII: false))
                    return true
                }
                continue
            }
            if byte == 0x0A {
                position += 1
                return true
            }
            // CR: alone, or the start of CRLF.
            if position + 1 == count && !isFinal { throw .needMore }
            position += position + 1 < count && bytes[position + 1] == 0x0A ? 2 : 1
            return true
        }
    }

    /// Checks a field that has ended and adds it to the row.
    @inline(__always)
    private func add(_ field: CSVField, to fields: inout CSVFieldBuffer) throws(CSVScanError) {
        if field.end - field.start > maxFieldBytes {
            throw .failed(.csvFieldTooLarge, [.count(maxFieldBytes)], index: field.start)
        }
        var field = field
        if field.quoted || field.hasNonASCII { try checkBytes(&field) }
        fields.append(field)
    }

    /// Unquoted fields from the position, the first not starting with the
    /// quote: each runs to the next delimiter or line break. The bytes are
    /// read eight at a time, and each word gets one exact mask of the bytes
    /// that matter (the delimiter, bytes below 0x20 and above 0x7F); only
    /// those are looked at one by one, so the short fields of a typical row
    /// cost a few steps each. Everything the loop touches is in locals.
    /// - Returns: true when the row has ended; false at a delimiter followed
    ///   by a quoted field, where the position then is.
    private mutating func scanUnquotedFields(into fields: inout CSVFieldBuffer) throws(CSVScanError) -> Bool {
        let count = bytes.count
        guard let base = bytes.baseAddress else { throw .needMore }
        let raw = UnsafeRawPointer(base)
        let delimiter = self.delimiter
        let quote = self.quote
        let isFinal = self.isFinal
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let highs: UInt64 = 0x8080_8080_8080_8080
        let delimiters = 0x0101_0101_0101_0101 &* UInt64(delimiter)
        var start = position
        var nonASCII = false
        var index = position
        // What the byte at `at` does; nil to read on.
        @inline(__always)
        func look(_ at: Int) throws(CSVScanError) -> Bool? {
            let byte = base[at]
            if byte == delimiter {
                try add(CSVField(start: start, end: at, quoted: false, hasDoubledQuotes: false, hasNonASCII: nonASCII), to: &fields)
                let next = at + 1
                if next == count {
                    if !isFinal { throw .needMore }
                    // A delimiter at the very end leaves one empty field.
                    fields.append(CSVField(start: next, end: next, quoted: false, hasDoubledQuotes: false, hasNonASCII: false))
                    position = next
                    return true
                }
                if base[next] == quote {
                    position = next
                    return false
                }
                start = next
                nonASCII = false
                return nil
            }
            if byte >= 0x80 {
                nonASCII = true
                return nil
            }
            if byte == 0x0A || byte == 0x0D {
                // CR: alone, or the start of CRLF.
                if byte == 0x0D && at + 1 == count && !isFinal { throw .needMore }
                try add(CSVField(start: start, end: at, quoted: false, hasDoubledQuotes: false, hasNonASCII: nonASCII), to: &fields)
                position = at + (byte == 0x0D && at + 1 < count && base[at + 1] == 0x0A ? 2 : 1)
                return true
            }
            if byte == 0 { throw .failed(.csvNullByte, [], index: at) }
            // Another control character: part of the field.
            return nil
        }
        while index + 8 <= count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            // Exact per byte, no borrow between bytes: the delimiter's bytes
            // become zero under the XOR; bytes below 0x20 have the high bit
            // clear and stay below 0x80 when 0x60 is added to their low bits.
            let matched = word ^ delimiters
            let isDelimiter = ~(((matched & lows) &+ lows) | matched)
            let isControl = ~(((word & lows) &+ 0x6060_6060_6060_6060) | word)
            var mask = (isDelimiter | isControl | word) & highs
            while mask != 0 {
                let at = index &+ mask.trailingZeroBitCount &>> 3
                mask &= mask &- 1
                if let ended = try look(at) { return ended }
            }
            index += 8
        }
        while index < count {
            if let ended = try look(index) { return ended }
            index += 1
        }
        // The bytes end inside the field.
        if !isFinal { throw .needMore }
        try add(CSVField(start: start, end: count, quoted: false, hasDoubledQuotes: false, hasNonASCII: nonASCII), to: &fields)
        position = count
        return true
    }

    /// A quoted field: to the next quote that is not doubled.
    private mutating func scanQuoted() throws(CSVScanError) -> CSVField {
        let open = position
        let count = bytes.count
        var index = position + 1
        var doubled = false
        guard let base = bytes.baseAddress else { throw .needMore }
        while true {
            guard index < count, let hit = memchr(base + index, Int32(quote), count - index) else {
                if isFinal { throw .failed(.csvUnterminatedQuote, [], index: open) }
                throw .needMore
            }
            index = UnsafeRawPointer(hit).assumingMemoryBound(to: UInt8.self) - base
            if index + 1 < count && bytes[index + 1] == quote {
                doubled = true
                index += 2
                continue
            }
            if index + 1 == count && !isFinal { throw .needMore }
            break
        }
        position = index + 1
        if position < count {
            let next = bytes[position]
            if next != delimiter && next != 0x0A && next != 0x0D {
                throw .failed(.csvUnexpectedAfterQuote, [.byte(next)], index: position)
            }
        }
        return CSVField(start: open + 1, end: index, quoted: true, hasDoubledQuotes: doubled, hasNonASCII: true)
    }

    /// Checks a field's bytes: no NUL, valid UTF-8. Clears `hasNonASCII` when
    /// the field turns out to be ASCII.
    private func checkBytes(_ field: inout CSVField) throws(CSVScanError) {
        var nonASCII = false
        for index in field.start..<field.end {
            let byte = bytes[index]
            if byte == 0 { throw .failed(.csvNullByte, [], index: index) }
            if byte >= 0x80 { nonASCII = true }
        }
        field.hasNonASCII = nonASCII
        if nonASCII, let bad = UTF8Validation.firstInvalidIndex(in: bytes, field.start..<field.end) {
            // Text that is not UTF-8 is most often Windows-1252 (Excel on
            // Windows): said when the field's bytes fit it.
            let fits = Windows1252.fits(bytes[field.start..<field.end])
            throw .failed(
                .csvInvalidUTF8, [.byte(bytes[bad]), .message(fits ? .csvEncodingHintWindows1252 : .csvEncodingHint)],
                index: bad)
        }
    }

    // MARK: - Field text

    /// The text of a field, with doubled quotes undone.
    func text(of field: CSVField) -> String {
        let slice = UnsafeBufferPointer(rebasing: bytes[field.start..<field.end])
        guard field.hasDoubledQuotes else { return String(decoding: slice, as: UTF8.self) }
        var output: [UInt8] = []
        output.reserveCapacity(slice.count)
        var index = 0
        while index < slice.count {
            output.append(slice[index])
            index += slice[index] == quote ? 2 : 1
        }
        return String(decoding: output, as: UTF8.self)
    }
}
