// MARK: - Design
//
// A binary property list (`bplist00`) is a flat table of objects that refer to
// each other by number. The trailer, in the last 32 bytes, says where the
// offset table starts and how wide offsets and references are; the offset
// table gives each object's position.
//
//     0        8                                       table      end-32   end
//     bplist00 │ objects …                             │ offsets │ trailer │
//
//     trailer: 6 unused, offset size, reference size, object count (8),
//              top object (8), offset-table position (8), all big-endian
//
// Each object starts with a marker byte: the high nibble is the type, the low
// nibble a size or a count (0xF: the count follows as an integer object).
// A dictionary `{"name": "Wii", "price": 269.0}` written with 1-byte
// references is:
//
//     D2 02 03 04 05        dict of 2: key refs 2, 3; value refs 4, 5
//     54 6E 61 6D 65        object 2: ASCII string "name"
//     55 70 72 69 63 65     object 3: ASCII string "price"
//     53 57 69 69           object 4: ASCII string "Wii"
//     23 40 70 D0 00 …      object 5: 8-byte real 269.0
//
// The scanner checks the trailer once, then decodes one object at a time on
// demand: a reader of a million records never holds more than one record's
// objects. Every offset, count and reference is bounds-checked with
// overflow-safe arithmetic before it is used.

import FerryCore

/// One object of a binary plist, decoded only as far as its marker: the
/// payload of strings and data and the references of containers stay in the
/// file until asked for.
package enum BinaryPlistObject: Sendable, Equatable {
    case null
    case bool(Bool)
    case fill
    case integer(Int64)
    case unsignedInteger(UInt64)
    case real(Double)
    /// Seconds since 2001-01-01.
    case date(Double)
    /// The payload's byte range.
    case data(Range<Int>)
    case asciiString(Range<Int>)
    /// The payload's byte range; two bytes a UTF-16BE code unit.
    case utf16String(Range<Int>)
    case uid(UInt64)
    /// `count` references starting at byte `references`.
    case array(references: Int, count: Int)
    case set(references: Int, count: Int)
    /// `count` key references at `references`, then `count` value references.
    case dictionary(references: Int, count: Int)
}

