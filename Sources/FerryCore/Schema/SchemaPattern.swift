// MARK: - Design
//
// JSON Schema's `pattern` and `patternProperties` are ECMA-262 regular
// expressions, read with the `u` flag (the suite's "patterns always use
// unicode semantics"). The standard library's `Regex` reads another
// dialect, so a pattern is first translated, scalar by scalar, into
// `Regex` syntax that means what ECMA-262 means, then compiled once:
//
//     ECMA-262        Regex syntax written            why
//     \d  \w          [0-9]  [A-Za-z0-9_]             ASCII in ECMA-262
//     \s              [\t\n\u{B}\f\r\u{20}…\u{FEFF}] ECMA's WhiteSpace and
//                                                     LineTerminator
//     $               \z                              end of input only
//     .               [^\n\r\u{2028}\u{2029}]         not a line terminator
//     \cC  \x41       \u{3}  \u{41}
//     \uD83D\uDE00    \u{1F600}                       a surrogate pair
//     [^]  []         [\u{0}-\u{10FFFF}]  (?!)
//     \1  \k<name>    \g{1}  \k<name>
//     ; - & ~ [ …     \u{3B} \u{2D} …                 a literal, never syntax
//
// Escapes ECMA-262 does not have (`\a`, `\e`, `\z`, `\Z`, `\A`, `\h`, `\Q`,
// …) are refused, as an ECMA-262 engine refuses them under `u`; so are a
// lone `{`, `}` or `]`, a quantifier with nothing to repeat, and a
// reference to a group that does not exist. Lookbehind (`(?<=`, `(?<!`) is
// ECMA-262 but `Regex` has none: refused with that reason.
//
// `\b` and `\B` are ECMA-262's (a word character is `[A-Za-z0-9_]`), which
// neither of `Regex`'s word boundaries is (its default follows UAX #29, so
// `a.b` has none; its simple one takes digits for non-word characters).
// Outside any group, the pattern is cut at each `\b` and the pieces are
// joined with `ECMAWordBoundary`, an assertion that looks at the scalars
// on either side; inside a group, beside a top-level `|` or with a back
// reference, `\b` is refused with that reason.
//
//     \bv\d+\b   ->   Regex { "" ; ECMAWordBoundary() ; "v[0-9]+" ; ECMAWordBoundary() ; "" }

import RegexBuilder

/// A `pattern`, compiled once when the schema is loaded.
///
/// `Regex` is not marked `Sendable`, but it is an immutable value whose only
/// state set later, its lowered program, is set once with an atomic
/// compare-and-swap (swift-experimental-string-processing,
/// `Regex.Program.loweredProgram`); the compiler lowers it at load by
/// matching once, so a check only reads it.
final class SchemaPattern: @unchecked Sendable {
    let source: String
    let regex: Regex<AnyRegexOutput>
    /// The set of a pattern that is one set escape and nothing else (`\S`,
    /// as the kinds' `name` and `title` have it; `\d`, `\w`…), matched by
    /// a scan of the scalars against the table the regex text is written
    /// from: `Regex` takes a class with members past ASCII one member at a
    /// time. Validating 200,000 products (CSV, built-in kind) ran 581M
    /// instructions with the class, 486M with the scan (506M before ECMA's
    /// `\s`, with `Regex`'s own `\S`).
    private let set: ECMAScalarSet?
    /// The pattern as single-scalar steps, when it is one (`^GS-[0-9]{7}$`):
    /// matched over UTF-8 without `Regex` (`ScalarPattern`).
    private let steps: ScalarPattern?

    /// - Throws: `ECMAPatternError` for a pattern ECMA-262 refuses or
    ///   Ferry cannot run, with the reason.
    init(_ source: String) throws(ECMAPatternError) {
        self.source = source
        regex = try Self.compile(source)
        set = ECMAScalarSet(escape: source)
        steps = set == nil ? ScalarPattern(source) : nil
        _ = "".firstMatch(of: regex)
    }

    /// `source`, an ECMA-262 pattern, as a `Regex` that matches what it matches.
    /// - Throws: `ECMAPatternError`.
    static func compile(_ source: String) throws(ECMAPatternError) -> Regex<AnyRegexOutput> {
        var translator = ECMAPatternTranslator(source)
        let translation = try translator.translate()
        do {
            var regex = try Regex(translation.pieces[0])
            for (index, negated) in translation.boundaries.enumerated() {
                let before = regex
                let next = try Regex(translation.pieces[index + 1])
                regex = Regex(Regex { before; ECMAWordBoundary(negated: negated); next })
            }
            // A match is made of Unicode scalars (code points), not grapheme clusters.
            return regex.matchingSemantics(.unicodeScalar)
        } catch {
            throw ECMAPatternError(reason: "\(error)")
        }
    }

