/// How a language writes numbers in text: its decimal and group separators
/// and when it groups, from CLDR (`numbers.json`, latn symbols). Foundation's
/// `Locale` is not used: on Linux it ignores the environment, and Ferry's
/// messages must not depend on the ICU data a build happens to carry.
///
/// | language | 1234567.5 | 1234 | |
/// |---|---|---|---|
/// | en, en-GB | 1,234,567.5 | 1,234 | |
/// | de, el | 1.234.567,5 | 1.234 | |
/// | es, it | 1.234.567,5 | 1234 | `minimumGroupingDigits` 2 (it since CLDR 46) |
/// | fr | 1 234 567,5 | 1 234 | the group separator is U+202F NARROW NO-BREAK SPACE |
///
/// A language Ferry has no style for writes numbers as English does.
public struct NumberStyle: Sendable, Hashable {
    public let decimalSeparator: String
    public let groupSeparator: String
    /// The fewest digits before the first group separator: with 2, four-digit
    /// numbers are not grouped (CLDR `minimumGroupingDigits`).
    public let minimumGroupingDigits: Int

    /// The style of `language`, a tag such as `fr` or `en-GB`.
    public init(language: String) {
        switch LanguageTag.base(of: language) {
        case "de", "el": self.init(decimal: ",", group: ".", minimumGroupingDigits: 1)
        case "es", "it": self.init(decimal: ",", group: ".", minimumGroupingDigits: 2)
        case "fr": self.init(decimal: ",", group: "\u{202F}", minimumGroupingDigits: 1)
        default: self.init(decimal: ".", group: ",", minimumGroupingDigits: 1)
        }
    }

    private init(decimal: String, group: String, minimumGroupingDigits: Int) {
        decimalSeparator = decimal
        groupSeparator = group
        self.minimumGroupingDigits = minimumGroupingDigits
    }

    /// `number` with its digits grouped by thousands: `1,234,567`.
    public func format(_ number: Int) -> String {
        (number < 0 ? "-" : "") + grouped(String(number.magnitude))
    }

    /// `number` with the shortest digits that give it back (as `description`
    /// has them), grouped, with this language's decimal separator:
    /// `1.234,5`. Very large and very small numbers keep their exponent
    /// (`1,5e+20`); infinities and NaN are written as Swift writes them.
    public func format(_ number: Double) -> String {
        guard number.isFinite else { return number.description }
        var text = Substring(number.description)
        var sign = ""
        if text.first == "-" {
            sign = "-"
            text = text.dropFirst()
        }
        var exponent: Substring = ""
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = text[e...]
            text = text[..<e]
        }
        var result = sign
        if let point = text.firstIndex(of: ".") {
            result += grouped(text[..<point]) + decimalSeparator + text[text.index(after: point)...]
        } else {
            result += grouped(text)
        }
        return result + exponent
    }

    /// ASCII `digits` with a group separator before every third digit from
    /// the right, when there are enough of them to group.
    private func grouped(_ digits: some StringProtocol) -> String {
        let count = digits.utf8.count
        guard count >= 3 + minimumGroupingDigits else { return String(digits) }
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (count - offset) % 3 == 0 { result += groupSeparator }
            result.append(digit)
        }
        return result
    }
}
