#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A table of text in columns, two spaces apart, fitted to a width when
/// there is one (a terminal's): the widest columns are cut first, each cut
/// cell ending in `…`, down to a few characters; past that, the last columns
/// are left out. Without a width (a pipe, a file) every cell is whole.
struct TextTable {
    var header: [String]
    var rows: [[String]]
    /// The narrowest a column is cut to.
    static let minimumWidth = 6

    /// The lines of the table, each without trailing spaces.
    func lines(fittingIn width: Int?) -> [String] {
        render(fittingIn: width).split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The table as UTF-8 text, a line feed after each line, each line
    /// without trailing spaces.
    func render(fittingIn width: Int?) -> [UInt8] {
        var widths = header.map(TextTable.width)
        for row in rows {
            for column in widths.indices { widths[column] = max(widths[column], TextTable.width(of: row[column])) }
        }
        var shown = header.count
        if let width {
            func total() -> Int { widths.prefix(shown).reduce(0, +) + 2 * max(0, shown - 1) }
            while total() > width {
                // The first column (the index) is never cut.
                let candidates = (1..<shown).filter { widths[$0] > TextTable.minimumWidth }
                if let widest = candidates.max(by: { widths[$0] < widths[$1] }) {
                    widths[widest] -= 1
                } else if shown > 1 {
                    shown -= 1
                } else {
                    break
                }
            }
        }
        var text: [UInt8] = []
        func append(_ cells: [String]) {
            var pending = 0  // spaces owed, written only before more text
            for column in 0..<shown {
                let (cell, cellWidth) = TextTable.cut(TextTable.oneLine(cells[column]), to: widths[column])
                if !cell.isEmpty {
                    text.append(contentsOf: repeatElement(UInt8(ascii: " "), count: pending))
                    pending = 0
                    text.append(contentsOf: cell.utf8)
                }
                pending += widths[column] - cellWidth + 2
            }
            text.append(0x0A)
        }
        append(header)
        for row in rows { append(row) }
        return text
    }

    /// `text` with each control character (a line break, a tab) as a
    /// space, so that a cell stays on its line and keeps its width.
    static func oneLine(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
    }

    /// How many columns a text takes: one a Unicode scalar (wide scripts
    /// and combining marks aside), counted fast for ASCII.
    static func width(of text: String) -> Int {
        let utf8 = text.utf8
        if utf8.allSatisfy({ $0 < 0x80 }) { return utf8.count }
        return text.unicodeScalars.count
    }

    /// `text` cut to `width` columns, ending in `…` when it was cut, and its width.
    static func cut(_ text: String, to width: Int) -> (String, Int) {
        let full = self.width(of: text)
        guard full > width else { return (text, full) }
        let kept = String(String.UnicodeScalarView(text.unicodeScalars.prefix(max(0, width - 1))))
        return (kept + "…", width)
    }

    /// The width of the terminal on standard output: the terminal's
    /// (TIOCGWINSZ), else `COLUMNS`, else 80.
    static func terminalWidth(environment: [String: String]) -> Int {
        var size = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        return 80
    }
}
