import Foundation
import PostgresNIO
import SanghaCore
import SanghaStoreSupport

/// Sessions in PostgreSQL, the `sitting_session` table: deleting a profile clears
/// `profile_id` and keeps the session under the profile's name.
///
/// The practice read (home, /history, /me) is kept in memory per person and page while the
/// instance listens for changes (`PracticeMemo`, `PostgresChangeFeed`): every write of a
/// person's sessions, on any instance, announces `practice OWNER`, and every instance forgets
/// what it kept of their practice.
public struct PostgresSittingSessionStore: SittingSessionRepository, PostgresStore {
    typealias Failure = SittingSessionRepositoryError
    let database: PostgresDatabase
    private let owner: Int
    private let memo: PracticeMemo?

    /// The sessions of `owner`; every statement names them.
    public init(database: PostgresDatabase, owner: Int) {
        self.init(database: database, owner: owner, memo: nil)
    }

    init(database: PostgresDatabase, owner: Int, memo: PracticeMemo?) {
        self.database = database
        self.owner = owner
        self.memo = memo
    }

    public func record(_ session: SittingSession, clientID: String?) async throws(SittingSessionRepositoryError)
        -> SittingSession
    {
        defer { memo?.forget(owner: owner) }
        let notice = PostgresChangeFeed.Change.practice(owner: owner).payload
        return try await run { connection in
            // A sit posted again (by this instance or another, at once) inserts nothing: the
            // one kept is the answer. The notice is in the statement that inserts: sent exactly
            // when the row commits.
            let rows = try await connection.query(
                """
                WITH made AS (
                    INSERT INTO sitting_session
                        (profile_id, profile_name, started_at, seconds, completed, group_name, note, owner_id,
                        client_id)
                    VALUES (\(session.profileID), \(session.profileName), \(session.startedAt), \(session.seconds),
                            \(session.completed), \(session.groupName), \(session.note), \(owner), \(clientID))
                    ON CONFLICT (owner_id, client_id) WHERE client_id IS NOT NULL DO NOTHING
                    RETURNING id
                )
                SELECT id, pg_notify(\(PostgresChangeFeed.channel), \(notice))::text FROM made
                """, logger: database.logger)
            for try await (id, _) in rows.decode((Int, String).self) {
                var stored = session
                stored.id = id
                return stored
            }
            guard let clientID else { throw PostgresDatabaseError.failed("INSERT returned no id") }
            let kept = try await connection.query(
                """
                SELECT \(unescaped: Self.columns) FROM sitting_session
                WHERE owner_id = \(owner) AND client_id = \(clientID)
                """, logger: database.logger)
            guard let session = try await Self.sessions(kept).first else {
                throw PostgresDatabaseError.failed("A sit's client id conflicted, and no sit has it")
            }
            return session
        }
    }

    public func recent(limit: Int, offset: Int) async throws(SittingSessionRepositoryError) -> [SittingSession] {
        try await run { [owner, database] connection in
            try await Self.all(Recent(owner: owner, limit: limit, offset: offset), connection, database.logger)
        }
    }

    public func totals() async throws(SittingSessionRepositoryError) -> SittingTotals {
        try await run { [owner, database] connection in
            try await Self.all(Totals(owner: owner), connection, database.logger).first ?? .zero
        }
    }

    public func practice(today: LocalDay, recent: Int, offset: Int) async throws(SittingSessionRepositoryError)
        -> Practice
    {
        guard let memo else { return try await readPractice(today: today, recent: recent, offset: offset) }
        return try await memo.practice(PracticeMemo.Key(owner: owner, recent: recent, offset: offset), today: today) {
            () async throws(SittingSessionRepositoryError) -> Practice in
            try await readPractice(today: today, recent: recent, offset: offset)
        }
    }

    private func readPractice(today: LocalDay, recent: Int, offset: Int) async throws(SittingSessionRepositoryError)
        -> Practice
    {
        try await run { [owner, database] connection in
            let read = PracticeRead(owner: owner, through: today, recent: recent, offset: offset)
            let (totals, days, sessions) =
                try await Self.all(read, connection, database.logger).first ?? (.zero, [], [])
            // The days sat, newest first: the reader keeps what the window and the streak need.
            var reader = Practice.Reader(today: today)
            for day in days where !reader.read(day) { break }
            return reader.practice(totals: totals, recent: sessions)
        }
    }

