#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// ISO 8601 text for dates, written without Foundation's formatters.
public enum Timestamp {
    /// `date` in UTC as `2017-10-07T12:30:00Z`, with milliseconds when it has them.
    public static func iso8601(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) < 1e14 else { return "invalid-date" }
        var whole = seconds.rounded(.down)
        var millis = Int(((seconds - whole) * 1000).rounded())
        if millis == 1000 {
            whole += 1
            millis = 0
        }
        let total = Int64(whole)
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondOfDay = Int(total - days * 86_400)
        let (year, month, day) = civilDate(daysSince1970: days)
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        var text = "\(year < 0 ? "-" : "")\(pad(Int(abs(year)), 4))-\(pad(month, 2))-\(pad(day, 2))"
        text += "T\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
        if millis != 0 { text += "." + pad(millis, 3) }
        return text + "Z"
    }

    /// The proleptic Gregorian date of a day count (Howard Hinnant's algorithm).
    static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}
