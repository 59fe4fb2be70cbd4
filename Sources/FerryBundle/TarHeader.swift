import FerryCore

// MARK: - Design
//
// A tar archive is a run of 512-byte blocks. Each entry is a header block
// followed by its content, padded with zeros to a whole block; two zero
// blocks end the archive. The POSIX ustar header (IEEE 1003.1-1988), by
// byte offset:
//
//       0 name[100]     NUL-terminated unless it fills the field
//     100 mode[8]  108 uid[8]  116 gid[8]            octal text
//     124 size[12]                                   octal text, or base-256 when byte 124 has bit 7
//     136 mtime[12]
//     148 chksum[8]     octal sum of the 512 bytes, this field counted as 8 spaces
//     156 typeflag      '0'/NUL file, '1' hard link, '2' symlink, '3' char device,
//                       '4' block device, '5' folder, '6' FIFO, '7' file,
//                       'x' pax header for the next entry, 'g' global pax header,
//                       'L'/'K' GNU long name / long link name for the next entry
//     157 linkname[100]
//     257 magic[6]      "ustar\0" (POSIX) or "ustar " with version " \0" (GNU)
//     263 version[2]    "00"
//     265 uname[32]  297 gname[32]  329 devmajor[8]  337 devminor[8]
//     345 prefix[155]   POSIX only: the path is prefix + "/" + name
//
// For example `manifest.json`, 412 bytes, is
//
//     6d 61 6e 69 66 65 73 74 2e 6a 73 6f 6e 00 …     "manifest.json"
//     @124: 30 30 30 30 30 30 30 30 36 33 34 00       "00000000634\0" = 412
//     @156: 30                                        '0', a regular file
//     @257: 75 73 74 61 72 00 30 30                   "ustar\0" "00"
//
// then 412 bytes of content and 100 bytes of padding.
//
// A pax extended header ('x') holds records `LEN KEY=VALUE\n`, where LEN
// counts the whole record in decimal; `path` and `size` override the next
// header's fields (for names past 100 bytes and sizes past 8 GiB).

/// One header block of a tar archive, parsed.
struct TarHeader {
    static let blockSize = 512

    var name: String
    var linkName: String
    var type: UInt8
    var size: Int

    /// Whether the entry's content follows its header. Folders, links and
    /// devices have none, whatever their size field says.
    var hasContent: Bool {
        switch type {
        case UInt8(ascii: "1"), UInt8(ascii: "2"), UInt8(ascii: "3"), UInt8(ascii: "4"), UInt8(ascii: "5"),
            UInt8(ascii: "6"):
            false
        default:
            true
        }
    }

    /// Parses one block.
    /// - Returns: nil for a zero block, which ends the archive.
    /// - Throws: `tar.badChecksum`, `tar.invalidNumber`, at `location`.
    static func parse(_ block: [UInt8], at location: SourceLocation) throws(FerryError) -> TarHeader? {
        guard block.contains(where: { $0 != 0 }) else { return nil }
        let isPOSIX = block[257..<263].elementsEqual("ustar\0".utf8)
        var name = text(block[0..<100])
        if isPOSIX {
            let prefix = text(block[345..<500])
            if !prefix.isEmpty { name = prefix + "/" + name }
        }
        guard let stored = number(block[148..<156]) else {
            throw .tarInvalidNumber(field: "chksum", entry: name, at: location)
        }
        var unsigned = 0
        var signed = 0
        for (index, byte) in block.enumerated() {
            let counted = (148..<156).contains(index) ? 0x20 : byte
            unsigned += Int(counted)
            signed += Int(Int8(bitPattern: counted))
        }
        guard stored == unsigned || stored == signed else { throw .tarBadChecksum(entry: name, at: location) }
        guard let size = number(block[124..<136]) else {
            throw .tarInvalidNumber(field: "size", entry: name, at: location)
        }
        return TarHeader(name: name, linkName: text(block[157..<257]), type: block[156], size: size)
    }

