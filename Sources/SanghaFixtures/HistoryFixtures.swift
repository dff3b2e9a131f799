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
            group: String? = nil, note: String? = nil
        ) -> SittingSession {
            SittingSession(
                id: id, profileID: profile?.id, profileName: profile?.name ?? "Walking",
                startedAt: now.addingTimeInterval(-hoursAgo * 3600), seconds: seconds, completed: completed,
                groupName: group, note: note)
        }
        return [
            session(6, hoursAgo: 4, .morning, seconds: 1380, note: "Rain on the roof; the mind settled late."),
            session(5, hoursAgo: 27.5, .morning, seconds: 1380),
            session(4, hoursAgo: 38, .evening, seconds: 754, completed: false),
            session(3, hoursAgo: 52, .morning, seconds: 1380),
            session(2, hoursAgo: 24 * 9, .evening, seconds: 5400),
            session(1, hoursAgo: 24 * 40, nil, seconds: 900, group: "Morning sangha"),
        ]
    }()
}

extension Practice {
    /// The practice of `sessions` on the fixture clock, showing `recent` (all of them, unless
    /// said), with `totals` when they are more than `sessions`.
    static func fixture(
        _ sessions: [SittingSession], totals: SittingTotals? = nil, recent: [SittingSession]? = nil
    ) -> Practice {
        let context = PageContext.fixture
        var practice = Practice(of: sessions, clock: context.dayClock, today: context.today, recent: sessions.count)
        if let totals { practice.totals = totals }
        if let recent { practice.recent = recent }
        return practice
    }
}

extension SittingSession {
    /// A year of sitting before the fixture clock: most mornings (a gap every ninth day and
    /// through much of March), lengths from 5 minutes to 75, and the last 40 days in a row.
    static let year: [SittingSession] = {
        let now = PageContext.fixture.now
        return (0..<365).compactMap { back -> SittingSession? in
            let month = (back / 30) % 12
            guard back < 40 || (back % 9 != 4 && !(month == 8 && back % 3 != 0)) else { return nil }
            return SittingSession(
                id: 1000 - back, profileID: Profile.morning.id, profileName: Profile.morning.name,
                startedAt: now.addingTimeInterval(-Double(back) * 86_400 - 4 * 3600),
                seconds: [300, 1200, 1380, 2400, 4500][(back * 7 + back / 5) % 5], completed: true)
        }
    }()
}

extension HistoryViewModel {
    public enum Fixtures {
        /// Six sessions: three days in a row up to today, one stopped, one of a deleted profile.
        public static let sessions = HistoryViewModel(practice: .fixture(SittingSession.fixtures), context: .fixture)
        public static let empty = HistoryViewModel(practice: .fixture([]), context: .fixture)
        /// A year of sitting: the calendar mostly filled, a streak of 40 days.
        public static let year = HistoryViewModel(
            practice: .fixture(SittingSession.year, recent: Array(SittingSession.year.prefix(3))), context: .fixture)
        /// The second of three pages.
        public static let secondPage = HistoryViewModel(
            practice: .fixture(
                SittingSession.fixtures, totals: SittingTotals(sessions: 120, seconds: 150_000),
                recent: Array(SittingSession.fixtures.suffix(2))),
            page: 2, context: .fixture)
        /// "Add a sit" sent with a sit in the future and a duration of 0: each field says why.
        public static let addError: HistoryViewModel = {
            var form = SessionFormViewModel.Form(
                date: "2026-11-19", startTime: "07:00", duration: "0", what: "Zazen", note: "Before work")
            form.errors = [
                .date: "A sit cannot be in the future.", .duration: "The duration must be between 00:01 and 24:00:00.",
            ]
            return HistoryViewModel(practice: .fixture(SittingSession.fixtures), context: .fixture, entry: form)
        }()
        public static let hostile: HistoryViewModel = {
            var session = SittingSession.fixtures[0]
            session.profileName = Profile.hostile.name
            session.profileID = Profile.hostile.id
            return HistoryViewModel(practice: .fixture([session]), context: .fixture)
        }()
    }
}

extension PracticePanelViewModel {
    public enum Fixtures {
        public static let practising = PracticePanelViewModel(
            practice: .fixture(SittingSession.fixtures), words: .english)
        public static let empty = PracticePanelViewModel(practice: .fixture([]), words: .english)
        public static let storageFailure = PracticePanelViewModel(practice: nil, words: .english)
    }
}

extension SessionEditViewModel {
    public enum Fixtures {
        static let session = SittingSession.fixtures[0]
        /// A session's values, ready to correct.
        public static let edit = SessionEditViewModel(
            id: session.id, form: SessionFormViewModel.Form(session, timeZone: PageContext.fixture.timeZone),
            context: .fixture)
        /// Saved with a date that does not exist and no name.
        public static let invalid: SessionEditViewModel = {
            var form = SessionFormViewModel.Form(session, timeZone: PageContext.fixture.timeZone)
            form.date = "2026-02-30"
            form.what = ""
            form.errors = [.date: "Enter a date as YYYY-MM-DD, such as 2026-11-24.", .what: "What is required."]
            return SessionEditViewModel(id: session.id, form: form, context: .fixture)
        }()
    }
}

extension PracticeLogImportViewModel {
    public enum Fixtures {
        static let file = PracticeLogExport.csvHeader + "2026-11-17T06:00:00Z,1200,Zazen,completed,,\r\n"
        /// "File" and "Preview".
        public static let empty = PracticeLogImportViewModel(context: .fixture)
        /// A file ready to import.
        public static let preview = PracticeLogImportViewModel(
            context: .fixture, read: PracticeLogImport.read(file, now: PageContext.fixture.now, words: .english),
            count: SittingSession.ImportCount(added: 1, existing: 3), token: String(repeating: "ef", count: 32))
        /// "Import" after the preview was no longer kept.
        public static let expired = PracticeLogImportViewModel(
            context: .fixture,
            alert: AlertViewModel(title: "Nothing was imported.", message: PracticeLogImportViewModel.expiredMessage))
        /// A file with lines that cannot be read: nothing to import.
        public static let problems = PracticeLogImportViewModel(
            context: .fixture,
            read: PracticeLogImport.read(
                file + "yesterday,600,Zazen,completed,,\r\n2026-11-17T07:00:00Z,0,Zazen,completed,,\r\n",
                now: PageContext.fixture.now, words: .english),
            count: SittingSession.ImportCount(added: 1, existing: 0), token: String(repeating: "ef", count: 32))
    }
}
