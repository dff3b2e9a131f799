import Foundation
import Logging
import PostgresNIO
import SanghaCore
import SanghaStoreSupport
import SanghaTokens

/// People, their sign-in sessions and failed sign-ins in PostgreSQL, so every instance agrees on
/// who is signed in and how many attempts a username has left.
///
/// A session found is kept in memory while the instance listens for changes (`Memo`,
/// `PostgresChangeFeed`): signing out, and any change of the person (deleted, renamed, a new
/// password), is announced, and every instance forgets what it kept.
public struct PostgresPeopleStore: PeopleRepository, PostgresStore {
    typealias Failure = PeopleRepositoryError
    let database: PostgresDatabase
    private let sessions: Memo<String, KeptSignInSession>?
    /// The person each calendar feed's key names, as read last (`PeopleStore.calendarKeys`):
    /// forgotten with the person's sessions, here at once and on every instance by the notice.
    private let calendarKeys: Memo<String, Person>?
    /// `/admin`'s pages as read last (`PeopleStore.overviews`): forgotten by this instance's
    /// writes to a person or a sign-in and by the notices of a person's change or a sign-out; a
    /// sign-in or a newcomer on another instance, which is not announced, after `maximumAge`.
    private let overviews: Memo<KeptOverview.Key, KeptOverview>?
    private let onDelete: @Sendable (Int) -> Void
    /// Called after a person's settings were saved (a new time zone or day start counts their
    /// days again), so this instance's memory of their practice goes (the others hear it).
    private let onUpdate: @Sendable (Int) -> Void

    public init(database: PostgresDatabase, onDelete: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.init(
            database: database, sessions: nil, calendarKeys: nil, overviews: nil, onDelete: onDelete,
            onUpdate: { _ in })
    }

    init(
        database: PostgresDatabase, sessions: Memo<String, KeptSignInSession>?, calendarKeys: Memo<String, Person>?,
        overviews: Memo<KeptOverview.Key, KeptOverview>?, onDelete: @escaping @Sendable (Int) -> Void,
        onUpdate: @escaping @Sendable (Int) -> Void
    ) {
        self.database = database
        self.sessions = sessions
        self.calendarKeys = calendarKeys
        self.overviews = overviews
        self.onDelete = onDelete
        self.onUpdate = onUpdate
    }

    private typealias PersonRow = (
        Int, String, String, String, String?, Date, Bool, Bool, Bool, Bool, String, Int, String, Int?, String?,
        String?
    )
    private static let personColumns = """
        id, username, name, about, friend_service_token, created_at, is_administrator, is_disabled,
        show_when_sitting, show_streaks, time_zone, day_start_hour, password_hash, reminder_minutes, calendar_key,
        language
        """

    private static func person(_ row: PersonRow) -> (person: Person, passwordHash: String) {
        (
            Person(
                id: row.0, username: row.1, name: row.2, about: row.3, friendServiceToken: row.4,
                createdAt: row.5, isAdministrator: row.6, isDisabled: row.7, showsWhenSitting: row.8,
                showsStreaks: row.9, timeZone: TimeZone(identifier: row.10) ?? .utc, dayStartHour: row.11,
                reminderMinutes: row.13, calendarKey: row.14, language: row.15.flatMap(Language.shipped(tag:))),
            row.12
        )
    }

