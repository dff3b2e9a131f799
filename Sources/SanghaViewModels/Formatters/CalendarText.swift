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

    /// `23 Nov`.
    public static func shortDay(_ date: Date, timeZone: TimeZone) -> String {
        let parts = Calendar.gregorian(in: timeZone).dateComponents([.month, .day], from: date)
        return "\(parts.day ?? 1) \(shortMonth(parts))"
    }

    /// `23 Nov 2026`.
    public static func shortDate(_ date: Date, timeZone: TimeZone) -> String {
        let parts = Calendar.gregorian(in: timeZone).dateComponents([.year, .month, .day], from: date)
        return "\(parts.day ?? 1) \(shortMonth(parts)) \(parts.year ?? 1970)"
    }

    /// `Monday 23 November`.
    public static func longDay(_ date: Date, timeZone: TimeZone) -> String {
        let parts = Calendar.gregorian(in: timeZone).dateComponents([.weekday, .month, .day], from: date)
        return "\(weekdays[((parts.weekday ?? 1) - 1) % 7]) \(parts.day ?? 1) \(months[((parts.month ?? 1) - 1) % 12])"
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
        let parts = Calendar.gregorian(in: timeZone).dateComponents(
            [.weekday, .year, .month, .day, .hour, .minute], from: date)
        let weekday = weekdays[((parts.weekday ?? 1) - 1) % 7].prefix(3)
        let time = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        return "\(weekday) \(parts.day ?? 1) \(shortMonth(parts)) \(parts.year ?? 1970), \(time)"
    }

    /// `07:15`.
    public static func time(_ date: Date, timeZone: TimeZone) -> String {
        let parts = Calendar.gregorian(in: timeZone).dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

    /// The machine-readable form for `<time datetime>`: `2026-11-23T07:15:00Z`.
    public static func iso(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
