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
    /// "History".
    public let heading: String
    /// The figures' names: "Total time", "Sessions", "Streak".
    public let totalTimeLabel: String
    public let sessionsLabel: String
    public let streakLabel: String
    /// What a screen reader calls the list of `logLinks`: "Your log".
    public let logLinksLabel: String
    /// "N sits on this device are waiting to be sent.", for the script: `outboxForms(_:)`.
    public let outboxForms: String?
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
    /// The table of `rows`, when there is one (what the page renders; the JSON has `rows`).
    public let table: HistorySessionTable?
    public let emptyMessage: String?
    /// Where to go with no session yet.
    public let startLink: LinkViewModel?
    public let paging: PagingViewModel?
    /// "Export CSV", "Export JSON" (the whole log, once there is a session), "Import sessions".
    public let logLinks: [LinkViewModel]
    /// "Add a sit", on the first page.
    public let entry: SessionFormViewModel?
    public let alert: AlertViewModel?

    /// The JSON keeps the fields it had before the page spoke every language: the page's own
    /// words (its headings and labels) are its HTML's.
    private enum CodingKeys: String, CodingKey {
        case layout, totalSeconds, totalTimeText, sessionCount, sessionsText, streakDays, streakText, chart, year
        case rows, hasRows, emptyMessage, startLink, paging, logLinks, entry, alert
    }

    /// The history page `page` of `practice`, its `recent` sessions the page's, the newest
    /// first; on the first page "Add a sit", as typed in `entry`. `drawing` draws the chart and
    /// the year's calendar, and `table` makes the table of the page's sits (the app keeps each
    /// person's last ones, rendered: with a year's log they are most of the page's work, and
    /// depend on the log, today, the zone and the language only).
    public init(
        practice: Practice, page: Int = 1, context: PageContext, entry: SessionFormViewModel.Form = .init(),
        alert: AlertViewModel? = nil, drawing: ((Practice) -> HistoryDrawing)? = nil,
        table: ((Practice) -> HistorySessionTable)? = nil
    ) {
        let words = context.words
        layout = LayoutViewModel(
            title: page > 1 ? words.historyTitlePage(page: words.number(page)) : words.historyTitle, section: .history,
            context: context)
        heading = words.historyTitle
        (totalTimeLabel, sessionsLabel, streakLabel) = (
            words.historyTotalTime, words.historySessions, words.historyStreak
        )
        logLinksLabel = words.historyYourLog
        outboxForms = Self.outboxForms(words)
        totalSeconds = practice.totals.seconds
        totalTimeText = DurationFormatter.words(from: practice.totals.seconds, words: words)
        sessionCount = practice.totals.sessions
        sessionsText = words.number(practice.totals.sessions)
        streakDays = practice.streak
        streakText = context.showsStreaks ? words.historyDays(practice.streak) : nil
        let hasSessions = practice.totals.sessions > 0
        let drawn = hasSessions ? (drawing ?? { HistoryDrawing(practice: $0, words: words) })(practice) : nil
        (chart, year) = (drawn?.chart, drawn?.year)
        self.table =
            practice.recent.isEmpty
            ? nil
            : (table ?? { HistorySessionTable(sessions: $0.recent, timeZone: context.timeZone, words: words) })(
                practice)
        rows = self.table?.rows ?? []
        hasRows = !rows.isEmpty
        emptyMessage = hasSessions ? nil : words.historyNoSessions
        startLink = hasSessions ? nil : LinkViewModel(url: Paths.profiles.url, label: words.historyChooseProfile)
        paging = PagingViewModel(
            page: page, pageCount: PagingViewModel.pageCount(rows: practice.totals.sessions), path: Paths.history.url,
            words: words)
        logLinks =
            (hasSessions
                ? [
                    LinkViewModel(url: Paths.historyCSV.url, label: words.historyExportCsv),
                    LinkViewModel(url: Paths.historyJSON.url, label: words.historyExportJson),
                ] : []) + [LinkViewModel(url: Paths.historyImport.url, label: words.historyImportSessions)]
        self.entry = page == 1 ? SessionFormViewModel(form: entry, editing: nil, words: words) : nil
        self.alert = alert
    }

    /// The first page without what could not be read, with why, and "Add a sit" as typed.
    static func unavailable(
        context: PageContext, entry: SessionFormViewModel.Form, message: String? = nil
    ) -> HistoryViewModel {
        HistoryViewModel(
            practice: .empty(today: context.today), context: context, entry: entry,
            alert: AlertViewModel(
                title: context.words.historyNotSaved, message: message ?? context.words.historyUnreadable))
    }

    /// How many sits wait on the device, as the script says it (`data-outbox-forms`): the
    /// message's form for each CLDR plural category of the language, `{count}` for the number,
    /// as JSON (`{"one": "{count} sit on this device is waiting to be sent.", …}`); the script
    /// picks one by `Intl.PluralRules`. nil in English, which the script writes itself.
    public static func outboxForms(_ words: Words) -> String? {
        guard words.language != .en else { return nil }
        // The same for every page in the language: written once.
        return FormattedTexts.shared.text(.outboxForms, 0, in: words.language) { writeOutboxForms(words) }
    }

    private static func writeOutboxForms(_ words: Words) -> String {
        var forms: [String: String] = [:]
        for category in words.language.pluralCategories {
            // A count of the category: its number, written as the language writes it, is `{count}`.
            guard
                let count = [0, 1, 2, 3, 5, 11, 100, 1_000_000].first(where: {
                    words.language.pluralCategory($0) == category
                })
            else { continue }
            forms[category.rawValue] = words.historyOutboxWaiting(count).replacingOccurrences(
                of: words.number(count), with: "{count}")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(forms)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// What `GET /history?page=N` shows: a page past the last is not found (the first always
    /// exists, empty or not).
    public static func load(
        page: Int, from repository: any SittingSessionRepository, context: PageContext,
        entry: SessionFormViewModel.Form = .init(),
        drawing: ((Practice) -> HistoryDrawing)? = nil, table: ((Practice) -> HistorySessionTable)? = nil
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
            return .page(
                HistoryViewModel(
                    practice: practice, page: page, context: context, entry: entry, drawing: drawing, table: table))
        } catch {
            return .failed(
                .storage(
                    error, heading: context.words.historyUnavailable, otherwise: context.words.historyUnreadable,
                    context: context),
                .storage)
        }
    }
}

