import Foundation
import GRDB
import SanghaCore
import SanghaStoreSupport

/// One person's sessions in SQLite, the `sittingSession` table of `SanghaDatabase`; every
/// statement names the owner. A session keeps its profile's name; deleting the profile leaves
/// its sessions with `profileID` cleared.
///
/// The practice read (`practice(today:recent:offset:)`: home, /history, /me) is kept in memory
/// per person and page for its day (`PracticeMemo`, shared by the stores of one file): every
/// write of the person's sessions goes to SQLite first and then forgets it.
public struct SittingSessionStore: SittingSessionRepository, SQLiteStore {
    typealias Failure = SittingSessionRepositoryError
    let database: any DatabaseWriter
    private let owner: Int
    private let memo: PracticeMemo

    /// The sessions of `owner` on an opened, migrated database (`SanghaDatabase.open`); a store
    /// made alone keeps nothing in memory (`SQLitePersonalData` hands out stores sharing one).
    public init(database: any DatabaseWriter, owner: Int, memo: PracticeMemo = PracticeMemo(watch: UnwatchedData())) {
        self.database = database
        self.owner = owner
        self.memo = memo
    }

    public func record(_ session: SittingSession, clientID: String?) async throws(SittingSessionRepositoryError)
        -> SittingSession
    {
        defer { memo.forget(owner: owner) }
        return try await write { [owner] db in
            if let clientID,
                let kept = try SittingSessionRecord.filter(Column("ownerID") == owner && Column("clientID") == clientID)
                    .fetchOne(db)
            {
                return kept.session
            }
            var record = SittingSessionRecord(session, owner: owner)
            record.id = nil
            record.clientID = clientID
            try record.insert(db)
            return record.session
        }
    }

    public func recent(limit: Int, offset: Int) async throws(SittingSessionRepositoryError) -> [SittingSession] {
        try await read { [owner] db in try Self.recent(of: owner, limit: limit, offset: offset, db) }
    }

    /// A page of the person's sessions, newest first, by a statement prepared once per connection.
    private static func recent(of owner: Int, limit: Int, offset: Int, _ db: Database) throws -> [SittingSession] {
        try SittingSessionRecord.fetchAll(
            db.cachedStatement(
                sql: "SELECT * FROM sittingSession WHERE ownerID = ? ORDER BY startedAt DESC, id DESC LIMIT ? OFFSET ?"),
            arguments: [owner, limit, offset]
        ).map(\.session)
    }

