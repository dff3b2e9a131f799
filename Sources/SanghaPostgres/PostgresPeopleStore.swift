import Foundation
import PostgresNIO
import SanghaCore

/// People, their sign-in sessions and failed sign-ins in PostgreSQL, so every instance agrees on
/// who is signed in and how many attempts a username has left.
///
/// A session found is kept in memory while the instance listens for changes (`InstanceMemo`,
/// `PostgresChangeFeed`): signing out, and any change of the person (deleted, renamed, a new
/// password), is announced, and every instance forgets what it kept.
public struct PostgresPeopleStore: PeopleRepository {
    private let database: PostgresDatabase
    private let sessions: InstanceMemo<String, FoundSession>?
    private let onDelete: @Sendable (Int) -> Void

    /// A session as kept in memory: its person, its last use as the database now has it, and
    /// when it began.
    struct FoundSession: Sendable {
        let person: Person
        let lastUsed: Date
        let startedAt: Date
    }

    public init(database: PostgresDatabase, onDelete: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.init(database: database, sessions: nil, onDelete: onDelete)
    }

    init(
        database: PostgresDatabase, sessions: InstanceMemo<String, FoundSession>?,
        onDelete: @escaping @Sendable (Int) -> Void
    ) {
        self.database = database
        self.sessions = sessions
        self.onDelete = onDelete
    }

    private typealias PersonRow = (Int, String, String, String, String?, Date, String)
    private static let personColumns = "id, username, name, about, friend_service_token, created_at, password_hash"

    private static func person(_ row: PersonRow) -> (person: Person, passwordHash: String) {
        (
            Person(
                id: row.0, username: row.1, name: row.2, about: row.3, friendServiceToken: row.4,
                createdAt: row.5),
            row.6
        )
    }

    public func create(_ person: Person, passwordHash: String) async throws(PeopleRepositoryError) -> Person {
        let created = try await transaction { connection -> Person? in
            let rows = try await connection.query(
                """
                INSERT INTO person (username, name, about, password_hash, friend_service_token, created_at)
                VALUES (\(person.username), \(person.name), \(person.about), \(passwordHash),
                        \(person.friendServiceToken), \(person.createdAt))
                ON CONFLICT ((lower(username))) DO NOTHING
                RETURNING id
                """, logger: database.logger)
            var created: Person?
            for try await id in rows.decode(Int.self) {
                created = person
                created?.id = id
            }
            guard let created else { return nil }
            // What was made before Sangha had people is the first person's.
            try await connection.query(
                "UPDATE profile SET owner_id = \(created.id) WHERE owner_id IS NULL", logger: database.logger)
            try await connection.query(
                "UPDATE sitting_session SET owner_id = \(created.id) WHERE owner_id IS NULL", logger: database.logger)
            return created
        }
        guard let created else { throw .usernameTaken }
        return created
    }

    public func credentials(username: String) async throws(PeopleRepositoryError) -> (
        person: Person, passwordHash: String
    )? {
        try await run { connection in
            let rows = try await connection.query(
                "SELECT \(unescaped: Self.personColumns) FROM person WHERE lower(username) = lower(\(username))",
                logger: database.logger)
            for try await row in rows.decode(PersonRow.self) { return Self.person(row) }
            return nil
        }
    }

    public func credentials(id: Int) async throws(PeopleRepositoryError) -> (person: Person, passwordHash: String)? {
        try await run { connection in
            let rows = try await connection.query(
                "SELECT \(unescaped: Self.personColumns) FROM person WHERE id = \(id)", logger: database.logger)
            for try await row in rows.decode(PersonRow.self) { return Self.person(row) }
            return nil
        }
    }

    public func update(_ person: Person) async throws(PeopleRepositoryError) {
        try await changeOne(
            """
            UPDATE person SET name = \(person.name), about = \(person.about),
            friend_service_token = \(person.friendServiceToken) WHERE id = \(person.id) RETURNING id
            """, person: person.id)
    }

