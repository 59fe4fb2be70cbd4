#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

import FerryCore

/// Reads a whole XML property list into a `PlistValue`.
///
/// The keyed-archive decoder reads XML archives through it: a dictionary
/// whose only key is `CF$UID`, with a non-negative integer, becomes `.uid`.
package enum XMLPlistParser {
    /// Parses the XML property list in `input`: `<plist version="1.0">`
    /// around one value, or a bare value element.
    /// - Parameters:
    ///   - input: the document; it is read whole, up to `limits.maxInputBytes`.
    ///   - limits: `maxDepth` and `maxInputBytes` apply.
    /// - Returns: the root value.
    /// - Throws: `limit.inputTooLarge`, `limit.nestingTooDeep`, `io.readFailed`,
    ///   and the `xmlplist.*` codes, each located by byte, line and column.
    /// - Complexity: O(n) time; memory for the bytes and the values.
    package static func parse(_ input: any ByteInput, limits: ReadLimits = ReadLimits()) throws(FerryError) -> PlistValue
    {
        let bytes = try input.readAll(limit: limits.maxInputBytes)
        return try parse(bytes, name: input.name, limits: limits)
    }

    /// Parses an XML property list already in memory, named `name` in
    /// errors: UTF-8, or UTF-16 after a byte order mark (`XMLPlistEncoding`).
    /// - Throws: as `parse(_:limits:)`, and `encoding.invalidUTF16`.
    package static func parse(_ bytes: [UInt8], name: String = "-", limits: ReadLimits = ReadLimits()) throws(FerryError)
        -> PlistValue
    {
        let bytes = try XMLPlistEncoding.utf8(bytes, name: name, limit: limits.maxInputBytes)
        return try bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(FerryError) in
                do throws(XMLPlistScanError) {
                    return try document(buffer, maxDepth: limits.maxDepth)
                } catch {
                    switch error {
                    case .needMore:
                        throw FerryError.xmlPlistUnterminated("<plist>")
                            .located(XMLPlistScanner.location(of: buffer.count, in: buffer, file: name))
                    case .failed(let failure, let index):
                        throw failure.located(XMLPlistScanner.location(of: index, in: buffer, file: name))
                    }
                }
            }
        }.get()
    }

    private static func document(_ buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int) throws(XMLPlistScanError)
        -> PlistValue
    {
        let bom = buffer.count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF
        var scanner = XMLPlistScanner(buffer, position: bom ? 3 : 0, isFinal: true)
        var markup = try scanner.nextMarkup()
        let wrapped = markup == .open(.plist)
        if wrapped { markup = try scanner.nextMarkup() }
        if markup == .empty(.plist) || (wrapped && markup == .close(.plist)) {
            throw .failed(.xmlPlistEmpty(), index: scanner.markupStart)
        }
        if markup == .end {
            if wrapped { throw .failed(.xmlPlistUnterminated("<plist>"), index: buffer.count) }
            throw .failed(.xmlPlistEmpty(), index: scanner.markupStart)
        }
        let value = try scanner.parseValue(markup, depth: 1, maxDepth: maxDepth)
        if wrapped {
            let closing = try scanner.nextMarkup()
            guard closing == .close(.plist) else { throw scanner.unexpected(closing, inside: .plist) }
        }
        let trailing = try scanner.nextMarkup()
        guard trailing == .end else { throw .failed(.xmlPlistUnexpectedTag(trailing.text), index: scanner.markupStart) }
        return value
    }
}

// MARK: - Values

