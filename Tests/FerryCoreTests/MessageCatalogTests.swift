import FerryTestSupport
import Foundation
import Testing

@testable import FerryCore

@Suite struct MessageCatalogTests {
    let catalog = MessageCatalog(
        language: "xx",
        templates: [
            "swap": "%2$@ before %1$@", "plain": "%@ and %@", "percent": "100%% of %1$@", "type.integer": "an integer",
        ],
        fallback: ["only.english": "english %1$@"])

    @Test func positionalPlaceholdersCanBeReordered() {
        #expect(catalog.message(MessageKey("swap"), ["a", "b"]) == "b before a")
    }

    @Test func sequentialPlaceholdersAndPercent() {
        #expect(catalog.message(MessageKey("plain"), ["x", "y"]) == "x and y")
        #expect(catalog.message(MessageKey("percent"), ["it"]) == "100% of it")
    }

    @Test func fallsBackToEnglishThenToTheKey() {
        #expect(catalog.message(MessageKey("only.english"), [.integer(3)]) == "english 3")
        #expect(catalog.message(MessageKey("no.such.key"), ["a", 2]) == "no.such.key(a, 2)")
    }

    @Test func argumentsRender() {
        #expect(catalog.render(.byte(UInt8(ascii: "x"))) == "'x'")
        #expect(catalog.render(.byte(0x0A)) == "0x0A")
        #expect(catalog.render(.message(.typeInteger)) == "an integer")
        #expect(catalog.render(.double(19.99)) == "19.99")
    }

    @Test func typeNamesAreCatalogEntries() {
        #expect(MessageArgument.typeName("integer") == .message(.typeInteger))
        #expect(MessageArgument.typeName("dict") == .message(.typeDict))
        #expect(MessageArgument.typeName("uid") == .message(.typeUID))
        #expect(MessageArgument.typeName("novel") == .string("novel"))
    }

    @Test func stringsFilesParse() throws {
        let text = """
            /* a comment */
            "a" = "one \\"quoted\\" word";
            // another
            "b"="line\\nbreak";
            """
        let pairs = try #require(StringsFile.parse(text))
        #expect(pairs == ["a": "one \"quoted\" word", "b": "line\nbreak"])
    }

    @Test(arguments: ["\"a\" = \"b\"", "\"a\" \"b\";", "\"a\" = \"b;", "a = \"b\";"])
    func malformedStringsFilesAreRejected(_ text: String) {
        #expect(StringsFile.parse(text) == nil)
    }

    /// `fill` works on UTF-8 bytes; a template of random pieces (text in
    /// several scripts, `%`, digits, `$`, `@`) fills as a scalar-by-scalar
    /// reading of the same rules does.
    @Test func fillingBytesAgreesWithFillingScalars() {
        var random = SeededGenerator(seed: 0xF111)
        let pieces = ["%", "%%", "%@", "%1$@", "%2$@", "%3$@", "%0$@", "%12$@", "%1$", "%1@", "$@", "1", "é", "日本", "🎮", " x "]
        let values = ["A", "ß", "数"]
        for _ in 0..<2_000 {
            var template = ""
            for _ in 0..<Int.random(in: 0..<8, using: &random) { template += pieces.randomElement(using: &random)! }
            #expect(MessageCatalog.fill(template, with: values) == Self.fillByScalars(template, with: values))
        }
        #expect(MessageCatalog.fill("%99999999999999999999$@ x", with: values) == "%99999999999999999999$@ x")
    }

    /// The rules of `fill`, read a scalar at a time (how it was written first).
    static func fillByScalars(_ template: String, with values: [String]) -> String {
        var output = ""
        var next = 0
        var scalars = template.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            guard scalar == "%" else {
                output.unicodeScalars.append(scalar)
                continue
            }
            if scalars.first == "%" {
                scalars.removeFirst()
                output += "%"
                continue
            }
            if scalars.first == "@" {
                scalars.removeFirst()
                output += next < values.count ? values[next] : ""
                next += 1
                continue
            }
            var digits = ""
            var lookahead = scalars
            while let digit = lookahead.first, ("0"..."9").contains(digit) {
                digits.unicodeScalars.append(digit)
                lookahead.removeFirst()
            }
            if !digits.isEmpty, lookahead.first == "$", lookahead.dropFirst().first == "@", let position = Int(digits),
                position >= 1
            {
                scalars = lookahead.dropFirst(2)
                output += position <= values.count ? values[position - 1] : ""
            } else {
                output += "%"
            }
        }
        return output
    }

}

