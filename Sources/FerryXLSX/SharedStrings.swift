import FerryCore

/// A workbook's shared strings (`xl/sharedStrings.xml`), rich text
/// flattened: the one part held whole while a sheet streams, as UTF-8 in
/// one buffer with an offset per string, both bounded by the input limit
/// (an empty `<si/>` is 5 bytes of XML but 8 of offset).
///
///     <sst><si><t>Wii</t></si><si><r><t>Dune</t></r><r><rPr><b/></rPr><t>, part 2</t></r></si></sst>
///     bytes "WiiDune, part 2", ends [3, 15]
struct SharedStrings {
    private var bytes: [UInt8] = []
    private var ends: [Int] = []

    init() {}

    var count: Int { ends.count }

    /// - Throws: `xlsx.sharedStringsTooLarge` when the text and offsets
    ///   pass `limits.maxInputBytes`; XML and zip errors.
    init(_ archive: ZipArchive, entry: ZipEntry, limits: ReadLimits) throws(FerryError) {
        let scanner = XMLPullScanner(
            try ZipEntryInput(archive, entry: entry, limits: limits), part: entry.name, file: archive.source.name,
            maxTokenBytes: limits.maxRecordBytes)
        // Text counts inside <t>, but not inside phonetic runs (<rPh>).
        var inText = false
        var phonetic = 0
        var inItem = false
        while true {
            switch try scanner.next() {
            case .endOfDocument:
                return
            case .start:
                if scanner.nameIs("si") {
                    inItem = true
                } else if scanner.nameIs("t") {
                    inText = true
                } else if scanner.nameIs("rPh") {
                    phonetic += 1
                }
            case .end:
                if scanner.nameIs("si") {
                    if inItem {
                        ends.append(bytes.count)
                        try checkSize(limits, scanner)
                    }
                    inItem = false
                } else if scanner.nameIs("t") {
                    inText = false
                } else if scanner.nameIs("rPh") {
                    phonetic -= 1
                }
            case .text:
                guard inItem, inText, phonetic == 0 else { continue }
                try scanner.appendText(scanner.textRange, cdata: scanner.isCDATA, to: &bytes)
                try checkSize(limits, scanner)
            }
        }
    }

    /// - Throws: `xlsx.sharedStringsTooLarge` when the text and the offsets
    ///   held so far pass `limits.maxInputBytes`.
    private func checkSize(_ limits: ReadLimits, _ scanner: XMLPullScanner) throws(FerryError) {
        guard bytes.count + ends.count * MemoryLayout<Int>.stride <= limits.maxInputBytes else {
            throw .xlsxSharedStringsTooLarge(limit: limits.maxInputBytes, at: scanner.tokenLocation)
        }
    }

    /// The string at `index`, or nil past the table.
    func string(_ index: Int) -> String? {
        guard index >= 0, index < ends.count else { return nil }
        let start = index == 0 ? 0 : ends[index - 1]
        return bytes.withUnsafeBufferPointer { String(decoding: $0[start..<ends[index]], as: UTF8.self) }
    }
}