    public func create(
        _ person: Person, passwordHash: String, identity: ProviderIdentity?, admission: Admission, at date: Date
    ) async throws(PeopleRepositoryError) -> Person {
        defer { overviews?.forgetAll() }
        enum Outcome: Sendable {
            case created(Person)
            case refused(PeopleRepositoryError)
        }
        // Checked before anything is written: a refusal returns (and commits nothing).
        let outcome = try await transaction { connection -> Outcome in
            // Sign-ups wait for each other, so one alone is a new deployment's first person.
            try await connection.query(
                "SELECT pg_advisory_xact_lock(\(PostgresMigrations.lockKey + 2))", logger: database.logger)
            let first = try await !connection.answersRow("SELECT 1 FROM person LIMIT 1", logger: database.logger)
            var invitation: String?
            if case .invitation(let key) = admission, !first {
                for try await found in try await connection.query(
                    """
                    SELECT key FROM one_use_link WHERE key = \(key) AND kind = \(OneUseLink.Kind.invitation.rawValue)
                    AND expires_at > \(date) FOR UPDATE
                    """, logger: database.logger
                ).decode(String.self) {
                    invitation = found
                }
                guard invitation != nil else { return .refused(.invitationNeeded) }
            }
            // A group's link is not used up: it admits others until it expires or is revoked.
            if case .groupInvitation(let key) = admission, !first {
                let valid = try await connection.answersRow(
                    "SELECT 1 FROM group_invitation WHERE key = \(key) AND expires_at > \(date)",
                    logger: database.logger)
                guard valid else { return .refused(.invitationNeeded) }
            }
            // Under the sign-ups' lock: no other sign-up can connect it meanwhile.
            if let identity,
                try await connection.answersRow(
                    """
                    SELECT 1 FROM provider_identity WHERE issuer = \(identity.issuer) AND subject = \(identity.subject)
                    """, logger: database.logger)
            {
                return .refused(.identityTaken)
            }
            let rows = try await connection.query(
                """
                INSERT INTO person (username, name, about, password_hash, friend_service_token, created_at,
                                    is_administrator, show_when_sitting, show_streaks, time_zone, day_start_hour)
                VALUES (\(person.username), \(person.name), \(person.about), \(passwordHash),
                        \(person.friendServiceToken), \(person.createdAt), \(first), \(person.showsWhenSitting),
                        \(person.showsStreaks), \(person.timeZone.identifier), \(person.dayStartHour))
                ON CONFLICT ((lower(username))) DO NOTHING
                RETURNING id
                """, logger: database.logger)
            var created: Person?
            for try await id in rows.decode(Int.self) {
                created = person
                created?.id = id
                created?.isAdministrator = first
            }
            guard let created else { return .refused(.usernameTaken) }
            if let identity {
                try await connection.query(
                    """
                    INSERT INTO provider_identity (issuer, subject, person_id)
                    VALUES (\(identity.issuer), \(identity.subject), \(created.id))
                    """, logger: database.logger)
            }
            if let invitation {
                try await connection.query(
                    "DELETE FROM one_use_link WHERE key = \(invitation)", logger: database.logger)
            }
            // What was made before Sangha had people is the first person's.
            try await connection.query(
                "UPDATE profile SET owner_id = \(created.id) WHERE owner_id IS NULL", logger: database.logger)
            try await connection.query(
                "UPDATE sitting_session SET owner_id = \(created.id) WHERE owner_id IS NULL", logger: database.logger)
            return .created(created)
        }
        switch outcome {
        case .created(let person): return person
        case .refused(let error): throw error
        }
    }

    public func credentials(identity: ProviderIdentity) async throws(PeopleRepositoryError) -> (
        person: Person, passwordHash: String
    )? {
        try await run { connection in
            let rows = try await connection.query(
                """
                SELECT \(unescaped: Self.personColumns) FROM person
                WHERE id = (SELECT person_id FROM provider_identity
                            WHERE issuer = \(identity.issuer) AND subject = \(identity.subject))
                """, logger: database.logger)
            for try await row in rows.decode(PersonRow.self) { return Self.person(row) }
            return nil
        }
    }

    public func hasAnyone() async throws(PeopleRepositoryError) -> Bool {
        try await run { connection in
            try await connection.answersRow("SELECT 1 FROM person LIMIT 1", logger: database.logger)
        }
    }

    public func overview(at date: Date, limit: Int, offset: Int) async throws(PeopleRepositoryError)
        -> PeopleOverviewPage
    {
        let read = { @Sendable () async throws(PeopleRepositoryError) -> KeptOverview in
            try await run { connection in
                let rows = try await Self.all(
                    Overview(at: date, limit: limit, offset: offset), connection, database.logger)
                return KeptOverview(
                    page: PeopleOverviewPage(people: rows.compactMap(\.person), count: rows.first?.count ?? 0),
                    earliestUse: rows.first?.earliestUse, earliestStart: rows.first?.earliestStart)
            }
        }
        guard let overviews else { return try await read().page }
        return try await overviews.value(
            KeptOverview.Key(limit: limit, offset: offset), if: { $0.until > date }, reading: read
        ).page
    }

