import Foundation
import PostgresNIO
import SanghaCore

/// Sessions in PostgreSQL, the `sitting_session` table: deleting a profile clears
/// `profile_id` and keeps the session under the profile's name.
public struct PostgresSittingSessionStore: SittingSessionRepository {
    private let database: PostgresDatabase

    public init(database: PostgresDatabase) {
        self.database = database
    }

    public func record(_ session: SittingSession) async throws(SittingSessionRepositoryError) -> SittingSession {
        try await run { connection in
            let rows = try await connection.query(
                """
                INSERT INTO sitting_session (profile_id, profile_name, started_at, seconds, completed)
                VALUES (\(session.profileID), \(session.profileName), \(session.startedAt), \(session.seconds),
                        \(session.completed))
                RETURNING id
                """, logger: database.logger)
            for try await id in rows.decode(Int.self) {
                var stored = session
                stored.id = id
                return stored
            }
            throw PostgresDatabaseError.failed("INSERT returned no id")
        }
    }

    public func recent(limit: Int, offset: Int) async throws(SittingSessionRepositoryError) -> [SittingSession] {
        try await sessions(
            """
            SELECT id, profile_id, profile_name, started_at, seconds, completed FROM sitting_session
            ORDER BY started_at DESC, id DESC LIMIT \(limit) OFFSET \(offset)
            """)
    }

    public func totals() async throws(SittingSessionRepositoryError) -> SittingTotals {
        try await run { connection in
            let rows = try await connection.query(
                "SELECT count(*)::bigint, coalesce(sum(seconds), 0)::bigint FROM sitting_session",
                logger: database.logger)
            for try await (count, seconds) in rows.decode((Int, Int).self) {
                return SittingTotals(sessions: count, seconds: seconds)
            }
            return SittingTotals(sessions: 0, seconds: 0)
        }
    }

    public func sessions(startingFrom start: Date, before end: Date) async throws(SittingSessionRepositoryError)
        -> [SittingSession]
    {
        try await sessions(
            """
            SELECT id, profile_id, profile_name, started_at, seconds, completed FROM sitting_session
            WHERE started_at >= \(start) AND started_at < \(end) ORDER BY started_at, id
            """)
    }

    private func sessions(_ query: PostgresQuery) async throws(SittingSessionRepositoryError) -> [SittingSession] {
        try await run { connection in
            var sessions: [SittingSession] = []
            let rows = try await connection.query(query, logger: database.logger)
            for try await (id, profileID, name, startedAt, seconds, completed) in rows.decode(
                (Int, Int?, String, Date, Int, Bool).self)
            {
                sessions.append(
                    SittingSession(
                        id: id, profileID: profileID, profileName: name, startedAt: startedAt, seconds: seconds,
                        completed: completed))
            }
            return sessions
        }
    }

    private func run<Value: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> Value)
        async throws(SittingSessionRepositoryError) -> Value
    {
        do {
            return try await database.withConnection(body)
        } catch .unreachable(let why) {
            throw .unreachable(why)
        } catch {
            throw .storage(String(describing: error))
        }
    }
}