extension XMLPlistScanner {
    /// Parses the value that `first`, the markup just read, starts, nested
    /// `depth` deep (1 for the root). Containers are kept on a stack of their
    /// own, so input nesting never deepens the call stack.
    /// - Throws: `limit.nestingTooDeep` past `maxDepth`, and `xmlplist.*` codes.
    mutating func parseValue(_ first: XMLPlistMarkup, depth: Int, maxDepth: Int) throws(XMLPlistScanError)
        -> PlistValue
    {
        // Open containers: whether each is a dictionary, and its pending key.
        var frames: [(isDictionary: Bool, key: String?)] = []
        var arrays: [[PlistValue]] = []
        var dictionaries: [XMLPlistDictionaryBuilder] = []
        var markup = first
        while true {
            let value: PlistValue
            if let top = frames.last, top.isDictionary, top.key == nil {
                switch markup {
                case .open(.key):
                    frames[frames.count - 1].key = try string(of: .key)
                    markup = try nextMarkup()
                    continue
                case .empty(.key):
                    frames[frames.count - 1].key = ""
                    markup = try nextMarkup()
                    continue
                case .close(.dict):
                    frames.removeLast()
                    value = dictionaries.removeLast().value()
                case .open(let tag), .empty(let tag):
                    throw .failed(.xmlPlistMissingKey(before: tag.markup), index: markupStart)
                case .close, .end:
                    throw unexpected(markup, inside: .dict)
                }
            } else {
                switch markup {
                case .open(.array), .open(.dict):
                    guard depth + frames.count <= maxDepth else {
                        throw .failed(.nestingTooDeep(limit: maxDepth, at: .unknown), index: markupStart)
                    }
                    let isDictionary = markup == .open(.dict)
                    frames.append((isDictionary, nil))
                    if isDictionary { dictionaries.append(XMLPlistDictionaryBuilder()) } else { arrays.append([]) }
                    markup = try nextMarkup()
                    continue
                case .empty(.array), .empty(.dict):
                    guard depth + frames.count <= maxDepth else {
                        throw .failed(.nestingTooDeep(limit: maxDepth, at: .unknown), index: markupStart)
                    }
                    value = markup == .empty(.dict) ? .dictionary(PlistDictionary()) : .array([])
                case .close(.array) where frames.last?.isDictionary == false:
                    frames.removeLast()
                    value = .array(arrays.removeLast())
                case .open(.key), .empty(.key), .close, .end:
                    if let top = frames.last, let key = top.key {
                        if markup == .end { throw unexpected(markup, inside: .dict) }
                        throw .failed(.xmlPlistMissingValue(key: key), index: markupStart)
                    }
                    throw unexpected(markup, inside: frames.isEmpty ? nil : .array)
                case .open(.plist), .empty(.plist):
                    throw .failed(.xmlPlistUnexpectedTag(markup.text), index: markupStart)
                case .open(let tag):
                    value = try scalar(tag)
                case .empty(let tag):
                    value = try emptyScalar(tag)
                }
            }
            guard let top = frames.last else { return value }
            if top.isDictionary, let key = top.key {
                dictionaries[dictionaries.count - 1].set(key, value)
                frames[frames.count - 1].key = nil
            } else {
                arrays[arrays.count - 1].append(value)
            }
            markup = try nextMarkup()
        }
    }

    /// The error for `markup` where the element `container` (nil at the top)
    /// needed a value or its end tag.
    func unexpected(_ markup: XMLPlistMarkup, inside container: XMLPlistTag?) -> XMLPlistScanError {
        switch markup {
        case .end:
            return .failed(.xmlPlistUnterminated(container?.markup ?? "<plist>"), index: bytes.count)
        case .close(let tag) where container != nil:
            let expected = "</\(container?.name ?? "")>"
            return .failed(.xmlPlistMismatchedTag(found: "</\(tag.name)>", expected: expected), index: markupStart)
        default:
            return .failed(.xmlPlistUnexpectedTag(markup.text), index: markupStart)
        }
    }