    /// A page of everyone by name, with their last sign-in and their sessions in force, how many
    /// people there are and when the first session in force (anyone's) was last used and began
    /// (on every row; one row of nulls besides them past the last page): /admin, prepared.
    struct Overview: PreparedRead {
        static let sql = """
            SELECT n.count, n.earliest_use, n.earliest_start, p.* FROM (
                SELECT (SELECT count(*) FROM person), min(last_used_at), min(started_at) FROM sign_in_session
                WHERE last_used_at > $1 AND started_at > $2
            ) n (count, earliest_use, earliest_start)
            LEFT JOIN (
                SELECT \(PostgresPeopleStore.personColumns), last_sign_in_at, (
                    SELECT count(*) FROM sign_in_session s WHERE s.person_id = person.id
                    AND s.last_used_at > $1 AND s.started_at > $2
                ), lower(name) AS sort_name
                FROM (SELECT * FROM person ORDER BY lower(name), id LIMIT $3 OFFSET $4) person
            ) p ON true
            ORDER BY p.sort_name, p.id
            """
        static let bindingDataTypes: [PostgresDataType] = [.timestamptz, .timestamptz, .int8, .int8]
        let values: [any PostgresNonThrowingEncodable & Sendable]
        init(at date: Date, limit: Int, offset: Int) {
            values = [
                date.addingTimeInterval(-SignInSession.lifetime), date.addingTimeInterval(-SignInSession.longestLife),
                max(limit, 0), max(offset, 0),
            ]
        }
        func decodeRow(_ row: PostgresRow) throws -> (
            count: Int, earliestUse: Date?, earliestStart: Date?, person: PersonOverview?
        ) {
            var columns = Columns(row)
            let (count, earliestUse, earliestStart): (Int, Date?, Date?) = (
                try columns.next(), try columns.next(), try columns.next()
            )
            guard let id = try columns.next(Int?.self) else { return (count, earliestUse, earliestStart, nil) }
            let (person, _) = PostgresPeopleStore.person(
                (
                    id, try columns.next(), try columns.next(), try columns.next(), try columns.next(),
                    try columns.next(), try columns.next(), try columns.next(), try columns.next(), try columns.next(),
                    try columns.next(), try columns.next(), try columns.next(), try columns.next(), try columns.next(),
                    try columns.next()
                ))
            return (
                count, earliestUse, earliestStart,
                PersonOverview(person: person, lastSignIn: try columns.next(), sessions: try columns.next())
            )
        }
    }

    public func setDisabled(_ disabled: Bool, of id: Int) async throws(PeopleRepositoryError) {
        defer { forget(person: id) }
        let changed = try await transaction { connection -> Bool? in
            if disabled, try await Self.isLastAdministrator(id, alone: true, connection, database.logger) { return nil }
            let changed = try await connection.answersRow(
                "UPDATE person SET is_disabled = \(disabled) WHERE id = \(id) RETURNING id", logger: database.logger)
            guard changed else { return false }
            if disabled {
                try await connection.query(
                    "DELETE FROM sign_in_session WHERE person_id = \(id)", logger: database.logger)
            }
            try await connection.announce(.person(id), logger: database.logger)
            return true
        }
        guard let changed else { throw .lastAdministrator }
        if !changed { throw .notFound }
    }

    public func makeAdministrator(_ id: Int) async throws(PeopleRepositoryError) {
        try await changeOne("UPDATE person SET is_administrator = true WHERE id = \(id) RETURNING id", person: id)
    }

    public func add(_ link: OneUseLink) async throws(PeopleRepositoryError) {
        let now = link.expiresAt.addingTimeInterval(-OneUseLink.lifetime(of: link.kind))
        try await run { connection in
            // Links past their time go as new ones come.
            try await connection.query("DELETE FROM one_use_link WHERE expires_at <= \(now)", logger: database.logger)
            try await connection.query(
                """
                INSERT INTO one_use_link (key, kind, person_id, expires_at)
                VALUES (\(link.key), \(link.kind.rawValue), \(link.personID), \(link.expiresAt))
                """, logger: database.logger)
        }
    }

    public func link(_ kind: OneUseLink.Kind, key: String, at date: Date) async throws(PeopleRepositoryError)
        -> OneUseLink?
    {
        try await run { connection in
            let rows = try await connection.query(
                """
                SELECT person_id, expires_at FROM one_use_link
                WHERE key = \(key) AND kind = \(kind.rawValue) AND expires_at > \(date)
                """, logger: database.logger)
            for try await (id, expiresAt) in rows.decode((Int, Date).self) {
                return OneUseLink(key: key, kind: kind, personID: id, expiresAt: expiresAt)
            }
            return nil
        }
    }

