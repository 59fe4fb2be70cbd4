import FerryCore

/// Excel's date serials as ISO 8601 text.
///
/// A serial counts days, its fraction the time of day. In the 1900 system
/// day 1 is 1900-01-01, and Lotus 1-2-3's leap day 1900-02-29 is day 60,
/// so days from 61 on are counted from 1899-12-30 and days 1–59 from
/// 1899-12-31; in the 1904 system (Mac Excel's) day 0 is 1904-01-01.
///
///     45306.5 (1900) → 2024-01-15T12:00:00     60 (1900) → 1900-02-29     0.75 → 18:00:00
enum ExcelDate {
    /// The text of `serial` shown as `kind`, or nil for a serial out of
    /// range (before the epoch, past year 9999).
    static func text(_ serial: Double, kind: NumberFormatKind, uses1904: Bool) -> String? {
        guard serial.isFinite, serial >= 0, serial < 2_958_466 else { return nil }
        // Milliseconds, rounded, as Excel shows at most.
        let totalMilliseconds = Int64((serial * 86_400_000).rounded())
        var days = totalMilliseconds / 86_400_000
        let milliseconds = totalMilliseconds % 86_400_000
        let time = timeText(milliseconds)
        // A time alone for a time format, and for any serial below one day
        // in the 1900 system (day 0 is no date).
        if kind == .time && days == 0 || !uses1904 && days == 0 { return time }
        var date: String
        if !uses1904 && days == 60 {
            date = "1900-02-29"
        } else {
            if !uses1904 && days < 60 { days += 1 }
            // Days since 1970-01-01.
            let epoch: Int64 = uses1904 ? -24_107 : -25_569
            date = civil(days + epoch)
        }
        switch kind {
        case .date where milliseconds == 0: return date
        case .number, .date, .time, .dateTime: return date + "T" + time
        }
    }

    /// hh:mm:ss, with .sss when there are milliseconds.
    private static func timeText(_ milliseconds: Int64) -> String {
        let seconds = milliseconds / 1000
        var text = two(seconds / 3600) + ":" + two(seconds / 60 % 60) + ":" + two(seconds % 60)
        let rest = milliseconds % 1000
        if rest != 0 {
            let digits = String(rest + 1000).dropFirst()
            text += "." + digits
        }
        return text
    }

    private static func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// The date `days` after 1970-01-01, by the core's calendar (`Timestamp`).
    private static func civil(_ days: Int64) -> String {
        let (year, month, day) = Timestamp.civilDate(daysSince1970: days)
        var yearText = String(year)
        while yearText.count < 4 { yearText = "0" + yearText }
        return yearText + "-" + two(Int64(month)) + "-" + two(Int64(day))
    }
}
