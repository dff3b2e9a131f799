import Foundation
import GRDB
import SanghaCore
import SanghaStoreSupport
import SanghaTokens

/// People, their sign-in sessions and failed sign-ins in `sangha.sqlite`.
///
/// Every page looks its session up; so a session found is kept in memory (a `Memo` shared by the
/// stores of one file) until it is due to be touched again (`SignInSession.touchInterval`), and
/// every change to a session or a person goes to SQLite first and then forgets what it changed.
/// Another process writing the file (`sangha people disable`) makes the memory forget
/// everything (`OtherProcessWrites`): the memory never holds what the file does not.
public struct PeopleStore: PeopleRepository, SQLiteStore {
    typealias Failure = PeopleRepositoryError
    let database: any DatabaseWriter
    private let sessions: Memo<String, KeptSignInSession>
    /// The person each calendar feed's key names, as read last: a calendar app polls its feed
    /// (whose text `CalendarFeedMemo` keeps), and this read was then the feed's only read of
    /// SQLite, which costs a loaded server far more than its instructions (see /admin in
    /// docs/performance.md). Forgotten with the person's sessions, whatever changes them.
    private let calendarKeys: Memo<String, Person>
    /// `/admin`'s pages as read last (`KeptOverview`): its read of ten people and their sign-ins
    /// was the page's every request. Forgotten by every write that changes a person or who is
    /// signed in (not by a session's touch, which only lengthens it).
    private let overviews: Memo<KeptOverview.Key, KeptOverview>
    /// Called after a person was deleted, so memory of their data goes too.
    private let onDelete: @Sendable (Int) -> Void
    /// Called after a person's settings were saved (a new time zone or day start counts their
    /// days again), so memory of their practice goes.
    private let onUpdate: @Sendable (Int) -> Void

    public init(
        database: any DatabaseWriter, sessions: Memo<String, KeptSignInSession> = Memo(watch: UnwatchedData()),
        calendarKeys: Memo<String, Person> = Memo(watch: UnwatchedData()),
        overviews: Memo<KeptOverview.Key, KeptOverview> = Memo(watch: UnwatchedData()),
        onDelete: @escaping @Sendable (Int) -> Void = { _ in }, onUpdate: @escaping @Sendable (Int) -> Void = { _ in }
    ) {
        self.database = database
        self.sessions = sessions
        self.calendarKeys = calendarKeys
        self.overviews = overviews
        self.onDelete = onDelete
        self.onUpdate = onUpdate
    }

