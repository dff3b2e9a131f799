import Foundation

/// A person's practice as the history, the home page and their page show it: every session
/// counted, the days sat over the last year, the streak, and the newest sessions. Days are the
/// person's (`DayClock`): calendar days in their time zone, beginning at their hour.
public struct Practice: Sendable, Equatable {
    /// One day and what was sat on it.
    public struct Day: Sendable, Equatable {
        public var day: LocalDay
        public var sessions: Int
        public var seconds: Int

        public init(_ day: LocalDay, sessions: Int = 0, seconds: Int = 0) {
            self.day = day
            self.sessions = sessions
            self.seconds = seconds
        }
    }

    /// Days a practice looks back over: 53 weeks, the year's calendar from the Monday it begins.
    public static let window = 53 * 7

    public var totals: SittingTotals
    /// The person's day at the time of asking.
    public var today: LocalDay
    /// The days sat within `window` days up to today, oldest first; days without a session are
    /// left out.
    public var sat: [Day]
    /// Days in a row with at least one session, up to today. A day not sat yet does not break
    /// the streak before its end: without a session today, the streak runs up to yesterday.
    public var streak: Int
    /// The sessions asked for with it, newest first.
    public var recent: [SittingSession]

    public init(totals: SittingTotals, today: LocalDay, sat: [Day], streak: Int, recent: [SittingSession] = []) {
        self.totals = totals
        self.today = today
        self.sat = sat
        self.streak = streak
        self.recent = recent
    }

    /// Nothing sat, as of `today`.
    public static func empty(today: LocalDay) -> Practice {
        Practice(totals: .zero, today: today, sat: [], streak: 0)
    }

    /// The last `count` days (at most `window`), every one of them, oldest first, today last.
    public func days(last count: Int) -> [Day] {
        let first = today.advanced(by: 1 - count)
        var days = (0..<count).map { Day(first.advanced(by: $0)) }
        for day in sat where day.day >= first && day.day <= today {
            days[first.distance(to: day.day)] = day
        }
        return days
    }

    /// What was sat today.
    public var todays: Day { sat.last.flatMap { $0.day == today ? $0 : nil } ?? Day(today) }
}

extension Practice {
    /// Reads a person's days sat newest first, as the storage hands them over, until it knows
    /// both the window's days and the streak: a long streak is followed back day by day, and
    /// what is read is the days sat, never the sessions.
    public struct Reader: Sendable {
        public let today: LocalDay
        private var windowDays: [Day] = []
        private var expected: LocalDay
        private var streak = 0
        private var streakEnded = false

        public init(today: LocalDay) {
            self.today = today
            expected = today
        }

        /// Takes the next day sat (each earlier than the one before, none after today); false
        /// once no earlier day can change the practice.
        public mutating func read(_ day: Day) -> Bool {
            if day.day > today.advanced(by: -Practice.window) { windowDays.append(day) }
            if !streakEnded {
                // Today not sat yet: the streak may run up to yesterday.
                if streak == 0, expected == today, day.day < today { expected = today.advanced(by: -1) }
                if day.day == expected {
                    streak += 1
                    expected = expected.advanced(by: -1)
                } else {
                    streakEnded = true
                }
            }
            return !streakEnded || day.day > today.advanced(by: -Practice.window)
        }

        /// The practice read, with `totals` and `recent`.
        public func practice(totals: SittingTotals, recent: [SittingSession]) -> Practice {
            Practice(totals: totals, today: today, sat: windowDays.reversed(), streak: streak, recent: recent)
        }
    }

    /// The practice of `sessions` in memory (fixtures, fakes): what the stores count, on
    /// `today` of `clock`, with the newest `recent` after skipping `offset`.
    public init(
        of sessions: [SittingSession], clock: DayClock, today: LocalDay, recent: Int = 0, offset: Int = 0
    ) {
        var byDay: [LocalDay: Day] = [:]
        for session in sessions {
            let day = clock.day(of: session.startedAt)
            guard day <= today else { continue }
            byDay[day, default: Day(day)].sessions += 1
            byDay[day, default: Day(day)].seconds += session.seconds
        }
        var reader = Reader(today: today)
        for day in byDay.values.sorted(by: { $0.day > $1.day }) where !reader.read(day) { break }
        self = reader.practice(
            totals: SittingTotals(sessions: sessions.count, seconds: sessions.reduce(0) { $0 + $1.seconds }),
            recent: Array(
                sessions.sorted { ($0.startedAt, $0.id) > ($1.startedAt, $1.id) }.dropFirst(offset).prefix(recent)))
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
