import Foundation
import SanghaCore

/// The history, `/history`: the time sat, the sessions, the streak, the last 30 days as a
/// chart, and the sessions newest first, a page at a time.
public struct HistoryViewModel: Sendable, Equatable, Encodable {
    public static let noSessionsMessage = "No sessions yet."
    public static let storageFailureMessage = "Sessions could not be read. Please try again."
    /// Days in the chart.
    public static let dayCount = 30

    public let layout: LayoutViewModel
    public let totalSeconds: Int
    public let totalTimeText: String
    public let sessionCount: Int
    public let sessionsText: String
    public let streakDays: Int
    /// nil when the person turned "Show streaks" off.
    public let streakText: String?
    /// The chart, once there is a session.
    public let chart: HistoryChartViewModel?
    /// The year's calendar of days sat, once there is a session.
    public let year: HistoryYearViewModel?
    public let rows: [HistorySessionRowViewModel]
    public let hasRows: Bool
    public let emptyMessage: String?
    /// Where to go with no session yet.
    public let startLink: LinkViewModel?
    public let paging: PagingViewModel?
    /// "Export CSV", "Export JSON" (the whole log, once there is a session), "Import sessions".
    public let logLinks: [LinkViewModel]
    /// "Add a sit", on the first page.
    public let entry: SessionFormViewModel?
    public let alert: AlertViewModel?

    /// The history page `page` of `practice`, its `recent` sessions the page's, the newest
    /// first; on the first page "Add a sit", as typed in `entry`. `year` draws the year's
    /// calendar (the app keeps each person's last one: `HistoryYearViewModel(practice:)` is
    /// most of the page's work with a year's log, and depends on the days sat and today only).
    public init(
        practice: Practice, page: Int = 1, context: PageContext, entry: SessionFormViewModel.Form = .init(),
        alert: AlertViewModel? = nil, year: (Practice) -> HistoryYearViewModel = HistoryYearViewModel.init(practice:)
    ) {
        layout = LayoutViewModel(
            title: page > 1 ? "History, page \(page)" : "History", section: .history, context: context)
        totalSeconds = practice.totals.seconds
        totalTimeText = DurationFormatter.words(from: practice.totals.seconds)
        sessionCount = practice.totals.sessions
        sessionsText = "\(practice.totals.sessions)"
        streakDays = practice.streak
        streakText = context.showsStreaks ? Self.days(practice.streak) : nil
        let hasSessions = practice.totals.sessions > 0
        chart = hasSessions ? HistoryChartViewModel(days: practice.days(last: Self.dayCount)) : nil
        self.year = hasSessions ? year(practice) : nil
        rows = practice.recent.map {
            HistorySessionRowViewModel(session: $0, timeZone: context.timeZone, actions: true)
        }
        hasRows = !rows.isEmpty
        emptyMessage = hasSessions ? nil : Self.noSessionsMessage
        startLink = hasSessions ? nil : LinkViewModel(url: Paths.profiles.url, label: "Choose a profile to sit with")
        paging = PagingViewModel(
            page: page, pageCount: PagingViewModel.pageCount(rows: practice.totals.sessions), path: Paths.history.url)
        logLinks =
            (hasSessions
                ? [
                    LinkViewModel(url: Paths.historyCSV.url, label: "Export CSV"),
                    LinkViewModel(url: Paths.historyJSON.url, label: "Export JSON"),
                ] : []) + [LinkViewModel(url: Paths.historyImport.url, label: "Import sessions")]
        self.entry = page == 1 ? SessionFormViewModel(form: entry, editing: nil) : nil
        self.alert = alert
    }

    /// The first page without what could not be read, with why, and "Add a sit" as typed.
    static func unavailable(
        context: PageContext, entry: SessionFormViewModel.Form, message: String = storageFailureMessage
    ) -> HistoryViewModel {
        HistoryViewModel(
            practice: .empty(today: context.today), context: context, entry: entry,
            alert: AlertViewModel(title: "Not saved.", message: message))
    }

    /// `1 day`, `4 days`.
    static func days(_ count: Int) -> String { CountText.of(count, "day") }

    /// What `GET /history?page=N` shows: a page past the last is not found (the first always
    /// exists, empty or not).
    public static func load(
        page: Int, from repository: any SittingSessionRepository, context: PageContext,
        entry: SessionFormViewModel.Form = .init(),
        year: (Practice) -> HistoryYearViewModel = HistoryYearViewModel.init(practice:)
    ) async -> LoadOutcome<HistoryViewModel> {
        do {
            let pageSize = PagingViewModel.pageSize
            // A page no history has (its first row past Int.max) is not read at all.
            guard page >= 1, page <= Int.max / pageSize else { return .notFound }
            // The page's sessions with the rest, in one read: a page past the last reads none.
            let practice = try await repository.practice(
                today: context.today, recent: pageSize, offset: (page - 1) * pageSize)
            guard (1...PagingViewModel.pageCount(rows: practice.totals.sessions)).contains(page) else {
                return .notFound
            }
            return .page(HistoryViewModel(practice: practice, page: page, context: context, entry: entry, year: year))
        } catch {
            return .failed(
                ErrorPageViewModel(
                    heading: "History is unavailable",
                    message: StorageMessage.text(for: error, otherwise: storageFailureMessage), context: context),
                .storage)
        }
    }
}

/// A session in the history: when, with which profile, how long, and how it ended.
public struct HistorySessionRowViewModel: Sendable, Equatable, Encodable {
    public let dateText: String
    /// `<time datetime>`: the start in ISO 8601.
    public let dateTime: String
    public let profileName: String
    /// To the profile's sitting page; nil once the profile is deleted.
    public let profileLink: LinkViewModel?
    /// "with Morning Sangha", for a session sat with a group; nil for one sat alone.
    public let groupText: String?
    public let durationText: String
    public let outcomeText: String
    /// What the person wrote about it.
    public let note: String?
    /// The session's "Edit" page, in the history (not on `/me`).
    public let editURL: String?
    /// "Edit sit of Mon 23 Nov 2026, 07:15".
    public let editAccessibleLabel: String

    public init(session: SittingSession, timeZone: TimeZone, actions: Bool = false) {
        dateText = CalendarText.dayAndTime(session.startedAt, timeZone: timeZone)
        dateTime = CalendarText.iso(session.startedAt)
        profileName = session.profileName
        profileLink = session.profileID.map { LinkViewModel(url: Paths.sit.url($0), label: session.profileName) }
        groupText = session.groupName.map { "with \($0)" }
        durationText = DurationFormatter.string(from: session.seconds)
        outcomeText = session.completed ? "Completed" : "Stopped"
        note = session.note
        editURL = actions ? Paths.historySession.url(session.id) : nil
        editAccessibleLabel = "Edit sit of \(dateText)"
    }
}
