import Foundation
import SanghaCore
import SanghaViewModels

/// The parts of each person's last `/history` that depend on their log and not on the request,
/// kept with what they were made from, and with their rendering (`KeptRendering`):
///
/// - the drawing (the chart and the year's calendar), made from today and the days sat: with a
///   year's log, drawing them (the year's path per shade and each month's days in words, the
///   chart's 30 days in words) was most of the page's instructions;
/// - the table of the page's sits, made from those sits, the person's time zone and language:
///   fifty rows of dates and words, and a third of the page's bytes.
///
/// A part is given back only when made from the very same things, compared each time (a few
/// hundred days, fifty sits: a small part of making them), so nothing kept is ever stale. One
/// of each per person, at most `limit` people (a year sat daily keeps about 70 KB, rendered
/// bytes included); past that, all go.
final class HistoryParts: Sendable {
    static let shared = HistoryParts()
    static let limit = 500

    private struct Drawn: Equatable {
        let today: LocalDay
        let sat: [Practice.Day]
        let language: Language
    }

    private struct Listed: Equatable {
        let sessions: [SittingSession]
        let timeZone: String
        let language: Language
    }

    private let drawings = KeptParts<Int, Drawn, HistoryDrawing>(limit: HistoryParts.limit)
    private let tables = KeptParts<Int, Listed, HistorySessionTable>(limit: HistoryParts.limit)

    /// `person`'s drawing of `practice` in the language of `words`: the kept one when drawn from
    /// the same days in the same language.
    func drawing(of person: Int, _ practice: Practice, words: Words) -> HistoryDrawing {
        drawings.value(for: person, from: Drawn(today: practice.today, sat: practice.sat, language: words.language)) {
            HistoryDrawing(practice: practice, words: words)
        }
    }

    /// `person`'s table of `practice`'s page of sits: the kept one when made from the same sits in
    /// the same zone and language.
    func table(of person: Int, _ practice: Practice, timeZone: TimeZone, words: Words)
        -> HistorySessionTable
    {
        let from = Listed(sessions: practice.recent, timeZone: timeZone.identifier, language: words.language)
        return tables.value(for: person, from: from) {
            HistorySessionTable(sessions: practice.recent, timeZone: timeZone, words: words)
        }
    }

    /// People whose drawing is kept.
    var count: Int { drawings.count }
    /// People whose table is kept.
    var tableCount: Int { tables.count }
}