    public func totals() async throws(SittingSessionRepositoryError) -> SittingTotals {
        try await read { [owner] db in
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT sessions, seconds FROM sittingTotal WHERE ownerID = ?"),
                arguments: [owner])
            return SittingTotals(sessions: row?[0] ?? 0, seconds: row?[1] ?? 0)
        }
    }

    public func practice(today: LocalDay, recent: Int, offset: Int) async throws(SittingSessionRepositoryError)
        -> Practice
    {
        try await memo.practice(PracticeMemo.Key(owner: owner, recent: recent, offset: offset), today: today) {
            () async throws(SittingSessionRepositoryError) -> Practice in
            try await readPractice(today: today, recent: recent, offset: offset)
        }
    }

    private func readPractice(today: LocalDay, recent: Int, offset: Int) async throws(SittingSessionRepositoryError)
        -> Practice
    {
        try await read { [owner] db in
            let totals = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT sessions, seconds FROM sittingTotal WHERE ownerID = ?"),
                arguments: [owner])
            // The days sat, newest first, only as far back as the window and the streak need.
            var reader = Practice.Reader(today: today)
            let days = try Row.fetchCursor(
                db.cachedStatement(
                    sql:
                        "SELECT day, sessions, seconds FROM practiceDay WHERE ownerID = ? AND day <= ? ORDER BY day DESC"
                ),
                arguments: [owner, today.number])
            while let row = try days.next(),
                reader.read(Practice.Day(LocalDay(row[0]), sessions: row[1], seconds: row[2]))
            {}
            let sessions = recent == 0 ? [] : try Self.recent(of: owner, limit: recent, offset: offset, db)
            return reader.practice(
                totals: SittingTotals(sessions: totals?[0] ?? 0, seconds: totals?[1] ?? 0), recent: sessions)
        }
    }

    public func session(id: Int) async throws(SittingSessionRepositoryError) -> SittingSession? {
        try await read { [owner] db in
            try SittingSessionRecord.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM sittingSession WHERE ownerID = ? AND id = ?"),
                arguments: [owner, id]
            )?.session
        }
    }

    public func update(_ session: SittingSession) async throws(SittingSessionRepositoryError) -> Bool {
        defer { memo.forget(owner: owner) }
        return try await write { [owner] db in
            // Deleted and inserted again under the same id: the totals' triggers count both.
            try db.cachedStatement(sql: "DELETE FROM sittingSession WHERE id = ? AND ownerID = ?").execute(arguments: [
                session.id, owner,
            ])
            guard db.changesCount > 0 else { return false }
            var record = SittingSessionRecord(session, owner: owner)
            try record.insert(db)
            return true
        }
    }

    public func importSessions(_ sessions: [SittingSession], commit: Bool, limit: Int)
        async throws(SittingSessionRepositoryError)
        -> SittingSession.ImportCount
    {
        guard !sessions.isEmpty else { return SittingSession.ImportCount(added: 0, existing: 0) }
        // What is new is found in one read of the whole file's range.
        let (new, held) = try await readAside { [owner] db in
            let held =
                try Int.fetchOne(
                    db.cachedStatement(sql: "SELECT COUNT(*) FROM sittingSession WHERE ownerID = ?"), arguments: [owner]
                )
                ?? 0
            return (SittingSession.new(sessions, kept: try Self.keys(of: owner, around: sessions, db)).new, held)
        }
        if held + new.count > limit { throw .historyFull(sessions: held) }
        guard commit else { return SittingSession.ImportCount(added: new.count, existing: sessions.count - new.count) }
        // Then written `importBatch` at a time, each batch its own transaction, so no import holds
        // the file's one write lock for long (100,000 sessions in one held it 5.2 s: every other
        // person's save waited). Each batch looks again for its own sessions, which an import
        // beside this one may have added meanwhile; an import cut short adds the rest when run again.
        var added = 0
        defer { memo.forget(owner: owner) }
        for start in stride(from: 0, to: new.count, by: Self.importBatch) {
            let batch = Array(new[start..<min(start + Self.importBatch, new.count)])
            added += try await write { [owner] db in
                let fresh = SittingSession.new(batch, kept: try Self.keys(of: owner, around: batch, db)).new
                let insert = try db.cachedStatement(
                    sql: """
                        INSERT INTO sittingSession
                            (profileID, profileName, startedAt, seconds, completed, groupName, note, ownerID)
                        VALUES (NULL, ?, ?, ?, ?, ?, ?, ?)
                        """)
                for session in fresh {
                    try insert.execute(arguments: [
                        session.profileName, session.startedAt, session.seconds, session.completed, session.groupName,
                        session.note, owner,
                    ])
                }
                return fresh.count
            }
        }
        return SittingSession.ImportCount(added: added, existing: sessions.count - added)
    }

    /// Sessions written by one write transaction of an import: about 10 ms of the write lock.
    static let importBatch = 500

    /// The import keys of `owner`'s sessions that start within a second of `sessions`' range.
    private static func keys(of owner: Int, around sessions: [SittingSession], _ db: Database) throws
        -> Set<SittingSession.ImportKey>
    {
        guard let first = sessions.map(\.startedAt).min(), let last = sessions.map(\.startedAt).max() else { return [] }
        return Set(
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT startedAt, seconds, profileName FROM sittingSession
                        WHERE ownerID = ? AND startedAt >= ? AND startedAt <= ?
                        """), arguments: [owner, first.addingTimeInterval(-1), last.addingTimeInterval(1)]
            ).map { SittingSession.ImportKey(startedAt: $0[0], seconds: $0[1], profileName: $0[2]) })
    }

    public func keepImport(_ file: Data, key: String, at date: Date, expiresAt: Date)
        async throws(SittingSessionRepositoryError)
    {
        try await write { [owner] db in
            try db.cachedStatement(sql: "DELETE FROM pendingImport WHERE ownerID = ? OR expiresAt <= ?").execute(
                arguments: [owner, StoredDate(date)])
            try db.cachedStatement(
                sql: "INSERT INTO pendingImport (key, ownerID, file, expiresAt) VALUES (?, ?, ?, ?)"
            ).execute(arguments: [key, owner, file, StoredDate(expiresAt)])
        }
    }

    public func keptImport(key: String, at date: Date) async throws(SittingSessionRepositoryError) -> Data? {
        // Up to 5 MiB: read aside, as the export's pages are.
        try await readAside { [owner] db in
            try Data.fetchOne(
                db.cachedStatement(
                    sql: "SELECT file FROM pendingImport WHERE key = ? AND ownerID = ? AND expiresAt > ?"),
                arguments: [key, owner, StoredDate(date)])
        }
    }

    public func forgetImport(key: String) async throws(SittingSessionRepositoryError) {
        try await write { [owner] db in
            try db.cachedStatement(sql: "DELETE FROM pendingImport WHERE key = ? AND ownerID = ?").execute(
                arguments: [key, owner])
        }
    }

    public func delete(id: Int) async throws(SittingSessionRepositoryError) -> Bool {
        defer { memo.forget(owner: owner) }
        return try await write { [owner] db in
            try db.cachedStatement(sql: "DELETE FROM sittingSession WHERE id = ? AND ownerID = ?").execute(arguments: [
                id, owner,
            ])
            return db.changesCount > 0
        }
    }

    public func sessions(after cursor: SittingSession.Cursor?, limit: Int) async throws(SittingSessionRepositoryError)
        -> [SittingSession]
    {
        try await readAside { [owner] db in
            var request = SittingSessionRecord.filter(Column("ownerID") == owner)
            if let cursor {
                request = request.filter(
                    Column("startedAt") > cursor.startedAt
                        || (Column("startedAt") == cursor.startedAt && Column("id") > cursor.id))
            }
            return try request.order(Column("startedAt"), Column("id")).limit(limit).fetchAll(db).map(\.session)
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
    /// The id the sitting page gave the sit (unique per person), or nil.
    var clientID: String?

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

    /// Read by column, not through `Decodable`: the history reads 50 of these a page, and
    /// decoding them by their keys was a third of its read.
    init(row: Row) throws {
        id = row["id"]
        profileID = row["profileID"]
        profileName = row["profileName"]
        startedAt = row["startedAt"]
        seconds = row["seconds"]
        completed = row["completed"]
        groupName = row["groupName"]
        note = row["note"]
        ownerID = row["ownerID"]
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
