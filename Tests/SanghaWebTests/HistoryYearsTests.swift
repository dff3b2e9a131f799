import Foundation
import SanghaCore
import SanghaViewModels
import Testing

@testable import SanghaWeb

/// `HistoryYears` gives back a person's kept calendar only for the very days it was drawn from.
struct HistoryYearsTests {
    static let today = LocalDay(year: 2026, month: 11, day: 23)

    static func practice(_ days: [(back: Int, seconds: Int)], today: LocalDay = today) -> Practice {
        let sat = days.map { Practice.Day(today.advanced(by: -$0.back), sessions: 1, seconds: $0.seconds) }
            .sorted { $0.day < $1.day }
        let seconds = sat.reduce(0) { $0 + $1.seconds }
        return Practice(
            totals: SittingTotals(sessions: sat.count, seconds: seconds), today: today, sat: sat, streak: 0)
    }

    @Test("The same days give the kept calendar; a day more, another length or another today draw it again")
    func keptForTheSameDays() {
        let years = HistoryYears()
        let first = Self.practice([(1, 600), (3, 1200)])
        let drawn = years.year(of: 7, first)
        #expect(drawn == HistoryYearViewModel(practice: first))
        #expect(years.year(of: 7, first) == drawn)
        #expect(years.count == 1)

        for changed in [
            Self.practice([(0, 300), (1, 600), (3, 1200)]),  // a sit today
            Self.practice([(1, 900), (3, 1200)]),  // yesterday's corrected
            Self.practice([(1, 600), (3, 1200)], today: Self.today.advanced(by: 1)),  // the next day
        ] {
            let year = years.year(of: 7, changed)
            #expect(year == HistoryYearViewModel(practice: changed))
            #expect(year != drawn)
        }
        // Another person's days are theirs.
        #expect(years.year(of: 8, Self.practice([(2, 60)])) == HistoryYearViewModel(practice: Self.practice([(2, 60)])))
        #expect(years.count == 2)
    }

    @Test("At most `limit` people are kept")
    func bounded() {
        let years = HistoryYears()
        for person in 0...HistoryYears.limit { _ = years.year(of: person, Self.practice([(1, 600)])) }
        #expect(years.count <= HistoryYears.limit)
    }
}
