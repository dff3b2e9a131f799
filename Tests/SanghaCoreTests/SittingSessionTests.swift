import Foundation
import SanghaCore
import SanghaTestSupport
import Testing

@Suite("Sitting session rules")
struct SittingSessionTests {
    @Test("A stopped session of less than a minute, a length out of range, or a start in the future is refused")
    func refusals() {
        let start = Date(timeIntervalSince1970: 0)
        func session(_ seconds: Int, completed: Bool) -> SittingSession {
            SittingSession(profileID: 1, profileName: "P", startedAt: start, seconds: seconds, completed: completed)
        }
        #expect(
            session(59, completed: false).refusal(now: start, words: .english)
                == "A session stopped before a minute is not recorded.")
        #expect(session(60, completed: false).refusal(now: start, words: .english) == nil)
        #expect(session(3, completed: true).refusal(now: start, words: .english) == nil)
        #expect(session(0, completed: true).refusal(now: start, words: .english) != nil)
        #expect(session(300_000, completed: true).refusal(now: start, words: .english) != nil)
        #expect(
            session(60, completed: true).refusal(now: start.addingTimeInterval(-601), words: .english)
                == "The session's start is in the future.")
        #expect(session(60, completed: true).refusal(now: start.addingTimeInterval(-600), words: .english) == nil)
    }

    @Test("A session sat more than 30 days ago is refused; the window counts from its earliest end")
    func tooOld() {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let hour: TimeInterval = 3600
        func refusal(startedHoursAgo hours: Double, seconds: Int) -> String? {
            SittingSession(
                profileID: 1, profileName: "P", startedAt: now.addingTimeInterval(-hours * hour), seconds: seconds,
                completed: true
            ).refusal(now: now, words: .english)
        }
        let days: Double = 24
        #expect(refusal(startedHoursAgo: 29 * days, seconds: 600) == nil)
        #expect(refusal(startedHoursAgo: 30 * days, seconds: 60) == nil)
        // 30 days and the session's own 60 seconds: the last start recorded, then one second more.
        let seconds = 60
        let earliest = now.addingTimeInterval(-SittingSession.recentWindow - TimeInterval(seconds))
        func session(startedAt: Date) -> SittingSession {
            SittingSession(profileID: 1, profileName: "P", startedAt: startedAt, seconds: seconds, completed: true)
        }
        #expect(session(startedAt: earliest).refusal(now: now, words: .english) == nil)
        #expect(
            session(startedAt: earliest.addingTimeInterval(-1)).refusal(now: now, words: .english)
                == SittingSession.tooOldMessage)
        #expect(refusal(startedHoursAgo: 30 * days + 1, seconds: 60) == SittingSession.tooOldMessage)
        #expect(refusal(startedHoursAgo: 300 * 24, seconds: 600) == SittingSession.tooOldMessage)
        // The longest session, 72 hours, is recorded when it ends; a day later it is not.
        #expect(refusal(startedHoursAgo: 30 * days + 72, seconds: 86_400 * 3) == nil)
        #expect(refusal(startedHoursAgo: 30 * days + 73, seconds: 86_400 * 3) == SittingSession.tooOldMessage)
        #expect(SittingSession.tooOldMessage.contains("30 days"))
    }
}

@Suite("Practice by the person's day")
struct PracticeDaysTests {
    let santiago = TimeZone(identifier: "America/Santiago")!
    let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    func session(_ startedAt: Date, seconds: Int = 600) -> SittingSession {
        SittingSession(profileID: 1, profileName: "Night", startedAt: startedAt, seconds: seconds, completed: true)
    }

