/// A CLDR plural category: which form of a counted word a number takes.
public enum PluralCategory: String, Sendable, Hashable, CaseIterable {
    case zero, one, two, few, many, other
}

/// The CLDR plural rule of a language, for integers (Ferry counts records,
/// bytes and objects, never fractions).
///
/// From the CLDR plural rules (`plurals.xml`), with `i` the integer and no
/// visible fraction digits:
///
/// | language | one | many | other |
/// |---|---|---|---|
/// | en, de, el | 1 | | everything else |
/// | es, it | 1 | a multiple of 1,000,000 other than 0 | everything else |
/// | fr | 0 and 1 | a multiple of 1,000,000 other than 0 | everything else |
///
/// (The `many` of es, it and fr is for "1 000 000 de fichiers": a million
/// takes `de`/`di` before the noun.) `zero`, `two` and `few` are never used
/// by these languages. A language Ferry has no rule for counts as English.
public struct PluralRule: Sendable, Hashable {
    private enum Shape: Sendable, Hashable {
        case oneIsOne
        case oneIsOneManyForMillions
        case oneIsZeroOrOneManyForMillions
    }

    private let shape: Shape

    /// The rule of `language`, a tag such as `fr` or `en-GB` (its region does
    /// not change the rule).
    public init(language: String) {
        switch LanguageTag.base(of: language) {
        case "es", "it": shape = .oneIsOneManyForMillions
        case "fr": shape = .oneIsZeroOrOneManyForMillions
        default: shape = .oneIsOne
        }
    }

    /// The categories integers fall in, `other` last: the variants a plural
    /// message needs in this language.
    public var categories: [PluralCategory] {
        switch shape {
        case .oneIsOne: [.one, .other]
        case .oneIsOneManyForMillions, .oneIsZeroOrOneManyForMillions: [.one, .many, .other]
        }
    }

    /// The category of `count`. A negative count takes its magnitude's, as CLDR's `n` does.
    public func category(of count: Int) -> PluralCategory {
        let n = count.magnitude
        switch shape {
        case .oneIsOne:
            return n == 1 ? .one : .other
        case .oneIsOneManyForMillions:
            if n == 1 { return .one }
            return n != 0 && n % 1_000_000 == 0 ? .many : .other
        case .oneIsZeroOrOneManyForMillions:
            if n <= 1 { return .one }
            return n % 1_000_000 == 0 ? .many : .other
        }
    }
}

/// Language tags as catalogs and the environment spell them.
enum LanguageTag {
    /// The language of a tag without region, script or encoding, in lower
    /// case: `en-GB` and `de_AT.UTF-8` give `en` and `de`.
    static func base(of tag: String) -> String {
        let end = tag.firstIndex { "-_.@".contains($0) } ?? tag.endIndex
        return tag[..<end].lowercased()
    }
}