    public func resetPassword(link key: String, passwordHash: String, at date: Date)
        async throws(PeopleRepositoryError) -> Person?
    {
        let person = try await transaction { connection -> Person? in
            var id: Int?
            for try await found in try await connection.query(
                """
                DELETE FROM one_use_link WHERE key = \(key) AND kind = \(OneUseLink.Kind.passwordReset.rawValue)
                AND expires_at > \(date) RETURNING person_id
                """, logger: database.logger
            ).decode(Int.self) {
                id = found
            }
            guard let id else { return nil }
            try await connection.query(
                "UPDATE person SET password_hash = \(passwordHash) WHERE id = \(id)", logger: database.logger)
            try await connection.query("DELETE FROM sign_in_session WHERE person_id = \(id)", logger: database.logger)
            try await connection.announce(.person(id), logger: database.logger)
            let rows = try await connection.query(
                "SELECT \(unescaped: Self.personColumns) FROM person WHERE id = \(id)", logger: database.logger)
            for try await row in rows.decode(PersonRow.self) { return Self.person(row).person }
            return nil
        }
        if let person { forget(person: person.id) }
        return person
    }

    public func cookieSecret() async throws(PeopleRepositoryError) -> [UInt8] {
        let fresh = SecureRandom.bytes(32)
        return try await run { connection in
            try await connection.query(
                """
                INSERT INTO secret (name, value) VALUES ('cookies', \(ByteBuffer(bytes: fresh)))
                ON CONFLICT (name) DO NOTHING
                """, logger: database.logger)
            let rows = try await connection.query(
                "SELECT value FROM secret WHERE name = 'cookies'", logger: database.logger)
            for try await value in rows.decode(ByteBuffer.self) { return Array(value.readableBytesView) }
            return fresh
        }
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
        defer { onUpdate(person.id) }
        try await changeOne(
            """
            UPDATE person SET name = \(person.name), about = \(person.about),
            friend_service_token = \(person.friendServiceToken), show_when_sitting = \(person.showsWhenSitting),
            show_streaks = \(person.showsStreaks), time_zone = \(person.timeZone.identifier),
            day_start_hour = \(person.dayStartHour), reminder_minutes = \(person.reminderMinutes),
            language = \(person.language?.tag)
            WHERE id = \(person.id) RETURNING id
            """, person: person.id)
    }

    public func connect(_ identity: ProviderIdentity, to id: Int) async throws(PeopleRepositoryError) {
        enum Outcome: Sendable {
            case connected
            case refused(PeopleRepositoryError)
        }
        // A refusal returns (the transaction commits nothing) and is thrown outside it.
        let outcome = try await transaction { connection -> Outcome in
            // With the sign-ups' lock: a new account cannot take the pair meanwhile.
            try await connection.query(
                "SELECT pg_advisory_xact_lock(\(PostgresMigrations.lockKey + 2))", logger: database.logger)
            for try await owner in try await connection.query(
                """
                SELECT person_id FROM provider_identity WHERE issuer = \(identity.issuer) AND subject = \(identity.subject)
                """, logger: database.logger
            ).decode(Int.self) where owner != id {
                return .refused(.identityTaken)
            }
            let exists = try await connection.answersRow(
                "SELECT 1 FROM person WHERE id = \(id) FOR UPDATE", logger: database.logger)
            guard exists else { return .refused(.notFound) }
            try await connection.query(
                "DELETE FROM provider_identity WHERE person_id = \(id) AND issuer = \(identity.issuer)",
                logger: database.logger)
            try await connection.query(
                """
                INSERT INTO provider_identity (issuer, subject, person_id)
                VALUES (\(identity.issuer), \(identity.subject), \(id))
                """, logger: database.logger)
            return .connected
        }
        if case .refused(let error) = outcome { throw error }
    }

    public func disconnect(issuer: String, from id: Int) async throws(PeopleRepositoryError) {
        try await run { connection in
            try await connection.query(
                "DELETE FROM provider_identity WHERE person_id = \(id) AND issuer = \(issuer)", logger: database.logger)
        }
    }

    public func connectedIssuers(of id: Int) async throws(PeopleRepositoryError) -> Set<String> {
        try await run { connection in
            var issuers: Set<String> = []
            for try await issuer in try await connection.query(
                "SELECT issuer FROM provider_identity WHERE person_id = \(id)", logger: database.logger
            ).decode(String.self) {
                issuers.insert(issuer)
            }
            return issuers
        }
    }

    public func setCalendarKey(_ key: String?, of id: Int) async throws(PeopleRepositoryError) {
        try await changeOne("UPDATE person SET calendar_key = \(key) WHERE id = \(id) RETURNING id", person: id)
    }