    /// The person's totals, kept by a trigger; no row before their first session.
    struct Totals: PreparedRead {
        static let sql = "SELECT sessions, seconds FROM sitting_total WHERE owner_id = $1"
        static let bindingDataTypes: [PostgresDataType] = [.int8]
        let values: [any PostgresNonThrowingEncodable & Sendable]
        init(owner: Int) { values = [owner] }
        func decodeRow(_ row: PostgresRow) throws -> SittingTotals {
            let (count, seconds) = try row.decode((Int, Int).self)
            return SittingTotals(sessions: count, seconds: seconds)
        }
    }

    /// The practice in one statement: the person's totals (kept by a trigger; none before their
    /// first session), the days sat up to `through` (newest first) and a page of the sessions
    /// (newest first), the lists as arrays. A column that may be NULL comes as a flag and a value,
    /// as these arrays hold no NULL.
    struct PracticeRead: PreparedRead {
        static let sql = """
            SELECT coalesce(t.sessions, 0), coalesce(t.seconds, 0), d.*, r.*
            FROM (
                SELECT \(arrays(["day::bigint", "sessions::bigint", "seconds"], "day DESC"))
                FROM practice_day WHERE owner_id = $1 AND day <= $2
            ) d
            CROSS JOIN (
                SELECT \(arrays(
                    ["r.id", "r.profile_id IS NOT NULL", "coalesce(r.profile_id, 0)", "r.profile_name", "r.started_at",
                    "r.seconds::bigint", "r.completed", "r.group_name IS NOT NULL", "coalesce(r.group_name, '')",
                    "r.note IS NOT NULL", "coalesce(r.note, '')"], "r.started_at DESC, r.id DESC"))
                FROM (
                    SELECT * FROM sitting_session WHERE owner_id = $1
                    ORDER BY started_at DESC, id DESC LIMIT $3 OFFSET $4
                ) r
            ) r
            LEFT JOIN sitting_total t ON t.owner_id = $1
            """
        static let bindingDataTypes: [PostgresDataType] = [.int8, .int8, .int8, .int8]
        let values: [any PostgresNonThrowingEncodable & Sendable]
        init(owner: Int, through day: LocalDay, recent: Int, offset: Int) {
            values = [owner, day.number, max(recent, 0), max(offset, 0)]
        }
        func decodeRow(_ row: PostgresRow) throws -> (SittingTotals, [Practice.Day], [SittingSession]) {
            var columns = Columns(row)
            let totals = SittingTotals(sessions: try columns.next(), seconds: try columns.next())
            let (days, sessions, seconds) = (
                try columns.array(Int.self), try columns.array(Int.self), try columns.array(Int.self)
            )
            let sat = try Columns.rows(days, sessions, seconds).map {
                Practice.Day(LocalDay(days[$0]), sessions: sessions[$0], seconds: seconds[$0])
            }
            let (ids, hasProfile, profiles, names, starts, lengths, completed, hasGroup, groups, hasNote, notes) = (
                try columns.array(Int.self), try columns.array(Bool.self), try columns.array(Int.self),
                try columns.array(String.self), try columns.array(Date.self), try columns.array(Int.self),
                try columns.array(Bool.self), try columns.array(Bool.self), try columns.array(String.self),
                try columns.array(Bool.self), try columns.array(String.self)
            )
            let recent = try Columns.rows(
                ids, hasProfile, profiles, names, starts, lengths, completed, hasGroup, groups, hasNote, notes
            ).map {
                SittingSession(
                    id: ids[$0], profileID: hasProfile[$0] ? profiles[$0] : nil, profileName: names[$0],
                    startedAt: starts[$0], seconds: lengths[$0], completed: completed[$0],
                    groupName: hasGroup[$0] ? groups[$0] : nil, note: hasNote[$0] ? notes[$0] : nil)
            }
            return (totals, sat, recent)
        }
    }

    /// A page of the sessions, newest first.
    struct Recent: PreparedRead {
        static let sql = """
            SELECT \(PostgresSittingSessionStore.columns) FROM sitting_session WHERE owner_id = $1
            ORDER BY started_at DESC, id DESC LIMIT $2 OFFSET $3
            """
        static let bindingDataTypes: [PostgresDataType] = [.int8, .int8, .int8]
        let values: [any PostgresNonThrowingEncodable & Sendable]
        init(owner: Int, limit: Int, offset: Int) { values = [owner, limit, offset] }
        func decodeRow(_ row: PostgresRow) throws -> SittingSession { try PostgresSittingSessionStore.session(row) }
    }

