import Foundation
import GRDB
import SanghaCore
import SanghaStore
import SanghaTestSupport
import Testing

@Suite("Sitting session store")
struct SittingSessionStoreTests {
    @Test("Sessions are stored and read newest first; a deleted profile's sessions stay under its name")
    func recordAndRecent() async throws {
        let directory = try RepositoryPaths.temporaryDirectory("session-store")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try SanghaDatabase.open(directory: directory)
        let profiles = ProfileStore(database: database)
        let sessions = SittingSessionStore(database: database)
        let profile = try await profiles.create(.new(named: "Morning"))
        let first = Date(timeIntervalSince1970: 1_795_413_600)
        let older = try await sessions.record(
            SittingSession(
                profileID: profile.id, profileName: "Morning", startedAt: first, seconds: 450, completed: true))
        let newer = try await sessions.record(
            SittingSession(
                profileID: profile.id, profileName: "Morning", startedAt: first.addingTimeInterval(86_400), seconds: 90,
                completed: false))
        #expect(older.id != newer.id && older.id > 0)
        #expect(try await sessions.recent(limit: 10) == [newer, older])
        #expect(try await sessions.recent(limit: 1) == [newer])

        #expect(try await profiles.delete(id: profile.id))
        let kept = try await SittingSessionStore(database: try SanghaDatabase.open(directory: directory)).recent(
            limit: 10)
        #expect(kept.map(\.profileName) == ["Morning", "Morning"])
        #expect(kept.allSatisfy { $0.profileID == nil })
        #expect(kept.map(\.seconds) == [90, 450])
    }

    @Test("Totals count every session; a page skips the newer ones; a range is half-open, oldest first")
    func totalsPagesAndRanges() async throws {
        let directory = try RepositoryPaths.temporaryDirectory("session-store")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sessions = SittingSessionStore(database: try SanghaDatabase.open(directory: directory))
        #expect(try await sessions.totals() == SittingTotals(sessions: 0, seconds: 0))
        let start = Date(timeIntervalSince1970: 1_795_413_600)
        for hour in 0..<5 {
            _ = try await sessions.record(
                SittingSession(
                    profileID: nil, profileName: "S\(hour)", startedAt: start.addingTimeInterval(Double(hour) * 3600),
                    seconds: 60 * (hour + 1), completed: true))
        }
        #expect(try await sessions.totals() == SittingTotals(sessions: 5, seconds: 900))
        #expect(try await sessions.recent(limit: 2, offset: 1).map(\.profileName) == ["S3", "S2"])
        #expect(try await sessions.recent(limit: 2, offset: 4).map(\.profileName) == ["S0"])
        let range = try await sessions.sessions(
            startingFrom: start.addingTimeInterval(3600), before: start.addingTimeInterval(3 * 3600))
        #expect(range.map(\.profileName) == ["S1", "S2"])
    }

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
