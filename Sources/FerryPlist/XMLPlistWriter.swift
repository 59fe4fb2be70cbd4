#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

import FerryCore

/// Writes records as an XML property list: an `<array>` of `<dict>`s,
/// tab-indented as plutil writes it.
///
/// Null fields are left out, as plists have no null. Reals are written in
/// their shortest form that reads back to the same double (`nan`,
/// `+infinity` and `-infinity` for the others), dates as ISO 8601 in UTC
/// with whole seconds (what plutil and plistlib read), data as Base64 in
/// lines of 76 characters. `&`, `<` and `>` are escaped, and a carriage
/// return is written `&#13;` so that XML readers keep it.
package final class XMLPlistWriter: RecordWriter {
    private let output: any ByteOutput
    private var buffer = WriteBuffer()
    private var written = 0
    private var finished = false
    /// The encoded `<key>` lines of the last field list seen.
    private var keyCache: (fields: FieldList, keys: [[UInt8]])?

    /// Bytes are handed to the output once this many have gathered.
    private static let drainThreshold = 1 << 18

    static let header: StaticString = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """

    /// Where dropped nulls are counted.
    private let losses: LossTally

    package init(_ output: any ByteOutput, losses: LossTally = LossTally()) {
        self.output = output
        self.losses = losses
    }

    deinit { buffer.release() }

    /// Writes `record` as one `<dict>`.
    /// - Throws: `xmlplist.invalidCharacter` for a key or string XML cannot
    ///   carry, `plist.nullInArray`, `xmlplist.invalidDate`, located at the
    ///   record and field; `io.writeFailed`.
    package func write(_ record: Record) throws(FerryError) {
        losses.noteDroppedNulls(record)
        let keys = try encodedKeys(record)
        var out = buffer
        defer { buffer = out }
        if written == 0 {
            out.append(Self.header)
            out.append("<array>\n")
        }
        guard record.values.contains(where: { $0 != .null }) else {
            // `<dict/>`, as plutil writes an empty dictionary.
            out.append("\t<dict/>\n")
            written += 1
            return
        }
        out.append("\t<dict>\n")
        for index in record.values.indices {
            do {
                guard let value = try record.values[index].plistValue() else { continue }
                out.append(keys[index])
                try Self.appendValue(value, level: 2, to: &out)
                out.append(0x0A)
            } catch {
                throw error.located(SourceLocation(record: record.origin.index, field: record.fields.names[index]))
            }
        }
        out.append("\t</dict>\n")
        written += 1
        if out.count >= Self.drainThreshold { try out.drain(to: output) }
    }

    /// Closes the array and the plist and flushes.
    /// - Throws: `io.writeFailed`.
    package func finish() throws(FerryError) {
        guard !finished else { return }
        finished = true
        if written == 0 {
            buffer.append(Self.header)
            buffer.append("<array/>\n</plist>\n")
        } else {
            buffer.append("</array>\n</plist>\n")
        }
        try buffer.drain(to: output)
        try output.flush()
    }

    /// A whole document holding `value`, with the standard header.
    /// - Throws: `xmlplist.invalidCharacter`, `xmlplist.nullValue` for the
    ///   binary null object, `xmlplist.invalidDate`.
    /// - Parameter lines: how `<data>` is cut into lines.
    package static func document(_ value: PlistValue, dataLines lines: DataLines = .plutil) throws(FerryError) -> [UInt8] {
        var out = WriteBuffer(capacity: 1 << 12)
        defer { out.release() }
        out.append(header)
        try appendValue(value, level: 0, lines: lines, to: &out)
        out.append("\n</plist>\n")
        return out.bytes
    }

    // MARK: - Values

    private func encodedKeys(_ record: Record) throws(FerryError) -> [[UInt8]] {
        if let keyCache, keyCache.fields === record.fields { return keyCache.keys }
        var keys: [[UInt8]] = []
        for name in record.fields.names {
            var out = WriteBuffer(capacity: name.utf8.count + 32)
            defer { out.release() }
            out.append("\t\t<key>")
            do {
                try Self.appendEscaped(name, to: &out)
            } catch {
                throw error.located(SourceLocation(record: record.origin.index, field: name))
            }
            out.append("</key>\n\t\t")
            keys.append(out.bytes)
        }
        keyCache = (record.fields, keys)
        return keys
    }

    /// Appends `value` as an element; the caller has written the indentation
    /// of its first line, and `level` is its depth in tabs.
    static func appendValue(
        _ value: PlistValue, level: Int, lines: DataLines = .plutil, to out: inout WriteBuffer
    ) throws(FerryError) {
        switch value {
        case .bool(let flag):
            out.append(flag ? "<true/>" : "<false/>")
        case .integer(let number):
            out.append("<integer>")
            JSONText.appendInteger(number, to: &out)
            out.append("</integer>")
        case .unsignedInteger(let number):
            out.append("<integer>")
            out.append(Array(String(number).utf8))
            out.append("</integer>")
        case .uid(let index):
            let inner = level + 1
            out.append("<dict>\n")
            out.append(repeating: 0x09, count: inner)
            out.append("<key>CF$UID</key>\n")
            out.append(repeating: 0x09, count: inner)
            try appendValue(
                index <= UInt64(Int64.max) ? .integer(Int64(index)) : .unsignedInteger(index), level: inner, lines: lines,
                to: &out)
            out.append(0x0A)
            out.append(repeating: 0x09, count: level)
            out.append("</dict>")
        case .number(let number):
            // An integer's text in <integer>, whatever its size; any other in <real>.
            var text = number.text
            let integer = text.withUTF8 { DecimalText.isInteger($0) }
            out.append(integer ? "<integer>" : "<real>")
            text.withUTF8 { JSONText.appendNumber($0, to: &out) }
            out.append(integer ? "</integer>" : "</real>")
        case .real(let number):
            out.append("<real>")
            if number.isNaN {
                out.append("nan")
            } else if number.isInfinite {
                out.append(number < 0 ? "-infinity" : "+infinity")
            } else {
                JSONText.appendDouble(number, to: &out)
            }
            out.append("</real>")
        case .date(let date):
            let seconds = date.timeIntervalSince1970.rounded(.down)
            guard seconds.isFinite, abs(seconds) < 1e14 else {
                throw .xmlPlistInvalidDate(String(date.timeIntervalSince1970))
            }
            out.append("<date>")
            out.append(Array(Timestamp.iso8601(Date(timeIntervalSince1970: seconds)).utf8))
            out.append("</date>")
        case .data(let bytes):
            appendData(bytes, level: level, width: lines.width(atLevel: level), to: &out)
        case .string(let text):
            if text.isEmpty { return out.append("<string></string>") }
            out.append("<string>")
            try appendEscaped(text, to: &out)
            out.append("</string>")
        case .array(let elements):
            guard !elements.isEmpty else { return out.append("<array/>") }
            out.append("<array>\n")
            for element in elements {
                out.append(repeating: 0x09, count: level + 1)
                try appendValue(element, level: level + 1, lines: lines, to: &out)
                out.append(0x0A)
            }
            out.append(repeating: 0x09, count: level)
            out.append("</array>")
        case .dictionary(let dictionary):
            guard dictionary.count > 0 else { return out.append("<dict/>") }
            out.append("<dict>\n")
            for (key, element) in zip(dictionary.keys, dictionary.values) {
                out.append(repeating: 0x09, count: level + 1)
                out.append("<key>")
                try appendEscaped(key, to: &out)
                out.append("</key>\n")
                out.append(repeating: 0x09, count: level + 1)
                try appendValue(element, level: level + 1, lines: lines, to: &out)
                out.append(0x0A)
            }
            out.append(repeating: 0x09, count: level)
            out.append("</dict>")
        case .null:
            throw .xmlPlistNullValue()
        }
    }

    /// Appends `<data>`, the Base64 of `bytes` in lines of `width`
    /// characters at the element's indentation, and `</data>`.
    private static func appendData(_ bytes: [UInt8], level: Int, width: Int, to out: inout WriteBuffer) {
        var encoded: [UInt8] = []
        Base64.encode(bytes, into: &encoded)
        out.append("<data>\n")
        var start = 0
        while start < encoded.count {
            let end = min(start + width, encoded.count)
            out.append(repeating: 0x09, count: level)
            encoded.withUnsafeBufferPointer { out.append(UnsafeBufferPointer(rebasing: $0[start..<end])) }
            out.append(0x0A)
            start = end
        }
        out.append(repeating: 0x09, count: level)
        out.append("</data>")
    }

    /// Whether `byte` is written as it is: not `&`, `<` or `>`, not a
    /// control byte other than tab and LF, and not 0xEF, which starts
    /// U+FFFE and U+FFFF.
    @inline(__always)
    private static func isPlain(_ byte: UInt8) -> Bool {
        if byte >= 0x3F { return byte != 0xEF }
        if byte >= 0x20 { return byte != 0x26 && byte != 0x3C && byte != 0x3E }
        return byte == 0x09 || byte == 0x0A
    }

    /// Appends `text` with `&`, `<`, `>` and CR escaped.
    /// - Throws: `xmlplist.invalidCharacter` for a character XML 1.0 forbids.
    static func appendEscaped(_ text: String, to out: inout WriteBuffer) throws(FerryError) {
        var text = text
        let forbidden: UInt32? = text.withUTF8 { utf8 in
            let count = utf8.count
            out.reserve(count)
            var runStart = 0
            var index = 0
            while index < count {
                let byte = utf8[index]
                if isPlain(byte) {
                    index += 1
                    continue
                }
                if byte == 0xEF {
                    // U+FFFE and U+FFFF are EF BF BE and EF BF BF.
                    if index + 2 < count && utf8[index + 1] == 0xBF && utf8[index + 2] >= 0xBE {
                        return utf8[index + 2] == 0xBE ? 0xFFFE : 0xFFFF
                    }
                    index += 1
                    continue
                }
                out.append(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                switch byte {
                case 0x26: out.append("&amp;")
                case 0x3C: out.append("&lt;")
                case 0x3E: out.append("&gt;")
                case 0x0D: out.append("&#13;")
                default: return UInt32(byte)
                }
                index += 1
                runStart = index
            }
            out.append(UnsafeBufferPointer(rebasing: utf8[runStart..<count]))
            return nil
        }
        if let forbidden { throw .xmlPlistInvalidCharacter(scalar: forbidden) }
    }
}
