import Foundation
import SanghaCore
import SanghaFixtures
import SanghaStore
import SanghaTestSupport
import SanghaViewModels
import Testing

@Suite("History view model")
struct HistoryViewModelTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let tokyo = TimeZone(identifier: "Asia/Tokyo")!
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    /// The instant a wall clock in `timeZone` shows `text` (`2026-11-23 07:00`).
    static func date(_ text: String, in timeZone: TimeZone) -> Date {
        let numbers = text.split(whereSeparator: { " -:".contains($0) }).map { Int($0)! }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.date(
            from: DateComponents(
                year: numbers[0], month: numbers[1], day: numbers[2], hour: numbers[3], minute: numbers[4]))!
    }

    static func session(
        _ text: String, in timeZone: TimeZone = utc, seconds: Int = 600, profileID: Int? = 1, completed: Bool = true
    ) -> SittingSession {
        SittingSession(
            profileID: profileID, profileName: "Morning", startedAt: date(text, in: timeZone), seconds: seconds,
            completed: completed)
    }

    /// The profile the sessions are of (profile 1).
    static let morning: Profile = {
        var profile = Profile.new(named: "Morning")
        (profile.id, profile.version) = (1, 1)
        return profile
    }()

    /// The history of someone who counts their days as the page does (its zone, from midnight),
    /// with `sessions` stored.
    static func history(_ sessions: [SittingSession], now: String, in timeZone: TimeZone = utc, page: Int = 1)
        async throws -> LoadOutcome<HistoryViewModel>
    {
        let context = PageContext(formToken: "t", now: date(now, in: timeZone), timeZone: timeZone)
        let stored = try await StoredPerson.make(clock: context.dayClock, profiles: [morning], sessions: sessions)
        return await HistoryViewModel.load(page: page, from: stored.sessions, context: context)
    }

    static func page(_ sessions: [SittingSession], now: String, in timeZone: TimeZone = utc, page: Int = 1)
        async throws -> HistoryViewModel
    {
        let outcome = try await history(sessions, now: now, in: timeZone, page: page)
        guard case .page(let history) = outcome else {
            Issue.record("expected a page, got \(outcome)")
            throw CancellationError()
        }
        return history
    }

    @Test("No session: zeros, no chart, no table, no paging, and a way to a profile")
    func empty() async throws {
        let history = try await Self.page([], now: "2026-11-23 08:00")
        #expect(history.totalTimeText == "0 min")
        #expect(history.sessionsText == "0")
        #expect(history.streakText == "0 days")
        #expect(history.chart == nil)
        #expect(!history.hasRows)
        #expect(history.emptyMessage == "No sessions yet.")
        #expect(history.startLink?.url == "/profiles")
        #expect(history.paging == nil)
        #expect(try await Self.history([], now: "2026-11-23 08:00", page: 2) == .notFound)
    }

    @Test("A session at 23:50 and one at 00:10 are two days in a row")
    func acrossMidnight() async throws {
        let sessions = [Self.session("2026-11-22 23:50"), Self.session("2026-11-23 00:10")]
        let history = try await Self.page(sessions, now: "2026-11-23 08:00")
        #expect(history.streakDays == 2)
        #expect(history.streakText == "2 days")
        #expect(history.chart?.bars.suffix(2).map(\.isEmpty) == [false, false])
    }

    @Test("Days are the person's: the same two sessions are one day in Tokyo and two in UTC")
    func timeZones() async throws {
        // 14:50 and 15:10 UTC on 22 November: 23:50 on the 22nd and 00:10 on the 23rd in Tokyo.
        let sessions = [Self.session("2026-11-22 14:50"), Self.session("2026-11-22 15:10")]
        let inUTC = try await Self.page(sessions, now: "2026-11-22 20:00")
        #expect(inUTC.streakDays == 1)
        #expect(inUTC.chart?.bars.last?.label == "Sunday 22 November: 20 min in 2 sessions")
        let inTokyo = try await Self.page(sessions, now: "2026-11-23 09:00", in: Self.tokyo)
        #expect(inTokyo.streakDays == 2)
        #expect(
            inTokyo.chart?.bars.suffix(2).map(\.label) == [
                "Sunday 22 November: 10 min in 1 session", "Monday 23 November: 10 min in 1 session",
            ])
        #expect(inTokyo.rows.map(\.dateText) == ["Mon 23 Nov 2026, 00:10", "Sun 22 Nov 2026, 23:50"])
    }

    @Test("Not sat yet today keeps yesterday's streak; a day missed ends it")
    func streakUpToToday() async throws {
        let three = ["2026-11-20 07:00", "2026-11-21 07:00", "2026-11-22 07:00"].map { Self.session($0) }
        #expect(try await Self.page(three, now: "2026-11-23 06:00").streakDays == 3)
        #expect(try await Self.page(three, now: "2026-11-24 06:00").streakDays == 0)
        let gap = three + [Self.session("2026-11-18 07:00"), Self.session("2026-11-23 07:00")]
        #expect(try await Self.page(gap, now: "2026-11-23 20:00").streakDays == 4)
    }

    @Test("A streak longer than the chart is followed back, across a summer-time change")
    func longStreak() async throws {
        let start = Self.date("2025-06-01 06:30", in: Self.berlin)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = Self.berlin
        let sessions = (0..<541).map {
            SittingSession(
                profileID: 1, profileName: "Morning",
                startedAt: calendar.date(byAdding: .day, value: $0, to: start)!, seconds: 60, completed: true)
        }
        let last = sessions.last!.startedAt
        #expect(
            calendar.dateComponents([.year, .month, .day], from: last) == DateComponents(year: 2026, month: 11, day: 23)
        )
        let history = try await Self.page(sessions, now: "2026-11-23 21:00", in: Self.berlin)
        #expect(history.streakDays == 541)
        #expect(history.chart?.bars.allSatisfy { !$0.isEmpty } == true)
        #expect(history.totalTimeText == "9 h 1 min")
        // A session at 00:30 on the day clocks went back (25 October 2026) is that day's.
        let night = Self.session("2026-10-25 00:30", in: Self.berlin)
        let chart = try await Self.page([night], now: "2026-11-23 12:00", in: Self.berlin).chart
        #expect(chart?.bars.first?.label == "Sunday 25 October: 10 min in 1 session")
    }

    @Test("The chart: thirty bars, today's last, each as tall as its day against a scale of whole ten minutes")
    func chart() async throws {
        let sessions = [
            Self.session("2026-11-23 07:00", seconds: 1500), Self.session("2026-11-22 07:00", seconds: 3000),
        ]
        let chart = try #require(try await Self.page(sessions, now: "2026-11-23 08:00").chart)
        #expect(chart.bars.count == 30)
        #expect(chart.scaleText == "50 min")
        #expect(chart.bars.map(\.isToday) == Array(repeating: false, count: 29) + [true])
        let (yesterday, today) = (chart.bars[28], chart.bars[29])
        #expect(yesterday.height == 130 && today.height == 65)
        #expect(yesterday.y + yesterday.height == chart.baselineY)
        #expect(chart.bars[0].isEmpty && chart.bars[0].label == "Sunday 25 October: nothing sat")
        #expect(chart.firstDayText == "25 Oct")
        #expect(chart.caption == "The last 30 days: 1 h 15 min on 2 days.")
        #expect(Set(chart.bars.map(\.x)).count == 30)
    }

    @Test("Rows: newest first, a deleted profile's session without a link, stopped ones say so")
    func rows() async throws {
        let sessions = [
            Self.session("2026-11-22 07:00", seconds: 754, profileID: nil, completed: false),
            Self.session("2026-11-23 07:00", seconds: 1500),
        ]
        let history = try await Self.page(sessions, now: "2026-11-23 08:00")
        #expect(history.rows.map(\.durationText) == ["25:00", "12:34"])
        #expect(history.rows.map(\.outcomeText) == ["Completed", "Stopped"])
        #expect(history.rows[0].profileLink == LinkViewModel(url: "/profiles/1/sit", label: "Morning"))
        #expect(history.rows[1].profileLink == nil && history.rows[1].profileName == "Morning")
        #expect(history.rows[0].dateTime == "2026-11-23T07:00:00Z")
        #expect(history.totalTimeText == "37 min")
        #expect(history.sessionsText == "2")
    }

    @Test("Fifty rows a page: Previous and Next, the last page holds the rest, past it is not found")
    func paging() async throws {
        let start = Self.date("2026-01-01 07:00", in: Self.utc)
        let sessions = (0..<120).map {
            SittingSession(
                profileID: 1, profileName: "S\($0)", startedAt: start.addingTimeInterval(Double($0) * 3600),
                seconds: 60, completed: true)
        }
        let first = try await Self.page(sessions, now: "2026-11-23 08:00")
        #expect(first.rows.count == 50 && first.rows.first?.profileName == "S119")
        #expect(first.paging?.label == "Page 1 of 3")
        #expect(first.paging?.previousURL == nil && first.paging?.nextURL == "/history?page=2")
        let second = try await Self.page(sessions, now: "2026-11-23 08:00", page: 2)
        #expect(second.rows.first?.profileName == "S69")
        #expect(second.paging?.previousURL == "/history" && second.paging?.nextURL == "/history?page=3")
        #expect(second.layout.title == "History, page 2")
        let third = try await Self.page(sessions, now: "2026-11-23 08:00", page: 3)
        #expect(third.rows.map(\.profileName) == (0..<20).reversed().map { "S\($0)" })
        #expect(third.paging?.nextURL == nil)
        #expect(try await Self.history(sessions, now: "2026-11-23 08:00", page: 4) == .notFound)
        #expect(try await Self.history(sessions, now: "2026-11-23 08:00", page: Int.max) == .notFound)
    }

    @Test("Storage that fails is the page's 503 with why")
    func storageFailure() async throws {
        let sessions = try await StoredPerson.make(
            profiles: [Self.morning], sessions: [Self.session("2026-11-23 07:00")]
        )
        .sessions
        let outcome = await HistoryViewModel.load(
            page: 1, from: Breakable(sessions, fault: Fault(.storage)), context: .fixture)
        guard case .failed(let page, .storage) = outcome else {
            Issue.record("expected a storage failure, got \(outcome)")
            return
        }
        #expect(page.message == HistoryViewModel.storageFailureMessage)
    }

    @Test(
        "The year's calendar: a column a week from Monday, this week's to today, a square per day sat on its shade's path, each month named, in words too, with each day's time"
    )
    func yearCalendar() async throws {
        // Monday 23 November 2026; sits on the 23rd (5 min), the 20th (20 min), 1 November (75 min),
        // 24 November 2025 (45 min, the first day shown: 52 weeks before this Monday) and the
        // day before it.
        let sessions = [
            Self.session("2026-11-23 07:00", seconds: 300), Self.session("2026-11-20 07:00", seconds: 1200),
            Self.session("2026-11-01 07:00", seconds: 4500), Self.session("2025-11-24 07:00", seconds: 2700),
            Self.session("2025-11-23 07:00", seconds: 2700),
        ]
        let year = try #require(try await Self.page(sessions, now: "2026-11-23 08:00").year)
        #expect(year.viewBox == "0 0 719 107")
        #expect(year.thisWeekX == 30 + 52 * 13 && year.thisWeekHeight == 13)
        // Each day sat a 7 × 7 square 2 inside its 11 × 11 cell (x 30 + 13 a week, y 16 + 13 a
        // weekday), on its shade's path: 24 November 2025 (45 min) in the first column's Monday,
        // 1 November 2026 (1 h 15 min) a Sunday, 20 November (20 min) a Friday, today (5 min).
        #expect(
            year.sat.map { "\($0.level) \($0.days) \($0.path)" } == [
                "1 1 M708 18h7v7h-7z",
                "2 1 M695 70h7v7h-7z",
                "3 1 M32 18h7v7h-7z",
                "4 1 M656 96h7v7h-7z",
            ])
        #expect(year.strokeWidth == 4 && year.size == 11)
        #expect(
            year.monthLabels.map(\.text) == [
                "Dec", "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov",
            ])
        #expect(year.monthLabels.first?.at == 30 + 13)
        #expect(year.caption == "The last year: 4 days sat, 2 h 25 min in all.")
        #expect(
            year.months == [
                "November 2025: 1 day, 45 min (24 Nov 45 min)",
                "November 2026: 3 days, 1 h 40 min (1 Nov 1 h 15 min, 20 Nov 20 min, 23 Nov 5 min)",
            ])
    }

    @Test("The year's days of one shade are one path, a square each; every day of the year sat draws 365 or 366")
    func yearPaths() async throws {
        // Monday 23 November 2026: the last three days 5 min each (one shade), the 364 days before
        // them 20 min each (another); the calendar begins 24 November 2025.
        let short = (0..<3).map { Self.session("2026-11-\(23 - $0) 07:00", seconds: 300) }
        var days: [SittingSession] = []
        var day = Self.date("2026-11-21 07:00", in: Self.utc)
        for _ in 0..<364 {
            day = day.addingTimeInterval(-86_400)
            days.append(
                SittingSession(profileID: 1, profileName: "Morning", startedAt: day, seconds: 1200, completed: true))
        }
        let year = try #require(try await Self.page(short + days, now: "2026-11-23 08:00").year)
        #expect(year.sat.map(\.level) == [1, 2])
        #expect(year.sat[0].path == "M695 83h7v7h-7zM695 96h7v7h-7zM708 18h7v7h-7z")
        #expect(year.sat[0].days == 3)
        // From the first Monday shown (24 November 2025) to 20 November 2026: 362 days.
        #expect(year.sat[1].days == 362)
        #expect(year.sat[1].path.filter { $0 == "M" }.count == 362)
        #expect(year.sat[1].path.hasPrefix("M32 18h7v7h-7zM32 31h7v7h-7z"))
        #expect(year.caption.hasPrefix("The last year: 365 days sat"))
    }

    @Test("The home page's practice panel: streak, today, and the last profile to sit with again")
    func practicePanel() async throws {
        let context = PageContext(now: Self.date("2026-11-23 08:00", in: Self.utc), timeZone: Self.utc)
        func stored(_ sessions: [SittingSession]) async throws -> any SittingSessionRepository {
            try await StoredPerson.make(clock: context.dayClock, profiles: [Self.morning], sessions: sessions).sessions
        }
        let sessions = [Self.session("2026-11-22 07:00"), Self.session("2026-11-23 06:00", seconds: 1500)]
        let panel = await PracticePanelViewModel.load(from: try await stored(sessions), context: context)
        #expect(panel.streakText == "2 days")
        #expect(panel.todayText == "25 min")
        #expect(panel.sitLink == LinkViewModel(url: "/profiles/1/sit", label: "Sit with Morning"))
        let deleted = [Self.session("2026-11-23 06:00", profileID: nil)]
        let orphan = await PracticePanelViewModel.load(from: try await stored(deleted), context: context)
        #expect(orphan.sitLink?.url == "/profiles")
        let none = await PracticePanelViewModel.load(from: try await stored([]), context: context)
        #expect(!none.hasPractice && none.emptyMessage == "No sessions yet.")
    }

    @Test("Lengths in words, to the minute")
    func words() {
        #expect(
            [0, 45, 60, 1500, 3600, 3725, 7200].map(DurationFormatter.words(from:)) == [
                "0 min", "45 s", "1 min", "25 min", "1 h", "1 h 2 min", "2 h",
            ])
    }
}
