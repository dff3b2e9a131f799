import Foundation
import SanghaCore
import SanghaViewModels
import Testing

@testable import SanghaWeb

/// `HistoryDrawings` gives back a person's kept chart and calendar only for the very days it was drawn from.
struct HistoryDrawingsTests {
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
        let drawings = HistoryDrawings()
        let first = Self.practice([(1, 600), (3, 1200)])
        let drawn = drawings.drawing(of: 7, first)
        #expect(drawn == HistoryDrawing(practice: first))
        #expect(drawings.drawing(of: 7, first) == drawn)
        #expect(drawings.count == 1)

        for changed in [
            Self.practice([(0, 300), (1, 600), (3, 1200)]),  // a sit today
            Self.practice([(1, 900), (3, 1200)]),  // yesterday's corrected
            Self.practice([(1, 600), (3, 1200)], today: Self.today.advanced(by: 1)),  // the next day
        ] {
            let drawing = drawings.drawing(of: 7, changed)
            #expect(drawing == HistoryDrawing(practice: changed))
            #expect(drawing != drawn)
        }
        // The same days in another language are drawn again, in it.
        let german = drawings.drawing(of: 7, first, words: Words(.de))
        #expect(german == HistoryDrawing(practice: first, words: Words(.de)))
        #expect(german != drawn)
        // Another person's days are theirs.
        #expect(drawings.drawing(of: 8, Self.practice([(2, 60)])) == HistoryDrawing(practice: Self.practice([(2, 60)])))
        #expect(drawings.count == 2)
        #expect(drawings.drawing(of: 7, first) == drawn, "the kept German drawing is not English")
    }

    @Test("At most `limit` people are kept")
    func bounded() {
        let drawings = HistoryDrawings()
        for person in 0...HistoryDrawings.limit { _ = drawings.drawing(of: person, Self.practice([(1, 600)])) }
        #expect(drawings.count <= HistoryDrawings.limit)
    }
}
