import Foundation

extension Logger {
    /// The current wall-clock time as `YYYY-MM-DDTHH:MM:SS.mmmZ` (UTC).
    public static let wallClockTimestamp: @Sendable () -> String = {
        let millis = (Date().timeIntervalSince1970 * 1000).rounded(.down)
        return timestamp(millisecondsSince1970: Int64(millis))
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` for a moment given in milliseconds since
    /// 1970-01-01T00:00:00Z, in the proleptic Gregorian calendar.
    ///
    /// Computed by hand rather than with a date formatter: it is exact, needs no
    /// locale or time-zone database, and is cheap enough to run for every line.
    public static func timestamp(millisecondsSince1970 millis: Int64) -> String {
        let (days, millisOfDay) = floorDivide(millis, 86_400_000)
        let (year, month, day) = civilDate(daysSince1970: days)
        let hour = millisOfDay / 3_600_000
        let minute = millisOfDay / 60_000 % 60
        let second = millisOfDay / 1000 % 60
        let milli = millisOfDay % 1000
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(milli, 3))Z"
    }

    /// Year, month (1...12) and day (1...31) of a day count from 1970-01-01,
    /// after Howard Hinnant's `civil_from_days`.
    static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468  // days from 0000-03-01
        let (era, dayOfEra) = floorDivide(shifted, 146_097)
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153  // 0 = March
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