/// Reads the objects of a binary property list held whole in memory.
///
/// - Complexity: opening checks the trailer in O(1); each object costs
///   O(its own size).
package final class BinaryPlistScanner {
    /// The name of the input, for error locations.
    package let name: String
    package let objectCount: Int
    package let topObject: Int
    let referenceSize: Int
    private let offsetSize: Int
    private let offsetTable: Int
    private let contents: InputBytes
    private let bytes: UnsafeRawBufferPointer
    /// Objects live in `8..<objectsEnd`.
    private let objectsEnd: Int
    /// Where each object starts, decoded from the offset table once (every
    /// object is looked up several times). 0 marks an offset outside the
    /// object area, reported only when that object is asked for. Nil for a
    /// file of 4 GiB or more, whose offsets are read from the table.
    private let offsets: UnsafeMutableBufferPointer<UInt32>?

    /// The magic number every binary plist starts with.
    package static let magic: [UInt8] = Array("bplist00".utf8)

    /// Checks the header and trailer of `contents`.
    /// - Throws: `bplist.notBinaryPlist`, `bplist.invalidTrailer`,
    ///   `limit.tooManyObjects`.
    package convenience init(_ contents: [UInt8], name: String, limits: ReadLimits) throws(FerryError) {
        try self.init(InputBytes(contents), name: name, limits: limits)
    }

    /// Checks the header and trailer of `contents`, which the scanner keeps.
    /// - Throws: as `init(_:name:limits:)` with an array.
    package init(_ contents: InputBytes, name: String, limits: ReadLimits) throws(FerryError) {
        let here = SourceLocation(file: name, byteOffset: 0)
        let raw = contents.bytes
        guard contents.count >= 8, Array(raw[0..<6]) == Array(BinaryPlistScanner.magic[0..<6]) else {
            throw .bplistNotBinaryPlist(at: here)
        }
        let trailerStart = contents.count - 32
        guard trailerStart >= 9 else { throw .bplistInvalidTrailer("size", at: here) }
        func number(_ at: Int, _ width: Int) -> UInt64 {
            var value: UInt64 = 0
            for index in at..<at + width { value = value << 8 | UInt64(raw[index]) }
            return value
        }
        let offsetSize = Int(raw[trailerStart + 6])
        let referenceSize = Int(raw[trailerStart + 7])
        let objectCount = number(trailerStart + 8, 8)
        let topObject = number(trailerStart + 16, 8)
        let offsetTable = number(trailerStart + 24, 8)
        let trailerHere = SourceLocation(file: name, byteOffset: trailerStart)
        guard (1...8).contains(offsetSize) else { throw .bplistInvalidTrailer("offsetSize", at: trailerHere) }
        guard (1...8).contains(referenceSize) else { throw .bplistInvalidTrailer("referenceSize", at: trailerHere) }
        guard objectCount >= 1 else { throw .bplistInvalidTrailer("objectCount", at: trailerHere) }
        guard topObject < objectCount else { throw .bplistInvalidTrailer("topObject", at: trailerHere) }
        // The offset table must follow the objects and end by the end of the
        // file. Some files let it run into the trailer, which CF and plistlib
        // accept, so that is allowed: each offset is checked when used.
        guard offsetTable >= 9, offsetTable < UInt64(trailerStart) else {
            throw .bplistInvalidTrailer("offsetTable", at: trailerHere)
        }
        let (tableBytes, overflow) = objectCount.multipliedReportingOverflow(by: UInt64(offsetSize))
        let (tableEnd, endOverflow) = offsetTable.addingReportingOverflow(tableBytes)
        guard !overflow, !endOverflow, tableEnd <= UInt64(contents.count) else {
            throw .bplistInvalidTrailer("offsetTable", at: trailerHere)
        }
        guard objectCount <= UInt64(limits.maxObjects) else {
            throw .tooManyObjects(limit: limits.maxObjects, at: trailerHere)
        }
        // A reference must be able to name every object.
        if referenceSize < 8 && objectCount > UInt64(1) << UInt64(8 * referenceSize) {
            throw .bplistInvalidTrailer("referenceSize", at: trailerHere)
        }
        self.name = name
        self.offsetSize = offsetSize
        self.referenceSize = referenceSize
        self.objectCount = Int(objectCount)
        self.topObject = Int(topObject)
        self.offsetTable = Int(offsetTable)
        objectsEnd = Int(offsetTable)
        self.contents = contents
        bytes = contents.bytes
        offsets = BinaryPlistScanner.decodeOffsets(
            raw, table: Int(offsetTable), count: Int(objectCount), width: offsetSize, objectsEnd: Int(offsetTable))
    }

    deinit { offsets?.deallocate() }

    /// The offset table as 32-bit numbers, with 0 for an offset outside
    /// `8..<objectsEnd`; nil when offsets may not fit in 32 bits.
    private static func decodeOffsets(
        _ raw: UnsafeRawBufferPointer, table: Int, count: Int, width: Int, objectsEnd: Int
    ) -> UnsafeMutableBufferPointer<UInt32>? {
        guard objectsEnd <= Int(UInt32.max) else { return nil }
        let offsets = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: count)
        let end = UInt64(objectsEnd)
        func fill<Width: FixedWidthInteger>(_: Width.Type) {
            for index in 0..<count {
                let value = UInt64(Width(bigEndian: raw.loadUnaligned(fromByteOffset: table + index * width, as: Width.self)))
                offsets[index] = value >= 8 && value < end ? UInt32(value) : 0
            }
        }
        switch width {
        case 1: fill(UInt8.self)
        case 2: fill(UInt16.self)
        case 4: fill(UInt32.self)
        case 8: fill(UInt64.self)
        default:
            for index in 0..<count {
                let value = number(raw, at: table + index * width, width: width)
                offsets[index] = value >= 8 && value < end ? UInt32(value) : 0
            }
        }
        return offsets
    }

    // MARK: - Objects

    /// Where object `index` starts.
    /// - Throws: `bplist.referenceOutOfRange`, `bplist.offsetOutOfRange`.
    @inline(__always)
    package func offset(of index: Int) throws(FerryError) -> Int {
        guard index >= 0, index < objectCount else {
            throw .bplistReferenceOutOfRange(index, count: objectCount, at: location(offsetTable))
        }
        if let offsets {
            let offset = offsets[index]
            guard offset != 0 else { throw .bplistOffsetOutOfRange(index, at: location(offsetTable + index * offsetSize)) }
            return Int(offset)
        }
        let start = offsetTable + index * offsetSize
        let offset = readNumber(at: start, width: offsetSize)
        guard offset >= 8, offset < UInt64(objectsEnd) else {
            throw .bplistOffsetOutOfRange(index, at: location(start))
        }
        return Int(offset)
    }

    /// Object `index`, decoded as far as its marker.
    /// - Throws: `bplist.invalidObject`, `bplist.objectOutOfBounds`,
    ///   `plist.invalidDate` for a date `Timestamp` cannot write, and the
    ///   errors of `offset(of:)`.
    package func object(_ index: Int) throws(FerryError) -> BinaryPlistObject {
        let start = try offset(of: index)
        let marker = bytes[start]
        let info = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00: return .null
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            case 0x0F: return .fill
            default: throw .bplistInvalidObject(index, marker: marker, at: location(start))
            }
        case 0x1:
            guard info <= 4 else { throw .bplistInvalidObject(index, marker: marker, at: location(start)) }
            let width = 1 << info
            try need(start + 1, width, index)
            return try integer(at: start + 1, width: width, index: index)
        case 0x2:
            guard info == 2 || info == 3 else { throw .bplistInvalidObject(index, marker: marker, at: location(start)) }
            let width = 1 << info
            try need(start + 1, width, index)
            let raw = readNumber(at: start + 1, width: width)
            return .real(width == 4 ? Double(Float(bitPattern: UInt32(raw))) : Double(bitPattern: raw))
        case 0x3:
            guard marker == 0x33 else { throw .bplistInvalidObject(index, marker: marker, at: location(start)) }
            try need(start + 1, 8, index)
            let seconds = Double(bitPattern: readNumber(at: start + 1, width: 8))
            // NaN, an infinity or a date millions of years away would reach
            // text output as no date at all.
            guard Timestamp.isWritable(sinceReferenceDate: seconds) else {
                throw .plistInvalidDate(index, seconds: seconds, at: location(start))
            }
            return .date(seconds)
        case 0x4:
            let (payload, count) = try counted(start, info: info, index: index)
            try need(payload, count, index)
            return .data(payload..<payload + count)
        case 0x5:
            let (payload, count) = try counted(start, info: info, index: index)
            try need(payload, count, index)
            return .asciiString(payload..<payload + count)
        case 0x6:
            let (payload, count) = try counted(start, info: info, index: index)
            let (byteCount, overflow) = count.multipliedReportingOverflow(by: 2)
            guard !overflow else { throw .bplistObjectOutOfBounds(index, at: location(start)) }
            try need(payload, byteCount, index)
            return .utf16String(payload..<payload + byteCount)
        case 0x8:
            try need(start + 1, info + 1, index)
            return .uid(readNumber(at: start + 1, width: info + 1))
        case 0xA, 0xB, 0xC:
            let (payload, count) = try counted(start, info: info, index: index)
            try needReferences(payload, count, index)
            return marker >> 4 == 0xA ? .array(references: payload, count: count) : .set(references: payload, count: count)
        case 0xD:
            let (payload, count) = try counted(start, info: info, index: index)
            let (both, overflow) = count.multipliedReportingOverflow(by: 2)
            guard !overflow else { throw .bplistObjectOutOfBounds(index, at: location(start)) }
            try needReferences(payload, both, index)
            return .dictionary(references: payload, count: count)
        default:
            throw .bplistInvalidObject(index, marker: marker, at: location(start))
        }
    }

    /// Reference `position` of the list that starts at byte `list`; the list
    /// was bounds-checked by `object(_:)`.
    /// - Throws: `bplist.referenceOutOfRange` when it names no object.
    @inline(__always)
    package func reference(_ list: Int, _ position: Int) throws(FerryError) -> Int {
        let at = list + position * referenceSize
        let value = readNumber(at: at, width: referenceSize)
        guard value < UInt64(objectCount) else {
            throw .bplistReferenceOutOfRange(Int(clamping: value), count: objectCount, at: location(at))
        }
        return Int(value)
    }

    /// The bytes of a payload range that `object(_:)` returned.
    package func payload(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[range])
    }

    /// The text of a string object.
    /// - Throws: `bplist.invalidString` for non-ASCII bytes in an ASCII
    ///   string or a broken surrogate pair; `bplist.expectedString` when the
    ///   object is no string.
    package func string(_ index: Int) throws(FerryError) -> String {
        switch try object(index) {
        case .asciiString(let range): return try asciiString(range, index: index)
        case .utf16String(let range): return try utf16String(range, index: index)
        default: throw .bplistExpectedString(index, at: location(try offset(of: index)))
        }
    }

    /// The bytes of an ASCII string object, checked.
    /// - Throws: `bplist.invalidString` for a byte outside ASCII.
    @inline(__always)
    func asciiBytes(_ range: Range<Int>, index: Int) throws(FerryError) -> UnsafeBufferPointer<UInt8> {
        let raw = payload(range)
        // Any high bit means a byte outside ASCII: eight bytes at a time, the
        // last eight overlapping, or byte by byte for a short string.
        let highBits: UInt64
        if raw.count >= 8 {
            var seen: UInt64 = 0
            var position = 0
            while position + 8 <= raw.count {
                seen |= raw.loadUnaligned(fromByteOffset: position, as: UInt64.self)
                position += 8
            }
            seen |= raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self)
            highBits = seen & 0x8080_8080_8080_8080
        } else {
            var seen: UInt8 = 0
            for byte in raw { seen |= byte }
            highBits = UInt64(seen & 0x80)
        }
        if highBits != 0 {
            let position = raw.firstIndex { $0 >= 0x80 } ?? 0
            throw .bplistInvalidString(index, at: location(range.lowerBound + position))
        }
        return raw.assumingMemoryBound(to: UInt8.self)
    }

    /// The common scalars of a record (short ASCII strings, integers of up
    /// to 8 bytes, 8-byte reals, booleans, null) as raw values, decoded
    /// without going through `object(_:)`; nil for anything else, and for
    /// anything malformed, which `object(_:)` then reports.
    @inline(__always)
    func rawScalar(_ index: Int) throws(FerryError) -> RawValue? {
        let start = try offset(of: index)
        let marker = bytes[start]
        let info = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x5:
            var payload = start + 1
            var count = info
            if info == 0xF {
                guard start + 3 <= objectsEnd, bytes[start + 1] == 0x10 else { return nil }
                count = Int(bytes[start + 2])
                payload = start + 3
            }
            guard payload + count <= objectsEnd else { return nil }
            return .text(try asciiBytes(payload..<payload + count, index: index))
        case 0x1 where info <= 3:
            let width = 1 << info
            guard start + 1 + width <= objectsEnd else { return nil }
            let raw = readNumber(at: start + 1, width: width)
            return .integer(width == 8 ? Int64(bitPattern: raw) : Int64(raw))
        case 0x2 where info == 3:
            guard start + 9 <= objectsEnd else { return nil }
            return .double(Double(bitPattern: readNumber(at: start + 1, width: 8)))
        case 0x0 where marker == 0x08 || marker == 0x09:
            return .bool(marker == 0x09)
        case 0x0 where marker == 0x00:
            return .null
        default:
            return nil
        }
    }

    /// Whether object `index` decodes without error to anything but an
    /// array, a set or a dictionary, as the decoder would tell (strings
    /// checked too), without decoding the common fixed-size scalars.
    @inline(__always)
    func isScalar(_ index: Int) -> Bool {
        guard let start = try? offset(of: index) else { return false }
        let marker = bytes[start]
        let info = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0: return marker == 0x00 || marker == 0x08 || marker == 0x09 || marker == 0x0F
        case 0x1 where info <= 3: return start + 1 + (1 << info) <= objectsEnd
        case 0x2 where info == 2 || info == 3: return start + 1 + (1 << info) <= objectsEnd
        case 0x8: return start + 2 + info <= objectsEnd
        case 0xA, 0xB, 0xC, 0xD: return false
        default:
            // Strings are checked as decoding them checks them.
            switch try? object(index) {
            case nil, .array?, .set?, .dictionary?: return false
            case .asciiString(let range)?: return (try? asciiBytes(range, index: index)) != nil
            case .utf16String(let range)?: return (try? utf16String(range, index: index)) != nil
            default: return true
            }
        }
    }

    /// The number a UID object holds; nil for any other object, or a broken
    /// one, which `object(_:)` then reports.
    @inline(__always)
    func uidValue(_ index: Int) -> UInt64? {
        guard let start = try? offset(of: index) else { return nil }
        let marker = bytes[start]
        guard marker >> 4 == 0x8 else { return nil }
        let width = Int(marker & 0x0F) + 1
        guard start + 1 + width <= objectsEnd else { return nil }
        return readNumber(at: start + 1, width: width)
    }

    /// The `count` references that start at byte `list`, as bytes: two
    /// dictionaries with the same keys in the same order have the same.
    func referenceBytes(_ list: Int, count: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[list..<list + count * referenceSize])
    }

    func asciiString(_ range: Range<Int>, index: Int) throws(FerryError) -> String {
        let raw = UnsafeRawBufferPointer(try asciiBytes(range, index: index))
        // Known ASCII: copied in, skipping the repair pass of `String(decoding:)`.
        return String(unsafeUninitializedCapacity: raw.count) { buffer in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: raw)
            return raw.count
        }
    }

    /// The text of a UTF-16BE payload, transcoded straight to UTF-8.
    /// - Throws: `bplist.invalidString` for a lone surrogate.
    func utf16String(_ range: Range<Int>, index: Int) throws(FerryError) -> String {
        let raw = payload(range)
        let units = raw.count / 2
        var broken: Int?
        // Each unit makes at most three UTF-8 bytes; a pair makes four.
        let text = String(unsafeUninitializedCapacity: units * 3) { buffer in
            var written = 0
            var position = 0
            func put(_ byte: UInt32) {
                buffer[written] = UInt8(truncatingIfNeeded: byte)
                written += 1
            }
            while position < units {
                let unit = UInt32(raw[2 * position]) << 8 | UInt32(raw[2 * position + 1])
                position += 1
                if unit < 0x80 {
                    put(unit)
                } else if unit < 0x800 {
                    put(0xC0 | unit >> 6)
                    put(0x80 | unit & 0x3F)
                } else if unit & 0xF800 != 0xD800 {
                    put(0xE0 | unit >> 12)
                    put(0x80 | unit >> 6 & 0x3F)
                    put(0x80 | unit & 0x3F)
                } else {
                    let low = position < units ? UInt32(raw[2 * position]) << 8 | UInt32(raw[2 * position + 1]) : 0
                    guard unit < 0xDC00, low & 0xFC00 == 0xDC00 else {
                        broken = position - 1
                        return 0
                    }
                    position += 1
                    let scalar = 0x10000 + ((unit - 0xD800) << 10 | (low - 0xDC00))
                    put(0xF0 | scalar >> 18)
                    put(0x80 | scalar >> 12 & 0x3F)
                    put(0x80 | scalar >> 6 & 0x3F)
                    put(0x80 | scalar & 0x3F)
                }
            }
            return written
        }
        if let broken { throw .bplistInvalidString(index, at: location(range.lowerBound + 2 * broken)) }
        return text
    }

    // MARK: - Bytes

    /// A location at byte `offset` of the file.
    package func location(_ offset: Int) -> SourceLocation {
        SourceLocation(file: name, byteOffset: offset)
    }

    /// The big-endian number of `width` bytes at `start`, which the caller
    /// has bounds-checked.
    @inline(__always)
    private func readNumber(at start: Int, width: Int) -> UInt64 {
        BinaryPlistScanner.number(bytes, at: start, width: width)
    }

    @inline(__always)
    private static func number(_ bytes: UnsafeRawBufferPointer, at start: Int, width: Int) -> UInt64 {
        switch width {
        case 1: return UInt64(bytes[start])
        case 2: return UInt64(UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: start, as: UInt16.self)))
        case 4: return UInt64(UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: start, as: UInt32.self)))
        case 8: return UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: start, as: UInt64.self))
        default:
            var value: UInt64 = 0
            for index in start..<start + width { value = value << 8 | UInt64(bytes[index]) }
            return value
        }
    }

    /// Throws unless `count` bytes from `start` lie inside the object area.
    @inline(__always)
    private func need(_ start: Int, _ count: Int, _ index: Int) throws(FerryError) {
        let (end, overflow) = start.addingReportingOverflow(count)
        guard !overflow, count >= 0, end <= objectsEnd else {
            throw .bplistObjectOutOfBounds(index, at: location(start - 1))
        }
    }

    private func needReferences(_ start: Int, _ count: Int, _ index: Int) throws(FerryError) {
        let (length, overflow) = count.multipliedReportingOverflow(by: referenceSize)
        guard !overflow else { throw .bplistObjectOutOfBounds(index, at: location(start)) }
        try need(start, length, index)
    }

    /// The payload start and count of a marker whose low nibble is a count,
    /// or 0xF followed by an integer object holding it.
    private func counted(_ start: Int, info: Int, index: Int) throws(FerryError) -> (Int, Int) {
        if info != 0xF { return (start + 1, info) }
        try need(start + 1, 1, index)
        let marker = bytes[start + 1]
        guard marker >> 4 == 0x1, marker & 0x0F <= 3 else {
            throw .bplistInvalidObject(index, marker: marker, at: location(start + 1))
        }
        let width = 1 << Int(marker & 0x0F)
        try need(start + 2, width, index)
        let count = readNumber(at: start + 2, width: width)
        // No count can exceed the bytes that hold the objects.
        guard count <= UInt64(objectsEnd) else { throw .bplistObjectOutOfBounds(index, at: location(start)) }
        return (start + 2 + width, Int(count))
    }

    /// Integers of 1, 2 and 4 bytes are unsigned, 8 bytes signed, and 16
    /// bytes a signed 128-bit value, which holds only what 64 bits can here.
    private func integer(at start: Int, width: Int, index: Int) throws(FerryError) -> BinaryPlistObject {
        switch width {
        case 1, 2, 4: return .integer(Int64(readNumber(at: start, width: width)))
        case 8: return .integer(Int64(bitPattern: readNumber(at: start, width: 8)))
        default:
            let high = readNumber(at: start, width: 8)
            let low = readNumber(at: start + 8, width: 8)
            if high == 0 {
                return low <= UInt64(Int64.max) ? .integer(Int64(low)) : .unsignedInteger(low)
            }
            if high == UInt64.max && low >= UInt64(1) << 63 { return .integer(Int64(bitPattern: low)) }
            throw .bplistInvalidObject(index, marker: bytes[start - 1], at: location(start - 1))
        }
    }
}
