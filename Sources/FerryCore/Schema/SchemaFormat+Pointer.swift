// The formats of references inside text: URI templates, UUIDs and JSON
// pointers, absolute or relative. Each reads the text's UTF-8 once.
extension SchemaFormat {
    // MARK: - URI templates

    /// An RFC 6570 template: literals (no space, control, `"%<>\^`|` or
    /// brace, `%` only as `%HH`; the suite takes `'`, as RFC 3986 does)
    /// and expressions `{[op]var[:n|*],…}`.
    static func uriTemplate(_ bytes: [UInt8]) -> Bool {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"):
                guard let close = bytes[index...].firstIndex(of: UInt8(ascii: "}")),
                    templateExpression(bytes[(index + 1)..<close])
                else { return false }
                index = close + 1
            case UInt8(ascii: "%"):
                guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else {
                    return false
                }
                index += 3
            default:
                guard byte > 0x20, byte != 0x7F, !Array("\"<>\\^`|}".utf8).contains(byte) else { return false }
                index += 1
            }
        }
        return true
    }

    /// The inside of `{…}`: an optional operator, then variables separated by commas.
    private static func templateExpression(_ bytes: ArraySlice<UInt8>) -> Bool {
        var body = bytes
        if let first = body.first, Array("+#./;?&".utf8).contains(first) { body = body.dropFirst() }
        guard !body.isEmpty else { return false }
        for variable in body.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            var name = variable
            if let colon = variable.firstIndex(of: UInt8(ascii: ":")) {
                let length = variable[(colon + 1)...]
                guard (1...4).contains(length.count), length.first != UInt8(ascii: "0"),
                    length.allSatisfy({ $0 &- 0x30 < 10 })
                else { return false }
                name = variable[..<colon]
            } else if variable.last == UInt8(ascii: "*") {
                name = variable.dropLast()
            }
            guard templateVariableName(name) else { return false }
        }
        return true
    }

    /// `varchar *( ["."] varchar )`: letters, digits, `_` and `%HH`, with single inner dots.
    private static func templateVariableName(_ name: ArraySlice<UInt8>) -> Bool {
        guard !name.isEmpty, name.first != UInt8(ascii: "."), name.last != UInt8(ascii: ".") else { return false }
        var index = name.startIndex
        var previousDot = false
        while index < name.endIndex {
            let byte = name[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < name.endIndex, isHexDigit(name[index + 1]), isHexDigit(name[index + 2]) else {
                    return false
                }
                index += 3
                previousDot = false
                continue
            }
            if byte == UInt8(ascii: ".") {
                if previousDot { return false }
                previousDot = true
            } else {
                guard isAlphanumeric(byte) || byte == UInt8(ascii: "_") else { return false }
                previousDot = false
            }
            index += 1
        }
        return true
    }

    // MARK: - Identifiers and pointers

    /// `8-4-4-4-12` hex digits, of any version and variant.
    static func uuid(_ bytes: [UInt8]) -> Bool {
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            let hyphen = index == 8 || index == 13 || index == 18 || index == 23
            guard hyphen ? byte == UInt8(ascii: "-") : isHexDigit(byte) else { return false }
        }
        return true
    }

    /// RFC 6901: empty, or `/`-led reference tokens in which `~` is only `~0` or `~1`.
    static func jsonPointer(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let first = bytes.first else { return true }
        guard first == UInt8(ascii: "/") else { return false }
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "~") {
                guard index + 1 < bytes.endIndex, bytes[index + 1] == UInt8(ascii: "0") || bytes[index + 1] == UInt8(ascii: "1")
                else { return false }
                index += 1
            }
            index += 1
        }
        return true
    }

    /// A relative JSON pointer: a count of levels up (no leading zero),
    /// then `#` or a JSON pointer.
    static func relativeJSONPointer(_ bytes: [UInt8]) -> Bool {
        var index = 0
        while index < bytes.count && bytes[index] &- 0x30 < 10 { index += 1 }
        guard index > 0, bytes[0] != UInt8(ascii: "0") || index == 1 else { return false }
        let rest = bytes[index...]
        return rest.elementsEqual([UInt8(ascii: "#")]) || jsonPointer(rest)
    }
}
