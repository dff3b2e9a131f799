import Foundation
import SanghaCore
import Testing

@testable import SanghaViewModels

/// A language's dates and numbers are written by Foundation once and then kept
/// (`FormattedTexts`): what is kept must be what Foundation writes for the instant itself, in
/// the person's zone, on either side of summer time.
struct FormattedTextsTests {
    static let languages: [Language] = [.de, .fr, .ptBR, .pl, .vi, .ar]
    static let zones = ["Europe/Berlin", "America/Santiago", "Asia/Kolkata", "Pacific/Chatham"].map {
        TimeZone(identifier: $0)!
    }
    /// 300 instants over ten years, a few hours and minutes apart so that every hour comes round
    /// and summer time starts and ends among them.
    static let instants = (0..<300).map { Date(timeIntervalSince1970: 1_700_000_000 + Double($0) * 1_052_345) }

    static func style(_ language: Language, _ zone: TimeZone) -> Date.FormatStyle {
        Date.FormatStyle(locale: language.locale, calendar: Calendar(identifier: .gregorian), timeZone: zone)
    }

    @Test(
        "A row's day and time, a time and a short date read as Foundation writes the instant in the zone, kept or not")
    func datesAsFoundationWritesThem() {
        for language in Self.languages {
            let words = Words(language)
            for zone in Self.zones {
                let style = Self.style(language, zone)
                for instant in Self.instants {
                    let dayAndTime = instant.formatted(
                        style.weekday(.abbreviated).day().month(.abbreviated).year().hour().minute())
                    #expect(CalendarText.dayAndTime(instant, timeZone: zone, words: words) == dayAndTime)
                    #expect(CalendarText.dayAndTime(instant, timeZone: zone, words: words) == dayAndTime)
                    #expect(
                        CalendarText.time(instant, timeZone: zone, words: words)
                            == instant.formatted(style.hour().minute()))
                    #expect(
                        CalendarText.shortDate(instant, timeZone: zone, words: words)
                            == instant.formatted(style.day().month(.abbreviated).year()))
                    var abbreviated = Date.FormatStyle(date: .abbreviated, time: .omitted, locale: language.locale)
                    abbreviated.timeZone = zone
                    #expect(
                        WordsDates.shortDate(instant, timeZone: zone, words: words) == instant.formatted(abbreviated))
                }
            }
        }
    }

    @Test("A month of a year on its own, as the language names it then")
    func monthAndYear() {
        let formatter = DateFormatter()
        for language in Self.languages {
            formatter.locale = language.locale
            formatter.setLocalizedDateFormatFromTemplate("LLLLyyyy")
            for zone in Self.zones {
                formatter.timeZone = zone
                for instant in Self.instants.prefix(60) {
                    #expect(
                        WordsDates.monthAndYear(instant, timeZone: zone, words: Words(language))
                            == formatter.string(from: instant))
                }
            }
        }
    }

    @Test("A number as the language writes it; English and the pseudo-language keep plain digits")
    func numbers() {
        for language in Self.languages {
            for value in [0, 7, 999, 1_000, 12_345, 1_000_000, -5] {
                #expect(Words(language).number(value) == value.formatted(.number.locale(language.locale)))
            }
        }
        #expect(Words(.en).number(12_345) == "12345")
    }

    @Test("A text is written once for its language, kind and value; others are their own; at most `limit` are kept")
    func keptOnce() {
        let texts = FormattedTexts()
        var writes = 0
        func text(_ kind: FormattedTexts.Kind, _ value: Int, _ language: Language) -> String {
            texts.text(kind, value, in: language) {
                writes += 1
                return "\(language.rawValue) \(kind.rawValue) \(value)"
            }
        }
        #expect(text(.number, 1, .de) == "de 0 1")
        #expect(text(.number, 1, .de) == "de 0 1")
        #expect(writes == 1)
        #expect(text(.number, 1, .fr) == "fr 0 1")
        #expect(text(.time, 1, .de) == "de 2 1")
        #expect(text(.number, 2, .de) == "de 0 2")
        #expect(writes == 4)
        for value in 0...FormattedTexts.limit { _ = text(.longDay, value, .pl) }
        #expect(texts.count <= FormattedTexts.limit)
    }
}
