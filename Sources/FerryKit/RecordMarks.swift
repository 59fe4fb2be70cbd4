/// Marks on record numbers (0-based, in a run), made in the records'
/// order, several to a record allowed: the photo references left unchecked,
/// which a half of a file keeps so that a cap reached later counts only
/// those up to it (`FileRun.adopt`). A bit a record, and a list for the
/// rare record marked twice (a schema with two photo fields), rather than
/// an integer a mark: 125 KB for a million records however many are marked.
struct RecordMarks {
    private var words: [UInt64] = []
    /// The records marked more than once, once for each mark past the first.
    private var repeats: [Int] = []
    /// How many marks there are.
    private(set) var count = 0

    /// Marks `record`, which is at least 0.
    mutating func mark(_ record: Int) {
        count += 1
        let word = record >> 6
        if word >= words.count { words.append(contentsOf: repeatElement(0, count: word - words.count + 1)) }
        let bit = UInt64(1) << UInt64(record & 63)
        if words[word] & bit == 0 {
            words[word] |= bit
        } else {
            repeats.append(record)
        }
    }

    /// How many marks are on records up to `last`, inclusive.
    func count(through last: Int) -> Int {
        guard last >= 0 else { return 0 }
        let lastWord = last >> 6
        guard lastWord < words.count else { return count }
        var total = repeats.count { $0 <= last }
        for word in words[..<lastWord] { total += word.nonzeroBitCount }
        let kept = last & 63 == 63 ? UInt64.max : (UInt64(1) << UInt64((last & 63) + 1)) - 1
        return total + (words[lastWord] & kept).nonzeroBitCount
    }
}
