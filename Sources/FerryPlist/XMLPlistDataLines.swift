import FerryCore

extension XMLPlistWriter {
    /// How an XML plist cuts the Base64 of `<data>` into lines, each at the
    /// element's indentation. The writers differ, and an edited document
    /// keeps the way it came in, so that only edited data changes lines:
    ///
    ///     plutil:    <data>                   plistlib, two tabs in:
    ///                →→iVBORw0KGgo…(76)        →→iVBORw0KGgo…(60 = 76 − 2 × 8)
    package enum DataLines: Sendable, Hashable {
        /// Lines of 76 characters, as plutil (and Ferry's record writer)
        /// writes them.
        case plutil
        /// Lines of 76 columns less the indentation, a tab counting 8, and
        /// at least 16, in whole groups of four characters, as Python's
        /// plistlib writes them.
        case plistlib

        /// The characters of Base64 on one line of data `level` tabs in.
        func width(atLevel level: Int) -> Int {
            switch self {
            case .plutil: 76
            case .plistlib: max(16, 76 - 8 * min(level, 16)) / 4 * 4
            }
        }

        /// The way `document` cuts its data: that of its first `<data>` of
        /// more than one line whose first line is plistlib's width and not
        /// plutil's; plutil's otherwise.
        /// - Complexity: O(n) in the bytes before that element.
        package init(of document: [UInt8]) {
            self = .plutil
            let opening = Array("<data>\n".utf8)
            var from = document.startIndex
            while let found = document[from...].firstRange(of: opening) {
                from = found.upperBound
                let tabs = document[from...].prefix { $0 == 0x09 }.count
                let text = document[(from + tabs)...].prefix { $0 != 0x0A && $0 != 0x3C && $0 != 0x09 }
                let lineEnd = from + tabs + text.count
                // A line of data must be followed by another for its width to say anything.
                guard lineEnd < document.endIndex, document[lineEnd] == 0x0A else { continue }
                let next = document[(lineEnd + 1)...].drop { $0 == 0x09 }
                guard let first = next.first, first != 0x3C else { continue }
                if text.count == Self.plistlib.width(atLevel: tabs) && text.count != 76 { self = .plistlib }
                return
            }
        }
    }
}
