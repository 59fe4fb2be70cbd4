// The translation of an ECMA-262 pattern into `Regex` syntax, scalar by
// scalar, with the reasons it refuses one; the table of what each
// construct becomes is at the top of SchemaPattern.swift.

/// A pattern in `Regex` syntax, cut at its top-level `\b` and `\B`.
struct ECMATranslation {
    /// One more than `boundaries`.
    var pieces: [String]
    /// Between `pieces[i]` and `pieces[i + 1]`: `\b` (false) or `\B` (true).
    var boundaries: [Bool]
}

/// Translates one ECMA-262 pattern (with the `u` flag) into `Regex` syntax.
struct ECMAPatternTranslator {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var output = ""
    private var translation = ECMATranslation(pieces: [], boundaries: [])
    private var topLevelAlternation = false
    private var backReference = false
    /// The capturing groups, counted before translating, for back references.
    private var groupCount = 0
    private var groupNames: [String] = []

    init(_ source: String) {
        scalars = Array(source.unicodeScalars)
    }

    static let anyScalar = #"[\u{0}-\u{10FFFF}]"#

    /// The pattern in `Regex` syntax.
    /// - Throws: `ECMAPatternError` naming what is wrong and where.
    mutating func translate() throws(ECMAPatternError) -> ECMATranslation {
        try countGroups()
        // Whether the last thing read may take a quantifier.
        var quantifiable = false
        // For each open group, whether it is a lookahead (which takes none).
        var groups: [Bool] = []
        while let scalar = peek() {
            index += 1
            switch scalar {
            case "^":
                output += "^"
                quantifiable = false
            case "$":
                output += #"\z"#
                quantifiable = false
            case "|":
                output += "|"
                quantifiable = false
                if groups.isEmpty { topLevelAlternation = true }
            case ".":
                output += #"[^\n\r\u{2028}\u{2029}]"#
                quantifiable = true
            case "(":
                let lookahead = try openGroup()
                groups.append(lookahead)
                quantifiable = false
            case ")":
                guard let lookahead = groups.popLast() else { throw failure("an unmatched ')'") }
                output += ")"
                quantifiable = !lookahead
            case "[":
                try characterClass()
                quantifiable = true
            case "*", "+", "?", "{":
                guard quantifiable else { throw failure("nothing to repeat before '\(scalar)'") }
                try quantifier(scalar)
                quantifiable = false
            case "}", "]":
                throw failure("a lone '\(scalar)' (write \\\(scalar))")
            case "\\" where peek() == "b" || peek() == "B":
                guard groups.isEmpty else {
                    throw failure("'\\b' or '\\B' inside a group, where Ferry cannot check ECMA-262's word boundary")
                }
                translation.pieces.append(output)
                translation.boundaries.append(peek() == "B")
                output = ""
                index += 1
                quantifiable = false
            case "\\":
                quantifiable = try escape()
            default:
                output += Self.literal(scalar)
                quantifiable = true
            }
        }
        guard groups.isEmpty else { throw failure("a '(' that is not closed") }
        translation.pieces.append(output)
        if !translation.boundaries.isEmpty && (topLevelAlternation || backReference) {
            throw ECMAPatternError(
                reason: "'\\b' or '\\B' with a top-level '|' or a back reference, where Ferry cannot check "
                    + "ECMA-262's word boundary (put the alternatives in a group)")
        }
        return translation
    }

    // MARK: - Reading

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private mutating func take(_ scalar: Unicode.Scalar) -> Bool {
        guard peek() == scalar else { return false }
        index += 1
        return true
    }

    private func failure(_ reason: String) -> ECMAPatternError {
        ECMAPatternError(reason: "\(reason), at character \(min(index, scalars.count))")
    }

