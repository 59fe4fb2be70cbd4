import FerryCore
import Foundation

/// What is wrong with a translation, measured against the English catalog.
///
/// A translation has every plain key of English and no other, and for each
/// plural message of English (`key#one`, `key#other`) exactly the variants
/// its language's CLDR rule has (`#one`, `#many`, `#other` in French). Each
/// template uses the placeholders (`%N$@`) of the English one; a plural
/// variant those of the English variant of the same category, else of
/// English `#other`.
enum CatalogCheck {
    /// The `%N$@` placeholders of a template, and whether it uses a bare `%@`.
    static func placeholders(_ template: String) -> (numbered: Set<Int>, bare: Bool) {
        var numbered = Set<Int>()
        var bare = false
        var scalars = template.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            guard scalar == "%" else { continue }
            if scalars.first == "%" {
                scalars.removeFirst()
            } else if scalars.first == "@" {
                bare = true
            } else {
                let digits = scalars.prefix { ("0"..."9").contains($0) }
                let rest = scalars.dropFirst(digits.count)
                if !digits.isEmpty, rest.starts(with: "$@".unicodeScalars), let number = Int(String(digits)) {
                    numbered.insert(number)
                }
            }
        }
        return (numbered, bare)
    }

    /// The base keys of the plural messages in `table`, with their categories.
    static func pluralMessages(_ table: [String: String]) -> [String: Set<String>] {
        var result: [String: Set<String>] = [:]
        for key in table.keys {
            guard let hash = key.firstIndex(of: "#") else { continue }
            result[String(key[..<hash]), default: []].insert(String(key[key.index(after: hash)...]))
        }
        return result
    }

    /// The problems of `table`, the catalog of `language`, one line each, sorted.
    static func problems(language: String, table: [String: String], english: [String: String]) -> [String] {
        var problems: [String] = []
        let englishPlurals = pluralMessages(english)
        let categories = PluralRule(language: language).categories.map(\.rawValue)
        var required = Set(english.keys.filter { !$0.contains("#") })
        for base in englishPlurals.keys {
            for category in categories { required.insert(base + "#" + category) }
        }
        for key in required.subtracting(table.keys) {
            problems.append("\(language): '\(key)' is missing")
        }
        for key in Set(table.keys).subtracting(required) {
            let base = String(key.prefix { $0 != "#" })
            if englishPlurals[key] != nil {
                problems.append("\(language): '\(key)' is there beside its plural variants, which replace it")
            } else if key.contains("#"), english[base] != nil {
                problems.append("\(language): '\(key)' is a plural variant, but English has '\(base)' without any")
            } else if key.contains("#"), englishPlurals[base] != nil {
                problems.append("\(language): '\(key)' is not a plural category of \(language) (\(categories))")
            } else {
                problems.append("\(language): '\(key)' is not in English")
            }
        }
        for (base, variants) in pluralMessages(table) where !variants.contains("other") {
            problems.append("\(language): the plural message '\(base)' has no '\(base)#other'")
        }
        for (key, template) in table {
            let parts = key.split(separator: "#", maxSplits: 1).map(String.init)
            let englishTemplate =
                parts.count == 2 ? english[key] ?? english[parts[0] + "#other"] : english[key]
            guard let englishTemplate else { continue }
            let ours = placeholders(template)
            let theirs = placeholders(englishTemplate)
            if ours.numbered != theirs.numbered {
                problems.append(
                    "\(language): '\(key)' uses placeholders \(ours.numbered.sorted()), English \(theirs.numbered.sorted())"
                )
            }
            if ours.bare && !theirs.bare {
                problems.append("\(language): '\(key)' uses %@, which a translation cannot reorder; write %N$@")
            }
        }
        return problems.sorted()
    }

    /// The problems of the English catalog itself: plural variants of
    /// categories English does not have, plural messages without `#other`,
    /// a key that is both plain and plural.
    static func englishProblems(_ english: [String: String]) -> [String] {
        var problems: [String] = []
        let categories = PluralRule(language: "en").categories.map(\.rawValue)
        for (base, variants) in pluralMessages(english) {
            if !variants.contains("other") {
                problems.append("en: the plural message '\(base)' has no '\(base)#other'")
            }
            for category in variants where !categories.contains(category) {
                problems.append("en: '\(base)#\(category)' is not an English plural category")
            }
            if english[base] != nil { problems.append("en: '\(base)' is both a plain and a plural message") }
        }
        return problems.sorted()
    }
}