    public func setPasswordHash(_ hash: String, of id: Int, keepingSession key: String?)
        async throws(PeopleRepositoryError)
    {
        defer { sessions?.forget { $1.person.id == id } }
        let changed = try await transaction { connection in
            var changed = false
            for try await _ in try await connection.query(
                "UPDATE person SET password_hash = \(hash) WHERE id = \(id) RETURNING id", logger: database.logger)
            {
                changed = true
            }
            guard changed else { return false }
            try await connection.query(
                "DELETE FROM sign_in_session WHERE person_id = \(id) AND key IS DISTINCT FROM \(key)",
                logger: database.logger)
            // Delivered when the transaction commits.
            try await connection.announce(.person(id), logger: database.logger)
            return true
        }
        if !changed { throw .notFound }
    }

    public func delete(id: Int) async throws(PeopleRepositoryError) {
        // Foreign keys cascade: profiles, sitting sessions (and their totals), sign-in sessions
        // and the saved friends list go with the person, in one statement.
        defer { sessions?.forget { $1.person.id == id } }
        try await run { connection in
            try await connection.query("DELETE FROM person WHERE id = \(id)", logger: database.logger)
            try await connection.announce(.person(id), logger: database.logger)
        }
        onDelete(id)
    }

    public func startSession(key: String, of id: Int, at date: Date) async throws(PeopleRepositoryError) {
        let expired = date.addingTimeInterval(-SignInSession.lifetime)
        try await run { connection in
            // Sessions unused for their lifetime are gone whether or not their cookie comes back.
            try await connection.query(
                "DELETE FROM sign_in_session WHERE last_used_at < \(expired)", logger: database.logger)
            try await connection.query(
                """
                INSERT INTO sign_in_session (key, person_id, last_used_at, started_at)
                VALUES (\(key), \(id), \(date), \(date))
                """,
                logger: database.logger)
        }
    }

    public func person(session key: String, at date: Date) async throws(PeopleRepositoryError) -> Person? {
        let (kept, read) = sessions?.value(key) ?? (nil, nil)
        if let kept, date.timeIntervalSince(kept.lastUsed) < SignInSession.touchInterval,
            date.timeIntervalSince(kept.startedAt) < SignInSession.longestLife
        {
            return kept.person
        }
        // One round trip: the session's person, and its last use moved to now when it was
        // `touchInterval` ago (most requests write nothing). An expired session is not found
        // and is deleted by `endSession` below.
        let found = try await run { connection -> (Person, Date, Date)? in
            let rows = try await connection.execute(SelectSession(key: key, now: date), logger: database.logger)
            for try await row in rows {
                return (
                    Person(
                        id: row.0, username: row.1, name: row.2, about: row.3, friendServiceToken: row.4,
                        createdAt: row.5), row.6, row.7
                )
            }
            return nil
        }
        guard let (person, lastUsed, startedAt) = found else { return nil }
        if SignInSession.hasEnded(startedAt: startedAt, lastUsed: lastUsed, at: date) {
            try await endSession(key: key)
            return nil
        }
        // The statement moved the last use to `date` if it was due.
        let touched = date.timeIntervalSince(lastUsed) >= SignInSession.touchInterval ? date : lastUsed
        sessions?.keep(FoundSession(person: person, lastUsed: touched, startedAt: startedAt), for: key, from: read)
        return person
    }