    public func session(id: Int) async throws(SittingSessionRepositoryError) -> SittingSession? {
        try await sessions(
            """
            SELECT \(unescaped: Self.columns) FROM sitting_session
            WHERE owner_id = \(owner) AND id = \(id)
            """
        ).first
    }

    public func update(_ session: SittingSession) async throws(SittingSessionRepositoryError) -> Bool {
        // Deleted and inserted again under the same id, in one transaction: the totals' trigger
        // counts both.
        defer { memo?.forget(owner: owner) }
        return try await transaction { connection in
            let found = try await connection.answersRow(
                "DELETE FROM sitting_session WHERE id = \(session.id) AND owner_id = \(owner) RETURNING id",
                logger: database.logger)
            guard found else { return false }
            try await connection.query(
                """
                INSERT INTO sitting_session
                    (id, profile_id, profile_name, started_at, seconds, completed, group_name, note, owner_id)
                VALUES (\(session.id), \(session.profileID), \(session.profileName), \(session.startedAt),
                        \(session.seconds), \(session.completed), \(session.groupName), \(session.note), \(owner))
                """, logger: database.logger)
            try await connection.announce(.practice(owner: owner), logger: database.logger)
            return true
        }
    }

    public func importSessions(_ sessions: [SittingSession], commit: Bool, limit: Int)
        async throws(SittingSessionRepositoryError)
        -> SittingSession.ImportCount
    {
        guard let first = sessions.map(\.startedAt).min(), let last = sessions.map(\.startedAt).max() else {
            return SittingSession.ImportCount(added: 0, existing: 0)
        }
        let (from, to) = (first.addingTimeInterval(-1), last.addingTimeInterval(1))
        defer { if commit { memo?.forget(owner: owner) } }
        let outcome = try await transaction(timeout: Self.importTimeout) {
            connection -> (count: SittingSession.ImportCount?, held: Int) in
            // One import of a person's at a time (two presses of Import): the second sees the
            // first's sessions.
            try await connection.query(
                "SELECT pg_advisory_xact_lock(\(Self.importLockKey), \(Int32(truncatingIfNeeded: owner)))",
                logger: database.logger)
            var keys = Set<SittingSession.ImportKey>()
            let rows = try await connection.query(
                """
                SELECT started_at, seconds, profile_name FROM sitting_session
                WHERE owner_id = \(owner) AND started_at >= \(from) AND started_at <= \(to)
                """, logger: database.logger)
            for try await (startedAt, seconds, name) in rows.decode((Date, Int, String).self) {
                keys.insert(SittingSession.ImportKey(startedAt: startedAt, seconds: seconds, profileName: name))
            }
            let (new, existing) = SittingSession.new(sessions, kept: keys)
            let held = try await connection.query(
                "SELECT count(*) FROM sitting_session WHERE owner_id = \(owner)", logger: database.logger
            ).decode(Int.self).reduce(0, +)
            // (Said outside: an error thrown in here would count as the database failing.)
            if held + new.count > limit { return (nil, held) }
            guard commit else { return (SittingSession.ImportCount(added: new.count, existing: existing), held) }
            // A statement per `importBatch` sessions, their columns as arrays: one round trip
            // each, where a statement per session took 2 s for 1,200 and timed the import out.
            for start in stride(from: 0, to: new.count, by: Self.importBatch) {
                let batch = new[start..<min(start + Self.importBatch, new.count)]
                try await connection.query(
                    """
                    INSERT INTO sitting_session
                        (profile_id, profile_name, started_at, seconds, completed, group_name, note, owner_id)
                    SELECT NULL, name, started_at, seconds, completed,
                           CASE WHEN has_group THEN group_name END, CASE WHEN has_note THEN note END, \(owner)
                    FROM unnest(
                        \(batch.map(\.profileName))::text[], \(batch.map(\.startedAt))::timestamptz[],
                        \(batch.map(\.seconds))::bigint[], \(batch.map(\.completed))::bool[],
                        \(batch.map { $0.groupName != nil })::bool[], \(batch.map { $0.groupName ?? "" })::text[],
                        \(batch.map { $0.note != nil })::bool[], \(batch.map { $0.note ?? "" })::text[]
                    ) AS u(name, started_at, seconds, completed, has_group, group_name, has_note, note)
                    """, logger: database.logger)
            }
            if !new.isEmpty { try await connection.announce(.practice(owner: owner), logger: database.logger) }
            return (SittingSession.ImportCount(added: new.count, existing: existing), held)
        }
        guard let count = outcome.count else { throw .historyFull(sessions: outcome.held) }
        return count
    }

