import Testing

@testable import FerryCore

/// ECMA-262 patterns as JSON Schema reads them (the `u` flag), through
/// their translation into the standard library's `Regex`.
@Suite struct SchemaPatternTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let pattern: String
        let matches: [String]
        let misses: [String]
        var testDescription: String { pattern }
        init(_ pattern: String, _ matches: [String], _ misses: [String]) {
            self.pattern = pattern
            self.matches = matches
            self.misses = misses
        }
    }

    @Test(arguments: [
        // $ is the end of the input, never before a final newline.
        Case("^abc$", ["abc"], ["abc\n", "xabc"]),
        Case("^\\t$", ["\t"], ["\\t"]),
        Case("^\\cC$", ["\u{3}"], ["\\cC", "C"]),
        Case("^\\cc$", ["\u{3}"], ["c"]),
        // \d \w are ASCII; \D \W everything else.
        Case("^\\d+$", ["42"], ["\u{07C0}", "\u{09EA}\u{09E8}", "-"]),
        Case("^\\D$", ["\u{07C0}", "a"], ["0"]),
        Case("^\\w$", ["a", "_", "Z", "9"], ["\u{E9}", "-"]),
        Case("^\\W$", ["\u{E9}", "-"], ["a"]),
        // ECMA's \s: WhiteSpace (with U+FEFF and the Zs spaces) and LineTerminator.
        Case("^\\s$", [" ", "\t", "\u{B}", "\u{C}", "\u{A0}", "\u{FEFF}", "\n", "\u{2029}", "\u{2003}", "\u{2000}",
            "\u{3000}", "\u{1680}"], ["\u{1}", "\u{2013}", "\u{200B}", "\u{85}"]),
        Case("^\\S$", ["\u{1}", "\u{2013}", "\u{85}"], [" ", "\u{FEFF}", "\u{2003}", "\n"]),
        Case("^[\\s\\d]+$", ["1 2\u{FEFF}"], ["1a"]),
        Case("^[^\\S]$", ["\u{FEFF}"], ["a"]),
        Case("^[\\D]$", ["a"], ["1"]),
        // \p with the u flag; case matters.
        Case("\\p{Letter}cole", ["l'école", "ecole"], ["L'ÉCOLE"]),
        Case("^\\p{digit}+$", ["42", "\u{09EA}\u{09E8}"], ["-%#"]),
        Case("^\\P{L}$", ["1"], ["a"]),
        Case("^\\p{Script=Greek}$", ["α"], ["a"]),
        // . is any scalar but a line terminator; a match is made of scalars.
        Case("^.$", ["a", "\u{1F600}", "\u{E9}"], ["\n", "\r", "\u{2028}", "e\u{301}"]),
        Case("^[^]$", ["\n", "a"], ["", "ab"]),
        Case("^[]", [], ["", "a"]),
        // Escapes of one scalar, surrogate pairs joined.
        Case("^\\x41\\u0042\\u{43}$", ["ABC"], ["abc"]),
        Case("^\\uD83D\\uDE00$", ["\u{1F600}"], ["\u{D7FF}"]),
        Case("^\\0$", ["\u{0}"], ["0"]),
        Case("^[\\b]$", ["\u{8}"], ["b"]),
        Case("^\\/\\.\\*$", ["/.*"], ["/a*"]),
        // Literal punctuation is never Regex syntax: && and -- in a class, #, space.
        Case("^[a&&b]+$", ["a&b"], ["c"]),
        Case("^[--a]+$", ["-0A"], ["b"]),
        Case("^a #b$", ["a #b"], ["a#b"]),
        Case("^[\\-a]$", ["-"], ["b"]),
        // Groups, references and lookahead.
        Case("^(a)\\1$", ["aa"], ["ab"]),
        Case("^(?<x>a|b)\\k<x>$", ["bb"], ["ab"]),
        Case("^(?:ab)+(?=c)", ["ababc"], ["abab"]),
        Case("^a(?!b)", ["ac", "a"], ["ab"]),
        Case("^a{2,3}?$", ["aa", "aaa"], ["a", "aaaa"]),
        // ECMA's word boundary: [A-Za-z0-9_] on one side only.
        Case("\\bfoo\\b", ["a foo b", "\u{E9}foo", "foo\u{E9}", "a.foo.b", "foo"], ["afoo", "foo1", "1foo", "foo_"]),
        Case("\\b14\\b", ["3.14", "3,14"], ["x14", "145"]),
        Case("^a\\b", ["a.b", "a'b", "a"], ["ab", "a1"]),
        Case("\\B1", ["a1", "11"], [" 1", "1"]),
        Case("\\Boo", ["foo"], ["oo"]),
        Case("^\\b$", [], ["", " "]),
    ])
    func translatedPatternMatchesAsECMA(_ test: Case) throws {
        let pattern = try SchemaPattern(test.pattern)
        for text in test.matches { #expect(pattern.matches(text), "\(text.debugDescription)") }
        for text in test.misses { #expect(!pattern.matches(text), "\(text.debugDescription)") }
    }

    @Test(arguments: [
        ("\\a", "'\\a'"), ("\\e", "'\\e'"), ("\\z", "'\\z'"), ("\\Z", "'\\Z'"), ("\\A", "'\\A'"), ("\\h", "'\\h'"),
        ("\\Q.\\E", "'\\Q'"), ("\\-", "'\\-'"), ("\\c1", "'\\c'"), ("\\x4", "'\\x'"), ("\\u12", "'\\u'"),
        ("\\uD83D", "lone surrogate"), ("\\u{110000}", "U+10FFFF"), ("\\01", "octal"), ("\\1", "back reference"),
        ("(a)\\2", "back reference"), ("\\k<n>(a)", "no group named"), ("(?<n>a)(?<n>b)", "two groups"),
        ("a{", "'{'"), ("a}", "lone '}'"), ("]", "lone ']'"), ("*a", "nothing to repeat"), ("a**", "nothing to repeat"),
        ("(?=a)*", "nothing to repeat"), ("a{3,2}", "out of order"), ("[z-a]", "out of order"),
        ("[\\d-z]", "a set"), ("(a", "not closed"), ("a)", "unmatched"), ("[a", "not closed"),
        ("(?<=a)b", "lookbehind"), ("(?<!a)b", "lookbehind"), ("(?i)a", "'(?'"), ("\\p{L", "not closed"),
        ("\\p{L-M}", "property name"), ("[\\1]", "inside a class"), ("(?<1a>x)", "group name"),
        ("(\\ba)", "inside a group"), ("\\ba|b", "top-level '|'"), ("(a)\\b\\1", "back reference"),
        ("\\b*", "nothing to repeat"),
    ])
    func nonECMAOrUnsupportedPatternIsRefusedWithItsReason(_ pattern: String, reason: String) {
        #expect(throws: ECMAPatternError.self) { try SchemaPattern(pattern) }
        do {
            _ = try SchemaPattern(pattern)
        } catch {
            #expect(error.reason.contains(reason), "\(error.reason)")
        }
    }
}

/// A pattern that is one set escape is matched by a scan of its table,
/// not by the regex engine: both must say the same of every text.
@Suite struct SchemaPatternSetScanTests {
    static let texts = [
        "", " ", "\u{FEFF}", "\u{85}", "\u{2000}\u{200A}", "\u{200B}", "a", "_", "9", "\u{663}", "\u{E9}", " \t\n",
        "\u{3000}x", "Widget", "\u{1F600}", "-",
    ]

    @Test(arguments: ["\\s", "\\S", "\\d", "\\D", "\\w", "\\W"])
    func scanAgreesWithTheRegex(_ source: String) throws {
        let pattern = try SchemaPattern(source)
        for text in Self.texts {
            #expect(pattern.matches(text) == (text.firstMatch(of: pattern.regex) != nil), "\(text.debugDescription)")
        }
    }

    @Test func theScanIsECMAs() throws {
        let blank = try SchemaPattern("\\S")
        #expect(!blank.matches("\u{FEFF} \u{2003}\u{A0}"))
        #expect(blank.matches("\u{85}"))
        #expect(!(try SchemaPattern("\\d")).matches("\u{663}"))
    }
}