// MARK: - Plurals

@Suite struct PluralTests {
    /// The CLDR integer boundaries of each language: 0, 1, 2, a million and its neighbours.
    @Test(arguments: [
        ("en", [PluralCategory.other, .one, .other, .other, .other, .other]),
        ("en-GB", [.other, .one, .other, .other, .other, .other]),
        ("de", [.other, .one, .other, .other, .other, .other]),
        ("el", [.other, .one, .other, .other, .other, .other]),
        ("es", [.other, .one, .other, .other, .many, .many]),
        ("it", [.other, .one, .other, .other, .many, .many]),
        ("fr", [.one, .one, .other, .other, .many, .many]),
        ("pt-BR", [.other, .one, .other, .other, .other, .other]),  // no rule of its own: English's
    ])
    func integerCategories(language: String, expected: [PluralCategory]) {
        let rule = PluralRule(language: language)
        let counts = [0, 1, 2, 999_999, 1_000_000, 3_000_000]
        #expect(counts.map(rule.category(of:)) == expected, "\(language)")
        #expect(rule.category(of: 1_000_001) == .other)
        #expect(rule.category(of: -1) == .one)
    }

    @Test func categoriesOfEachLanguage() {
        for language in ["en", "en-GB", "de", "el"] {
            #expect(PluralRule(language: language).categories == [.one, .other], "\(language)")
        }
        for language in ["es", "it", "fr", "fr_CA.UTF-8"] {
            #expect(PluralRule(language: language).categories == [.one, .many, .other], "\(language)")
        }
    }

    let english: [String: String] = [
        "files#one": "%1$@ file in %2$@", "files#other": "%1$@ files in %2$@",
        "limit#one": "limit of %1$@ byte", "limit#other": "limit of %1$@ bytes",
    ]

    @Test func frenchPicksOneManyAndOther() {
        let french = MessageCatalog(
            language: "fr",
            templates: [
                "files#one": "%1$@ fichier dans %2$@", "files#many": "%1$@ de fichiers dans %2$@",
                "files#other": "%1$@ fichiers dans %2$@",
            ],
            fallback: english)
        func files(_ count: Int) -> String { french.message(PluralKey("files"), count: count, [.count(count), "a"]) }
        #expect(files(0) == "0 fichier dans a")
        #expect(files(1) == "1 fichier dans a")
        #expect(files(2) == "2 fichiers dans a")
        #expect(files(1_000_000) == "1\u{202F}000\u{202F}000 de fichiers dans a")
        #expect(files(1_234) == "1\u{202F}234 fichiers dans a")
    }

    @Test func englishCountsOnlyOneAsOne() {
        let catalog = MessageCatalog(language: "en", templates: english, fallback: english)
        #expect(catalog.message(PluralKey("files"), count: 0, [.count(0), "a"]) == "0 files in a")
        #expect(catalog.message(PluralKey("files"), count: 1, [.count(1), "a"]) == "1 file in a")
        #expect(
            catalog.message(PluralKey("files"), count: 1_000_000, [.count(1_000_000), "a"]) == "1,000,000 files in a")
    }

    @Test func aMissingVariantFallsBackToOtherThenToEnglish() {
        // Spanish without #many: its #other; German without the message: English's variant for the count.
        let spanish = MessageCatalog(
            language: "es", templates: ["files#one": "%1$@ archivo", "files#other": "%1$@ archivos"], fallback: english)
        #expect(spanish.message(PluralKey("files"), count: 2_000_000, [.count(2_000_000)]) == "2.000.000 archivos")
        let german = MessageCatalog(language: "de", templates: [:], fallback: english)
        #expect(german.message(PluralKey("files"), count: 1, [.count(1), "a"]) == "1 file in a")
        #expect(german.message(PluralKey("files"), count: 1_000, [.count(1_000), "a"]) == "1.000 files in a")
        // French counts 0 as one, English does not: the English variant follows English's rule.
        let french = MessageCatalog(language: "fr", templates: [:], fallback: english)
        #expect(french.message(PluralKey("files"), count: 0, [.count(0), "a"]) == "0 files in a")
    }

    @Test func anErrorsFirstCountPicksTheVariant() {
        let catalog = MessageCatalog(language: "en", templates: english, fallback: english)
        let code = FerryError.Code("limit", .data)
        #expect(catalog.message(code, [.count(1)]) == "limit of 1 byte")
        #expect(catalog.message(code, [.count(4_096)]) == "limit of 4,096 bytes")
        // An integer that is not a count leaves the plural form alone.
        #expect(catalog.message(code, [.integer(1)]) == "limit of 1 bytes")
    }
}

