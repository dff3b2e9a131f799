import SanghaCore
import SanghaViewModels
import Synchronization

/// The year's calendar of each person's last `/history`, with the days it was drawn from: with a
/// year's log, drawing it (a path per shade, each month's days in words) was over half of the
/// page's instructions, and it depends on the person's days sat and today only. A page whose
/// practice has the same today and days sat is given the one kept; any other draws it again and
/// keeps that. Nothing can be stale: the kept calendar is used only for the very days it was
/// drawn from, compared each time (a few hundred days, a small part of drawing them). One per
/// person, at most `limit` people (a year sat daily keeps about 20 KB); past that, all go. A
/// calendar is in one language: a page in another draws it again.
final class HistoryYears: Sendable {
    static let shared = HistoryYears()
    static let limit = 500

    private struct Kept {
        let today: LocalDay
        let sat: [Practice.Day]
        let language: Language
        let year: HistoryYearViewModel
    }

    private let kept = Mutex<[Int: Kept]>([:])

    /// `person`'s calendar for `practice` in the language of `words`: the kept one when drawn from
    /// the same days in the same language.
    func year(of person: Int, _ practice: Practice, words: Words = .english) -> HistoryYearViewModel {
        if let hit = kept.withLock({ $0[person] }), hit.today == practice.today, hit.language == words.language,
            hit.sat == practice.sat
        {
            return hit.year
        }
        let year = HistoryYearViewModel(practice: practice, words: words)
        kept.withLock { kept in
            if kept.count >= Self.limit, kept[person] == nil { kept.removeAll() }
            kept[person] = Kept(today: practice.today, sat: practice.sat, language: words.language, year: year)
        }
        return year
    }

    var count: Int { kept.withLock { $0.count } }
}
