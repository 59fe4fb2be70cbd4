// The formats of names and addresses on a network: mail addresses, host
// names, IP addresses, and URIs and IRIs (absolute or references). All
// read the text's UTF-8; the international forms (`idn-email`, `iri`,
// `iri-reference`) take any byte beyond ASCII where the ASCII forms take a
// letter, as RFC 6531 and RFC 3987 widen RFC 5321 and RFC 3986.
extension SchemaFormat {
    // MARK: - Mail

    /// `atext` of RFC 5322: letters, digits and ``!#$%&'*+-/=?^_`{|}~``
    /// (and, for RFC 6531, any byte of a character beyond ASCII).
    private static func isAtext(_ byte: UInt8, international: Bool) -> Bool {
        if byte >= 0x80 { return international }
        return isAlphanumeric(byte) || Array("!#$%&'*+-/=?^_`{|}~".utf8).contains(byte)
    }

    /// A mailbox of RFC 5321 (RFC 6531 when `international`):
    /// `local-part "@" ( domain / address-literal )`.
    static func email(_ bytes: [UInt8], international: Bool) -> Bool {
        guard let at = bytes.lastIndex(of: UInt8(ascii: "@")), at > 0, at + 1 < bytes.count else { return false }
        let local = bytes[..<at]
        let domain = bytes[(at + 1)...]
        let localOK: Bool
        if local.first == UInt8(ascii: "\"") {
            // A quoted string: printable ASCII, with `\` escaping one such byte.
            guard local.count >= 2, local.last == UInt8(ascii: "\"") else { return false }
            func printable(_ byte: UInt8) -> Bool { (0x20...0x7E).contains(byte) || (international && byte >= 0x80) }
            var index = local.startIndex + 1
            var ok = true
            while index < local.endIndex - 1 {
                let byte = local[index]
                if byte == UInt8(ascii: "\\") {
                    index += 1
                    if index >= local.endIndex - 1 || !printable(local[index]) { ok = false }
                } else if !printable(byte) || byte == UInt8(ascii: "\"") {
                    ok = false
                }
                index += 1
            }
            localOK = ok
        } else {
            localOK = dotAtom(local, international: international)
        }
        guard localOK, international || local.count <= 64 else { return false }
        if domain.first == UInt8(ascii: "[") {
            guard domain.last == UInt8(ascii: "]"), domain.count > 2 else { return false }
            let literal = domain.dropFirst().dropLast()
            let ipv6Tag = Array("IPv6:".utf8)
            if literal.starts(with: ipv6Tag) { return ipv6(Array(literal.dropFirst(ipv6Tag.count))) }
            return ipv4(Array(literal))
        }
        return hostName(domain, international: international)
    }

