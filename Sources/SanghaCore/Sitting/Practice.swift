import Foundation

/// A person's practice as the history and the home page show it: every session counted, the
/// time sat on each of the last days, and the streak. Days are calendar days in the person's
/// time zone, so a session at 23:50 and one at 00:10 are two days in a row.
public struct Practice: Sendable, Equatable {
    /// One calendar day: when it began, and what was sat on it.
    public struct Day: Sendable, Equatable {
        public var start: Date
        public var sessions: Int
        public var seconds: Int

        public init(start: Date, sessions: Int = 0, seconds: Int = 0) {
            self.start = start
            self.sessions = sessions
            self.seconds = seconds
        }
    }

    public var totals: SittingTotals
    /// The last days, oldest first; the last one is today.
    public var days: [Day]
    /// Days in a row with at least one session, up to today. A day not sat yet does not break
    /// the streak before its end: without a session today, the streak runs up to yesterday.
    public var streak: Int

    public init(totals: SittingTotals, days: [Day], streak: Int) {
        self.totals = totals
        self.days = days
        self.streak = streak
    }

    public var today: Day { days[days.count - 1] }
}

extension Practice {
    /// The practice as of `now` in `timeZone` over the last `dayCount` days (at least two),
    /// from the sessions that began in them and the totals of all. A streak is counted within
    /// those days (see `reachesFirstDay`).
    public init(recent sessions: [SittingSession], totals: SittingTotals, now: Date, timeZone: TimeZone, dayCount: Int)
    {
        precondition(dayCount >= 2, "The streak needs today and yesterday")
        let calendar = Calendar.gregorian(in: timeZone)
        let first = Self.firstDay(now: now, calendar: calendar, dayCount: dayCount)
        var days = (0..<dayCount).map { Day(start: calendar.date(byAdding: .day, value: $0, to: first)!) }
        for session in sessions {
            let start = calendar.startOfDay(for: session.startedAt)
            guard let index = calendar.dateComponents([.day], from: first, to: start).day,
                days.indices.contains(index)
            else { continue }
            days[index].sessions += 1
            days[index].seconds += session.seconds
        }
        var index = days.count - 1
        if days[index].sessions == 0 { index -= 1 }
        var streak = 0
        while index >= 0, days[index].sessions > 0 {
            streak += 1
            index -= 1
        }
        self.init(totals: totals, days: days, streak: streak)
    }

    /// The streak runs through every day shown, so it may go on before them.
    public var reachesFirstDay: Bool {
        streak >= days.count || (streak == days.count - 1 && today.sessions == 0)
    }

    static func firstDay(now: Date, calendar: Calendar, dayCount: Int) -> Date {
        calendar.date(byAdding: .day, value: 1 - dayCount, to: calendar.startOfDay(for: now))!
    }
}

extension SittingSessionRepository {
    /// The practice as of `now` in `timeZone`, with the last `dayCount` days (at least two).
    /// Reads the totals and the sessions of those days; a streak as long as them is followed
    /// back a year at a time, so the cost does not grow with the number of sessions.
    public func practice(now: Date, timeZone: TimeZone, dayCount: Int = 30) async throws(SittingSessionRepositoryError)
        -> Practice
    {
        let calendar = Calendar.gregorian(in: timeZone)
        let first = Practice.firstDay(now: now, calendar: calendar, dayCount: dayCount)
        let end = calendar.date(byAdding: .day, value: dayCount, to: first)!
        var practice = Practice(
            recent: try await sessions(startingFrom: first, before: end), totals: try await totals(), now: now,
            timeZone: timeZone, dayCount: dayCount)
        if practice.reachesFirstDay {
            practice.streak += try await streakBefore(first, calendar: calendar)
        }
        return practice
    }

    /// Days in a row with a session, ending the day before `end`.
    private func streakBefore(_ end: Date, calendar: Calendar) async throws(SittingSessionRepositoryError) -> Int {
        var streak = 0
        var end = end
        while true {
            let start = calendar.date(byAdding: .year, value: -1, to: end)!
            let sat = Set(
                try await sessions(startingFrom: start, before: end).map { calendar.startOfDay(for: $0.startedAt) })
            var day = calendar.date(byAdding: .day, value: -1, to: end)!
            while day >= start {
                guard sat.contains(day) else { return streak }
                streak += 1
                day = calendar.date(byAdding: .day, value: -1, to: day)!
            }
            end = start
        }
    }
}

extension Calendar {
    /// The Gregorian calendar in `timeZone`: the days a person in that zone lives.
    public static func gregorian(in timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }
}
