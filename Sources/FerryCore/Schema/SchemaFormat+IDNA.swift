// An A-label (`xn--…`) of a host name: its Punycode (RFC 3492) decoded,
// and the U-label it encodes checked by IDNA 2008's rules (RFC 5891,
// RFC 5892) as far as the standard library's Unicode properties reach:
//
//     xn--ll-0ea    -> "l·l"    MIDDLE DOT between two l: kept
//     xn--al-0ea    -> "a·l"    MIDDLE DOT after a: refused (CONTEXTO)
//     xn--hello-zed -> "\u{301}hello"   starts with a mark: refused
//
// A code point is PVALID when it is a lower-case or other letter, a
// modifier letter, a decimal digit, a non-spacing or spacing mark, or `-`,
// and NFKC case folding leaves it as it is; RFC 5892's exceptions come
// first (ß and ς kept, U+0640 and U+302E refused), then its contextual
// rules. Scripts are told by their blocks (the standard library has no
// Script property). Not checked: the Bidi rule (RFC 5893) and ZWNJ's
// joining-type rule (a ZWNJ is kept).
extension SchemaFormat {
    /// Whether `label`, which starts with `xn--` (either case), is a valid A-label.
    static func aLabel(_ label: ArraySlice<UInt8>) -> Bool {
        // A DNS label is at most 63 bytes (RFC 5890), and decoding inserts
        // into its output: a longer one would cost its length squared.
        guard label.count <= 63, let decoded = punycodeDecode(label.dropFirst(4)), decoded.contains(where: { !$0.isASCII }) else {
            return false
        }
        return uLabel(decoded)
    }

