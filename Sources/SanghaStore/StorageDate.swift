import Foundation

/// A date as GRDB stores one in SQLite: "yyyy-MM-dd HH:mm:ss.SSS" in UTC, so it compares with
/// the stored ones as text.
///
/// GRDB makes this text with one shared `DateFormatter`, behind a lock: binding the 366 day
/// boundaries of a year of streak spent most of the history page there (0.45 of its CPU, a
/// fifth waiting on the lock). This is arithmetic on the milliseconds since 1970.
enum StorageDate {
    static func text(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let (days, inDay) = floorDivision(milliseconds, 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        let hour = inDay / 3_600_000
        let minute = inDay / 60_000 % 60
        let second = inDay / 1000 % 60
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2)) \(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
            + ".\(pad(inDay % 1000, 3))"
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value >= 0 ? value / divisor : (value - divisor + 1) / divisor
        return (quotient, value - quotient * divisor)
    }

    /// Year, month and day of the `days`th day after 1970-01-01 in the proleptic Gregorian
    /// calendar (Howard Hinnant's `civil_from_days`).
    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
