// MARK: - Design
//
// The formats a schema may name. Each checks the text of a string (JSON
// Schema's formats apply to strings only: other values pass), byte by byte
// over its UTF-8 (or scalar by scalar, for the IDN and IRI forms), with no
// Foundation formatter. The rules are those of the RFCs the specification
// names, as the official suite reads them:
//
//     date        2024-02-29             RFC 3339 full-date, leap years known
//     time        23:59:60Z  08:30:06.2+01:00   RFC 3339 full-time: an offset
//                                        is required; a leap second only at
//                                        23:59 UTC
//     date-time   2024-02-29T23:59:60Z   RFC 3339 date-time
//     duration    P1Y2M3DT4H5M6S  P2W    RFC 3339 appendix A: no fractions,
//                                        units in order, weeks alone
//     email       joe.bloggs@example.com RFC 5321: a dot-atom or quoted local
//     idn-email   실례@실례.테스트            part, a host name or an address literal;
//                                        RFC 6531 adds UTF-8
//     hostname    www.example.com        RFC 1123 labels; `ab--` only as an
//                                        `xn--` A-label (SchemaFormat+IDNA)
//     idn-hostname  실례.테스트            RFC 5890 U-labels or A-labels
//     ipv4        192.168.0.1            dotted quad, no leading zeros
//     ipv6        ::ffff:192.168.0.1     RFC 4291 text forms, no zone
//     uri         https://example.com/a?b#c   RFC 3986, absolute (a scheme)
//     uri-reference   ../a?b  #c  //host     RFC 3986, absolute or relative
//     iri, iri-reference   http://ƒøø.ßår/    RFC 3987: as the URI forms,
//                                        with characters beyond ASCII
//     uri-template    /users/{id}{?q,page}   RFC 6570, any level
//     uuid        2eb8aa08-aa98-11ea-b4aa-73b441d16380   RFC 4122 text form
//     json-pointer            /a/b~1c    RFC 6901: `~` only as ~0 or ~1
//     relative-json-pointer   1/a  0#    a count of levels up, then a
//                                        pointer or `#`
//     regex       ^[a-z]+$               an ECMA-262 pattern Ferry can run
//                                        (as `pattern` reads it: SchemaPattern)
//     isbn        0-306-40615-2, 978-0-306-40615-7   ISBN-10 or ISBN-13 with
//                 its check digit; hyphens and spaces between the digits
//     currency    EUR                    an ISO 4217 alphabetic code in use
//     photo       photos/wii.png         any string: a path relative to the
//                                        dataset's folder or a data: URI (bytes
//                                        pass as they are); Ferry checks a
//                                        reference where it reads it

/// What a schema's `format` does: assert (Ferry's default, what CI
/// wants: a string that does not match is an error) or only annotate (the
/// specification's default: no string is checked). A format Ferry does not
/// know is refused either way.
public enum SchemaFormatMode: String, Sendable, CaseIterable {
    case assert
    case annotate
}

/// A format a schema names, with its check.
enum SchemaFormat: String, Sendable, CaseIterable {
    case date
    case time
    case dateTime = "date-time"
    case duration
    case email
    case idnEmail = "idn-email"
    case hostname
    case idnHostname = "idn-hostname"
    case ipv4
    case ipv6
    case uri
    case uriReference = "uri-reference"
    case iri
    case iriReference = "iri-reference"
    case uriTemplate = "uri-template"
    case uuid
    case jsonPointer = "json-pointer"
    case relativeJSONPointer = "relative-json-pointer"
    case regex
    case isbn
    case currency
    case photo

    /// Whether `text` is of this format.
    func accepts(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        switch self {
        case .date: return utf8.count == 10 && SchemaFormat.fullDate(utf8[...])
        case .time: return SchemaFormat.fullTime(utf8[...])
        case .dateTime: return SchemaFormat.dateTime(utf8)
        case .duration: return SchemaFormat.duration(utf8)
        case .email: return SchemaFormat.email(utf8, international: false)
        case .idnEmail: return SchemaFormat.email(utf8, international: true)
        case .hostname: return SchemaFormat.hostName(utf8[...])
        case .idnHostname: return SchemaFormat.idnHostname(text)
        case .ipv4: return SchemaFormat.ipv4(utf8)
        case .ipv6: return SchemaFormat.ipv6(utf8)
        case .uri: return SchemaFormat.uriReference(utf8, absolute: true, international: false)
        case .uriReference: return SchemaFormat.uriReference(utf8, absolute: false, international: false)
        case .iri: return SchemaFormat.uriReference(utf8, absolute: true, international: true)
        case .iriReference: return SchemaFormat.uriReference(utf8, absolute: false, international: true)
        case .uriTemplate: return SchemaFormat.uriTemplate(utf8)
        case .uuid: return SchemaFormat.uuid(utf8)
        case .jsonPointer: return SchemaFormat.jsonPointer(utf8[...])
        case .relativeJSONPointer: return SchemaFormat.relativeJSONPointer(utf8)
        case .regex: return (try? SchemaPattern.compile(text)) != nil
        case .isbn: return SchemaFormat.isbn(utf8)
        case .currency: return utf8.count == 3 && CurrencyCodes.all.contains(text)
        case .photo: return true
        }
    }

    // MARK: - Dates and times

    /// The value of `count` ASCII digits at `start`, or nil.
    static func digits(_ bytes: ArraySlice<UInt8>, _ start: Int, _ count: Int) -> Int? {
        guard start >= bytes.startIndex, start + count <= bytes.endIndex else { return nil }
        var value = 0
        for byte in bytes[start..<start + count] {
            guard byte &- 0x30 < 10 else { return nil }
            value = value * 10 + Int(byte &- 0x30)
        }
        return value
    }