    /// `scalar` as a literal in `Regex` syntax: letters and digits as they
    /// are, anything else as `\u{…}`, so it is never syntax (`&&` and `--`
    /// in a class, `#`, a space).
    static func literal(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: String(scalar)
        default: #"\u{"# + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }

    /// Counts the capturing groups and collects their names, skipping
    /// escapes and classes, so a reference may come before its group.
    private mutating func countGroups() throws(ECMAPatternError) {
        var position = 0
        var inClass = false
        while position < scalars.count {
            switch scalars[position] {
            case "\\": position += 1
            case "[": inClass = true
            case "]": inClass = false
            case "(" where !inClass:
                let next = position + 1 < scalars.count ? scalars[position + 1] : nil
                if next != "?" {
                    groupCount += 1
                } else if position + 2 < scalars.count, scalars[position + 2] == "<",
                    position + 3 < scalars.count, scalars[position + 3] != "=", scalars[position + 3] != "!"
                {
                    groupCount += 1
                    var end = position + 3
                    var name = ""
                    while end < scalars.count && scalars[end] != ">" {
                        name.unicodeScalars.append(scalars[end])
                        end += 1
                    }
                    guard !groupNames.contains(name) else {
                        throw ECMAPatternError(reason: "two groups are named '\(name)'")
                    }
                    groupNames.append(name)
                }
            default: break
            }
            position += 1
        }
    }

    // MARK: - Groups and quantifiers

    /// After `(`: writes the group's opening. - Returns: whether it is a lookahead.
    private mutating func openGroup() throws(ECMAPatternError) -> Bool {
        guard take("?") else {
            output += "("
            return false
        }
        if take(":") {
            output += "(?:"
            return false
        }
        if take("=") {
            output += "(?="
            return true
        }
        if take("!") {
            output += "(?!"
            return true
        }
        guard take("<") else { throw failure("'(?' followed by neither ':', '=', '!' nor '<'") }
        if peek() == "=" || peek() == "!" { throw failure("lookbehind ('(?<=', '(?<!') is not supported") }
        let name = try groupName()
        output += "(?<\(name)>"
        return false
    }

    /// A group's name up to its `>`, consumed: ASCII letters, digits, `_`, not first a digit.
    private mutating func groupName() throws(ECMAPatternError) -> String {
        var name = ""
        while let scalar = peek(), scalar != ">" {
            guard Self.isASCIIAlphanumeric(scalar) || scalar == "_" else {
                throw failure("a group name of other than ASCII letters, digits and '_'")
            }
            name.unicodeScalars.append(scalar)
            index += 1
        }
        guard take(">"), let first = name.unicodeScalars.first, !Self.isASCIIDigit(first) else {
            throw failure("a group name that is empty, unclosed or starts with a digit")
        }
        return name
    }

    /// A quantifier that began with `first` (already read), and its lazy `?`.
    private mutating func quantifier(_ first: Unicode.Scalar) throws(ECMAPatternError) {
        if first == "{" {
            guard let low = number() else { throw failure("a '{' that starts no {n}, {n,} or {n,m}") }
            var text = "{\(low)"
            if take(",") {
                text += ","
                if let high = number() {
                    guard low <= high else { throw failure("a quantifier {\(low),\(high)} whose bounds are out of order") }
                    text += "\(high)"
                }
            }
            guard take("}") else { throw failure("a quantifier that is not closed with '}'") }
            output += text + "}"
        } else {
            output.unicodeScalars.append(first)
        }
        if take("?") { output += "?" }
        if let next = peek(), ["*", "+", "?", "{"].contains(next) { throw failure("nothing to repeat before '\(next)'") }
    }

    /// Decimal digits at the cursor, consumed; nil when there are none.
    private mutating func number() -> Int? {
        var value: Int?
        while let scalar = peek(), Self.isASCIIDigit(scalar) {
            value = min((value ?? 0) * 10 + Int(scalar.value - 0x30), 1_000_000)
            index += 1
        }
        return value
    }

    // MARK: - Escapes

    /// After `\` outside a class. - Returns: whether it may take a quantifier.
    private mutating func escape() throws(ECMAPatternError) -> Bool {
        guard let scalar = peek() else { throw failure("a '\\' at the end") }
        switch scalar {
        case "1"..."9":
            guard let group = number(), group <= groupCount else {
                throw failure("a back reference to a group the pattern does not have")
            }
            output += #"\g{"# + "\(group)}"
            backReference = true
            return true
        case "k":
            index += 1
            guard take("<") else { throw failure("'\\k' not followed by '<name>'") }
            let name = try groupName()
            guard groupNames.contains(name) else { throw failure("a back reference to no group named '\(name)'") }
            output += #"\k<"# + name + ">"
            backReference = true
            return true
        default:
            output += try classEscape(inClass: false).text
            return true
        }
    }

    /// An escape that stands for one scalar or a set (after `\`, the
    /// cursor on the letter), as `Regex` syntax: a set outside a class is
    /// bracketed; inside one, `\D`, `\W` and `\S` are a nested class.
    /// - Returns: the text, and the scalar when it is one (a range's end).
    private mutating func classEscape(inClass: Bool) throws(ECMAPatternError) -> (text: String, scalar: Unicode.Scalar?) {
        guard let letter = peek() else { throw failure("a '\\' at the end") }
        index += 1
        if let set = ECMAScalarSet(letter: letter) {
            let inside = set.classText
            return (set.negated ? "[^\(inside)]" : inClass ? inside : "[\(inside)]", nil)
        }
        switch letter {
        case "p", "P":
            guard take("{") else { throw failure("'\\\(letter)' not followed by '{'") }
            var name = ""
            while let scalar = peek(), scalar != "}" {
                guard Self.isASCIIAlphanumeric(scalar) || scalar == "_" || scalar == "=" else { throw failure("a property name of other than letters, digits, '_' and '='") }
                name.unicodeScalars.append(scalar)
                index += 1
            }
            guard take("}"), !name.isEmpty else { throw failure("a property '\\\(letter){…}' that is not closed") }
            return (#"\"# + String(letter) + "{" + name + "}", nil)
        case "f": return one("\u{C}")
        case "n": return one("\n")
        case "r": return one("\r")
        case "t": return one("\t")
        case "v": return one("\u{B}")
        case "b" where inClass: return one("\u{8}")
        case "0":
            if let next = peek(), Self.isASCIIDigit(next) {
                throw failure("an octal escape '\\0\(next)'")
            }
            return one("\u{0}")
        case "c":
            guard let control = peek(), Self.isASCIIAlphanumeric(control), !Self.isASCIIDigit(control) else {
                throw failure("'\\c' not followed by a letter")
            }
            index += 1
            return try scalarEscape(control.value % 32)
        case "x":
            guard let value = hex(count: 2) else { throw failure("'\\x' not followed by two hex digits") }
            return try scalarEscape(value)
        case "u":
            return try scalarEscape(try unicodeEscape())
        case "-" where inClass:
            return one("-")
        case "^", "$", "\\", ".", "*", "+", "?", "(", ")", "[", "]", "{", "}", "|", "/":
            return one(letter)
        default:
            throw failure("'\\\(letter)', which is no escape of ECMA-262")
        }
    }

    private func one(_ scalar: Unicode.Scalar) -> (text: String, scalar: Unicode.Scalar?) {
        (Self.literal(scalar), scalar)
    }

    private func scalarEscape(_ value: UInt32) throws(ECMAPatternError) -> (text: String, scalar: Unicode.Scalar?) {
        guard let scalar = Unicode.Scalar(value) else {
            throw failure("a lone surrogate U+\(String(value, radix: 16, uppercase: true)), which matches no text")
        }
        return one(scalar)
    }

    /// After `\u`: `{hex…}`, or four hex digits (a high surrogate's pair joined to it).
    private mutating func unicodeEscape() throws(ECMAPatternError) -> UInt32 {
        if take("{") {
            var value: UInt32 = 0
            var count = 0
            while let scalar = peek(), scalar != "}" {
                guard let digit = Self.hexValue(scalar) else { throw failure("'\\u{' not followed by hex digits") }
                value = min(value &* 16 &+ digit, 0x110000)
                count += 1
                index += 1
            }
            guard take("}"), count > 0, value <= 0x10FFFF else { throw failure("a '\\u{…}' beyond U+10FFFF or not closed") }
            return value
        }
        guard let value = hex(count: 4) else { throw failure("'\\u' not followed by four hex digits") }
        if (0xD800...0xDBFF).contains(value), peek() == "\\", peek(1) == "u" {
            let start = index
            index += 2
            if let low = hex(count: 4), (0xDC00...0xDFFF).contains(low) {
                return 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
            }
            index = start
        }
        return value
    }

    private mutating func hex(count: Int) -> UInt32? {
        var value: UInt32 = 0
        for offset in 0..<count {
            guard let scalar = peek(offset), let digit = Self.hexValue(scalar) else { return nil }
            value = value * 16 + digit
        }
        index += count
        return value
    }

    private static func isASCIIDigit(_ scalar: Unicode.Scalar) -> Bool { (0x30...0x39).contains(scalar.value) }

    private static func isASCIIAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        isASCIIDigit(scalar) || (0x41...0x5A).contains(scalar.value) || (0x61...0x7A).contains(scalar.value)
    }

    private static func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar.value {
        case 0x30...0x39: scalar.value - 0x30
        case 0x41...0x46: scalar.value - 0x37
        case 0x61...0x66: scalar.value - 0x57
        default: nil
        }
    }

