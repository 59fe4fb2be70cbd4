/// "Did you mean …?" for a misspelt subcommand, option or value.
///
/// The nearest candidate by Damerau–Levenshtein distance (the optimal string
/// alignment form: insertions, deletions, substitutions and swaps of two
/// neighbours each cost 1), counted in characters and without regard to
/// case. A candidate is offered only when it is near for its length: at
/// most one edit for words of up to five characters, then one more for each
/// further four (`conver` → `convert`, `--forse` → `--force`, `jsnol` →
/// `jsonl`), and never an edit of half the word.
package enum Suggestion {
    /// The candidate nearest `word`, when one is near enough; the first of
    /// equally near ones.
    package static func nearest(_ word: String, among candidates: [String]) -> String? {
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
    package static func threshold(_ length: Int) -> Int { 1 + max(0, length - 2) / 4 }

    /// The optimal string alignment distance between `a` and `b`.
    /// - Complexity: O(`a.count` × `b.count`) time, three rows of memory.
    package static func distance(_ a: [Character], _ b: [Character]) -> Int {
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
}