    public func create(
        _ person: Person, passwordHash: String, identity: ProviderIdentity?, admission: Admission, at date: Date
    ) async throws(PeopleRepositoryError) -> Person {
        defer { overviews.forgetAll() }
        return try await write { db in
            let first = try Bool.fetchOne(db.cachedStatement(sql: "SELECT NOT EXISTS (SELECT 1 FROM person)")) ?? true
            if case .invitation(let key) = admission, !first {
                try db.cachedStatement(sql: "DELETE FROM oneUseLink WHERE key = ? AND kind = ? AND expiresAt > ?")
                    .execute(arguments: [key, OneUseLink.Kind.invitation.rawValue, date])
                if db.changesCount == 0 { throw PeopleRepositoryError.invitationNeeded }
            }
            if case .groupInvitation(let key) = admission, !first {
                // A group's link admits many people within its days: it is not used up.
                let valid = try Bool.fetchOne(
                    db.cachedStatement(
                        sql: "SELECT EXISTS (SELECT 1 FROM groupInvitation WHERE key = ? AND expiresAt > ?)"),
                    arguments: [key, date])
                if valid != true { throw PeopleRepositoryError.invitationNeeded }
            }
            var record = PersonRecord(person, passwordHash: passwordHash)
            record.id = nil
            record.isAdministrator = first
            do {
                try record.insert(db)
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                throw PeopleRepositoryError.usernameTaken
            }
            let id = record.id ?? 0
            if let identity {
                do {
                    try db.cachedStatement(
                        sql: "INSERT INTO providerIdentity (issuer, subject, personID) VALUES (?, ?, ?)"
                    ).execute(arguments: [identity.issuer, identity.subject, id])
                } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
                    throw PeopleRepositoryError.identityTaken
                }
            }
            // What was made before Sangha had people is the first person's.
            try db.cachedStatement(sql: "UPDATE profile SET ownerID = ? WHERE ownerID IS NULL").execute(arguments: [id])
            try db.cachedStatement(sql: "UPDATE sittingSession SET ownerID = ? WHERE ownerID IS NULL").execute(
                arguments: [id])
            return record.person
        }
    }

    public func hasAnyone() async throws(PeopleRepositoryError) -> Bool {
        try await read { db in
            try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM person)")) ?? false
        }
    }

    public func overview(at date: Date, limit: Int, offset: Int) async throws(PeopleRepositoryError)
        -> PeopleOverviewPage
    {
        let read = { @Sendable () async throws(PeopleRepositoryError) -> KeptOverview in
            try await readOverview(at: date, limit: limit, offset: offset)
        }
        return try await overviews.value(
            KeptOverview.Key(limit: limit, offset: offset), if: { $0.until > date }, reading: read
        ).page
    }

    private func readOverview(at date: Date, limit: Int, offset: Int) async throws(PeopleRepositoryError)
        -> KeptOverview
    {
        let unusedSince = date.addingTimeInterval(-SignInSession.lifetime)
        let startedSince = date.addingTimeInterval(-SignInSession.longestLife)
        return try await read { db in
            let count = try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM person")) ?? 0
            // When the first sign-in in force ends, whoever's it is: the page is kept until then.
            let earliest = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT min(lastUsedAt), min(COALESCE(startedAt, lastUsedAt)) FROM signInSession
                        WHERE lastUsedAt > ? AND COALESCE(startedAt, lastUsedAt) > ?
                        """), arguments: [StoredDate(unusedSince), StoredDate(startedSince)])
            // The page's people along `person_on_name`, with no sort: SQLite skips the offset's
            // rows before it counts a row's open sessions, so only the page's are counted. Each row
            // is read by position as the cursor reaches it: by name (`Codable`, a kept row), each
            // column was a lookup that lowercased every column's name, half of /admin's work.
            let rows = try Row.fetchCursor(
                db.cachedStatement(
                    sql: """
                        SELECT id, username, name, about, friendServiceToken, createdAt, isAdministrator,
                            isDisabled, showWhenSitting, showStreaks, timeZone, dayStartHour, reminderMinutes,
                            calendarKey, language, lastSignInAt, (
                            SELECT count(*) FROM signInSession s WHERE s.personID = person.id
                            AND s.lastUsedAt > ? AND COALESCE(s.startedAt, s.lastUsedAt) > ?
                        )
                        FROM person ORDER BY name COLLATE NOCASE, id LIMIT ? OFFSET ?
                        """),
                arguments: [StoredDate(unusedSince), StoredDate(startedSince), max(limit, 0), max(offset, 0)])
            var people: [PersonOverview] = []
            while let row = try rows.next() {
                let language: String? = row[14]
                let person = Person(
                    id: row[0], username: row[1], name: row[2], about: row[3], friendServiceToken: row[4],
                    createdAt: row[date: 5], isAdministrator: row[6], isDisabled: row[7], showsWhenSitting: row[8],
                    showsStreaks: row[9], timeZone: TimeZone(identifier: row[10]) ?? .utc, dayStartHour: row[11],
                    reminderMinutes: row[12], calendarKey: row[13], language: language.flatMap(Language.shipped(tag:)))
                people.append(PersonOverview(person: person, lastSignIn: row[dateIfAny: 15], sessions: row[16]))
            }
            return KeptOverview(
                page: PeopleOverviewPage(people: people, count: count), earliestUse: earliest?[dateIfAny: 0],
                earliestStart: earliest?[dateIfAny: 1])
        }
    }

    public func setDisabled(_ disabled: Bool, of id: Int) async throws(PeopleRepositoryError) {
        try await write { db in
            if disabled, try Self.isLastAdministrator(id, alone: true, db) {
                throw PeopleRepositoryError.lastAdministrator
            }
            try db.cachedStatement(sql: "UPDATE person SET isDisabled = ? WHERE id = ?").execute(arguments: [
                disabled, id,
            ])
            if db.changesCount == 0 { throw PeopleRepositoryError.notFound }
            if disabled {
                try db.cachedStatement(sql: "DELETE FROM signInSession WHERE personID = ?").execute(arguments: [id])
            }
        }
        forget(person: id)
    }

    public func makeAdministrator(_ id: Int) async throws(PeopleRepositoryError) {
        try await write { db in
            try db.cachedStatement(sql: "UPDATE person SET isAdministrator = 1 WHERE id = ?").execute(arguments: [id])
            if db.changesCount == 0 { throw PeopleRepositoryError.notFound }
        }
        forget(person: id)
    }

    public func add(_ link: OneUseLink) async throws(PeopleRepositoryError) {
        try await write { db in
            // Links past their time go as new ones come.
            let now = link.expiresAt.addingTimeInterval(-OneUseLink.lifetime(of: link.kind))
            try db.cachedStatement(sql: "DELETE FROM oneUseLink WHERE expiresAt <= ?").execute(arguments: [now])
            try db.cachedStatement(sql: "INSERT INTO oneUseLink (key, kind, personID, expiresAt) VALUES (?, ?, ?, ?)")
                .execute(arguments: [link.key, link.kind.rawValue, link.personID, link.expiresAt])
        }
    }

    public func link(_ kind: OneUseLink.Kind, key: String, at date: Date) async throws(PeopleRepositoryError)
        -> OneUseLink?
    {
        try await read { db in
            try Row.fetchOne(
                db.cachedStatement(
                    sql: "SELECT personID, expiresAt FROM oneUseLink WHERE key = ? AND kind = ? AND expiresAt > ?"),
                arguments: [key, kind.rawValue, date]
            ).map { OneUseLink(key: key, kind: kind, personID: $0["personID"], expiresAt: $0["expiresAt"]) }
        }
    }

    public func resetPassword(link key: String, passwordHash: String, at date: Date)
        async throws(PeopleRepositoryError) -> Person?
    {
        let person = try await write { db -> Person? in
            guard
                let id = try Int.fetchOne(
                    db.cachedStatement(
                        sql: "DELETE FROM oneUseLink WHERE key = ? AND kind = ? AND expiresAt > ? RETURNING personID"),
                    arguments: [key, OneUseLink.Kind.passwordReset.rawValue, date])
            else { return nil }
            try db.cachedStatement(sql: "UPDATE person SET passwordHash = ? WHERE id = ?").execute(arguments: [
                passwordHash, id,
            ])
            try db.cachedStatement(sql: "DELETE FROM signInSession WHERE personID = ?").execute(arguments: [id])
            return try PersonRecord.fetchOne(db, key: id)?.person
        }
        if let person { forget(person: person.id) }
        return person
    }

    public func cookieSecret() async throws(PeopleRepositoryError) -> [UInt8] {
        try await write { db in
            let fresh = Data(SecureRandom.bytes(32))
            try db.cachedStatement(
                sql: "INSERT INTO secret (name, value) VALUES ('cookies', ?) ON CONFLICT (name) DO NOTHING"
            ).execute(arguments: [fresh])
            return [UInt8](
                try Data.fetchOne(db.cachedStatement(sql: "SELECT value FROM secret WHERE name = 'cookies'")) ?? fresh)
        }
    }

    public func credentials(username: String) async throws(PeopleRepositoryError) -> (
        person: Person, passwordHash: String
    )? {
        try await read { db in
            try PersonRecord.filter(Column("username") == username).fetchOne(db).map { ($0.person, $0.passwordHash) }
        }
    }

    public func credentials(id: Int) async throws(PeopleRepositoryError) -> (person: Person, passwordHash: String)? {
        try await read { db in
            try PersonRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM person WHERE id = ?"), arguments: [id]).map
            {
                ($0.person, $0.passwordHash)
            }
        }
    }

    public func credentials(identity: ProviderIdentity) async throws(PeopleRepositoryError) -> (
        person: Person, passwordHash: String
    )? {
        try await read { db in
            try PersonRecord.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT person.* FROM person JOIN providerIdentity ON providerIdentity.personID = person.id
                        WHERE providerIdentity.issuer = ? AND providerIdentity.subject = ?
                        """), arguments: [identity.issuer, identity.subject]
            ).map { ($0.person, $0.passwordHash) }
        }
    }

    public func update(_ person: Person) async throws(PeopleRepositoryError) {
        try await write { db in
            try db.cachedStatement(
                sql: """
                    UPDATE person SET name = ?, about = ?, friendServiceToken = ?, showWhenSitting = ?, showStreaks = ?,
                        timeZone = ?, dayStartHour = ?, reminderMinutes = ?, language = ?
                    WHERE id = ?
                    """
            ).execute(arguments: [
                person.name, person.about, person.friendServiceToken, person.showsWhenSitting, person.showsStreaks,
                person.timeZone.identifier, person.dayStartHour, person.reminderMinutes, person.language?.tag,
                person.id,
            ])
            if db.changesCount == 0 { throw PeopleRepositoryError.notFound }
        }
        forget(person: person.id)
        onUpdate(person.id)
    }

    public func connect(_ identity: ProviderIdentity, to id: Int) async throws(PeopleRepositoryError) {
        try await write { db in
            let owner = try Int.fetchOne(
                db.cachedStatement(sql: "SELECT personID FROM providerIdentity WHERE issuer = ? AND subject = ?"),
                arguments: [identity.issuer, identity.subject])
            if let owner, owner != id { throw PeopleRepositoryError.identityTaken }
            guard
                try Bool.fetchOne(
                    db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM person WHERE id = ?)"), arguments: [id])
                    == true
            else { throw PeopleRepositoryError.notFound }
            try db.cachedStatement(sql: "DELETE FROM providerIdentity WHERE personID = ? AND issuer = ?").execute(
                arguments: [id, identity.issuer])
            try db.cachedStatement(sql: "INSERT INTO providerIdentity (issuer, subject, personID) VALUES (?, ?, ?)")
                .execute(arguments: [identity.issuer, identity.subject, id])
        }
    }

    public func disconnect(issuer: String, from id: Int) async throws(PeopleRepositoryError) {
        try await write { db in
            try db.cachedStatement(sql: "DELETE FROM providerIdentity WHERE personID = ? AND issuer = ?").execute(
                arguments: [id, issuer])
        }
    }

    public func connectedIssuers(of id: Int) async throws(PeopleRepositoryError) -> Set<String> {
        try await read { db in
            Set(
                try String.fetchAll(
                    db.cachedStatement(sql: "SELECT issuer FROM providerIdentity WHERE personID = ?"), arguments: [id]))
        }
    }

    public func setCalendarKey(_ key: String?, of id: Int) async throws(PeopleRepositoryError) {
        try await write { db in
            try db.cachedStatement(sql: "UPDATE person SET calendarKey = ? WHERE id = ?").execute(arguments: [key, id])
            if db.changesCount == 0 { throw PeopleRepositoryError.notFound }
        }
        forget(person: id)
    }

    public func person(calendarKey key: String) async throws(PeopleRepositoryError) -> Person? {
        let (kept, began) = calendarKeys.value(key)
        if let kept { return kept }
        let person = try await read { db in
            try PersonRecord.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM person WHERE calendarKey = ? AND NOT isDisabled"),
                arguments: [key]
            )?.person
        }
        if let person { calendarKeys.keep(person, for: key, from: began) }
        return person
    }

    /// What is kept of the person `id` (their sign-in sessions, their calendar feed's key) goes,
    /// after a write that changed them.
    private func forget(person id: Int) {
        sessions.forget { $1.person.id == id }
        calendarKeys.forget { $1.id == id }
        overviews.forgetAll()
    }

    public func setPasswordHash(_ hash: String, of id: Int, keepingSession key: String?)
        async throws(PeopleRepositoryError)
    {
        try await write { db in
            try db.cachedStatement(sql: "UPDATE person SET passwordHash = ? WHERE id = ?").execute(arguments: [
                hash, id,
            ])
            if db.changesCount == 0 { throw PeopleRepositoryError.notFound }
            try db.cachedStatement(sql: "DELETE FROM signInSession WHERE personID = ? AND key IS NOT ?").execute(
                arguments: [id, key])
        }
        forget(person: id)
    }

    public func delete(id: Int) async throws(PeopleRepositoryError) {
        // Foreign keys cascade: profiles, sitting sessions (and their totals), sign-in sessions
        // and the saved friends list go with the person, in one transaction.
        try await write { db in
            if try Self.isLastAdministrator(id, alone: false, db) { throw PeopleRepositoryError.lastAdministrator }
            _ = try PersonRecord.deleteOne(db, key: id)
        }
        forget(person: id)
        onDelete(id)
    }

    /// Whether `id` is the last administrator who can sign in (and, unless `alone`, anyone else
    /// has an account: the only person may delete theirs, and the next sign-up administers). In
    /// the write transaction, which SQLite runs one at a time.
    static func isLastAdministrator(_ id: Int, alone: Bool, _ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT EXISTS (SELECT 1 FROM person WHERE id = ? AND isAdministrator AND NOT isDisabled)
                        AND NOT EXISTS (SELECT 1 FROM person WHERE id != ? AND isAdministrator AND NOT isDisabled)
                        AND (? OR EXISTS (SELECT 1 FROM person WHERE id != ?))
                    """), arguments: [id, id, alone, id]) ?? false
    }

    public func startSession(key: String, of id: Int, at date: Date, by method: SignInMethod)
        async throws(PeopleRepositoryError)
    {
        try await write { db in
            // Sessions unused for their lifetime are gone whether or not their cookie comes back.
            try db.cachedStatement(sql: "DELETE FROM signInSession WHERE lastUsedAt < ?").execute(arguments: [
                date.addingTimeInterval(-SignInSession.lifetime)
            ])
            try db.cachedStatement(
                sql:
                    "INSERT INTO signInSession (key, personID, lastUsedAt, startedAt, byPassword) VALUES (?, ?, ?, ?, ?)"
            ).execute(arguments: [key, id, date, date, method == .password])
            try db.cachedStatement(sql: "UPDATE person SET lastSignInAt = ? WHERE id = ?").execute(arguments: [
                date, id,
            ])
        }
        overviews.forgetAll()
    }

    public func person(session key: String, at date: Date) async throws(PeopleRepositoryError) -> Person? {
        // A sign-out or a deletion while this reads must not be undone by `keep` below.
        let (kept, began) = sessions.value(key, if: { $0.person(at: date) != nil })
        if let kept { return kept.person }
        let found = try await read { db -> (Person, Date, Date)? in
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT person.*, signInSession.lastUsedAt AS sessionLastUsedAt,
                            COALESCE(signInSession.startedAt, signInSession.lastUsedAt) AS sessionStartedAt
                            FROM signInSession JOIN person ON person.id = signInSession.personID
                            WHERE signInSession.key = ?
                            """), arguments: [key])
            else { return nil }
            return (try PersonRecord(row: row).person, row["sessionLastUsedAt"], row["sessionStartedAt"])
        }
        guard let (person, lastUsed, startedAt) = found else { return nil }
        if SignInSession.hasEnded(startedAt: startedAt, lastUsed: lastUsed, at: date) {
            try await endSession(key: key)
            return nil
        }
        let unused = date.timeIntervalSince(lastUsed)
        var touched = lastUsed
        if unused >= SignInSession.touchInterval {
            try await write { db in
                try db.cachedStatement(sql: "UPDATE signInSession SET lastUsedAt = ? WHERE key = ?").execute(
                    arguments: [date, key])
            }
            touched = date
        }
        sessions.keep(KeptSignInSession(person: person, lastUsed: touched, startedAt: startedAt), for: key, from: began)
        return person
    }

    public func endSession(key: String) async throws(PeopleRepositoryError) {
        try await write { db in
            try db.cachedStatement(sql: "DELETE FROM signInSession WHERE key = ?").execute(arguments: [key])
        }
        sessions.forget(key)
        overviews.forgetAll()
    }

    public func endPasswordSessions() async throws(PeopleRepositoryError) -> Int {
        defer {
            sessions.forgetAll()
            calendarKeys.forgetAll()
            overviews.forgetAll()
        }
        return try await write { db in
            try db.execute(sql: "DELETE FROM signInSession WHERE byPassword")
            return db.changesCount
        }
    }

    public func failures(of username: String, since date: Date) async throws(PeopleRepositoryError) -> [Date] {
        try await read { db in
            try Date.fetchAll(
                db.cachedStatement(sql: "SELECT at FROM signInFailure WHERE username = ? AND at >= ? ORDER BY at"),
                arguments: [username, date])
        }
    }

    public func countAttempt(of username: String, limit: Int, at date: Date) async throws(PeopleRepositoryError)
        -> [Date]
    {
        let since = date.addingTimeInterval(-SignInSession.failureWindow)
        // One write transaction: SQLite runs them one at a time.
        return try await write { db in
            let earlier = try Date.fetchAll(
                db.cachedStatement(sql: "SELECT at FROM signInFailure WHERE username = ? AND at >= ? ORDER BY at"),
                arguments: [username, since])
            guard earlier.count < limit else { return earlier }
            // Failures older than the window count for nothing: they go as new ones come.
            try db.cachedStatement(sql: "DELETE FROM signInFailure WHERE at < ?").execute(arguments: [since])
            try db.cachedStatement(sql: "INSERT INTO signInFailure (username, at) VALUES (?, ?)").execute(arguments: [
                username, date,
            ])
            return earlier
        }
    }

    public func forgetAttempt(of key: String, at date: Date) async throws(PeopleRepositoryError) {
        try await write { db in
            try db.cachedStatement(
                sql:
                    "DELETE FROM signInFailure WHERE rowid = (SELECT rowid FROM signInFailure WHERE username = ? AND at = ? LIMIT 1)"
            ).execute(arguments: [key, date])
        }
    }

    public func clearFailures(of username: String) async throws(PeopleRepositoryError) {
        try await write { db in
            try db.cachedStatement(sql: "DELETE FROM signInFailure WHERE username = ?").execute(arguments: [username])
        }
    }
}

