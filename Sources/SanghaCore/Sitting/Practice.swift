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
    /// The practice from the last days (at least two, oldest first, today last) and the totals
    /// of all. A streak is counted within those days (see `reachesFirstDay`).
    public init(days: [Day], totals: SittingTotals) {
        precondition(days.count >= 2, "The streak needs today and yesterday")
        var index = days.count - 1
        if days[index].sessions == 0 { index -= 1 }
        var streak = 0
        while index >= 0, days[index].sessions > 0 {
            streak += 1
            index -= 1
        }
        self.init(totals: totals, days: days, streak: streak)
    }

    /// The practice as of `now` in `timeZone` over the last `dayCount` days, from sessions in
    /// memory (fixtures): what `practice(now:timeZone:dayCount:)` finds in storage, with the
    /// streak counted within those days.
    public init(recent sessions: [SittingSession], totals: SittingTotals, now: Date, timeZone: TimeZone, dayCount: Int)
    {
        let calendar = Calendar.gregorian(in: timeZone)
        let first = Self.firstDay(now: now, calendar: calendar, dayCount: dayCount)
        let boundaries = Self.boundaries(
            from: first, to: calendar.date(byAdding: .day, value: dayCount, to: first)!, calendar: calendar)
        self.init(
            days: zip(boundaries, SittingTotals.tally(sessions, days: boundaries)).map {
                Day(start: $0, sessions: $1.sessions, seconds: $1.seconds)
            },
            totals: totals)
    }

    /// The streak runs through every day shown, so it may go on before them.
    public var reachesFirstDay: Bool {
        streak >= days.count || (streak == days.count - 1 && today.sessions == 0)
    }

    static func firstDay(now: Date, calendar: Calendar, dayCount: Int) -> Date {
        calendar.date(byAdding: .day, value: 1 - dayCount, to: calendar.startOfDay(for: now))!
    }

    /// The starts of the days from `start` up to `end` (both starts of days), then `end`: the
    /// boundaries of those days, one more than the days.
    static func boundaries(from start: Date, to end: Date, calendar: Calendar) -> [Date] {
        var boundaries: [Date] = []
        var day = start
        while day < end {
            boundaries.append(day)
            // The start of the next day, not 24 hours on: where summer time skips midnight, a
            // day starts at 01:00, and the next one at 00:00 again.
            day = calendar.startOfDay(for: calendar.date(byAdding: .day, value: 1, to: day)!)
        }
        boundaries.append(end)
        return boundaries
    }
}

extension SittingSessionRepository {
    /// The practice as of `now` in `timeZone`, with the last `dayCount` days (at least two).
    /// The storage counts each day's sessions and the totals; a streak as long as the days is
    /// followed back a year of days at a time. What is read grows with the days asked about,
    /// never with the number of sessions.
    public func practice(now: Date, timeZone: TimeZone, dayCount: Int = 30) async throws(SittingSessionRepositoryError)
        -> Practice
    {
        precondition(dayCount >= 2, "The streak needs today and yesterday")
        let calendar = Calendar.gregorian(in: timeZone)
        let first = Practice.firstDay(now: now, calendar: calendar, dayCount: dayCount)
        let end = calendar.date(byAdding: .day, value: dayCount, to: first)!
        let boundaries = Practice.boundaries(from: first, to: end, calendar: calendar)
        let tallies = try await tally(days: boundaries)
        let days = zip(boundaries, tallies).map { Practice.Day(start: $0, sessions: $1.sessions, seconds: $1.seconds) }
        var practice = Practice(days: days, totals: try await totals())
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
            let sat = try await sat(days: Practice.boundaries(from: start, to: end, calendar: calendar))
            for wasSat in sat.reversed() {
                guard wasSat else { return streak }
                streak += 1
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
