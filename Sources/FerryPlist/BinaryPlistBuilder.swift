#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

import FerryCore

/// Builds a binary plist object by object, then writes it with the smallest
/// reference and offset sizes that fit.
///
/// Those sizes depend on how many objects and bytes there are in the end, so
/// the builder encodes each object at once but writes container references
/// as 4-byte placeholders; `write(top:to:)` narrows them while it streams the
/// objects out. Equal strings, numbers, dates and booleans become one object.
///
/// - Complexity: memory is about the size of the output plus 8 bytes an object.
package struct BinaryPlistBuilder {
    /// Encoded objects, back to back.
    private var body: [UInt8] = []
    /// Where each object starts in `body`.
    private var starts: [Int] = []
    /// Which objects are containers, whose references are placeholders.
    private var isContainer: [Bool] = []
    private var strings: [StringKey: Int] = [:]
    private var integers: [Int64: Int] = [:]
    private var reals: [UInt64: Int] = [:]
    private var dates: [UInt64: Int] = [:]
    private var booleans: [Bool: Int] = [:]
    private var uids: [UInt64: Int] = [:]

    package init() {}

    /// The number of objects so far.
    package var objectCount: Int { starts.count }

    // MARK: - Adding objects

    /// Adds `value` and everything in it; returns its object number.
    package mutating func add(_ value: PlistValue) -> Int {
        switch value {
        case .null: return begin(container: false) { $0.append(0x00) }
        case .bool(let flag): return addBool(flag)
        case .integer(let number): return addInteger(number)
        case .number(let number):
            // Writers make these storable first, counting what rounds; an
            // integer past Int64 but within UInt64 stays exact.
            if let unsigned = number.unsignedInteger { return add(.unsignedInteger(unsigned)) }
            switch number.value {
            case .integer(let integer): return addInteger(integer)
            case .double(let double): return addReal(double)
            default: return addReal(.nan)
            }
        case .unsignedInteger(let number):
            if number <= UInt64(Int64.max) { return addInteger(Int64(number)) }
            // The 16-byte form, as CF and plistlib write it: 8 zero bytes, then the value.
            return begin(container: false) { body in
                body.append(0x14)
                body.append(contentsOf: repeatElement(0, count: 8))
                Self.appendNumber(number, width: 8, to: &body)
            }
        case .real(let number): return addReal(number)
        case .date(let date): return addDate(date)
        case .data(let bytes): return addData(bytes)
        case .string(let text): return addString(text)
        case .uid(let number): return addUID(number)
        case .array(let elements):
            let references = elements.map { add($0) }
            return addArray(references)
        case .dictionary(let dictionary):
            let keys = dictionary.keys.map { addString($0) }
            let values = dictionary.values.map { add($0) }
            return addDictionary(keys: keys, values: values)
        }
    }

    package mutating func addBool(_ flag: Bool) -> Int {
        if let known = booleans[flag] { return known }
        let index = begin(container: false) { $0.append(flag ? 0x09 : 0x08) }
        booleans[flag] = index
        return index
    }

    /// Integers take 1, 2 or 4 bytes when positive and small enough (those
    /// widths are unsigned in the format), else 8 bytes, signed.
    package mutating func addInteger(_ number: Int64) -> Int {
        if let known = integers[number] { return known }
        let index = begin(container: false) { body in
            switch number {
            case 0...0xFF:
                body.append(0x10)
                body.append(UInt8(number))
            case 0...0xFFFF:
                body.append(0x11)
                Self.appendNumber(UInt64(number), width: 2, to: &body)
            case 0...0xFFFF_FFFF:
                body.append(0x12)
                Self.appendNumber(UInt64(number), width: 4, to: &body)
            default:
                body.append(0x13)
                Self.appendNumber(UInt64(bitPattern: number), width: 8, to: &body)
            }
        }
        integers[number] = index
        return index
    }

    package mutating func addReal(_ number: Double) -> Int {
        if let known = reals[number.bitPattern] { return known }
        let index = begin(container: false) { body in
            body.append(0x23)
            Self.appendNumber(number.bitPattern, width: 8, to: &body)
        }
        reals[number.bitPattern] = index
        return index
    }

    package mutating func addDate(_ date: Date) -> Int {
        let seconds = date.timeIntervalSinceReferenceDate
        if let known = dates[seconds.bitPattern] { return known }
        let index = begin(container: false) { body in
            body.append(0x33)
            Self.appendNumber(seconds.bitPattern, width: 8, to: &body)
        }
        dates[seconds.bitPattern] = index
        return index
    }

    package mutating func addData(_ bytes: [UInt8]) -> Int {
        begin(container: false) { body in
            Self.appendMarker(0x4, count: bytes.count, to: &body)
            body.append(contentsOf: bytes)
        }
    }

    /// ASCII text is stored one byte a character, anything else as UTF-16BE.
    package mutating func addString(_ text: String) -> Int {
        let key = StringKey(text)
        if let known = strings[key] { return known }
        let index = begin(container: false) { body in
            if text.utf8.allSatisfy({ $0 < 0x80 }) {
                Self.appendMarker(0x5, count: text.utf8.count, to: &body)
                body.append(contentsOf: text.utf8)
            } else {
                Self.appendMarker(0x6, count: text.utf16.count, to: &body)
                for unit in text.utf16 {
                    body.append(UInt8(unit >> 8))
                    body.append(UInt8(unit & 0xFF))
                }
            }
        }
        strings[key] = index
        return index
    }

    package mutating func addUID(_ number: UInt64) -> Int {
        if let known = uids[number] { return known }
        let index = begin(container: false) { body in
            let width = Self.width(of: number)
            body.append(0x80 | UInt8(width - 1))
            Self.appendNumber(number, width: width, to: &body)
        }
        uids[number] = index
        return index
    }

    package mutating func addArray(_ references: [Int]) -> Int {
        begin(container: true) { body in
            Self.appendMarker(0xA, count: references.count, to: &body)
            for reference in references { Self.appendNumber(UInt64(reference), width: 4, to: &body) }
        }
    }

    package mutating func addDictionary(keys: [Int], values: [Int]) -> Int {
        begin(container: true) { body in
            Self.appendMarker(0xD, count: keys.count, to: &body)
            for reference in keys { Self.appendNumber(UInt64(reference), width: 4, to: &body) }
            for reference in values { Self.appendNumber(UInt64(reference), width: 4, to: &body) }
        }
    }

    private mutating func begin(container: Bool, _ encode: (inout [UInt8]) -> Void) -> Int {
        starts.append(body.count)
        isContainer.append(container)
        encode(&body)
        return starts.count - 1
    }

    // MARK: - Writing

    /// Writes the plist with `top` as its top object.
    /// - Throws: `io.writeFailed` from `output`.
    package func write(top: Int, to output: any ByteOutput) throws(FerryError) {
        let referenceWidth = Self.width(of: UInt64(max(starts.count - 1, 0)))
        var buffer = WriteBuffer()
        defer { buffer.release() }
        buffer.append(BinaryPlistScanner.magic)
        var offsets: [Int] = []
        offsets.reserveCapacity(starts.count)
        var written = 8
        for index in 0..<starts.count {
            offsets.append(written)
            let start = starts[index]
            let end = index + 1 < starts.count ? starts[index + 1] : body.count
            if !isContainer[index] {
                body.withUnsafeBufferPointer { buffer.append(UnsafeBufferPointer(rebasing: $0[start..<end])) }
                written += end - start
                continue
            }
            // Marker and count stay; each 4-byte placeholder narrows.
            let headerEnd = start + Self.headerLength(body, at: start)
            body.withUnsafeBufferPointer { buffer.append(UnsafeBufferPointer(rebasing: $0[start..<headerEnd])) }
            buffer.reserve((end - headerEnd) / 4 * referenceWidth)
            var position = headerEnd
            while position < end {
                let reference =
                    UInt64(body[position]) << 24 | UInt64(body[position + 1]) << 16 | UInt64(body[position + 2]) << 8
                    | UInt64(body[position + 3])
                Self.appendNumber(reference, width: referenceWidth, to: &buffer)
                position += 4
            }
            written += headerEnd - start + (end - headerEnd) / 4 * referenceWidth
            if buffer.count >= 1 << 18 { try buffer.drain(to: output) }
        }
        let tableOffset = written
        let offsetWidth = Self.width(of: UInt64(tableOffset))
        for offset in offsets {
            buffer.reserve(8)
            Self.appendNumber(UInt64(offset), width: offsetWidth, to: &buffer)
            if buffer.count >= 1 << 18 { try buffer.drain(to: output) }
        }
        buffer.reserve(32)
        var trailer = [UInt8](repeating: 0, count: 6)
        trailer.append(UInt8(offsetWidth))
        trailer.append(UInt8(referenceWidth))
        Self.appendNumber(UInt64(starts.count), width: 8, to: &trailer)
        Self.appendNumber(UInt64(top), width: 8, to: &trailer)
        Self.appendNumber(UInt64(tableOffset), width: 8, to: &trailer)
        buffer.append(trailer)
        try buffer.drain(to: output)
    }

    // MARK: - Encoding helpers

    /// The bytes of a marker and its count (0xF plus an integer when the count
    /// passes 14).
    static func appendMarker(_ type: UInt8, count: Int, to body: inout [UInt8]) {
        if count < 15 {
            body.append(type << 4 | UInt8(count))
            return
        }
        body.append(type << 4 | 0x0F)
        let width = width(of: UInt64(count))
        let power: UInt8 = width == 1 ? 0 : width == 2 ? 1 : width <= 4 ? 2 : 3
        body.append(0x10 | power)
        appendNumber(UInt64(count), width: 1 << Int(power), to: &body)
    }

    /// How long the marker and count of the container at `start` are.
    static func headerLength(_ body: [UInt8], at start: Int) -> Int {
        guard body[start] & 0x0F == 0x0F else { return 1 }
        return 2 + (1 << Int(body[start + 1] & 0x0F))
    }

    static func appendNumber(_ value: UInt64, width: Int, to body: inout [UInt8]) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) {
            body.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    /// Appends big-endian; the caller has reserved room.
    static func appendNumber(_ value: UInt64, width: Int, to buffer: inout WriteBuffer) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) {
            buffer.appendUnchecked(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    /// The fewest bytes of 1, 2, 4 or 8 that hold `value`. The format allows
    /// any width for references and offsets, but these are the widths every
    /// reader (CF, plistlib, libplist) handles.
    static func width(of value: UInt64) -> Int {
        if value <= 0xFF { return 1 }
        if value <= 0xFFFF { return 2 }
        if value <= 0xFFFF_FFFF { return 4 }
        return 8
    }
}

/// A string key compared by its bytes, so canonically equal but different
/// strings stay different objects.
private struct StringKey: Hashable {
    let text: String
    init(_ text: String) { self.text = text }
    static func == (lhs: StringKey, rhs: StringKey) -> Bool { lhs.text.utf8.elementsEqual(rhs.text.utf8) }
    func hash(into hasher: inout Hasher) {
        for byte in text.utf8 { hasher.combine(byte) }
    }
}