    static func isLeapYear(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// `YYYY-MM-DD`, exactly the 10 bytes of `bytes`.
    static func fullDate(_ bytes: ArraySlice<UInt8>) -> Bool {
        let start = bytes.startIndex
        guard bytes.count == 10, bytes[start + 4] == UInt8(ascii: "-"), bytes[start + 7] == UInt8(ascii: "-"),
            let year = digits(bytes, start, 4), let month = digits(bytes, start + 5, 2),
            let day = digits(bytes, start + 8, 2)
        else { return false }
        return (1...12).contains(month) && day >= 1 && day <= daysIn(month: month, year: year)
    }

    /// RFC 3339 `date-time`: `full-date "T" full-time`.
    static func dateTime(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 20 && fullDate(bytes[0..<10]) && bytes[10] | 0x20 == UInt8(ascii: "t") && fullTime(bytes[11...])
    }

    /// RFC 3339 `full-time`: `HH:MM:SS[.fraction]` then `Z` or `±HH:MM`.
    static func fullTime(_ time: ArraySlice<UInt8>) -> Bool {
        let start = time.startIndex
        guard time.count >= 9, time[start + 2] == UInt8(ascii: ":"), time[start + 5] == UInt8(ascii: ":"),
            let hour = digits(time, start, 2), let minute = digits(time, start + 3, 2),
            let second = digits(time, start + 6, 2), hour < 24, minute < 60, second <= 60
        else { return false }
        var index = start + 8
        let end = time.endIndex
        if index < end && time[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < end && time[index] &- 0x30 < 10 { index += 1 }
            guard index > fractionStart else { return false }
        }
        guard index < end else { return false }
        // The offset, in minutes east of UTC.
        var offset = 0
        switch time[index] | 0x20 {
        case UInt8(ascii: "z"):
            guard index + 1 == end else { return false }
        default:
            let sign = time[index]
            guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"), index + 6 == end,
                time[index + 3] == UInt8(ascii: ":"), let hours = digits(time, index + 1, 2),
                let minutes = digits(time, index + 4, 2), hours < 24, minutes < 60
            else { return false }
            offset = (hours * 60 + minutes) * (sign == UInt8(ascii: "+") ? 1 : -1)
        }
        // A leap second is the last second of a UTC day.
        if second == 60 {
            let utc = ((hour * 60 + minute - offset) % 1440 + 1440) % 1440
            guard utc == 23 * 60 + 59 else { return false }
        }
        return true
    }

    /// RFC 3339's ISO 8601 `duration`: `P` then weeks alone (`P2W`), or
    /// date units `Y M D` and after `T` time units `H M S`, each a run of
    /// digits, in order and with none skipped between two that are given.
    static func duration(_ bytes: [UInt8]) -> Bool {
        guard bytes.first == UInt8(ascii: "P"), bytes.count >= 3 else { return false }
        var index = 1
        /// Reads `digits unit` pairs whose units run on from one another in `units`.
        func components(_ units: [UInt8]) -> Bool? {
            var last: Int?
            var read = false
            while index < bytes.count, bytes[index] &- 0x30 < 10 {
                let digitsStart = index
                while index < bytes.count && bytes[index] &- 0x30 < 10 { index += 1 }
                guard index > digitsStart, index < bytes.count, let unit = units.firstIndex(of: bytes[index]),
                    last.map({ unit == $0 + 1 }) ?? true
                else { return nil }
                last = unit
                read = true
                index += 1
            }
            return read
        }
        if bytes.last == UInt8(ascii: "W") {
            return bytes[1..<(bytes.count - 1)].allSatisfy { $0 &- 0x30 < 10 }
        }
        guard let date = components(Array("YMD".utf8)) else { return false }
        if index == bytes.count { return date }
        guard bytes[index] == UInt8(ascii: "T") else { return false }
        index += 1
        guard let time = components(Array("HMS".utf8)), time else { return false }
        return index == bytes.count
    }

    // MARK: - Ferry's own

    /// An ISBN-10 (nine digits and a check digit or `X`: the sum of each
    /// digit times its weight, 10 down to 1, is a multiple of 11) or an
    /// ISBN-13 (978 or 979 and ten digits: weights 1 and 3 in turn, a
    /// multiple of 10). Hyphens and spaces may stand between digits.
    static func isbn(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first, let last = bytes.last, first &- 0x30 < 10,
            last &- 0x30 < 10 || last | 0x20 == UInt8(ascii: "x")
        else { return false }
        var digits: [Int] = []
        var previousSeparator = false
        for (index, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits.append(Int(byte - 0x30))
                previousSeparator = false
            case UInt8(ascii: "X"), UInt8(ascii: "x"):
                guard index == bytes.count - 1 else { return false }
                digits.append(10)
            case UInt8(ascii: "-"), UInt8(ascii: " "):
                if previousSeparator { return false }
                previousSeparator = true
            default:
                return false
            }
        }
        switch digits.count {
        case 10:
            return digits.enumerated().reduce(0) { $0 + $1.element * (10 - $1.offset) } % 11 == 0
        case 13:
            guard !digits.contains(10), digits[0] == 9, digits[1] == 7, digits[2] == 8 || digits[2] == 9 else {
                return false
            }
            return digits.enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 1 : 3) } % 10 == 0
        default:
            return false
        }
    }
}