    /// The value of the scalar element `tag`, whose start tag was just read.
    private mutating func scalar(_ tag: XMLPlistTag) throws(XMLPlistScanError) -> PlistValue {
        let start = position
        if tag == .string { return .string(try string(of: .string)) }
        let range = try text(of: tag)
        func failure(_ make: (String) -> FerryError) -> XMLPlistScanError {
            .failed(
                make(withText(range) { String(decoding: XMLPlistScalars.trimmed($0), as: UTF8.self) }), index: start)
        }
        if tag == .integer || tag == .real, let number = withText(range, { XMLPlistScalars.numberText($0, tag: tag) }) {
            return .number(number)
        }
        switch tag {
        case .integer:
            switch withText(range, { XMLPlistScalars.integer(XMLPlistScalars.trimmed($0)) }) {
            case .value(let value): return value
            case .invalid: throw failure { .xmlPlistInvalidInteger($0) }
            case .outOfRange: throw failure { .xmlPlistIntegerOutOfRange($0) }
            }
        case .real:
            guard let number = withText(range, { XMLPlistScalars.real(XMLPlistScalars.trimmed($0)) }) else {
                throw failure { .xmlPlistInvalidReal($0) }
            }
            return .real(number)
        case .date:
            guard let date = withText(range, { XMLPlistScalars.date(XMLPlistScalars.trimmed($0)) }) else {
                throw failure { .xmlPlistInvalidDate($0) }
            }
            return .date(date)
        case .data:
            guard let bytes = withText(range, { XMLPlistScalars.base64($0) }) else {
                throw .failed(.xmlPlistInvalidBase64(), index: start)
            }
            return .data(bytes)
        default:
            // <true></true> and <false></false>, with nothing but space inside.
            let trimmed = withText(range) { XMLPlistScalars.trimmed($0).first }
            if let byte = trimmed { throw .failed(.xmlPlistUnexpectedCharacter(byte), index: start) }
            return .bool(tag == .true)
        }
    }

    /// The value of an empty scalar element such as `<string/>`.
    private func emptyScalar(_ tag: XMLPlistTag) throws(XMLPlistScanError) -> PlistValue {
        switch tag {
        case .string: return .string("")
        case .data: return .data([])
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .integer: throw .failed(.xmlPlistInvalidInteger(""), index: markupStart)
        case .real: throw .failed(.xmlPlistInvalidReal(""), index: markupStart)
        case .date: throw .failed(.xmlPlistInvalidDate(""), index: markupStart)
        default: throw .failed(.xmlPlistUnexpectedTag(XMLPlistMarkup.empty(tag).text), index: markupStart)
        }
    }
}

// MARK: - Dictionaries

/// Collects a dictionary's pairs; a repeated key replaces the earlier value,
/// as CoreFoundation does.
struct XMLPlistDictionaryBuilder {
    private var keys: [String] = []
    private var values: [PlistValue] = []
    private var finder = XMLPlistKeyFinder()

    mutating func set(_ key: String, _ value: PlistValue) {
        if let index = finder.index(of: key, in: keys) {
            values[index] = value
        } else {
            finder.added(key, at: keys.count)
            keys.append(key)
            values.append(value)
        }
    }

    /// The dictionary, or a UID for `{"CF$UID": n}` with a non-negative integer.
    func value() -> PlistValue {
        if keys.count == 1 && keys[0].utf8.elementsEqual("CF$UID".utf8) {
            switch values[0] {
            case .integer(let number) where number >= 0: return .uid(UInt64(number))
            case .unsignedInteger(let number): return .uid(number)
            default: break
            }
        }
        var dictionary = PlistDictionary()
        for (key, value) in zip(keys, values) { dictionary.append(key: key, value: value) }
        return .dictionary(dictionary)
    }
}

/// Finds a key among keys already seen, comparing bytes (canonically
/// equivalent keys stay apart): a linear search for a few keys, a hash
/// table beyond, so a hostile dictionary with a million keys costs O(n).
struct XMLPlistKeyFinder {
    private var table: [XMLPlistKeyBytes: Int] = [:]

    mutating func index(of key: String, in keys: [String]) -> Int? {
        if keys.count <= 16 {
            let count = key.utf8.count
            return keys.firstIndex { $0.utf8.count == count && $0.utf8.elementsEqual(key.utf8) }
        }
        if table.isEmpty {
            for (index, known) in keys.enumerated() where table[XMLPlistKeyBytes(known)] == nil {
                table[XMLPlistKeyBytes(known)] = index
            }
        }
        return table[XMLPlistKeyBytes(key)]
    }

    mutating func added(_ key: String, at index: Int) {
        if !table.isEmpty { table[XMLPlistKeyBytes(key)] = index }
    }
}