    /// An internationalized host name: labels separated by `.` or its
    /// ideographic, fullwidth and halfwidth forms; an ASCII label as
    /// `hostname` reads it (A-labels decoded), any other a U-label; 253
    /// scalars at most. Not checked: the Bidi rule, NFC, and the length of
    /// a U-label's A-label form.
    static func idnHostname(_ text: String) -> Bool {
        // Longer is never valid: no need to look at a megabyte of it.
        guard text.unicodeScalars.dropFirst(253).isEmpty else { return false }
        var labels: [[Unicode.Scalar]] = [[]]
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x2E, 0x3002, 0xFF0E, 0xFF61: labels.append([])
            default: labels[labels.count - 1].append(scalar)
            }
        }
        var total = labels.count - 1
        for label in labels {
            guard !label.isEmpty else { return false }
            if label.allSatisfy(\.isASCII) {
                guard hostName(ArraySlice(label.map { UInt8(truncatingIfNeeded: $0.value) })) else { return false }
            } else {
                guard uLabel(label) else { return false }
            }
            total += label.count
        }
        return total <= 253
    }

    // MARK: - Punycode

    /// RFC 3492's decoding of `encoded` (the text after `xn--`), or nil.
    static func punycodeDecode(_ encoded: ArraySlice<UInt8>) -> [Unicode.Scalar]? {
        let base = 36, tMin = 1, tMax = 26
        var output: [Unicode.Scalar] = []
        var position = encoded.startIndex
        if let delimiter = encoded.lastIndex(of: UInt8(ascii: "-")) {
            for byte in encoded[..<delimiter] {
                guard byte < 0x80 else { return nil }
                output.append(Unicode.Scalar(byte))
            }
            position = delimiter + 1
        }
        var code = 0x80, index = 0, bias = 72
        while position < encoded.endIndex {
            let start = index
            var weight = 1
            var k = base
            while true {
                guard position < encoded.endIndex, let digit = punycodeDigit(encoded[position]) else { return nil }
                position += 1
                let (product, overflow) = digit.multipliedReportingOverflow(by: weight)
                guard !overflow, index <= Int(Int32.max) - product else { return nil }
                index += product
                let threshold = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                if digit < threshold { break }
                guard weight <= Int(Int32.max) / (base - threshold) else { return nil }
                weight *= base - threshold
                k += base
            }
            let count = output.count + 1
            bias = punycodeAdapt(index - start, count: count, first: start == 0)
            code += index / count
            index %= count
            guard code <= 0x10FFFF, let scalar = Unicode.Scalar(UInt32(code)) else { return nil }
            output.insert(scalar, at: index)
            index += 1
        }
        return output
    }

    private static func punycodeDigit(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(byte - UInt8(ascii: "a"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(byte - UInt8(ascii: "A"))
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0")) + 26
        default: nil
        }
    }

    private static func punycodeAdapt(_ delta: Int, count: Int, first: Bool) -> Int {
        var delta = first ? delta / 700 : delta / 2
        delta += delta / count
        var k = 0
        while delta > ((36 - 1) * 26) / 2 {
            delta /= 36 - 1
            k += 36
        }
        return k + (36 - 1 + 1) * delta / (delta + 38)
    }

    // MARK: - U-labels

    /// RFC 5892's exceptions: PVALID (ß, ς, ۽, ۾, ་, 〇) and DISALLOWED.
    private static let exceptionsValid: Set<UInt32> = [0xDF, 0x3C2, 0x6FD, 0x6FE, 0xF0B, 0x3007]
    private static let exceptionsDisallowed: Set<UInt32> = [
        0x640, 0x7FA, 0x302E, 0x302F, 0x3031, 0x3032, 0x3033, 0x3034, 0x3035, 0x303B,
    ]

    /// Whether the decoded label is a U-label IDNA 2008 allows.
    static func uLabel(_ label: [Unicode.Scalar]) -> Bool {
        guard let first = label.first, let last = label.last, first != "-", last != "-" else { return false }
        switch first.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return false
        default: break
        }
        if label.count >= 4 && label[2] == "-" && label[3] == "-" { return false }
        let arabicIndic = label.contains { (0x660...0x669).contains($0.value) }
        let extendedArabicIndic = label.contains { (0x6F0...0x6F9).contains($0.value) }
        if arabicIndic && extendedArabicIndic { return false }
        for (index, scalar) in label.enumerated() {
            let before = index > 0 ? label[index - 1] : nil
            let after = index + 1 < label.count ? label[index + 1] : nil
            switch scalar.value {
            case 0xB7:  // MIDDLE DOT: between two l
                guard before == "l", after == "l" else { return false }
            case 0x375:  // GREEK KERAIA: before a Greek letter
                guard let after, isGreek(after) else { return false }
            case 0x5F3, 0x5F4:  // HEBREW GERESH, GERSHAYIM: after a Hebrew letter
                guard let before, (0x590...0x5FF).contains(before.value) || (0xFB1D...0xFB4F).contains(before.value)
                else { return false }
            case 0x30FB:  // KATAKANA MIDDLE DOT: in a label with Hiragana, Katakana or Han
                guard label.contains(where: { $0.value != 0x30FB && isKana(orHan: $0) }) else { return false }
            case 0x200D:  // ZERO WIDTH JOINER: after a virama
                guard let before, before.properties.canonicalCombiningClass.rawValue == 9 else { return false }
            case 0x200C:  // ZERO WIDTH NON-JOINER: kept (its joining-type rule is not checked)
                break
            default:
                guard isValidCodePoint(scalar) else { return false }
            }
        }
        return true
    }

    private static func isValidCodePoint(_ scalar: Unicode.Scalar) -> Bool {
        if exceptionsValid.contains(scalar.value) { return true }
        if exceptionsDisallowed.contains(scalar.value) { return false }
        if scalar == "-" { return true }
        switch scalar.properties.generalCategory {
        case .lowercaseLetter, .otherLetter, .modifierLetter, .decimalNumber, .nonspacingMark, .spacingMark:
            return !scalar.properties.changesWhenNFKCCaseFolded
        default:
            return false
        }
    }

    private static func isGreek(_ scalar: Unicode.Scalar) -> Bool {
        (0x370...0x3FF).contains(scalar.value) || (0x1F00...0x1FFF).contains(scalar.value)
    }

    private static func isKana(orHan scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3040...0x309F, 0x30A0...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F,  // Hiragana, Katakana
            0x3005, 0x3007, 0x3021...0x3029, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF,
            0x20000...0x3FFFF:  // Han
            true
        default:
            false
        }
    }
}
