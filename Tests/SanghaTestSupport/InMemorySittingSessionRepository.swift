import Foundation
import SanghaCore

/// Sessions in memory. `failing` makes every call fail as a broken disk would.
public actor InMemorySittingSessionRepository: SittingSessionRepository {
    public private(set) var sessions: [SittingSession] = []
    private let failing: Bool
    /// How the person's days are counted (the stores read it from the person).
    private let clock: DayClock

    public init(
        _ sessions: [SittingSession] = [], failing: Bool = false,
        clock: DayClock = DayClock(timeZone: TimeZone(identifier: "UTC")!)
    ) {
        self.sessions = sessions
        self.failing = failing
        self.clock = clock
    }

    public func record(_ session: SittingSession, clientID: String?) async throws(SittingSessionRepositoryError)
        -> SittingSession
    {
        if failing { throw .storage("disk failure") }
        if let clientID, let id = clientIDs[clientID], let kept = sessions.first(where: { $0.id == id }) {
            return kept
        }
        var stored = session
        stored.id = (sessions.map(\.id).max() ?? 0) + 1
        sessions.append(stored)
        if let clientID { clientIDs[clientID] = stored.id }
        return stored
    }

    /// The sessions' ids by the client's id they were recorded with.
    private var clientIDs: [String: Int] = [:]

    public func recent(limit: Int, offset: Int) async throws(SittingSessionRepositoryError) -> [SittingSession] {
        if failing { throw .storage("disk failure") }
        return Array(sessions.sorted { ($0.startedAt, $0.id) > ($1.startedAt, $1.id) }.dropFirst(offset).prefix(limit))
    }

    public func totals() async throws(SittingSessionRepositoryError) -> SittingTotals {
        if failing { throw .storage("disk failure") }
        return SittingTotals(sessions: sessions.count, seconds: sessions.reduce(0) { $0 + $1.seconds })
    }

    public func practice(today: LocalDay, recent: Int, offset: Int) async throws(SittingSessionRepositoryError)
        -> Practice
    {
        if failing { throw .storage("disk failure") }
        return Practice(of: sessions, clock: clock, today: today, recent: recent, offset: offset)
    }

    public func session(id: Int) async throws(SittingSessionRepositoryError) -> SittingSession? {
        if failing { throw .storage("disk failure") }
        return sessions.first { $0.id == id }
    }

    public func update(_ session: SittingSession) async throws(SittingSessionRepositoryError) -> Bool {
        if failing { throw .storage("disk failure") }
        guard let index = sessions.firstIndex(where: { $0.id == session.id }) else { return false }
        sessions[index] = session
        return true
    }

    public func delete(id: Int) async throws(SittingSessionRepositoryError) -> Bool {
        if failing { throw .storage("disk failure") }
        let before = sessions.count
        sessions.removeAll { $0.id == id }
        return sessions.count < before
    }

    public func importSessions(_ sessions: [SittingSession], commit: Bool, limit: Int)
        async throws(SittingSessionRepositoryError)
        -> SittingSession.ImportCount
    {
        if failing { throw .storage("disk failure") }
        let (new, existing) = SittingSession.new(sessions, kept: Set(self.sessions.map(\.importKey)))
        let held = self.sessions.count
        if held + new.count > limit { throw .historyFull(sessions: held) }
        if commit { for session in new { _ = try await record(session) } }
        return SittingSession.ImportCount(added: new.count, existing: existing)
    }

    /// The file kept for import: its key, bytes and expiry (one a person).
    private var keptFile: (key: String, file: Data, expiresAt: Date)?

    public func keepImport(_ file: Data, key: String, at date: Date, expiresAt: Date)
        async throws(SittingSessionRepositoryError)
    {
        if failing { throw .storage("disk failure") }
        keptFile = (key, file, expiresAt)
    }

    public func keptImport(key: String, at date: Date) async throws(SittingSessionRepositoryError) -> Data? {
        if failing { throw .storage("disk failure") }
        guard let keptFile, keptFile.key == key, keptFile.expiresAt > date else { return nil }
        return keptFile.file
    }

    public func forgetImport(key: String) async throws(SittingSessionRepositoryError) {
        if failing { throw .storage("disk failure") }
        if keptFile?.key == key { keptFile = nil }
    }

    public func sessions(after cursor: SittingSession.Cursor?, limit: Int) async throws(SittingSessionRepositoryError)
        -> [SittingSession]
    {
        if failing { throw .storage("disk failure") }
        let sorted = sessions.sorted { ($0.startedAt, $0.id) < ($1.startedAt, $1.id) }
        let after = cursor.map { cursor in sorted.filter { ($0.startedAt, $0.id) > (cursor.startedAt, cursor.id) } }
        return Array((after ?? sorted).prefix(limit))
    }
}