    @Test(
        "An import key is the start to the second: a sit kept with milliseconds is its own export's; a start read too")
    func importKeyToTheSecond() throws {
        let start = Date(timeIntervalSince1970: 1_795_500_000)
        let kept = SittingSession.ImportKey(
            startedAt: start.addingTimeInterval(0.789), seconds: 600, profileName: "Morning")
        #expect(kept == SittingSession.ImportKey(startedAt: start, seconds: 600, profileName: "Morning"))
        #expect(kept != SittingSession.ImportKey(startedAt: start + 1, seconds: 600, profileName: "Morning"))
        #expect(
            SittingSession.date(iso8601: "2026-11-24T06:30:00.789Z")
                == SittingSession.date(iso8601: "2026-11-24T06:30:00Z"))
    }

    @Test("A day number is the civil date's, both ways, and its weekday (1970-01-01 a Thursday)")
    func civilDays() {
        #expect(LocalDay(year: 1970, month: 1, day: 1).number == 0)
        #expect(LocalDay(year: 2026, month: 11, day: 23).weekday == 1)
        #expect(LocalDay(year: 1969, month: 12, day: 31) == LocalDay(-1))
        #expect(LocalDay(-1).weekday == 3)
        #expect(LocalDay(year: 2000, month: 2, day: 29).advanced(by: 1).description == "2000-03-01")
        let calendar = Calendar.gregorian(in: TimeZone(identifier: "UTC")!)
        // From 1586 (Foundation's Gregorian calendar is Julian before 1582) to 4160.
        for number in stride(from: -140_000, through: 800_000, by: 997) {
            let date = calendar.dateComponents(
                [.year, .month, .day, .weekday], from: Date(timeIntervalSince1970: Double(number) * 86_400))
            let day = LocalDay(number)
            #expect(day.date == (date.year!, date.month!, date.day!))
            #expect(LocalDay(year: date.year!, month: date.month!, day: date.day!) == day)
            #expect(day.weekday == (date.weekday! + 5) % 7 + 1)
        }
    }

    @Test("Where summer time skips midnight (Santiago, 6 Sep 2026), a sit each night is a day each, 20 in a row")
    func skippedMidnight() throws {
        let calendar = Calendar.gregorian(in: santiago)
        let now = try #require(calendar.date(from: DateComponents(year: 2026, month: 9, day: 20, hour: 12)))
        // Half past midnight on each of the last 20 days (or, the day midnight was skipped, half
        // past one).
        let sessions = (0..<20).map { back in
            session(calendar.startOfDay(for: calendar.date(byAdding: .day, value: -back, to: now)!) + 1800)
        }
        let clock = DayClock(timeZone: santiago)
        let practice = Practice(of: sessions, clock: clock, today: clock.day(of: now))
        #expect(practice.days(last: 30).suffix(20).map(\.sessions) == Array(repeating: 1, count: 20))
        #expect(practice.streak == 20)
        #expect(practice.sat.first?.day.description == "2026-09-01")
        // Where winter time repeats an hour (5 Apr 2026, 23:00–24:00 twice), both are the 4th.
        let repeated = try #require(
            calendar.date(from: DateComponents(year: 2026, month: 4, day: 4, hour: 23, minute: 30)))
        #expect(clock.day(of: repeated).description == "2026-04-04")
        #expect(clock.day(of: repeated + 3600).description == "2026-04-04")
        #expect(clock.day(of: repeated + 7200).description == "2026-04-05")
    }

    @Test(
        "The same sits are other days in another time zone, and a day starting at 03:00 keeps a 01:00 sit in the night before"
    )
    func twoTimeZones() throws {
        // 23:30 in Santiago (UTC−3 in November) is 11:30 the next morning in Tokyo.
        let lateEvening = try #require(
            Calendar.gregorian(in: santiago).date(
                from: DateComponents(year: 2026, month: 11, day: 20, hour: 23, minute: 30)))
        #expect(DayClock(timeZone: santiago).day(of: lateEvening).description == "2026-11-20")
        #expect(DayClock(timeZone: tokyo).day(of: lateEvening).description == "2026-11-21")
        let oneAM = lateEvening + 5400
        #expect(DayClock(timeZone: santiago).day(of: oneAM).description == "2026-11-21")
        #expect(DayClock(timeZone: santiago, startHour: 3).day(of: oneAM).description == "2026-11-20")

        // Nights sat from 23:30 to after midnight: in Santiago each evening is a day; counted in
        // Tokyo, the same sits are mornings, a day each too; a sit at 00:30 with the day starting
        // at 03:00 joins the evening before, so the streak does not grow.
        let sessions = (0..<5).map { session(lateEvening - Double($0) * 86_400) } + [session(oneAM - 4 * 86_400)]
        let now = lateEvening + 3600 * 12
        for clock in [DayClock(timeZone: santiago, startHour: 3), DayClock(timeZone: tokyo)] {
            let practice = Practice(of: sessions, clock: clock, today: clock.day(of: now))
            #expect(practice.streak == 5, "\(clock)")
            #expect(practice.sat.map(\.sessions).reduce(0, +) == 6)
        }
        func twice(_ clock: DayClock) -> [String] {
            Practice(of: sessions, clock: clock, today: clock.day(of: now)).sat.filter { $0.sessions == 2 }.map(
                \.day.description)
        }
        #expect(twice(DayClock(timeZone: santiago)) == ["2026-11-17"])
        #expect(twice(DayClock(timeZone: santiago, startHour: 3)) == ["2026-11-16"])
    }

    @Test("A streak not sat today runs up to yesterday, and a long one is followed back past the window")
    func streaks() {
        let today = LocalDay(year: 2026, month: 11, day: 24)
        func practice(_ days: [LocalDay]) -> Practice {
            var reader = Practice.Reader(today: today)
            for day in days.sorted(by: >) where !reader.read(Practice.Day(day, sessions: 1, seconds: 60)) { break }
            return reader.practice(totals: .zero, recent: [])
        }
        #expect(practice([]).streak == 0)
        #expect(practice([today]).streak == 1)
        #expect(practice([today.advanced(by: -1), today.advanced(by: -2)]).streak == 2)
        #expect(practice([today.advanced(by: -2)]).streak == 0)
        let threeYears = (0..<1100).map { today.advanced(by: -$0) }
        let long = practice(threeYears + [today.advanced(by: -1200)])
        #expect(long.streak == 1100)
        #expect(long.sat.count == Practice.window)
        #expect(long.days(last: 30).allSatisfy { $0.sessions == 1 })
    }
}