    public func person(calendarKey key: String) async throws(PeopleRepositoryError) -> Person? {
        let (kept, began) = calendarKeys?.value(key) ?? (nil, nil)
        if let kept { return kept }
        let person = try await run { connection in
            try await Self.all(ByCalendarKey(key: key), connection, database.logger).first
        }
        if let person { calendarKeys?.keep(person, for: key, from: began) }
        return person
    }

    /// What this instance keeps of the person `id` (their sign-in sessions, their calendar feed's
    /// key) goes, after a write that changed them; the others forget it when they hear.
    private func forget(person id: Int) {
        sessions?.forget { $1.person.id == id }
        calendarKeys?.forget { $1.id == id }
        overviews?.forgetAll()
    }

    /// The person a calendar feed's key names, unless disabled: the feed, prepared.
    struct ByCalendarKey: PreparedRead {
        static let sql = """
            SELECT \(PostgresPeopleStore.personColumns) FROM person WHERE calendar_key = $1 AND NOT is_disabled
            """
        static let bindingDataTypes: [PostgresDataType] = [.text]
        let values: [any PostgresNonThrowingEncodable & Sendable]
        init(key: String) { values = [key] }
        func decodeRow(_ row: PostgresRow) throws -> Person {
            PostgresPeopleStore.person(try row.decode(PersonRow.self)).person
        }
    }