    /// Whether the pattern matches anywhere in `text` (JSON Schema's
    /// patterns are not anchored).
    func matches(_ text: String) -> Bool {
        if let set { return text.unicodeScalars.contains(where: set.contains) }
        if let steps, let found = text.utf8.withContiguousStorageIfAvailable(steps.matches) { return found }
        return text.firstMatch(of: regex) != nil
    }

    /// Whether the pattern matches anywhere in `text`, valid UTF-8.
    func matches(utf8 text: UnsafeBufferPointer<UInt8>) -> Bool {
        if let steps { return steps.matches(text) }
        return matches(String(decoding: text, as: UTF8.self))
    }

    /// Whether the pattern is matched without `Regex` (for tests).
    var matchesWithoutRegex: Bool { steps != nil }
}

/// One of ECMA-262's set escapes, as ranges of scalars: the table both the
/// translated regex text and `SchemaPattern`'s scan read.
struct ECMAScalarSet {
    let ranges: [ClosedRange<UInt32>]
    let negated: Bool

    static let digits: [ClosedRange<UInt32>] = [0x30...0x39]
    static let wordCharacters: [ClosedRange<UInt32>] = [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A]
    /// ECMA-262's WhiteSpace and LineTerminator: tab to CR, space, U+00A0,
    /// U+1680, U+2000…U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF.
    static let whiteSpace: [ClosedRange<UInt32>] = [
        0x9...0xD, 0x20...0x20, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A, 0x2028...0x2029, 0x202F...0x202F,
        0x205F...0x205F, 0x3000...0x3000, 0xFEFF...0xFEFF,
    ]

    init(ranges: [ClosedRange<UInt32>], negated: Bool) {
        self.ranges = ranges
        self.negated = negated
    }

    /// The set of `\d \D \w \W \s \S` (the letter after the backslash); nil for another.
    init?(letter: Unicode.Scalar) {
        switch letter {
        case "d", "D": self.init(ranges: Self.digits, negated: letter == "D")
        case "w", "W": self.init(ranges: Self.wordCharacters, negated: letter == "W")
        case "s", "S": self.init(ranges: Self.whiteSpace, negated: letter == "S")
        default: return nil
        }
    }

    /// The set of a pattern that is exactly one set escape (`\S`); nil for any other.
    init?(escape pattern: String) {
        let scalars = Array(pattern.unicodeScalars)
        guard scalars.count == 2, scalars[0] == "\\" else { return nil }
        self.init(letter: scalars[1])
    }

    func contains(_ scalar: Unicode.Scalar) -> Bool {
        ranges.contains { $0.contains(scalar.value) } != negated
    }

    /// The inside of a `Regex` class of the ranges (not negated). A range
    /// past ASCII is listed scalar by scalar: `Regex` refuses a range whose
    /// bound has a canonical decomposition (U+2000 is U+2002).
    var classText: String {
        var text = ""
        for range in ranges {
            if range.lowerBound == range.upperBound || range.upperBound >= 0x80 {
                for value in range { text += Unicode.Scalar(value).map(ECMAPatternTranslator.literal) ?? "" }
            } else if let low = Unicode.Scalar(range.lowerBound), let high = Unicode.Scalar(range.upperBound) {
                text += ECMAPatternTranslator.literal(low) + "-" + ECMAPatternTranslator.literal(high)
            }
        }
        return text
    }
}

/// ECMA-262's `\b` (or `\B` when `negated`): a word character, `[A-Za-z0-9_]`,
/// on one side and not on the other (the ends of the text count as not).
struct ECMAWordBoundary: CustomConsumingRegexComponent {
    typealias RegexOutput = Substring
    let negated: Bool

    func consuming(
        _ input: String, startingAt index: String.Index, in bounds: Range<String.Index>
    ) throws -> (upperBound: String.Index, output: Substring)? {
        let scalars = input.unicodeScalars
        let before = index > bounds.lowerBound && Self.isWord(scalars[scalars.index(before: index)])
        let after = index < bounds.upperBound && Self.isWord(scalars[index])
        return (before != after) != negated ? (index, input[index..<index]) : nil
    }

    static func isWord(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F: true
        default: false
        }
    }
}

/// Why a pattern is not one Ferry can run; `reason` goes into `schema.invalidPattern`.
struct ECMAPatternError: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}