    /// atext runs separated by single dots, none at either end.
    private static func dotAtom(_ bytes: ArraySlice<UInt8>, international: Bool) -> Bool {
        guard !bytes.isEmpty else { return false }
        var previousDot = true
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                if previousDot { return false }
                previousDot = true
            } else {
                guard isAtext(byte, international: international) else { return false }
                previousDot = false
            }
        }
        return !previousDot
    }

    // MARK: - Hosts

    /// RFC 1123 labels of letters, digits and inner hyphens, 1 to 63 bytes
    /// each, 253 in all; a label with `--` in its third and fourth places
    /// only as an A-label (`xn--`, RFC 5891 4.2.3.1) whose Punycode decodes
    /// to a U-label (SchemaFormat+IDNA.swift). With `international`,
    /// bytes beyond ASCII pass as a U-label's.
    static func hostName(_ bytes: ArraySlice<UInt8>, international: Bool = false) -> Bool {
        guard !bytes.isEmpty, international || bytes.count <= 253 else { return false }
        for label in bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
            guard (1...63).contains(label.count) || (international && !label.isEmpty),
                label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-"),
                label.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: "-") || (international && $0 >= 0x80) })
            else { return false }
            let start = label.startIndex
            if label.count >= 4, label[start + 2] == UInt8(ascii: "-"), label[start + 3] == UInt8(ascii: "-") {
                // Only an A-label has `--` there, and what it encodes must be a U-label.
                guard label[start] | 0x20 == UInt8(ascii: "x"), label[start + 1] | 0x20 == UInt8(ascii: "n"),
                    aLabel(label)
                else { return false }
            }
        }
        return true
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte &- 0x30 < 10
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        byte &- 0x30 < 10 || (byte | 0x20) &- UInt8(ascii: "a") < 6
    }

    /// Four decimal octets of at most 255, without leading zeros.
    static func ipv4(_ bytes: [UInt8]) -> Bool {
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy({ $0 &- 0x30 < 10 }),
                part.count == 1 || part.first != UInt8(ascii: "0"),
                let value = digits(part, part.startIndex, part.count), value <= 255
            else { return false }
        }
        return true
    }

    /// Eight groups of 1 to 4 hex digits, or fewer around one `::`, the
    /// last two groups possibly an IPv4 address.
    static func ipv6(_ bytes: [UInt8]) -> Bool {
        let doubleColon = Array("::".utf8)
        var halves: [ArraySlice<UInt8>] = []
        if let range = bytes.firstRange(of: doubleColon) {
            halves = [bytes[..<range.lowerBound], bytes[range.upperBound...]]
            if halves[1].firstRange(of: doubleColon) != nil { return false }
        } else {
            halves = [bytes[...]]
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

    // MARK: - URIs and IRIs

    /// `unreserved` and `sub-delims` of RFC 3986, and `extra` besides; a
    /// byte beyond ASCII when `international` (RFC 3987's `ucschar`).
    private static func isURIByte(_ byte: UInt8, extra: String, international: Bool) -> Bool {
        if byte >= 0x80 { return international }
        return isAlphanumeric(byte) || Array("-._~!$&'()*+,;=".utf8).contains(byte) || Array(extra.utf8).contains(byte)
    }

    /// Whether every byte of `bytes` is a URI byte or `%` and two hex digits.
    private static func uriBytes(_ bytes: ArraySlice<UInt8>, extra: String, international: Bool) -> Bool {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else {
                    return false
                }
                index += 3
            } else {
                guard isURIByte(bytes[index], extra: extra, international: international) else { return false }
                index += 1
            }
        }
        return true
    }

    /// A URI reference of RFC 3986 (an IRI reference of RFC 3987 when
    /// `international`): `[ scheme ":" ] [ "//" authority ] path [ "?"
    /// query ] [ "#" fragment ]`, the scheme required when `absolute`. A
    /// reference without a scheme has no `:` in its first segment.
    static func uriReference(_ bytes: [UInt8], absolute: Bool, international: Bool) -> Bool {
        var index = 0
        let delimiter = bytes.firstIndex { [UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#")].contains($0) }
        if let colon = delimiter, bytes[colon] == UInt8(ascii: ":") {
            guard colon > 0, (bytes[0] | 0x20) &- UInt8(ascii: "a") < 26,
                bytes[1..<colon].allSatisfy({ isAlphanumeric($0) || Array("+-.".utf8).contains($0) })
            else { return false }
            index = colon + 1
        } else if absolute {
            return false
        }
        // The authority, when the hier-part starts with `//`.
        if bytes.count >= index + 2 && bytes[index] == UInt8(ascii: "/") && bytes[index + 1] == UInt8(ascii: "/") {
            index += 2
            var end = index
            while end < bytes.count && ![UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#")].contains(bytes[end]) {
                end += 1
            }
            guard authority(bytes[index..<end], international: international) else { return false }
            index = end
        }
        // A `#` ends the query; a second `#` is no fragment byte.
        let fragment = bytes[index...].firstIndex(of: UInt8(ascii: "#"))
        let queryEnd = fragment ?? bytes.count
        let query = bytes[index..<queryEnd].firstIndex(of: UInt8(ascii: "?"))
        let pathEnd = query ?? queryEnd
        guard uriBytes(bytes[index..<pathEnd], extra: ":@/", international: international) else { return false }
        if let query, !uriBytes(bytes[(query + 1)..<queryEnd], extra: ":@/?", international: international) {
            return false
        }
        if let fragment, !uriBytes(bytes[(fragment + 1)...], extra: ":@/?", international: international) {
            return false
        }
        return true
    }

    /// `[ userinfo "@" ] host [ ":" port ]`.
    private static func authority(_ bytes: ArraySlice<UInt8>, international: Bool) -> Bool {
        var rest = bytes
        if let at = rest.firstIndex(of: UInt8(ascii: "@")) {
            guard uriBytes(rest[..<at], extra: ":", international: international) else { return false }
            rest = rest[(at + 1)...]
        }
        if rest.first == UInt8(ascii: "[") {
            guard let close = rest.firstIndex(of: UInt8(ascii: "]")) else { return false }
            let port = rest[(close + 1)...]
            guard port.isEmpty || (port.first == UInt8(ascii: ":") && port.dropFirst().allSatisfy({ $0 &- 0x30 < 10 }))
            else { return false }
            let literal = Array(rest[(rest.startIndex + 1)..<close])
            if (literal.first ?? 0) | 0x20 == UInt8(ascii: "v") {
                // IPvFuture: "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
                guard let dot = literal.firstIndex(of: UInt8(ascii: ".")), dot > 1, dot + 1 < literal.count,
                    literal[1..<dot].allSatisfy(isHexDigit)
                else { return false }
                return literal[(dot + 1)...].allSatisfy { isURIByte($0, extra: ":", international: false) }
            }
            return ipv6(literal)
        }
        var host = rest
        if let colon = rest.lastIndex(of: UInt8(ascii: ":")) {
            host = rest[..<colon]
            guard rest[(colon + 1)...].allSatisfy({ $0 &- 0x30 < 10 }) else { return false }
        }
        // A registered name (possibly empty, as in file:///) or an IPv4 address.
        return uriBytes(host, extra: "", international: international)
    }
}
