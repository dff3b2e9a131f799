import Foundation
import SanghaCore
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
}
