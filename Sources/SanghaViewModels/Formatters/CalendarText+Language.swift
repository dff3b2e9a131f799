import Foundation
import SanghaCore

/// Days, times, months and weekdays in a page's language. English keeps the byte-written forms
/// above, exactly; every other language is written by Foundation's date styles in its locale
/// (CLDR's names and order), in the Gregorian calendar. The pseudo-language (`en-XA`, the
/// tests') writes the English form in brackets, so a test tells a date the page's language
/// wrote from one that skipped it. What Foundation writes is kept (`FormattedTexts`), by the
/// wall clock's day or minute it shows: the same fields give the same text.
extension CalendarText {
    /// `Mon 23 Nov 2026, 07:15`; `Mo., 23. Nov. 2026, 07:15`.
    public static func dayAndTime(_ date: Date, timeZone: TimeZone, words: Words) -> String {
        let (day, second) = wallClock(date, timeZone: timeZone)
        let minute = day.number * 1440 + second / 60
        return localized(words, .dayAndTime, minute, english: { dayAndTime(date, timeZone: timeZone) }) {
            wallClock(minute: minute).formatted(
                style($0, utc).weekday(.abbreviated).day().month(.abbreviated).year().hour().minute())
        }
    }

    /// `07:15`, as the language writes a time (`7:15 ص`).
    public static func time(_ date: Date, timeZone: TimeZone, words: Words) -> String {
        let minute = wallClock(date, timeZone: timeZone).second / 60
        return localized(words, .time, minute, english: { time(date, timeZone: timeZone) }) {
            wallClock(minute: minute).formatted(style($0, utc).hour().minute())
        }
    }

    /// `23 Nov 2026`.
    public static func shortDate(_ date: Date, timeZone: TimeZone, words: Words) -> String {
        let day = wallClock(date, timeZone: timeZone).day
        return localized(words, .shortDate, day.number, english: { shortDate(date, timeZone: timeZone) }) {
            noon(of: day).formatted(style($0, utc).day().month(.abbreviated).year())
        }
    }

    /// `23 Nov`.
    public static func shortDay(_ date: Date, timeZone: TimeZone, words: Words) -> String {
        shortDay(wallClock(date, timeZone: timeZone).day, words: words)
    }

    /// `Monday 23 November`.
    public static func longDay(_ date: Date, timeZone: TimeZone, words: Words) -> String {
        longDay(wallClock(date, timeZone: timeZone).day, words: words)
    }

    /// `23 Nov`, a person's day.
    public static func shortDay(_ day: LocalDay, words: Words) -> String {
        localized(words, .shortDay, day.number, english: { shortDay(day) }) {
            noon(of: day).formatted(style($0, utc).day().month(.abbreviated))
        }
    }

    /// `Monday 23 November`, a person's day.
    public static func longDay(_ day: LocalDay, words: Words) -> String {
        localized(words, .longDay, day.number, english: { longDay(day) }) {
            noon(of: day).formatted(style($0, utc).weekday(.wide).day().month(.wide))
        }
    }

    /// `November 2026`: a month of a year (`listopad 2026`).
    public static func monthAndYear(month: Int, year: Int, words: Words) -> String {
        localized(words, .monthAndYear, year * 12 + month, english: { "\(months[(month - 1) % 12]) \(year)" }) {
            noon(of: LocalDay(year: year, month: month, day: 1)).formatted(style($0, utc).month(.wide).year())
        }
    }

    /// `Nov`: a month's name on its own, short (`month` 1–12).
    public static func shortMonth(_ month: Int, words: Words) -> String {
        localized(words, .shortMonth, month, english: { String(months[(month - 1) % 12].prefix(3)) }) {
            noon(of: LocalDay(year: 2001, month: month, day: 1)).formatted(style($0, utc).month(.abbreviated))
        }
    }

    /// `Mon`: a weekday's name on its own, short (`weekday` 1 for Monday … 7 for Sunday).
    public static func shortWeekday(_ weekday: Int, words: Words) -> String {
        localized(words, .shortWeekday, weekday, english: { shortWeekdays[weekday % 7] }) {
            // 1 January 2001 was a Monday.
            noon(of: LocalDay(year: 2001, month: 1, day: weekday)).formatted(style($0, utc).weekday(.abbreviated))
        }
    }

    /// English by its own code, another language by `format` with its locale, kept as the text
    /// of `kind` for `value`.
    private static func localized(
        _ words: Words, _ kind: FormattedTexts.Kind, _ value: Int, english: () -> String, format: (Locale) -> String
    ) -> String {
        switch words.language {
        case .en: english()
        case .pseudo: "[" + english() + "]"
        default: FormattedTexts.shared.text(kind, value, in: words.language) { format(words.language.locale) }
        }
    }

    private static func style(_ locale: Locale, _ timeZone: TimeZone) -> Date.FormatStyle {
        Date.FormatStyle(locale: locale, calendar: Calendar(identifier: .gregorian), timeZone: timeZone)
    }

    /// The instant that is `minute` (minutes since 1 January 1970 on the wall clock) in `utc`.
    private static func wallClock(minute: Int) -> Date {
        Date(timeIntervalSince1970: Double(minute) * 60)
    }

    /// Midday of `day` in UTC: the instant that is that day in `utc`.
    static func noon(of day: LocalDay) -> Date {
        Date(timeIntervalSince1970: Double(day.number) * 86_400 + 43_200)
    }
}

extension DurationFormatter {
    /// A length of time in words, to the minute, in the language of `words`: `1 h 2 min`,
    /// `1 Std. 2 Min.` (English exactly as `words(from:)`).
    public static func words(from seconds: Int, words: Words) -> String {
        if words.language == .en { return self.words(from: seconds) }
        let seconds = max(0, seconds)
        if seconds > 0 && seconds < 60 { return words.historyDurationSeconds(seconds: words.number(seconds)) }
        let (hours, minutes) = (seconds / 3600, seconds / 60 % 60)
        switch (hours, minutes) {
        case (0, _): return words.historyDurationMinutes(minutes: words.number(minutes))
        case (_, 0): return words.historyDurationHours(hours: words.number(hours))
        default:
            return words.historyDurationHoursMinutes(hours: words.number(hours), minutes: words.number(minutes))
        }
    }
}