/// A person as one row of the `person` table.
struct PersonRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "person"

    var id: Int?
    var username: String
    var name: String
    var about: String
    var passwordHash: String
    var friendServiceToken: String?
    var createdAt: Date
    var isAdministrator: Bool
    var isDisabled: Bool
    var showWhenSitting: Bool
    var showStreaks: Bool
    var timeZone: String
    var dayStartHour: Int
    var reminderMinutes: Int?
    var calendarKey: String?
    var language: String?

    init(_ person: Person, passwordHash: String) {
        id = person.id == 0 ? nil : person.id
        username = person.username
        name = person.name
        about = person.about
        self.passwordHash = passwordHash
        friendServiceToken = person.friendServiceToken
        createdAt = person.createdAt
        isAdministrator = person.isAdministrator
        isDisabled = person.isDisabled
        showWhenSitting = person.showsWhenSitting
        showStreaks = person.showsStreaks
        timeZone = person.timeZone.identifier
        dayStartHour = person.dayStartHour
        reminderMinutes = person.reminderMinutes
        calendarKey = person.calendarKey
        language = person.language?.tag
    }

    var person: Person {
        Person(
            id: id ?? 0, username: username, name: name, about: about, friendServiceToken: friendServiceToken,
            createdAt: createdAt, isAdministrator: isAdministrator, isDisabled: isDisabled,
            showsWhenSitting: showWhenSitting, showsStreaks: showStreaks,
            timeZone: TimeZone(identifier: timeZone) ?? .utc, dayStartHour: dayStartHour,
            reminderMinutes: reminderMinutes, calendarKey: calendarKey,
            language: language.flatMap(Language.shipped(tag:)))
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = Int(inserted.rowID)
    }
}