// MARK: - Numbers

@Suite struct NumberStyleTests {
    @Test(arguments: [
        ("en", ["0", "999", "1,234", "12,345", "1,234,567", "-1,234", "1,234.5", "-0.5"]),
        ("en-GB", ["0", "999", "1,234", "12,345", "1,234,567", "-1,234", "1,234.5", "-0.5"]),
        ("de", ["0", "999", "1.234", "12.345", "1.234.567", "-1.234", "1.234,5", "-0,5"]),
        ("el", ["0", "999", "1.234", "12.345", "1.234.567", "-1.234", "1.234,5", "-0,5"]),
        ("es", ["0", "999", "1234", "12.345", "1.234.567", "-1234", "1234,5", "-0,5"]),
        ("it", ["0", "999", "1234", "12.345", "1.234.567", "-1234", "1234,5", "-0,5"]),
        (
            "fr",
            [
                "0", "999", "1\u{202F}234", "12\u{202F}345", "1\u{202F}234\u{202F}567", "-1\u{202F}234",
                "1\u{202F}234,5", "-0,5",
            ]
        ),
    ])
    func numbersAreWrittenAsTheLanguageWritesThem(language: String, expected: [String]) {
        let style = NumberStyle(language: language)
        let written = [0, 999, 1_234, 12_345, 1_234_567, -1_234].map(style.format) + [1_234.5, -0.5].map(style.format)
        #expect(written == expected)
    }

    @Test func extremesAndExponents() {
        let german = NumberStyle(language: "de")
        #expect(german.format(Int.min) == "-9.223.372.036.854.775.808")
        #expect(german.format(Int.max) == "9.223.372.036.854.775.807")
        #expect(german.format(1.5e20) == "1,5e+20")
        #expect(german.format(Double.infinity) == "inf")
        #expect(german.format(-Double.infinity) == "-inf")
        #expect(german.format(Double.nan) == "nan")
        #expect(NumberStyle(language: "en").format(123_456.0) == "123,456.0")
    }

    /// Foundation's ICU carries the CLDR data: the same text for the seven languages.
    @Test(arguments: [
        ("en", "en"), ("en-GB", "en_GB"), ("de", "de"), ("el", "el"), ("es", "es"), ("it", "it"), ("fr", "fr"),
    ])
    func sameAsFoundation(language: String, localeIdentifier: String) {
        let style = NumberStyle(language: language)
        let locale = Locale(identifier: localeIdentifier)
        var integers = [0, 7, 42, 999, 1_000, 1_234, 9_999, 10_000, 12_345, 99_999, 100_000, 1_000_000, 123_456_789]
        integers += integers.map { -$0 } + [Int.max, Int.min + 1]
        for number in integers {
            #expect(style.format(number) == number.formatted(.number.locale(locale)), "\(language) \(number)")
        }
        for number in [0.5, 1_234.5, 98_765.25, -1_234.125, 1_234_567.5, 10_000.75] {
            #expect(style.format(number) == number.formatted(.number.locale(locale)), "\(language) \(number)")
        }
    }

    @Test func argumentsAreFormattedForTheCatalogsLanguage() {
        let german = MessageCatalog(language: "de", templates: [:])
        #expect(german.render(.integer(1_234_567)) == "1.234.567")
        #expect(german.render(.count(1_234_567)) == "1.234.567")
        #expect(german.render(.double(1_234.5)) == "1.234,5")
        #expect(german.render(.ungrouped(1_234_567)) == "1234567")
        #expect(german.render(.ungrouped(-3)) == "-3")
    }
}