/// A string that hashes and compares by its UTF-8 bytes.
struct XMLPlistKeyBytes: Hashable {
    let key: String

    init(_ key: String) { self.key = key }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.key.utf8.elementsEqual(rhs.key.utf8) }

    func hash(into hasher: inout Hasher) {
        var key = key
        key.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

// MARK: - Scalars

/// The text forms of integers, reals, dates and data, as CoreFoundation
/// writes and reads them.
enum XMLPlistScalars {
    enum IntegerResult {
        case value(PlistValue)
        case invalid
        case outOfRange
    }

    /// The number in an `<integer>` or `<real>` element kept as text: a
    /// decimal integer of any size that is not written as the writers
    /// print it (`+5`, `007`, `-0`, or past 64 bits), or a real in
    /// `DecimalText`'s grammar that is not (`1.10`, `1E2`).
    static func numberText(_ text: UnsafeBufferPointer<UInt8>, tag: XMLPlistTag) -> NumberText? {
        let text = trimmed(text)
        if tag == .integer {
            guard DecimalText.isInteger(text) else { return nil }
            let digits = text.first == UInt8(ascii: "-") ? UnsafeBufferPointer(rebasing: text.dropFirst()) : text
            let canonical =
                text.first != UInt8(ascii: "+") && (digits.count == 1 || digits.first != UInt8(ascii: "0"))
                && !(digits.count == 1 && digits.first == UInt8(ascii: "0") && digits.count < text.count)
            if canonical, case .value = integer(text) { return nil }
        } else {
            guard !JSONText.printsAsWritten(text) && !JSONText.printsAsWrittenNegative(text) else { return nil }
            // Zeros as the writer prints them (`description`) stay reals.
            guard DecimalText.isNumber(text), !text.elementsEqual("0.0".utf8), !text.elementsEqual("-0.0".utf8)
            else { return nil }
        }
        return NumberText(unchecked: String(decoding: text, as: UTF8.self))
    }

    /// `text` without leading and trailing XML white space.
    static func trimmed(_ text: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var lower = 0
        var upper = text.count
        while lower < upper && XMLPlistScanner.isSpace(text[lower]) { lower += 1 }
        while upper > lower && XMLPlistScanner.isSpace(text[upper - 1]) { upper -= 1 }
        return UnsafeBufferPointer(rebasing: text[lower..<upper])
    }

    /// A decimal integer with an optional sign, or hexadecimal after `0x`:
    /// signed when it fits `Int64`, unsigned up to `UInt64.max`.
    static func integer(_ text: UnsafeBufferPointer<UInt8>) -> IntegerResult {
        var index = 0
        var negative = false
        if let sign = text.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            index = 1
        }
        var hex = false
        if text.count - index >= 2 && text[index] == UInt8(ascii: "0") && text[index + 1] | 0x20 == UInt8(ascii: "x") {
            hex = true
            index += 2
        }
        guard index < text.count else { return .invalid }
        var magnitude: UInt64 = 0
        var overflow = false
        for byte in text[index...] {
            guard let digit = XMLPlistScanner.digitValue(byte, hex: hex) else { return .invalid }
            let (product, high) = magnitude.multipliedReportingOverflow(by: hex ? 16 : 10)
            let (sum, carry) = product.addingReportingOverflow(UInt64(digit))
            overflow = overflow || high || carry
            magnitude = sum
        }
        if overflow { return .outOfRange }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return .outOfRange }
            return .value(.integer(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)))
        }
        if magnitude <= UInt64(Int64.max) { return .value(.integer(Int64(magnitude))) }
        return .value(.unsignedInteger(magnitude))
    }

    /// A decimal real, or `nan`, `inf`, `infinity` with an optional sign in any case.
    static func real(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var body = text[...]
        var negative = false
        if let sign = body.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            body = body.dropFirst()
        }
        if let first = body.first, first | 0x20 == UInt8(ascii: "n") || first | 0x20 == UInt8(ascii: "i") {
            func named(_ word: StaticString) -> Bool {
                body.count == word.utf8CodeUnitCount
                    && body.enumerated().allSatisfy { $0.element | 0x20 == word.utf8Start[$0.offset] }
            }
            if named("nan") { return .nan }
            if named("inf") || named("infinity") { return negative ? -.infinity : .infinity }
            return nil
        }
        // [+-] (digits [. digits] | . digits) [e [+-] digits]
        var index = body.startIndex
        func digits() -> Int {
            let start = index
            while index < body.endIndex && body[index] >= UInt8(ascii: "0") && body[index] <= UInt8(ascii: "9") {
                index += 1
            }
            return index - start
        }
        var mantissa = digits()
        if index < body.endIndex && body[index] == UInt8(ascii: ".") {
            index += 1
            mantissa += digits()
        }
        guard mantissa > 0 else { return nil }
        if index < body.endIndex && body[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < body.endIndex && (body[index] == UInt8(ascii: "-") || body[index] == UInt8(ascii: "+")) {
                index += 1
            }
            guard digits() > 0 else { return nil }
        }
        guard index == body.endIndex else { return nil }
        return exactDecimal(body, negative: negative) ?? Double(String(decoding: text, as: UTF8.self))
    }

    /// Powers of ten that doubles hold exactly.
    private static let powersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { value, _ in value * 10 }
    }

    /// `digits.digits` without an exponent, when its digits fit 2^53 and
    /// it has at most 22 decimals: then the integer and the power of ten are
    /// exact, and one division rounds correctly (Clinger's fast path).
    private static func exactDecimal(_ body: Slice<UnsafeBufferPointer<UInt8>>, negative: Bool) -> Double? {
        var mantissa: UInt64 = 0
        var decimals = 0
        var seenPoint = false
        var digits = 0
        for byte in body {
            if byte == UInt8(ascii: ".") {
                seenPoint = true
                continue
            }
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"), digits < 16 else { return nil }
            mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
            digits += 1
            if seenPoint { decimals += 1 }
        }
        guard mantissa < 1 << 53, decimals <= 22 else { return nil }
        let value = Double(mantissa) / powersOfTen[decimals]
        return negative ? -value : value
    }

    /// An ISO 8601 date in UTC, `2017-10-07T12:30:00Z`, with optional
    /// fractional seconds; nil past what `Timestamp` writes.
    static func date(_ text: UnsafeBufferPointer<UInt8>) -> Date? {
        var index = 0
        func number(_ width: Int, maxWidth: Int? = nil) -> Int64? {
            let start = index
            var value: Int64 = 0
            while index < text.count && index - start < (maxWidth ?? width),
                let digit = XMLPlistScanner.digitValue(text[index], hex: false)
            {
                value = value * 10 + Int64(digit)
                index += 1
            }
            return index - start >= width ? value : nil
        }
        func separator(_ byte: Unicode.Scalar) -> Bool {
            guard index < text.count, text[index] == UInt8(ascii: byte) else { return false }
            index += 1
            return true
        }
        let negativeYear = separator("-")
        guard let year = number(4, maxWidth: 9), separator("-"), let month = number(2), separator("-"),
            let day = number(2), separator("T"), let hour = number(2), separator(":"), let minute = number(2),
            separator(":"), let second = number(2)
        else { return nil }
        var fraction = 0.0
        if separator(".") {
            var scale = 0.1
            let start = index
            while index < text.count, let digit = XMLPlistScanner.digitValue(text[index], hex: false) {
                fraction += Double(digit) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard separator("Z"), index == text.count else { return nil }
        let signedYear = negativeYear ? -year : year
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: signedYear), hour < 24,
            minute < 60, second < 60
        else { return nil }
        let days = Timestamp.daysSince1970(year: signedYear, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3_600 + minute * 60 + second) + fraction
        let date = Date(timeIntervalSince1970: seconds)
        // A year of nine digits parses, but text output could not show it.
        return Timestamp.isWritable(date) ? date : nil
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Base64 text, with white space anywhere (plutil wraps lines).
    static func base64(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var compact: [UInt8] = []
        compact.reserveCapacity(text.count)
        for byte in text where !XMLPlistScanner.isSpace(byte) { compact.append(byte) }
        return Base64.decode(compact)
    }
}