    /// Encodes a ustar header for a regular file or a pax header. `name` must
    /// fit in 100 bytes and `size` in 11 octal digits; `TarBuilder` sees to it.
    static func encode(name: String, size: Int, modified: Int, type: UInt8) -> [UInt8] {
        var block = [UInt8](repeating: 0, count: blockSize)
        func put(_ bytes: some Collection<UInt8>, at offset: Int) {
            for (index, byte) in bytes.enumerated() { block[offset + index] = byte }
        }
        /// `width - 1` octal digits and a NUL.
        func putOctal(_ value: Int, at offset: Int, width: Int) {
            let digits = String(value, radix: 8)
            put((String(repeating: "0", count: max(0, width - 1 - digits.count)) + digits + "\0").utf8, at: offset)
        }
        put(name.utf8.prefix(100), at: 0)
        putOctal(0o644, at: 100, width: 8)
        putOctal(0, at: 108, width: 8)
        putOctal(0, at: 116, width: 8)
        putOctal(size, at: 124, width: 12)
        putOctal(max(0, modified), at: 136, width: 12)
        put(Array(repeating: UInt8(ascii: " "), count: 8), at: 148)
        block[156] = type
        put("ustar\0".utf8, at: 257)
        put("00".utf8, at: 263)
        putOctal(0, at: 329, width: 8)
        putOctal(0, at: 337, width: 8)
        let checksum = block.reduce(0) { $0 + Int($1) }
        putOctal(checksum, at: 148, width: 7)
        block[155] = UInt8(ascii: " ")
        return block
    }

    // MARK: - Fields

    /// The text of a NUL-terminated field.
    static func text(_ field: ArraySlice<UInt8>) -> String {
        String(decoding: field.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// An octal field: optional leading spaces, octal digits, then spaces or
    /// NULs; all NULs or spaces is 0. A field whose first byte has bit 7 set
    /// is base-256, big-endian (GNU and star, for sizes past 8 GiB).
    /// - Returns: nil when the field is neither, negative, or overflows.
    static func number(_ field: ArraySlice<UInt8>) -> Int? {
        guard let first = field.first else { return 0 }
        if first & 0x80 != 0 {
            guard first == 0x80 else { return nil }  // 0xFF starts a negative number
            var value = 0
            for byte in field.dropFirst() {
                guard value <= (Int.max >> 8) else { return nil }
                value = value << 8 | Int(byte)
            }
            return value
        }
        var bytes = field.drop { $0 == 0x20 }
        var value = 0
        while let byte = bytes.first, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(byte) {
            guard value <= (Int.max >> 3) else { return nil }
            value = value << 3 | Int(byte - UInt8(ascii: "0"))
            bytes = bytes.dropFirst()
        }
        guard bytes.allSatisfy({ $0 == 0 || $0 == 0x20 }) else { return nil }
        return value
    }
}

// MARK: - pax records

/// The records of a pax extended header that bundles use.
struct PaxRecords {
    var path: String?
    var linkPath: String?
    var size: Int?

    /// Parses `LEN KEY=VALUE\n` records.
    /// - Returns: nil when a record is malformed.
    static func parse(_ bytes: [UInt8]) -> PaxRecords? {
        var records = PaxRecords()
        var start = 0
        while start < bytes.count {
            var cursor = start
            var length = 0
            while cursor < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[cursor]) {
                guard length <= bytes.count else { return nil }
                length = length * 10 + Int(bytes[cursor] - UInt8(ascii: "0"))
                cursor += 1
            }
            let (end, overflow) = start.addingReportingOverflow(length)
            guard cursor > start, cursor < bytes.count, bytes[cursor] == 0x20, !overflow, end <= bytes.count,
                end > cursor + 1, bytes[end - 1] == 0x0A
            else { return nil }
            let record = bytes[(cursor + 1)..<(end - 1)]
            guard let equals = record.firstIndex(of: UInt8(ascii: "=")) else { return nil }
            let key = String(decoding: record[..<equals], as: UTF8.self)
            let value = record[(equals + 1)...]
            switch key {
            case "path": records.path = String(decoding: value, as: UTF8.self)
            case "linkpath": records.linkPath = String(decoding: value, as: UTF8.self)
            case "size":
                guard !value.isEmpty, let size = Int(String(decoding: value, as: UTF8.self)), size >= 0 else {
                    return nil
                }
                records.size = size
            default: break
            }
            start = end
        }
        return records
    }

    /// `key` and `value` as one record, its length counting itself.
    static func record(_ key: String, _ value: String) -> [UInt8] {
        let body = " \(key)=\(value)\n".utf8.count
        var length = body + String(body).count
        if String(length).count + body != length { length = body + String(length).count }
        return Array("\(length) \(key)=\(value)\n".utf8)
    }
}
