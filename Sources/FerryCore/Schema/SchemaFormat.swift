// MARK: - Design
//
// The formats a schema may name. Each checks the text of a string (JSON
// Schema's formats apply to strings only: other values pass), byte by byte
// over its UTF-8, with no regular expression and no Foundation formatter:
//
//     date        2024-02-29             RFC 3339 full-date, leap years known
//     date-time   2024-02-29T23:59:60Z   RFC 3339 date-time; a leap second
//                 2024-02-29T15:59:60-08:00   only at 23:59 UTC
//     email       joe.bloggs@example.com RFC 5321: a dot-atom or quoted local
//                                        part, a host name or an address literal
//     uri         https://example.com/a?b#c   RFC 3986, absolute (a scheme)
//     isbn        0-306-40615-2, 978-0-306-40615-7   ISBN-10 or ISBN-13 with
//                 its check digit; hyphens and spaces between the digits
//     currency    EUR                    an ISO 4217 alphabetic code in use
//     photo       photos/wii.png         any string: a path relative to the
//                                        dataset's folder or a data: URI (bytes
//                                        pass as they are); Ferry checks a
//                                        reference where it reads it

/// A format a schema names, with its check.
enum SchemaFormat: String, Sendable, CaseIterable {
    case date
    case dateTime = "date-time"
    case email
    case uri
    case isbn
    case currency
    case photo

    /// Whether `text` is of this format.
    func accepts(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        switch self {
        case .date: return utf8.count == 10 && SchemaFormat.fullDate(utf8[...])
        case .dateTime: return SchemaFormat.dateTime(utf8)
        case .email: return SchemaFormat.email(utf8)
        case .uri: return SchemaFormat.uri(utf8)
        case .isbn: return SchemaFormat.isbn(utf8)
        case .currency: return utf8.count == 3 && CurrencyCodes.all.contains(text)
        case .photo: return true
        }
    }

    // MARK: - Dates and times

