import Foundation
import SanghaCore
import SanghaViewModels

extension SittingSession {
    /// Sessions before the fixture clock (Wednesday 18 November 2026, 11:06 UTC), newest first:
    /// today, the two days before, a gap, and one sat with a group (no profile of the person's).
    static let fixtures: [SittingSession] = {
        let now = PageContext.fixture.now
        func session(
            _ id: Int, hoursAgo: Double, _ profile: Profile?, seconds: Int, completed: Bool = true,
            group: String? = nil
        ) -> SittingSession {
            SittingSession(
                id: id, profileID: profile?.id, profileName: profile?.name ?? "Walking",
                startedAt: now.addingTimeInterval(-hoursAgo * 3600), seconds: seconds, completed: completed,
                groupName: group)
        }
        return [
            session(6, hoursAgo: 4, .morning, seconds: 1380),
            session(5, hoursAgo: 27.5, .morning, seconds: 1380),
            session(4, hoursAgo: 38, .evening, seconds: 754, completed: false),
            session(3, hoursAgo: 52, .morning, seconds: 1380),
            session(2, hoursAgo: 24 * 9, .evening, seconds: 5400),
            session(1, hoursAgo: 24 * 40, nil, seconds: 900, group: "Morning sangha"),
        ]
    }()
}

extension Practice {
    static func fixture(_ sessions: [SittingSession], totals: SittingTotals? = nil) -> Practice {
        Practice(
            recent: sessions,
            totals: totals
                ?? SittingTotals(sessions: sessions.count, seconds: sessions.reduce(0) { $0 + $1.seconds }),
            now: PageContext.fixture.now, timeZone: PageContext.fixture.timeZone, dayCount: HistoryViewModel.dayCount)
    }
}

extension HistoryViewModel {
    public enum Fixtures {
        /// Six sessions: three days in a row up to today, one stopped, one of a deleted profile.
        public static let sessions = HistoryViewModel(
            practice: .fixture(SittingSession.fixtures), sessions: SittingSession.fixtures, context: .fixture)
        public static let empty = HistoryViewModel(practice: .fixture([]), sessions: [], context: .fixture)
        /// The second of three pages.
        public static let secondPage = HistoryViewModel(
            practice: .fixture(SittingSession.fixtures, totals: SittingTotals(sessions: 120, seconds: 150_000)),
            sessions: Array(SittingSession.fixtures.suffix(2)), page: 2, context: .fixture)
        public static let hostile: HistoryViewModel = {
            var session = SittingSession.fixtures[0]
            session.profileName = Profile.hostile.name
            session.profileID = Profile.hostile.id
            return HistoryViewModel(practice: .fixture([session]), sessions: [session], context: .fixture)
        }()
    }
}

extension PracticePanelViewModel {
    public enum Fixtures {
        public static let practising = PracticePanelViewModel(
            practice: .fixture(SittingSession.fixtures), last: SittingSession.fixtures[0])
        public static let empty = PracticePanelViewModel(practice: .fixture([]), last: nil)
        public static let storageFailure = PracticePanelViewModel(practice: nil, last: nil)
    }
}
