import Foundation
import SanghaCore

/// A date and time as people type them, in the time zone the pages show: `2026-11-24T19:00`
/// (a date-and-time field's value), with seconds or without (a view adapter).
public enum LocalDateTime {
    /// `2026-11-24T19:00` or `2026-11-24T19:00:30` as a moment in `timeZone`; nil for anything
    /// else, a day that does not exist (30 February), or a time a change of clocks skips.
    public static func date(from text: String, timeZone: TimeZone) -> Date? {
        let parts = text.split(separator: "T", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let day = parts[0].split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        let time = parts[1].split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        guard day.count == 3, (2...3).contains(time.count), !day.contains(nil), !time.contains(nil),
            parts[0].count == 10
        else { return nil }
        let components = DateComponents(
            year: day[0], month: day[1], day: day[2], hour: time[0], minute: time[1],
            second: time.count == 3 ? time[2] : 0)
        let calendar = Calendar.gregorian(in: timeZone)
        guard let date = calendar.date(from: components) else { return nil }
        // The calendar rolls 30 February over into March: a day or time it moved is not one.
        let back = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        guard back.year == components.year, back.month == components.month, back.day == components.day,
            back.hour == components.hour, back.minute == components.minute, back.second == components.second
        else { return nil }
        return date
    }
}