    /// The session lookup of every request, prepared once per connection. `last_used_at` is the
    /// value before the touch.
    struct SelectSession: PostgresPreparedStatement {
        static let sql = """
            WITH found AS (
                SELECT s.key, s.last_used_at, s.started_at, p.id, p.username, p.name, p.about, p.friend_service_token,
                    p.created_at
                FROM sign_in_session s JOIN person p ON p.id = s.person_id WHERE s.key = $1
            ), touched AS (
                UPDATE sign_in_session SET last_used_at = $2
                WHERE key = $1 AND last_used_at <= $2 - make_interval(secs => \(Int(SignInSession.touchInterval)))
                AND last_used_at > $2 - make_interval(secs => \(Int(SignInSession.lifetime)))
            )
            SELECT id, username, name, about, friend_service_token, created_at, last_used_at, started_at FROM found
            """
        typealias Row = (Int, String, String, String, String?, Date, Date, Date)
        let key: String
        let now: Date

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(key)
            bindings.append(now)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            try row.decode(Row.self)
        }
    }

    public func endSession(key: String) async throws(PeopleRepositoryError) {
        defer { sessions?.forget(key) }
        try await run { connection in
            try await connection.query("DELETE FROM sign_in_session WHERE key = \(key)", logger: database.logger)
            try await connection.announce(.session(key), logger: database.logger)
        }
    }

    public func failures(of username: String, since date: Date) async throws(PeopleRepositoryError) -> [Date] {
        try await run { connection in
            let rows = try await connection.query(
                """
                SELECT at FROM sign_in_failure WHERE lower(username) = lower(\(username)) AND at >= \(date)
                ORDER BY at
                """, logger: database.logger)
            var dates: [Date] = []
            for try await at in rows.decode(Date.self) { dates.append(at) }
            return dates
        }
    }

    public func countAttempt(of username: String, at date: Date) async throws(PeopleRepositoryError) -> [Date] {
        let since = date.addingTimeInterval(-SignInSession.failureWindow)
        // Attempts for one username, on any instance, wait for each other (a transaction lock).
        return try await transaction { connection in
            try await connection.query(
                "SELECT pg_advisory_xact_lock(hashtextextended(lower(\(username)), \(PostgresMigrations.lockKey + 1)))",
                logger: database.logger)
            var earlier: [Date] = []
            let rows = try await connection.query(
                """
                SELECT at FROM sign_in_failure WHERE lower(username) = lower(\(username)) AND at >= \(since)
                ORDER BY at
                """, logger: database.logger)
            for try await at in rows.decode(Date.self) { earlier.append(at) }
            guard earlier.count < SignInSession.failureLimit else { return earlier }
            // Failures older than the window count for nothing: they go as new ones come.
            try await connection.query("DELETE FROM sign_in_failure WHERE at < \(since)", logger: database.logger)
            try await connection.query(
                "INSERT INTO sign_in_failure (username, at) VALUES (\(username), \(date))", logger: database.logger)
            return earlier
        }
    }

    public func clearFailures(of username: String) async throws(PeopleRepositoryError) {
        try await run { connection in
            try await connection.query(
                "DELETE FROM sign_in_failure WHERE lower(username) = lower(\(username))", logger: database.logger)
        }
    }

    /// Runs a statement that changes `person` and answers the ids it changed (`.notFound` when
    /// none), and announces the change.
    private func changeOne(_ query: PostgresQuery, person: Int) async throws(PeopleRepositoryError) {
        defer { sessions?.forget { $1.person.id == person } }
        let changed = try await run { connection in
            var changed = false
            for try await _ in try await connection.query(query, logger: database.logger) { changed = true }
            if changed { try await connection.announce(.person(person), logger: database.logger) }
            return changed
        }
        if !changed { throw .notFound }
    }

    private func run<Value: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> Value)
        async throws(PeopleRepositoryError) -> Value
    {
        do {
            return try await database.withConnection(body)
        } catch {
            throw Self.repositoryError(error)
        }
    }

    private func transaction<Value: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> Value)
        async throws(PeopleRepositoryError) -> Value
    {
        do {
            return try await database.withTransaction(body)
        } catch {
            throw Self.repositoryError(error)
        }
    }

    private static func repositoryError(_ error: PostgresDatabaseError) -> PeopleRepositoryError {
        switch error {
        case .unreachable(let why): .unreachable(why)
        case .failed(let why): .storage(why)
        }
    }
}
