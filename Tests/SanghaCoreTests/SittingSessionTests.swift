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
            session(59, completed: false).refusal(now: start) == "A session stopped before a minute is not recorded.")
        #expect(session(60, completed: false).refusal(now: start) == nil)
        #expect(session(3, completed: true).refusal(now: start) == nil)
        #expect(session(0, completed: true).refusal(now: start) != nil)
        #expect(session(300_000, completed: true).refusal(now: start) != nil)
        #expect(
            session(60, completed: true).refusal(now: start.addingTimeInterval(-601))
                == "The session's start is in the future.")
        #expect(session(60, completed: true).refusal(now: start.addingTimeInterval(-600)) == nil)
    }

    @Test("A session sat more than 48 hours ago is refused; the window counts from its earliest end")
    func tooOld() {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let hour: TimeInterval = 3600
        func refusal(startedHoursAgo hours: Double, seconds: Int) -> String? {
            SittingSession(
                profileID: 1, profileName: "P", startedAt: now.addingTimeInterval(-hours * hour), seconds: seconds,
                completed: true
            ).refusal(now: now)
        }
        #expect(refusal(startedHoursAgo: 47, seconds: 600) == nil)
        #expect(refusal(startedHoursAgo: 48, seconds: 60) == nil)
        // 48 hours and the session's own 60 seconds: the last start recorded, then one second more.
        let seconds = 60
        let earliest = now.addingTimeInterval(-SittingSession.recentWindow - TimeInterval(seconds))
        func session(startedAt: Date) -> SittingSession {
            SittingSession(profileID: 1, profileName: "P", startedAt: startedAt, seconds: seconds, completed: true)
        }
        #expect(session(startedAt: earliest).refusal(now: now) == nil)
        #expect(session(startedAt: earliest.addingTimeInterval(-1)).refusal(now: now) == SittingSession.tooOldMessage)
        #expect(refusal(startedHoursAgo: 49, seconds: 60) == SittingSession.tooOldMessage)
        #expect(refusal(startedHoursAgo: 300 * 24, seconds: 600) == SittingSession.tooOldMessage)
        // The longest session, 72 hours, is recorded when it ends; a day later it is not.
        #expect(refusal(startedHoursAgo: 72, seconds: 86_400 * 3) == nil)
        #expect(refusal(startedHoursAgo: 72 + 49, seconds: 86_400 * 3) == SittingSession.tooOldMessage)
        #expect(SittingSession.tooOldMessage.contains("48 hours"))
    }
}

@Suite("Practice by calendar day")
struct PracticeDaysTests {
    @Test("Where summer time skips midnight (Santiago, 6 Sep 2026), later days still start at midnight")
    func skippedMidnight() async throws {
        let santiago = try #require(TimeZone(identifier: "America/Santiago"))
        let calendar = Calendar.gregorian(in: santiago)
        let now = try #require(calendar.date(from: DateComponents(year: 2026, month: 9, day: 20, hour: 12)))
        // A session at half past midnight (or, the day midnight was skipped, half past one) on
        // each of the last 20 days.
        let sessions = (0..<20).map { back in
            let day = calendar.startOfDay(for: calendar.date(byAdding: .day, value: -back, to: now)!)
            return SittingSession(
                profileID: 1, profileName: "Night", startedAt: day.addingTimeInterval(1800), seconds: 600,
                completed: true)
        }
        let practice = try await InMemorySittingSessionRepository(sessions).practice(
            now: now, timeZone: santiago, dayCount: 30)
        #expect(practice.days.suffix(20).map(\.sessions) == Array(repeating: 1, count: 20))
        #expect(practice.days.map { calendar.component(.hour, from: $0.start) }.filter { $0 != 0 }.count == 1)
        #expect(practice.streak == 20)
    }
}