    /// Sessions inserted by one statement of an import.
    static let importBatch = 2_000
    /// An import's transaction may take longer than a page's: a file holds up to 50,000 sessions.
    static let importTimeout: Duration = .seconds(30)

    /// The first key of the per-person lock imports take (the second is the person's id).
    static let importLockKey: Int32 = 7_117_002

    public func keepImport(_ file: Data, key: String, at date: Date, expiresAt: Date)
        async throws(SittingSessionRepositoryError)
    {
        try await run { connection in
            // The person's earlier file is replaced (one a person); anyone's expired ones go.
            _ = try await connection.query(
                """
                WITH expired AS (DELETE FROM pending_import WHERE expires_at <= \(date) AND owner_id <> \(owner))
                INSERT INTO pending_import (key, owner_id, file, expires_at)
                VALUES (\(key), \(owner), \(file), \(expiresAt))
                ON CONFLICT (owner_id) DO UPDATE
                SET key = excluded.key, file = excluded.file, expires_at = excluded.expires_at
                """, logger: database.logger)
        }
    }

    public func keptImport(key: String, at date: Date) async throws(SittingSessionRepositoryError) -> Data? {
        try await run { connection in
            let rows = try await connection.query(
                """
                SELECT file FROM pending_import
                WHERE key = \(key) AND owner_id = \(owner) AND expires_at > \(date)
                """, logger: database.logger)
            for try await file in rows.decode(Data.self) { return file }
            return nil
        }
    }

    public func forgetImport(key: String) async throws(SittingSessionRepositoryError) {
        try await run { connection in
            _ = try await connection.query(
                "DELETE FROM pending_import WHERE key = \(key) AND owner_id = \(owner)", logger: database.logger)
        }
    }

    public func delete(id: Int) async throws(SittingSessionRepositoryError) -> Bool {
        defer { memo?.forget(owner: owner) }
        let notice = PostgresChangeFeed.Change.practice(owner: owner).payload
        return try await run { connection in
            // The notice in the statement that deletes: sent exactly when the delete commits.
            try await connection.answersRow(
                """
                WITH gone AS (DELETE FROM sitting_session WHERE id = \(id) AND owner_id = \(owner) RETURNING id)
                SELECT id, pg_notify(\(PostgresChangeFeed.channel), \(notice)) FROM gone
                """, logger: database.logger)
        }
    }

    public func sessions(after cursor: SittingSession.Cursor?, limit: Int) async throws(SittingSessionRepositoryError)
        -> [SittingSession]
    {
        let (start, id) = (cursor?.startedAt ?? .distantPast, cursor?.id ?? Int.min)
        return try await sessions(
            """
            SELECT \(unescaped: Self.columns) FROM sitting_session
            WHERE owner_id = \(owner) AND (started_at, id) > (\(start), \(id))
            ORDER BY started_at, id LIMIT \(limit)
            """)
    }

    private func sessions(_ query: PostgresQuery) async throws(SittingSessionRepositoryError) -> [SittingSession] {
        try await run { connection in try await Self.sessions(connection.query(query, logger: database.logger)) }
    }

    /// A session's columns, in the order `sessions(_:)` reads them.
    static let columns = "id, profile_id, profile_name, started_at, seconds, completed, group_name, note"

    private static func sessions(_ rows: PostgresRowSequence) async throws -> [SittingSession] {
        var sessions: [SittingSession] = []
        for try await row in rows { sessions.append(try session(row)) }
        return sessions
    }

    /// A session from a row of `columns`.
    static func session(_ row: PostgresRow) throws -> SittingSession {
        let (id, profileID, name, startedAt, seconds, completed, group, note) = try row.decode(
            (Int, Int?, String, Date, Int, Bool, String?, String?).self)
        return SittingSession(
            id: id, profileID: profileID, profileName: name, startedAt: startedAt, seconds: seconds,
            completed: completed, groupName: group, note: note)
    }
}
