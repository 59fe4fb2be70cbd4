import FerryKit

/// "Did you mean …?" for a misspelt subcommand, option or value.
///
/// The nearest candidate by Damerau–Levenshtein distance (the optimal string
/// alignment form: insertions, deletions, substitutions and swaps of two
/// neighbours each cost 1), counted in characters and without regard to
/// case. A candidate is offered only when it is near for its length: at
/// most one edit for words of up to five characters, then one more for each
/// further four (`conver` → `convert`, `--forse` → `--force`, `jsnol` →
/// `jsonl`), and never an edit of half the word.
enum Suggestion {
    /// The candidate nearest `word`, when one is near enough; the first of
    /// equally near ones.
    static func nearest(_ word: String, among candidates: [String]) -> String? {
        let typed = Array(word.lowercased())
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = Suggestion.distance(typed, Array(candidate.lowercased()))
            guard distance > 0, distance <= threshold(typed.count), distance * 2 < max(typed.count, 2) else { continue }
            if distance < best?.distance ?? .max { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// The edits allowed for a word of `length` characters.
    static func threshold(_ length: Int) -> Int { 1 + max(0, length - 2) / 4 }

    /// The optimal string alignment distance between `a` and `b`.
    /// - Complexity: O(`a.count` × `b.count`) time, three rows of memory.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }

    /// What a usage error's misspelt word may have meant, from what the
    /// command line offers there.
    /// - Parameters:
    ///   - error: a `usage.*` error from parsing.
    ///   - command: the subcommand parsed, or nil at the top level.
    ///   - commands: every subcommand.
    static func forError(_ error: FerryError, command: CommandSpec?, commands: [CommandSpec]) -> String? {
        guard case .string(let word)? = error.arguments.first else { return nil }
        switch error.code {
        case .usageUnknownCommand:
            return nearest(word, among: commands.map(\.name) + ["help"])
        case .usageUnknownOption:
            let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
            if let command, let new = renamed[command.name]?[name] { return new }
            let options = command.map { $0.options.map { "--" + $0.name } } ?? topLevelOptions
            return nearest(name, among: options + ["--lang"])
        case .usageInvalidValue:
            guard error.arguments.count > 1, case .string(let value) = error.arguments[1],
                let option = command?.options.first(where: { "--" + $0.name == word }),
                let allowed = option.allowed
            else { return nil }
            return nearest(value, among: allowed + option.aliases.keys.sorted())
        default:
            return nil
        }
    }

    /// Old spellings of options, by subcommand, with the new: `--report`
    /// was a form in `validate` and a file in `merge`, and `--output` the
    /// report's file in `validate`. They are refused, and this names the
    /// spelling that replaced each.
    static let renamed: [String: [String: String]] = {
        let checks = ["--report": "--report-format", "--output": "--report-file"]
        let forms = ["--report": "--report-format"]
        return [
            "validate": checks, "lint": checks, "plan": forms, "inspect": forms, "list": forms,
            "merge": ["--report": "--report-file", "-r": "--report-file"],
        ]
    }()

    /// The options `ferry` takes before a subcommand.
    static let topLevelOptions = ["--help", "--version", "--lang"]
}
