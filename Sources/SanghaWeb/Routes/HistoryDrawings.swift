import SanghaCore
import SanghaViewModels
import Synchronization

/// The chart and the year's calendar of each person's last `/history`, with the days they were
/// drawn from: with a year's log, drawing them (the year's path per shade and each month's days
/// in words, the chart's 30 days in words) was most of the page's instructions, and they depend
/// on the person's days sat and today only. A page whose practice has the same today and days
/// sat is given the one kept; any other draws it again and keeps that. Nothing can be stale: the
/// kept drawing is used only for the very days it was drawn from, compared each time (a few
/// hundred days, a small part of drawing them). One per person, at most `limit` people (a year
/// sat daily keeps about 25 KB); past that, all go. A drawing is in one language: a page in
/// another draws it again.
final class HistoryDrawings: Sendable {
    static let shared = HistoryDrawings()
    static let limit = 500

    private struct Kept {
        let today: LocalDay
        let sat: [Practice.Day]
        let language: Language
        let drawing: HistoryDrawing
    }

    private let kept = Mutex<[Int: Kept]>([:])

    /// `person`'s drawing of `practice` in the language of `words`: the kept one when drawn from
    /// the same days in the same language.
    func drawing(of person: Int, _ practice: Practice, words: Words = .english) -> HistoryDrawing {
        if let hit = kept.withLock({ $0[person] }), hit.today == practice.today, hit.language == words.language,
            hit.sat == practice.sat
        {
            return hit.drawing
        }
        let drawing = HistoryDrawing(practice: practice, words: words)
        kept.withLock { kept in
            if kept.count >= Self.limit, kept[person] == nil { kept.removeAll() }
            kept[person] = Kept(today: practice.today, sat: practice.sat, language: words.language, drawing: drawing)
        }
        return drawing
    }

    var count: Int { kept.withLock { $0.count } }
}
