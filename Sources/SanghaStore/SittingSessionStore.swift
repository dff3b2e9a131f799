import Foundation
import GRDB
import SanghaCore

/// Sessions in SQLite, the `sittingSession` table of `SanghaDatabase`. A session keeps its
/// profile's name; deleting the profile leaves its sessions with `profileID` cleared.
public struct SittingSessionStore: SittingSessionRepository {
    private let database: any DatabaseWriter

    /// A store on an opened, migrated database (`SanghaDatabase.open`).
    public init(database: any DatabaseWriter) {
        self.database = database
    }

    public func record(_ session: SittingSession) async throws(SittingSessionRepositoryError) -> SittingSession {
        do {
            return try await database.write { db in
                var record = SittingSessionRecord(session)
                record.id = nil
                try record.insert(db)
                return record.session
            }
        } catch {
            throw .storage(String(describing: error))
        }
    }

    public func recent(limit: Int, offset: Int) async throws(SittingSessionRepositoryError) -> [SittingSession] {
        try await read { db in
            try SittingSessionRecord.order(Column("startedAt").desc, Column("id").desc)
                .limit(limit, offset: offset).fetchAll(db).map(\.session)
        }
    }

    public func totals() async throws(SittingSessionRepositoryError) -> SittingTotals {
        try await read { db in
            let row = try Row.fetchOne(db, sql: "SELECT COUNT(*), COALESCE(SUM(seconds), 0) FROM sittingSession")
            return SittingTotals(sessions: row?[0] ?? 0, seconds: row?[1] ?? 0)
        }
    }

    public func sessions(startingFrom start: Date, before end: Date) async throws(SittingSessionRepositoryError)
        -> [SittingSession]
    {
        let startedAt = Column("startedAt")
        return try await read { db in
            try SittingSessionRecord.filter(startedAt >= start && startedAt < end).order(startedAt, Column("id"))
                .fetchAll(db).map(\.session)
        }
    }

    private func read<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T)
        async throws(SittingSessionRepositoryError) -> T
    {
        do {
            return try await database.read(body)
        } catch {
            throw .storage(String(describing: error))
        }
    }
}

/// A session as one row of the `sittingSession` table.
struct SittingSessionRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "sittingSession"
    var id: Int?
    var profileID: Int?
    var profileName: String
    var startedAt: Date
    var seconds: Int
    var completed: Bool

    init(_ session: SittingSession) {
        id = session.id
        profileID = session.profileID
        profileName = session.profileName
        startedAt = session.startedAt
        seconds = session.seconds
        completed = session.completed
    }

    var session: SittingSession {
        SittingSession(
            id: id ?? 0, profileID: profileID, profileName: profileName, startedAt: startedAt, seconds: seconds,
            completed: completed)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = Int(inserted.rowID)
    }
}
