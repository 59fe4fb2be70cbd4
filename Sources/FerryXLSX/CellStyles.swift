import FerryCore

/// What a cell's style says of its number: a date, a time, both, or a
/// plain number. Only this is read of `xl/styles.xml`.
enum NumberFormatKind: UInt8, Sendable {
    case number
    case date
    case time
    case dateTime
}

/// The number formats of a workbook's cell styles (`cellXfs`), by style
/// index (a cell's `s`).
///
///     <numFmts><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/></numFmts>
///     <cellXfs><xf numFmtId="0"/><xf numFmtId="164"/><xf numFmtId="14"/></cellXfs>
///     kinds [number, date, date]
struct CellStyles {
    /// Per style index.
    private(set) var kinds: [NumberFormatKind] = []
    /// Per style index, the format code (built-in ones by id), for `inspect`.
    private(set) var formatCodes: [String] = []

    init() {}

    /// What one cell style (`<xf>`) holds here: its format's id while the
    /// part is read, then its kind and its code's reference.
    static let bytesPerStyle = MemoryLayout<Int>.stride + MemoryLayout<NumberFormatKind>.stride + MemoryLayout<String>.stride
    /// What one custom number format holds besides its code's text: a
    /// dictionary entry and the string's storage header.
    static let bytesPerFormat = 64

    /// - Throws: `xlsx.stylesTooLarge` when the number formats and cell
    ///   styles held pass `limits.maxInputBytes` (a deflated part of a few
    ///   megabytes can expand to a billion `<xf/>`); XML and zip errors.
    init(_ archive: ZipArchive, entry: ZipEntry, limits: ReadLimits) throws(FerryError) {
        let scanner = XMLPullScanner(
            try ZipEntryInput(archive, entry: entry, limits: limits), part: entry.name, file: archive.source.name,
            maxTokenBytes: limits.maxRecordBytes)
        var custom: [Int: String] = [:]
        var styleFormats: [Int] = []
        var inCellXfs = false
        var text: [UInt8] = []
        var held = 0
        while true {
            let token = try scanner.next()
            if token == .endOfDocument { break }
            if token == .end, scanner.nameIs("cellXfs") { inCellXfs = false }
            guard token == .start else { continue }
            if scanner.nameIs("numFmt") {
                let id = try WorkbookParts.value(scanner, "numFmtId", into: &text).flatMap { Int($0) }
                if let id, let code = try WorkbookParts.value(scanner, "formatCode", into: &text) {
                    custom[id] = code
                    held += code.utf8.count + Self.bytesPerFormat
                }
            } else if scanner.nameIs("cellXfs") {
                inCellXfs = !scanner.isEmptyElement
            } else if inCellXfs, scanner.nameIs("xf") {
                styleFormats.append(try WorkbookParts.value(scanner, "numFmtId", into: &text).flatMap { Int($0) } ?? 0)
                held += Self.bytesPerStyle
            }
            guard held <= limits.maxInputBytes else {
                throw .xlsxStylesTooLarge(limit: limits.maxInputBytes, at: scanner.tokenLocation)
            }
        }
        for id in styleFormats {
            if let code = custom[id] {
                kinds.append(Self.kind(ofCode: code))
                formatCodes.append(code)
            } else {
                kinds.append(Self.kind(ofBuiltIn: id))
                formatCodes.append(Self.builtInCodes[id] ?? "General")
            }
        }
    }

    /// The kind of style `index`; a number when there is no such style.
    @inline(__always)
    func kind(_ index: Int) -> NumberFormatKind {
        index >= 0 && index < kinds.count ? kinds[index] : .number
    }

    /// ECMA-376's built-in date and time formats: 14–17 dates, 18–21
    /// times, 22 both, 45–47 times (minutes and seconds, elapsed hours).
    static func kind(ofBuiltIn id: Int) -> NumberFormatKind {
        switch id {
        case 14...17: .date
        case 18...21, 45...47: .time
        case 22: .dateTime
        default: .number
        }
    }

    /// The built-in format codes Ferry names for `inspect` (the others show as their id).
    static let builtInCodes: [Int: String] = [
        0: "General", 1: "0", 2: "0.00", 3: "#,##0", 4: "#,##0.00", 9: "0%", 10: "0.00%", 11: "0.00E+00",
        12: "# ?/?", 13: "# ??/??", 14: "mm-dd-yy", 15: "d-mmm-yy", 16: "d-mmm", 17: "mmm-yy", 18: "h:mm AM/PM",
        19: "h:mm:ss AM/PM", 20: "h:mm", 21: "h:mm:ss", 22: "m/d/yy h:mm", 45: "mm:ss", 46: "[h]:mm:ss",
        47: "mmss.0", 49: "@",
    ]

    /// The kind of a custom format code: a date when, outside quoted text,
    /// escaped characters and brackets (`[Red]`, `[$-409]`), it has y or
    /// d, or m without h or s; a time when it has h or s, or an elapsed
    /// time in brackets (`[h]`, `[mm]`, `[ss]`); both, both.
    static func kind(ofCode code: String) -> NumberFormatKind {
        var hasDate = false
        var hasTime = false
        var hasMonthOrMinute = false
        var quoted = false
        var bracket = false
        /// In a bracket, the letter it has repeated so far (h, m or s), `[`
        /// before its first, else 0: `[White]` and `[$CHF]` are a colour
        /// and a currency, not times.
        var elapsed: UInt8 = 0
        var escaped = false
        // The first section (positive numbers) decides.
        for byte in code.utf8 {
            if escaped {
                escaped = false
                continue
            }
            if quoted {
                if byte == UInt8(ascii: "\"") { quoted = false }
                continue
            }
            if bracket {
                if byte == UInt8(ascii: "]") {
                    bracket = false
                    if elapsed != 0 && elapsed != UInt8(ascii: "[") { hasTime = true }
                } else {
                    // Elapsed time: [h], [mm], [ss]: one of the three letters only.
                    let letter = byte | 0x20
                    let timeLetter =
                        letter == UInt8(ascii: "h") || letter == UInt8(ascii: "m") || letter == UInt8(ascii: "s")
                    elapsed = timeLetter && (elapsed == UInt8(ascii: "[") || elapsed == letter) ? letter : 0
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): quoted = true
            case UInt8(ascii: "["):
                bracket = true
                elapsed = UInt8(ascii: "[")
            case UInt8(ascii: "\\"), UInt8(ascii: "_"), UInt8(ascii: "*"): escaped = true
            case UInt8(ascii: ";"): break
            default:
                switch byte | 0x20 {
                case UInt8(ascii: "y"), UInt8(ascii: "d"): hasDate = true
                case UInt8(ascii: "h"), UInt8(ascii: "s"): hasTime = true
                case UInt8(ascii: "m"): hasMonthOrMinute = true
                default: break
                }
                continue
            }
            if byte == UInt8(ascii: ";") { break }
        }
        if hasMonthOrMinute && !hasTime { hasDate = true }
        switch (hasDate, hasTime) {
        case (true, true): return .dateTime
        case (true, false): return .date
        case (false, true): return .time
        case (false, false): return .number
        }
    }
}
