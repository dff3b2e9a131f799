import Foundation
import SanghaCore

/// Days and times in English words, in a time zone (a view adapter for the history).
public enum CalendarText {
    static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    static func shortMonth(_ parts: DateComponents) -> String {
        String(months[((parts.month ?? 1) - 1) % 12].prefix(3))
    }

    /// The wall clock of `timeZone` at `date`: its day and the seconds into it. By the zone's
    /// offset at that instant and day arithmetic, not `Calendar`: the history formats a date
    /// for each of its rows, and `Calendar.dateComponents` was most of their cost.
    static func wallClock(_ date: Date, timeZone: TimeZone) -> (day: LocalDay, second: Int) {
        LocalDay.containing(
            localSecond: Int(date.timeIntervalSince1970.rounded(.down)) + timeZone.secondsFromGMT(for: date))
    }

    /// `07:15` for `second` seconds into a day.
    static func clock(_ second: Int) -> String {
        twoDigits(second / 3600) + ":" + twoDigits(second % 3600 / 60)
    }

    static func twoDigits(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }

    /// `23 Nov`.
    public static func shortDay(_ date: Date, timeZone: TimeZone) -> String {
        shortDay(wallClock(date, timeZone: timeZone).day)
    }

    /// `23 Nov 2026`.
    public static func shortDate(_ date: Date, timeZone: TimeZone) -> String {
        let day = wallClock(date, timeZone: timeZone).day
        return "\(shortDay(day)) \(day.date.year)"
    }

    /// `Monday 23 November`.
    public static func longDay(_ date: Date, timeZone: TimeZone) -> String {
        longDay(wallClock(date, timeZone: timeZone).day)
    }

    /// `Monday 23 November`, the words of a person's day.
    public static func longDay(_ day: LocalDay) -> String {
        let (_, month, date) = day.date
        return "\(weekdays[day.weekday % 7]) \(date) \(months[month - 1])"
    }

    /// `23 Nov`.
    public static func shortDay(_ day: LocalDay) -> String {
        let (_, month, date) = day.date
        return "\(date) \(months[month - 1].prefix(3))"
    }

    /// `Mon 23 Nov 2026, 07:15`.
    public static func dayAndTime(_ date: Date, timeZone: TimeZone) -> String {
        let (day, second) = wallClock(date, timeZone: timeZone)
        let (year, month, dayOfMonth) = day.date
        return "\(weekdays[day.weekday % 7].prefix(3)) \(dayOfMonth) \(months[month - 1].prefix(3)) \(year), "
            + clock(second)
    }

    /// `07:15`.
    public static func time(_ date: Date, timeZone: TimeZone) -> String {
        clock(wallClock(date, timeZone: timeZone).second)
    }

    /// The machine-readable form for `<time datetime>`: `2026-11-23T07:15:00Z` (what
    /// Foundation's ISO 8601 style writes, without its formatter).
    public static func iso(_ date: Date) -> String {
        let (day, second) = wallClock(date, timeZone: utc)
        return "\(day)T\(clock(second)):\(twoDigits(second % 60))Z"
    }

    static let utc = TimeZone.utc
}
