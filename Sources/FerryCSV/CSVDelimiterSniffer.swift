import FerryCore

// Which delimiter a CSV file uses, when `--delimiter` does not say: the
// header and the first rows are split by each candidate, quote-aware, and
// the candidate that splits them into the same number of fields wins.
//
//     name;price;note            ,  -> 1, 2, 1 fields   (not in the header)
//     Crème brûlée;4,50;"a;b"    ;  -> 3, 3, 3 fields   every row agrees: wins
//     Tea;2,10;                  \t -> 1, 1, 1 fields   (not in the header)
//                                |  -> 1, 1, 1 fields   (not in the header)
//
// A candidate must split the header into two fields or more. Among those,
// the one with most rows agreeing with the header's count, their quoted
// fields each ending at the candidate (`"a,b";"c"` is not split at commas),
// wins; then the
// codec's own delimiter (comma for CSV, tab for TSV); then more fields;
// then the order of `candidates`. A file no candidate splits (one column)
// keeps the codec's delimiter. Delimiters inside quoted fields are text,
// and a line break inside one does not end the row.
//
// A first line `sep=;` (Excel's, CSVSepLine.swift) names the delimiter:
// nothing is guessed then.

/// Guesses the delimiter of CSV text from its first rows.
package enum CSVDelimiterSniffer {
    /// The delimiters guessed among, in order of preference after the default.
    package static let candidates: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), 0x09, UInt8(ascii: "|")]
    /// How many bytes of the input are looked at.
    package static let sampleLength = 16 << 10
    /// How many rows, the header included, are looked at.
    package static let sampleRows = 20

    /// The delimiter `sample` (the input's first bytes) is most likely split
    /// by, or the one its `sep=` line names.
    /// - Parameters:
    ///   - sample: the first bytes, UTF-8.
    ///   - isWhole: whether `sample` is the whole input, so that its last
    ///     row counts even without a line break.
    ///   - quote: the quote byte.
    ///   - preferred: the codec's own delimiter, which wins ties.
    /// - Complexity: O(`sample.count` × `candidates.count`).
    package static func sniff(_ sample: [UInt8], isWhole: Bool, quote: UInt8, preferred: UInt8) -> UInt8 {
        let bom = sample.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        if let line = CSVSepLine(sample[bom...], isWhole: isWhole, quote: quote) { return line.delimiter }
        var best: (delimiter: UInt8, score: (Int, Int, Int, Int))?
        for (order, candidate) in ([preferred] + candidates.filter { $0 != preferred }).enumerated() {
            let rows = self.rows(sample, isWhole: isWhole, delimiter: candidate, quote: quote)
            guard let header = rows.first?.fields, header > 1 else { continue }
            let agreeing = rows.filter { $0.fields == header && $0.quotesFit }.count
            let score = (agreeing, candidate == preferred ? 1 : 0, header, -order)
            if let found = best, score <= found.score { continue }
            best = (candidate, score)
        }
        return best?.delimiter ?? preferred
    }

    /// The number of fields of each complete row of `sample`, blank rows
    /// left out, up to `sampleRows` rows.
    static func fieldCounts(_ sample: [UInt8], isWhole: Bool, delimiter: UInt8, quote: UInt8) -> [Int] {
        rows(sample, isWhole: isWhole, delimiter: delimiter, quote: quote).map(\.fields)
    }

    /// A row as one candidate splits it: its fields, and whether its quotes
    /// fit (each quoted field ends at a delimiter or the row's end). Quotes
    /// that do not fit (`"a,b";"c"` split at commas) say the candidate is
    /// wrong.
    struct Row: Equatable {
        var fields: Int
        var quotesFit: Bool
    }

    static func rows(_ sample: [UInt8], isWhole: Bool, delimiter: UInt8, quote: UInt8) -> [Row] {
        var counts: [Row] = []
        var fields = 1
        var quotesFit = true
        var inQuotes = false
        var afterClosingQuote = false
        var rowHasBytes = false
        // A quote opens a quoted field only at the field's start; inside an
        // unquoted field it is text (`5" screen`), as CSVScanner reads it.
        var atFieldStart = true
        var index = 0
        if sample.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        while index < sample.count && counts.count < sampleRows {
            let byte = sample[index]
            index += 1
            if inQuotes {
                // A doubled quote stays inside; a lone one closes the field.
                if byte == quote {
                    if index < sample.count && sample[index] == quote {
                        index += 1
                    } else {
                        inQuotes = false
                        afterClosingQuote = true
                    }
                }
                continue
            }
            switch byte {
            case delimiter:
                fields += 1
                rowHasBytes = true
                atFieldStart = true
                afterClosingQuote = false
            case 0x0A, 0x0D:
                if rowHasBytes { counts.append(Row(fields: fields, quotesFit: quotesFit)) }
                fields = 1
                quotesFit = true
                rowHasBytes = false
                atFieldStart = true
                afterClosingQuote = false
            default:
                if afterClosingQuote { quotesFit = false }
                if byte == quote && atFieldStart { inQuotes = true }
                rowHasBytes = true
                atFieldStart = false
                afterClosingQuote = false
            }
        }
        if isWhole && rowHasBytes && !inQuotes && counts.count < sampleRows {
            counts.append(Row(fields: fields, quotesFit: quotesFit))
        }
        return counts
    }
}
