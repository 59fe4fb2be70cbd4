#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Timestamp {
    /// The date an ISO 8601 (RFC 3339) text names, read without Foundation's
    /// formatters: `2017-10-07` (midnight UTC), or `2017-10-07T12:30:00Z`
    /// with `T`, `t` or a space between date and time, optional seconds and
    /// fraction, and a zone (`Z`, `+02:00`, `-0530`), which a time needs.
    /// - Returns: nil when `text` is not such a date, or names a day or
    ///   time that does not exist (`2023-02-29`, `24:00`).
    public static func date(iso8601 text: String) -> Date? {
        var utf8 = Array(text.utf8)
        return utf8.withUnsafeMutableBufferPointer { bytes in parse(UnsafeBufferPointer(bytes)) }
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var index = 0
        func number(_ width: Int) -> Int? {
            guard index + width <= bytes.count else { return nil }
            var value = 0
            for offset in 0..<width {
                let digit = bytes[index + offset] &- 0x30
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            index += width
            return value
        }
        func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard let year = number(4), take(UInt8(ascii: "-")), let month = number(2), take(UInt8(ascii: "-")),
            let day = number(2), (1...12).contains(month), day >= 1, day <= SchemaFormat.daysIn(month: month, year: year)
        else { return nil }
        var seconds = Double(daysSince1970(year: Int64(year), month: Int64(month), day: Int64(day))) * 86_400
        guard index < bytes.count else { return Date(timeIntervalSince1970: seconds) }
        guard take(UInt8(ascii: "T")) || take(UInt8(ascii: "t")) || take(UInt8(ascii: " ")),
            let hour = number(2), take(UInt8(ascii: ":")), let minute = number(2), hour < 24, minute < 60
        else { return nil }
        var second = 0
        var fraction = 0.0
        if take(UInt8(ascii: ":")) {
            guard let whole = number(2), whole < 61 else { return nil }
            second = whole
            if take(UInt8(ascii: ".")) {
                var scale = 0.1
                let start = index
                while index < bytes.count, bytes[index] &- 0x30 < 10 {
                    fraction += Double(bytes[index] &- 0x30) * scale
                    scale /= 10
                    index += 1
                }
                guard index > start else { return nil }
            }
        }
        seconds += Double(hour * 3600 + minute * 60 + min(second, 59)) + fraction
        if take(UInt8(ascii: "Z")) || take(UInt8(ascii: "z")) {
            return index == bytes.count ? Date(timeIntervalSince1970: seconds) : nil
        }
        let sign: Double
        if take(UInt8(ascii: "+")) {
            sign = 1
        } else if take(UInt8(ascii: "-")) {
            sign = -1
        } else {
            return nil
        }
        guard let zoneHours = number(2), zoneHours < 24 else { return nil }
        _ = take(UInt8(ascii: ":"))
        guard let zoneMinutes = number(2), zoneMinutes < 60, index == bytes.count else { return nil }
        return Date(timeIntervalSince1970: seconds - sign * Double(zoneHours * 3600 + zoneMinutes * 60))
    }

    /// The days from 1970-01-01 to a proleptic Gregorian date, `civilDate`'s
    /// inverse (Howard Hinnant's algorithm).
    package static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
