import Foundation
import SanghaCore

/// The few dates the People, Admin and Settings pages write, in the page's language: English as
/// the formatters have always written it (`CalendarText`), any other language by CLDR's patterns
/// for its locale (Foundation's format styles), in the person's time zone, kept by the wall
/// clock's day (`FormattedTexts`).
enum WordsDates {
    /// `23 Nov 2026`; `23.11.2026` in German.
    static func shortDate(_ date: Date, timeZone: TimeZone, words: Words) -> String {
        guard words.language != .en, words.language != .pseudo else {
            return CalendarText.shortDate(date, timeZone: timeZone)
        }
        let day = CalendarText.wallClock(date, timeZone: timeZone).day
        return FormattedTexts.shared.text(.abbreviatedDate, day.number, in: words.language) {
            var style = Date.FormatStyle(date: .abbreviated, time: .omitted, locale: words.language.locale)
            style.timeZone = .utc
            return CalendarText.noon(of: day).formatted(style)
        }
    }

    /// `November 2026`; `listopad 2026` in Polish (the month named on its own).
    static func monthAndYear(_ date: Date, timeZone: TimeZone, words: Words) -> String? {
        guard words.language != .en, words.language != .pseudo else { return nil }
        let day = CalendarText.wallClock(date, timeZone: timeZone).day
        let (year, month, _) = day.date
        return FormattedTexts.shared.text(.monthOnItsOwnAndYear, year * 12 + month, in: words.language) {
            let formatter = DateFormatter()
            formatter.locale = words.language.locale
            formatter.timeZone = .utc
            formatter.setLocalizedDateFormatFromTemplate("LLLLyyyy")
            return formatter.string(from: CalendarText.noon(of: day))
        }
    }

}