    /// The value of `count` ASCII digits at `start`, or nil.
    private static func digits(_ bytes: ArraySlice<UInt8>, _ start: Int, _ count: Int) -> Int? {
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

    /// RFC 3339 `date-time`: `full-date "T" partial-time time-offset`.
    static func dateTime(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 20, fullDate(bytes[0..<10]), bytes[10] | 0x20 == UInt8(ascii: "t") else { return false }
        let time = bytes[11...]
        guard time.count >= 9, time[13] == UInt8(ascii: ":"), time[16] == UInt8(ascii: ":"),
            let hour = digits(time, 11, 2), let minute = digits(time, 14, 2), let second = digits(time, 17, 2),
            hour < 24, minute < 60, second <= 60
        else { return false }
        var index = 19
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < bytes.count && bytes[index] &- 0x30 < 10 { index += 1 }
            guard index > fractionStart else { return false }
        }
        guard index < bytes.count else { return false }
        // The offset, in minutes east of UTC.
        var offset = 0
        switch bytes[index] | 0x20 {
        case UInt8(ascii: "z"):
            guard index + 1 == bytes.count else { return false }
        default:
            let sign = bytes[index]
            guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"), index + 6 == bytes.count,
                bytes[index + 3] == UInt8(ascii: ":"), let hours = digits(bytes[...], index + 1, 2),
                let minutes = digits(bytes[...], index + 4, 2), hours < 24, minutes < 60
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

    // MARK: - Addresses

    /// `atext` of RFC 5322: letters, digits and ``!#$%&'*+-/=?^_`{|}~``.
    private static func isAtext(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            Array("!#$%&'*+-/=?^_`{|}~".utf8).contains(byte)
        }
    }

    /// A mailbox of RFC 5321: `local-part "@" ( domain / address-literal )`.
    static func email(_ bytes: [UInt8]) -> Bool {
        guard let at = bytes.lastIndex(of: UInt8(ascii: "@")), at > 0, at + 1 < bytes.count else { return false }
        let local = bytes[..<at]
        let domain = bytes[(at + 1)...]
        let localOK: Bool
        if local.first == UInt8(ascii: "\"") {
            // A quoted string: printable ASCII, with `\` escaping one such byte.
            guard local.count >= 2, local.last == UInt8(ascii: "\"") else { return false }
            var index = local.startIndex + 1
            var ok = true
            while index < local.endIndex - 1 {
                let byte = local[index]
                if byte == UInt8(ascii: "\\") {
                    index += 1
                    if index >= local.endIndex - 1 || local[index] < 0x20 || local[index] > 0x7E { ok = false }
                } else if byte < 0x20 || byte > 0x7E || byte == UInt8(ascii: "\"") {
                    ok = false
                }
                index += 1
            }
            localOK = ok
        } else {
            localOK = dotAtom(local)
        }
        guard localOK, local.count <= 64 else { return false }
        if domain.first == UInt8(ascii: "[") {
            guard domain.last == UInt8(ascii: "]"), domain.count > 2 else { return false }
            let literal = domain.dropFirst().dropLast()
            let ipv6Tag = Array("IPv6:".utf8)
            if literal.starts(with: ipv6Tag) { return ipv6(Array(literal.dropFirst(ipv6Tag.count))) }
            return ipv4(Array(literal))
        }
        return hostName(domain)
    }

    /// atext runs separated by single dots, none at either end.
    private static func dotAtom(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard !bytes.isEmpty else { return false }
        var previousDot = true
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                if previousDot { return false }
                previousDot = true
            } else {
                guard isAtext(byte) else { return false }
                previousDot = false
            }
        }
        return !previousDot
    }

    /// Labels of letters, digits and inner hyphens, 1 to 63 bytes each, 253 in all.
    static func hostName(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard !bytes.isEmpty, bytes.count <= 253 else { return false }
        for label in bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
            guard (1...63).contains(label.count), label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-"),
                label.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: "-") })
            else { return false }
        }
        return true
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte &- 0x30 < 10
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        byte &- 0x30 < 10 || (byte | 0x20) &- UInt8(ascii: "a") < 6
    }

    /// Four decimal octets of at most 255, without leading zeros.
    static func ipv4(_ bytes: [UInt8]) -> Bool {
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy({ $0 &- 0x30 < 10 }),
                part.count == 1 || part.first != UInt8(ascii: "0"),
                let value = Int(String(decoding: part, as: UTF8.self)), value <= 255
            else { return false }
        }
        return true
    }

    /// Eight groups of 1 to 4 hex digits, or fewer around one `::`, the
    /// last two groups possibly an IPv4 address.
    static func ipv6(_ bytes: [UInt8]) -> Bool {
        let text = bytes
        let doubleColon = Array("::".utf8)
        var halves: [ArraySlice<UInt8>] = []
        if let range = text.firstRange(of: doubleColon) {
            halves = [text[..<range.lowerBound], text[range.upperBound...]]
            if halves[1].firstRange(of: doubleColon) != nil { return false }
        } else {
            halves = [text[...]]
        }
        var groups = 0
        for (index, half) in halves.enumerated() where !half.isEmpty {
            let parts = half.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
            for (position, part) in parts.enumerated() {
                let last = index == halves.count - 1 && position == parts.count - 1
                if last && part.contains(UInt8(ascii: ".")) {
                    guard ipv4(Array(part)) else { return false }
                    groups += 2
                } else {
                    guard (1...4).contains(part.count), part.allSatisfy(isHexDigit) else { return false }
                    groups += 1
                }
            }
        }
        return halves.count == 2 ? groups <= 7 : groups == 8
    }

    /// An absolute URI of RFC 3986: `scheme ":" hier-part [ "?" query ] [ "#" fragment ]`,
    /// ASCII only, `%` followed by two hex digits, brackets only around an IP literal host.
    static func uri(_ bytes: [UInt8]) -> Bool {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0,
            (bytes[0] | 0x20) &- UInt8(ascii: "a") < 26,
            bytes[1..<colon].allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") })
        else { return false }
        let allowed = Array("-._~!$&'()*+,;=:@/?".utf8)
        var fragment = false
        var index = colon + 1
        // The authority, when the hier-part starts with `//`.
        if bytes.count >= index + 2 && bytes[index] == UInt8(ascii: "/") && bytes[index + 1] == UInt8(ascii: "/") {
            index += 2
            var end = index
            while end < bytes.count && ![UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#")].contains(bytes[end]) {
                end += 1
            }
            guard authority(bytes[index..<end]) else { return false }
            index = end
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else {
                    return false
                }
                index += 3
                continue
            }
            if byte == UInt8(ascii: "#") {
                if fragment { return false }
                fragment = true
            } else if !(isAlphanumeric(byte) || allowed.contains(byte)) {
                return false
            }
            index += 1
        }
        return true
    }

    /// `[ userinfo "@" ] host [ ":" port ]`.
    private static func authority(_ bytes: ArraySlice<UInt8>) -> Bool {
        var rest = bytes
        if let at = rest.lastIndex(of: UInt8(ascii: "@")) {
            let userinfo = rest[..<at]
            guard userinfo.allSatisfy({ isAlphanumeric($0) || Array("-._~!$&'()*+,;=:%".utf8).contains($0) })
            else { return false }
            rest = rest[(at + 1)...]
        }
        var host = rest
        if rest.first == UInt8(ascii: "[") {
            guard let close = rest.firstIndex(of: UInt8(ascii: "]")) else { return false }
            host = rest[rest.startIndex...close]
            let port = rest[(close + 1)...]
            guard port.isEmpty || (port.first == UInt8(ascii: ":") && port.dropFirst().allSatisfy({ $0 &- 0x30 < 10 }))
            else { return false }
            let literal = Array(host.dropFirst().dropLast())
            return ipv6(literal) || ((literal.first ?? 0) | 0x20 == UInt8(ascii: "v") && literal.contains(UInt8(ascii: ".")))
        }
        if let colon = rest.lastIndex(of: UInt8(ascii: ":")) {
            host = rest[..<colon]
            guard rest[(colon + 1)...].allSatisfy({ $0 &- 0x30 < 10 }) else { return false }
        }
        // A registered name (possibly empty, as in file:///) or an IPv4 address.
        return host.allSatisfy { isAlphanumeric($0) || Array("-._~!$&'()*+,;=%".utf8).contains($0) }
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
