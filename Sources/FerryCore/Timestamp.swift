#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// ISO 8601 text for dates, written without Foundation's formatters.
public enum Timestamp {
    /// The dates `iso8601(_:)` can write: less than 10^14 seconds (about
    /// three million years) from 1970, either way.
    public static let writableSeconds: Double = 1e14

    /// Whether `iso8601(_:)` writes `date` as a calendar date: false for
    /// NaN, the infinities and anything `writableSeconds` or more from 1970.
    public static func isWritable(_ date: Date) -> Bool {
        isWritable(sinceReferenceDate: date.timeIntervalSinceReferenceDate)
    }

    /// Whether a date of `seconds` since 2001-01-01, as plists store it,
    /// is one `iso8601(_:)` writes.
    public static func isWritable(sinceReferenceDate seconds: Double) -> Bool {
        let since1970 = seconds + 978_307_200
        return since1970.isFinite && abs(since1970) < writableSeconds
    }

    /// `date` in UTC as `2017-10-07T12:30:00Z`, with as many fractional
    /// digits as the date has, in groups of three: milliseconds
    /// (`.250Z`) or microseconds (`.382174Z`), rounded to the microsecond.
    /// Readers that take only 3 or 6 digits read both. `invalid-date` for a date `isWritable` refuses,
    /// which readers report before it gets here.
    public static func iso8601(_ date: Date) -> String {
        guard isWritable(date) else { return "invalid-date" }
        // Split the seconds since 2001, as plists and Date hold them, so the
        // fraction is not blurred by the 978,307,200 seconds to 1970.
        let reference = date.timeIntervalSinceReferenceDate
        var whole = reference.rounded(.down)
        var micros = Int(((reference - whole) * 1_000_000).rounded())
        if micros == 1_000_000 {
            whole += 1
            micros = 0
        }
        let total = Int64(whole) + 978_307_200
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondOfDay = Int(total - days * 86_400)
        let (year, month, day) = civilDate(daysSince1970: days)
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        var text = "\(year < 0 ? "-" : "")\(pad(Int(abs(year)), 4))-\(pad(month, 2))-\(pad(day, 2))"
        text += "T\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
        if micros % 1000 != 0 {
            text += "." + pad(micros, 6)
        } else if micros != 0 {
            text += "." + pad(micros / 1000, 3)
        }
        return text + "Z"
    }

    /// The proleptic Gregorian date of a day count (Howard Hinnant's algorithm).
    package static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int, day: Int) {
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