    // MARK: - Classes

    /// After `[`: the class up to its `]`.
    private mutating func characterClass() throws(ECMAPatternError) {
        let negated = take("^")
        if take("]") {
            output += negated ? Self.anyScalar : "(?!)"
            return
        }
        var inside = ""
        while true {
            guard let scalar = peek() else { throw failure("a '[' that is not closed") }
            if scalar == "]" {
                index += 1
                break
            }
            let low = try classAtom()
            // A range `a-z`, unless the `-` is last.
            if peek() == "-", let next = peek(1), next != "]" {
                index += 1
                let high = try classAtom()
                guard let lowScalar = low.scalar, let highScalar = high.scalar else {
                    throw failure("a range in a class with a set (\\d, \\w, \\s, \\p) at one end")
                }
                guard lowScalar.value <= highScalar.value else { throw failure("a range in a class out of order") }
                inside += low.text + "-" + high.text
            } else {
                inside += low.text
            }
        }
        output += (negated ? "[^" : "[") + inside + "]"
    }

    /// One member of a class: a scalar or an escape.
    private mutating func classAtom() throws(ECMAPatternError) -> (text: String, scalar: Unicode.Scalar?) {
        guard let scalar = peek() else { throw failure("a '[' that is not closed") }
        index += 1
        guard scalar == "\\" else { return one(scalar) }
        if let next = peek(), Self.isASCIIDigit(next), next != "0" {
            throw failure("a back reference inside a class")
        }
        return try classEscape(inClass: true)
    }
}