/// The history's table of a page's sits, newest first, with their actions.
public struct HistorySessionTable: Sendable, Equatable {
    /// "Recent sessions".
    public let sessionsHeading: String
    public let columns: Columns
    public let rows: [HistorySessionRowViewModel]
    /// The table as rendered, while the app keeps it (`HistoryViewModel.init`'s `table`).
    public let rendering = KeptRendering()

    /// The rows of `sessions` in `timeZone`, in the language of `words`.
    public init(sessions: [SittingSession], timeZone: TimeZone, words: Words) {
        sessionsHeading = words.historyRecentSessions
        columns = Columns(
            date: words.historyDate, profile: words.historyProfile, duration: words.historyDuration,
            ended: words.historyEnded, actions: words.historyActions)
        rows = sessions.map { HistorySessionRowViewModel(session: $0, timeZone: timeZone, actions: true, words: words) }
    }

    /// The names of the table's columns.
    public struct Columns: Sendable, Equatable {
        public let date: String
        public let profile: String
        public let duration: String
        public let ended: String
        public let actions: String
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
    /// "Edit".
    public let editLabel: String

    /// The JSON keeps the fields it had before the page spoke every language: the page's own
    /// words (its headings and labels) are its HTML's.
    private enum CodingKeys: String, CodingKey {
        case dateText, dateTime, profileName, profileLink, groupText, durationText, outcomeText, note, editURL
        case editAccessibleLabel
    }

    /// The row of `session`, in the language of `words` (English by default: `/me` and the
    /// fixtures).
    public init(session: SittingSession, timeZone: TimeZone, actions: Bool = false, words: Words) {
        dateText = CalendarText.dayAndTime(session.startedAt, timeZone: timeZone, words: words)
        dateTime = CalendarText.iso(session.startedAt)
        profileName = words.isolated(session.profileName)
        profileLink = session.profileID.map { [profileName] in LinkViewModel(url: Paths.sit.url($0), label: profileName)
        }
        groupText = session.groupName.map { words.historyWithGroup(group: $0) }
        durationText = DurationFormatter.string(from: session.seconds)
        outcomeText = session.completed ? words.historyCompleted : words.historyStopped
        note = session.note
        editURL = actions ? Paths.historySession.url(session.id) : nil
        editAccessibleLabel = words.historyEditSitOf(date: dateText)
        editLabel = words.historyEdit
    }
}
