import Foundation
import GRDB
import SanghaCore

/// One person's sessions in SQLite, the `sittingSession` table of `SanghaDatabase`; every
/// statement names the owner. A session keeps its profile's name; deleting the profile leaves
/// its sessions with `profileID` cleared.
public struct SittingSessionStore: SittingSessionRepository {
    private let database: any DatabaseWriter
    private let owner: Int

    /// The sessions of `owner` on an opened, migrated database (`SanghaDatabase.open`).
    public init(database: any DatabaseWriter, owner: Int) {
        self.database = database
        self.owner = owner
    }

    public func record(_ session: SittingSession) async throws(SittingSessionRepositoryError) -> SittingSession {
        do {
            return try await database.write { [owner] db in
                var record = SittingSessionRecord(session, owner: owner)
                record.id = nil
                try record.insert(db)
                return record.session
            }
        } catch {
            throw .storage(String(describing: error))
        }
    }

    public func recent(limit: Int, offset: Int) async throws(SittingSessionRepositoryError) -> [SittingSession] {
        try await read { [owner] db in
            try SittingSessionRecord.filter(Column("ownerID") == owner).order(
                Column("startedAt").desc, Column("id").desc
            )
            .limit(limit, offset: offset).fetchAll(db).map(\.session)
        }
    }

    public func totals() async throws(SittingSessionRepositoryError) -> SittingTotals {
        try await read { [owner] db in
            let row = try Row.fetchOne(
                db, sql: "SELECT sessions, seconds FROM sittingTotal WHERE ownerID = ?", arguments: [owner])
            return SittingTotals(sessions: row?[0] ?? 0, seconds: row?[1] ?? 0)
        }
    }

    public func tally(days: [Date]) async throws(SittingSessionRepositoryError) -> [SittingTotals] {
        guard days.count > 1 else { return [] }
        // Each day a range of the startedAt index, counted by SQLite.
        let sql = """
            WITH day(i, start, stop) AS (\(Self.dayRows(days.count - 1)))
            SELECT count(s.id), coalesce(sum(s.seconds), 0) FROM day
            LEFT JOIN sittingSession s ON s.ownerID = ? AND s.startedAt >= day.start AND s.startedAt < day.stop
            GROUP BY day.i ORDER BY day.i
            """
        return try await read { db in
            try Row.fetchAll(db, sql: sql, arguments: Self.dayArguments(days, owner: owner)).map {
                SittingTotals(sessions: $0[0], seconds: $0[1])
            }
        }
    }

    public func sat(days: [Date]) async throws(SittingSessionRepositoryError) -> [Bool] {
        guard days.count > 1 else { return [] }
        // One probe of the startedAt index a day: the cost is the days', not the sessions'.
        let sql = """
            WITH day(i, start, stop) AS (\(Self.dayRows(days.count - 1)))
            SELECT EXISTS (
                SELECT 1 FROM sittingSession WHERE ownerID = ? AND startedAt >= day.start AND startedAt < day.stop)
            FROM day ORDER BY day.i
            """
        return try await read { db in
            try Bool.fetchAll(db, sql: sql, arguments: Self.dayArguments(days, owner: owner))
        }
    }

    public func session(id: Int) async throws(SittingSessionRepositoryError) -> SittingSession? {
        try await read { [owner] db in
            try SittingSessionRecord.filter(Column("ownerID") == owner && Column("id") == id).fetchOne(db)?.session
        }
    }

    public func update(_ session: SittingSession) async throws(SittingSessionRepositoryError) -> Bool {
        try await write { [owner] db in
            // Deleted and inserted again under the same id: the totals' triggers count both.
            try db.execute(
                sql: "DELETE FROM sittingSession WHERE id = ? AND ownerID = ?", arguments: [session.id, owner])
            guard db.changesCount > 0 else { return false }
            var record = SittingSessionRecord(session, owner: owner)
            try record.insert(db)
            return true
        }
    }

