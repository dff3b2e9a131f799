import Foundation
import SanghaCore
import SanghaFixtures
import SanghaViewModels
import Testing

@testable import SanghaWeb

/// `HistoryParts` gives back a person's kept chart and calendar only for the very days it was drawn from,
/// and their kept table of sits only for the very sits, zone and language it was made from.
struct HistoryPartsTests {
    static let today = LocalDay(year: 2026, month: 11, day: 23)

    static func practice(_ days: [(back: Int, seconds: Int)], today: LocalDay = today) -> Practice {
        let sat = days.map { Practice.Day(today.advanced(by: -$0.back), sessions: 1, seconds: $0.seconds) }
            .sorted { $0.day < $1.day }
        let seconds = sat.reduce(0) { $0 + $1.seconds }
        return Practice(
            totals: SittingTotals(sessions: sat.count, seconds: seconds), today: today, sat: sat, streak: 0)
    }

    @Test(
        "The same days give the kept chart and calendar; a day more, another language, another length or another today draw it again"
    )
    func keptForTheSameDays() {
        let drawings = HistoryParts()
        let first = Self.practice([(1, 600), (3, 1200)])
        let drawn = drawings.drawing(of: 7, first, words: .english)
        #expect(drawn == HistoryDrawing(practice: first, words: .english))
        #expect(drawings.drawing(of: 7, first, words: .english) == drawn)
        #expect(drawings.count == 1)

        for changed in [
            Self.practice([(0, 300), (1, 600), (3, 1200)]),  // a sit today
            Self.practice([(1, 900), (3, 1200)]),  // yesterday's corrected
            Self.practice([(1, 600), (3, 1200)], today: Self.today.advanced(by: 1)),  // the next day
        ] {
            let drawing = drawings.drawing(of: 7, changed, words: .english)
            #expect(drawing == HistoryDrawing(practice: changed, words: .english))
            #expect(drawing != drawn)
        }
        // The same days in another language are drawn again, in it.
        let german = drawings.drawing(of: 7, first, words: Words(.de))
        #expect(german == HistoryDrawing(practice: first, words: Words(.de)))
        #expect(german != drawn)
        // Another person's days are theirs.
        #expect(
            drawings.drawing(of: 8, Self.practice([(2, 60)]), words: .english)
                == HistoryDrawing(practice: Self.practice([(2, 60)]), words: .english))
        #expect(drawings.count == 2)
        #expect(drawings.drawing(of: 7, first, words: .english) == drawn, "the kept German drawing is not English")
    }

    static func session(_ id: Int, note: String? = nil) -> SittingSession {
        SittingSession(
            id: id, profileID: 1, profileName: "Morning",
            startedAt: Date(timeIntervalSince1970: 1_795_000_000 + Double(id) * 86_400),
            seconds: 1_200, completed: true, note: note)
    }

    static func practice(sessions: [SittingSession]) -> Practice {
        Practice(
            totals: SittingTotals(sessions: sessions.count, seconds: 1_200 * sessions.count), today: today, sat: [],
            streak: 0, recent: sessions)
    }

    @Test(
        "The same sits in the same zone and language give the kept table, with its rendering; any change makes it again"
    )
    func tableKeptForTheSameSits() {
        let parts = HistoryParts()
        let utc = TimeZone(identifier: "UTC")!
        let first = Self.practice(sessions: [Self.session(2), Self.session(1)])
        let table = parts.table(of: 7, first, timeZone: utc, words: .english)
        #expect(table == HistorySessionTable(sessions: first.recent, timeZone: utc, words: .english))
        #expect(parts.table(of: 7, first, timeZone: utc, words: .english).rendering === table.rendering, "the kept one")
        #expect(parts.tableCount == 1)

        let changed: [(Practice, TimeZone, Words)] = [
            (Self.practice(sessions: [Self.session(2, note: "Rain"), Self.session(1)]), utc, .english),  // a note added
            (Self.practice(sessions: [Self.session(3), Self.session(2)]), utc, .english),  // a sit more
            (first, TimeZone(identifier: "Europe/Berlin")!, .english),  // another zone
            (first, utc, Words(.de)),  // another language
        ]
        for (practice, zone, words) in changed {
            let made = parts.table(of: 7, practice, timeZone: zone, words: words)
            #expect(made == HistorySessionTable(sessions: practice.recent, timeZone: zone, words: words))
            #expect(made.rendering !== table.rendering)
        }
        #expect(
            parts.table(of: 8, first, timeZone: utc, words: .english).rendering
                !== parts.table(of: 7, first, timeZone: utc, words: .english).rendering)
        #expect(parts.tableCount == 2)
    }

    @Test("A page rendered again writes its drawing and table from their kept bytes: the same page, read from them")
    func renderedFromKeptBytes() throws {
        let days = Self.practice((0..<200).map { (back: $0 * 2, seconds: 600 + $0) })
        let practice = Practice(
            totals: days.totals, today: days.today, sat: days.sat, streak: 1,
            recent: (1...20).reversed().map { Self.session($0) })
        // Not a shared fixture: the test changes what its view models keep.
        let page = HistoryViewModel(practice: practice, context: .fixture)
        let (table, chart, year) = (try #require(page.table), try #require(page.chart), try #require(page.year))
        #expect(table.rendering.last == nil)
        let first = page.compiledHTML()
        for rendering in [table.rendering, chart.rendering, year.rendering] {
            let kept = String(decoding: try #require(rendering.last).bytes, as: UTF8.self)
            #expect(kept.count > 500 && first.contains(kept))
        }
        #expect(first.contains("<table class=\"history-table\"") && first.contains("<figure class=\"year\">"))
        // Bytes kept for this place are what it writes again (kept for another place, they are not).
        let entry = try #require(table.rendering.last)
        let marked = Array(
            String(decoding: entry.bytes, as: UTF8.self).replacingOccurrences(of: "history-table", with: "kept-table")
                .utf8)
        table.rendering.keep(
            KeptRendering.Entry(
                site: entry.site, indentation: entry.indentation, pending: entry.pending, bytes: marked,
                pendingAfter: entry.pendingAfter))
        let again = page.compiledHTML()
        #expect(again == first.replacingOccurrences(of: "history-table", with: "kept-table"))
        table.rendering.keep(
            KeptRendering.Entry(
                site: entry.site + 1, indentation: entry.indentation, pending: entry.pending, bytes: marked,
                pendingAfter: entry.pendingAfter))
        #expect(page.compiledHTML() == first, "kept for another place: rendered again")
    }

    @Test("At most `limit` people are kept")
    func bounded() {
        let drawings = HistoryParts()
        for person in 0...HistoryParts.limit {
            _ = drawings.drawing(of: person, Self.practice([(1, 600)]), words: .english)
        }
        #expect(drawings.count <= HistoryParts.limit)
    }
}