    public func setPasswordHash(_ hash: String, of id: Int, keepingSession key: String?)
        async throws(PeopleRepositoryError)
    {
        defer { forget(person: id) }
        let changed = try await transaction { connection in
            let changed = try await connection.answersRow(
                "UPDATE person SET password_hash = \(hash) WHERE id = \(id) RETURNING id", logger: database.logger)
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
        defer { forget(person: id) }
        let deleted = try await transaction { connection in
            if try await Self.isLastAdministrator(id, alone: false, connection, database.logger) { return false }
            try await connection.query("DELETE FROM person WHERE id = \(id)", logger: database.logger)
            try await connection.announce(.person(id), logger: database.logger)
            return true
        }
        guard deleted else { throw .lastAdministrator }
        onDelete(id)
    }

    /// Whether `id` is the last administrator who can sign in (and, unless `alone`, anyone else
    /// has an account), under a lock every such change takes: two administrators disabling each
    /// other at once are one after the other, and the second finds the first's change.
    static func isLastAdministrator(_ id: Int, alone: Bool, _ connection: PostgresConnection, _ logger: Logger)
        async throws -> Bool
    {
        try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresMigrations.lockKey + 3))", logger: logger)
        let rows = try await connection.query(
            """
            SELECT EXISTS (SELECT 1 FROM person WHERE id = \(id) AND is_administrator AND NOT is_disabled)
                AND NOT EXISTS (SELECT 1 FROM person WHERE id <> \(id) AND is_administrator AND NOT is_disabled)
                AND (\(alone) OR EXISTS (SELECT 1 FROM person WHERE id <> \(id)))
            """, logger: logger)
        for try await last in rows.decode(Bool.self) { return last }
        return false
    }

    public func startSession(key: String, of id: Int, at date: Date, by method: SignInMethod)
        async throws(PeopleRepositoryError)
    {
        let expired = date.addingTimeInterval(-SignInSession.lifetime)
        let byPassword = method == .password
        defer { overviews?.forgetAll() }
        try await run { connection in
            // Sessions unused for their lifetime are gone whether or not their cookie comes back.
            try await connection.query(
                "DELETE FROM sign_in_session WHERE last_used_at < \(expired)", logger: database.logger)
            try await connection.query(
                """
                INSERT INTO sign_in_session (key, person_id, last_used_at, started_at, by_password)
                VALUES (\(key), \(id), \(date), \(date), \(byPassword))
                """,
                logger: database.logger)
            try await connection.query(
                "UPDATE person SET last_sign_in_at = \(date) WHERE id = \(id)", logger: database.logger)
        }
    }

    public func person(session key: String, at date: Date) async throws(PeopleRepositoryError) -> Person? {
        let (kept, read) = sessions?.value(key, if: { $0.person(at: date) != nil }) ?? (nil, nil)
        if let kept { return kept.person }
        // One round trip: the session's person, and its last use moved to now when it was
        // `touchInterval` ago (most requests write nothing). An expired session is not found
        // and is deleted by `endSession` below.
        let found = try await run { connection -> (Person, Date, Date)? in
            let rows = try await connection.execute(SelectSession(key: key, now: date), logger: database.logger)
            for try await row in rows {
                return (
                    Person(
                        id: row.0, username: row.1, name: row.2, about: row.3, friendServiceToken: row.4,
                        createdAt: row.5, isAdministrator: row.8, isDisabled: row.9, showsWhenSitting: row.10,
                        showsStreaks: row.11, timeZone: TimeZone(identifier: row.12) ?? .utc,
                        dayStartHour: row.13, reminderMinutes: row.14, calendarKey: row.15,
                        language: row.16.flatMap(Language.shipped(tag:))),
                    row.6, row.7
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
        sessions?.keep(KeptSignInSession(person: person, lastUsed: touched, startedAt: startedAt), for: key, from: read)
        return person
    }

    /// The session lookup of every request, prepared once per connection. `last_used_at` is the
    /// value before the touch.
    struct SelectSession: PreparedRead {
        static let sql = """
            WITH found AS (
                SELECT s.key, s.last_used_at, s.started_at, p.id, p.username, p.name, p.about, p.friend_service_token,
                    p.created_at, p.is_administrator, p.is_disabled, p.show_when_sitting, p.show_streaks,
                    p.time_zone, p.day_start_hour, p.reminder_minutes, p.calendar_key, p.language
                FROM sign_in_session s JOIN person p ON p.id = s.person_id WHERE s.key = $1
            ), touched AS (
                UPDATE sign_in_session SET last_used_at = $2
                WHERE key = $1 AND last_used_at <= $2 - make_interval(secs => \(Int(SignInSession.touchInterval)))
                AND last_used_at > $2 - make_interval(secs => \(Int(SignInSession.lifetime)))
            )
            SELECT id, username, name, about, friend_service_token, created_at, last_used_at, started_at,
                is_administrator, is_disabled, show_when_sitting, show_streaks, time_zone, day_start_hour,
                reminder_minutes, calendar_key, language
            FROM found
            """
        typealias Row = (
            Int, String, String, String, String?, Date, Date, Date, Bool, Bool, Bool, Bool, String, Int, Int?, String?,
            String?
        )
        static let bindingDataTypes: [PostgresDataType] = [.text, .timestamptz]
        let values: [any PostgresNonThrowingEncodable & Sendable]
        init(key: String, now: Date) { values = [key, now] }
        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    public func endSession(key: String) async throws(PeopleRepositoryError) {
        defer {
            sessions?.forget(key)
            overviews?.forgetAll()
        }
        try await run { connection in
            try await connection.query("DELETE FROM sign_in_session WHERE key = \(key)", logger: database.logger)
            try await connection.announce(.session(key), logger: database.logger)
        }
    }

    public func endPasswordSessions() async throws(PeopleRepositoryError) -> Int {
        defer {
            sessions?.forgetAll()
            calendarKeys?.forgetAll()
            overviews?.forgetAll()
        }
        return try await transaction { connection in
            var ended = 0
            var people: Set<Int> = []
            let rows = try await connection.query(
                "DELETE FROM sign_in_session WHERE by_password RETURNING person_id", logger: database.logger)
            for try await person in rows.decode(Int.self) {
                ended += 1
                people.insert(person)
            }
            // Every instance reads these people's sessions again (delivered when this commits).
            for person in people { try await connection.announce(.person(person), logger: database.logger) }
            return ended
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

    public func countAttempt(of username: String, limit: Int, at date: Date) async throws(PeopleRepositoryError)
        -> [Date]
    {
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
            guard earlier.count < limit else { return earlier }
            // Failures older than the window count for nothing: they go as new ones come.
            try await connection.query("DELETE FROM sign_in_failure WHERE at < \(since)", logger: database.logger)
            try await connection.query(
                "INSERT INTO sign_in_failure (username, at) VALUES (\(username), \(date))", logger: database.logger)
            return earlier
        }
    }

    public func forgetAttempt(of key: String, at date: Date) async throws(PeopleRepositoryError) {
        try await run { connection in
            try await connection.query(
                """
                DELETE FROM sign_in_failure WHERE ctid = (
                    SELECT ctid FROM sign_in_failure WHERE lower(username) = lower(\(key)) AND at = \(date) LIMIT 1
                )
                """, logger: database.logger)
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
        defer { forget(person: person) }
        let changed = try await run { connection in
            let changed = try await connection.answersRow(query, logger: database.logger)
            if changed { try await connection.announce(.person(person), logger: database.logger) }
            return changed
        }
        if !changed { throw .notFound }
    }
}