    public func importSessions(_ sessions: [SittingSession], commit: Bool) async throws(SittingSessionRepositoryError)
        -> SittingSession.ImportCount
    {
        guard let first = sessions.map(\.startedAt).min(), let last = sessions.map(\.startedAt).max() else {
            return SittingSession.ImportCount(added: 0, existing: 0)
        }
        let body: @Sendable (Database) throws -> SittingSession.ImportCount = { [owner] db in
            let kept = Set(
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT startedAt, seconds, profileName FROM sittingSession
                        WHERE ownerID = ? AND startedAt >= ? AND startedAt <= ?
                        """, arguments: [owner, first.addingTimeInterval(-1), last.addingTimeInterval(1)]
                ).map { SittingSession.ImportKey(startedAt: $0[0], seconds: $0[1], profileName: $0[2]) })
            let (new, existing) = SittingSession.new(sessions, kept: kept)
            if commit {
                for session in new {
                    var record = SittingSessionRecord(session, owner: owner)
                    record.id = nil
                    try record.insert(db)
                }
            }
            return SittingSession.ImportCount(added: new.count, existing: existing)
        }
        return commit ? try await write(body) : try await read(body)
    }

    public func delete(id: Int) async throws(SittingSessionRepositoryError) -> Bool {
        try await write { [owner] db in
            try db.execute(sql: "DELETE FROM sittingSession WHERE id = ? AND ownerID = ?", arguments: [id, owner])
            return db.changesCount > 0
        }
    }

    public func sessions(after cursor: SittingSession.Cursor?, limit: Int) async throws(SittingSessionRepositoryError)
        -> [SittingSession]
    {
        try await read { [owner] db in
            var request = SittingSessionRecord.filter(Column("ownerID") == owner)
            if let cursor {
                request = request.filter(
                    Column("startedAt") > cursor.startedAt
                        || (Column("startedAt") == cursor.startedAt && Column("id") > cursor.id))
            }
            return try request.order(Column("startedAt"), Column("id")).limit(limit).fetchAll(db).map(\.session)
        }
    }

    /// Seconds since 1970 bound as `?`, as the text GRDB stores a date as ("yyyy-MM-dd
    /// HH:mm:ss.SSS" in UTC), made by SQLite. GRDB's own conversion goes through one shared
    /// `DateFormatter` behind a lock: binding a year of day boundaries that way was 0.45 of
    /// the history page's CPU.
    static let storedDate = "strftime('%Y-%m-%d %H:%M:%f', ?, 'unixepoch')"

    /// `VALUES (?, start, end), …`: a day's index, start and end, `count` times.
    private static func dayRows(_ count: Int) -> String {
        "VALUES " + Array(repeating: "(?, \(storedDate), \(storedDate))", count: count).joined(separator: ", ")
    }

    /// The days' values, then the owner (named after them in the statements).
    private static func dayArguments(_ days: [Date], owner: Int) -> StatementArguments {
        var values: [(any DatabaseValueConvertible)?] = []
        for (index, (start, end)) in zip(days, days.dropFirst()).enumerated() {
            values += [index, start.timeIntervalSince1970, end.timeIntervalSince1970]
        }
        values.append(owner)
        return StatementArguments(values)
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

    private func write<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T)
        async throws(SittingSessionRepositoryError) -> T
    {
        do {
            return try await database.write(body)
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
    var groupName: String?
    var note: String?
    var ownerID: Int?

    init(_ session: SittingSession, owner: Int) {
        id = session.id
        ownerID = owner
        profileID = session.profileID
        profileName = session.profileName
        startedAt = session.startedAt
        seconds = session.seconds
        completed = session.completed
        groupName = session.groupName
        note = session.note
    }

    var session: SittingSession {
        SittingSession(
            id: id ?? 0, profileID: profileID, profileName: profileName, startedAt: startedAt, seconds: seconds,
            completed: completed, groupName: groupName, note: note)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = Int(inserted.rowID)
    }
}
