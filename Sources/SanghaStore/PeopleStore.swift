import Foundation
import GRDB
import SanghaCore

/// People, their sign-in sessions and failed sign-ins in `sangha.sqlite`.
public struct PeopleStore: PeopleRepository {
    private let database: any DatabaseWriter
    /// Called after a person was deleted, so memory of their data goes too.
    private let onDelete: @Sendable (Int) -> Void

    public init(database: any DatabaseWriter, onDelete: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.database = database
        self.onDelete = onDelete
    }

    public func create(_ person: Person, passwordHash: String) async throws(PeopleRepositoryError) -> Person {
        try await write { db in
            var record = PersonRecord(person, passwordHash: passwordHash)
            record.id = nil
            do {
                try record.insert(db)
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                throw PeopleRepositoryError.usernameTaken
            }
            let id = record.id ?? 0
            // What was made before Sangha had people is the first person's.
            try db.execute(sql: "UPDATE profile SET ownerID = ? WHERE ownerID IS NULL", arguments: [id])
            try db.execute(sql: "UPDATE sittingSession SET ownerID = ? WHERE ownerID IS NULL", arguments: [id])
            return record.person
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
        try await read { db in try PersonRecord.fetchOne(db, key: id).map { ($0.person, $0.passwordHash) } }
    }

    public func update(_ person: Person) async throws(PeopleRepositoryError) {
        try await write { db in
            try db.execute(
                sql: "UPDATE person SET name = ?, about = ?, friendServiceToken = ? WHERE id = ?",
                arguments: [person.name, person.about, person.friendServiceToken, person.id])
            if db.changesCount == 0 { throw PeopleRepositoryError.notFound }
        }
    }

    public func setPasswordHash(_ hash: String, of id: Int) async throws(PeopleRepositoryError) {
        try await write { db in
            try db.execute(sql: "UPDATE person SET passwordHash = ? WHERE id = ?", arguments: [hash, id])
            if db.changesCount == 0 { throw PeopleRepositoryError.notFound }
        }
    }

    public func delete(id: Int) async throws(PeopleRepositoryError) {
        // Foreign keys cascade: profiles, sitting sessions (and their totals), sign-in sessions
        // and the saved friends list go with the person, in one transaction.
        try await write { db in _ = try PersonRecord.deleteOne(db, key: id) }
        onDelete(id)
    }

    public func startSession(key: String, of id: Int, at date: Date) async throws(PeopleRepositoryError) {
        try await write { db in
            try db.execute(
                sql: "INSERT INTO signInSession (key, personID, lastUsedAt) VALUES (?, ?, ?)",
                arguments: [key, id, date])
        }
    }

    public func person(session key: String, at date: Date) async throws(PeopleRepositoryError) -> Person? {
        let found = try await read { db -> (Person, Date)? in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT person.*, signInSession.lastUsedAt AS sessionLastUsedAt
                        FROM signInSession JOIN person ON person.id = signInSession.personID
                        WHERE signInSession.key = ?
                        """, arguments: [key])
            else { return nil }
            return (try PersonRecord(row: row).person, row["sessionLastUsedAt"])
        }
        guard let (person, lastUsed) = found else { return nil }
        let unused = date.timeIntervalSince(lastUsed)
        if unused >= SignInSession.lifetime {
            try await endSession(key: key)
            return nil
        }
        if unused >= SignInSession.touchInterval {
            try await write { db in
                try db.execute(sql: "UPDATE signInSession SET lastUsedAt = ? WHERE key = ?", arguments: [date, key])
            }
        }
        return person
    }

    public func endSession(key: String) async throws(PeopleRepositoryError) {
        try await write { db in try db.execute(sql: "DELETE FROM signInSession WHERE key = ?", arguments: [key]) }
    }

    public func failures(of username: String, since date: Date) async throws(PeopleRepositoryError) -> [Date] {
        try await read { db in
            try Date.fetchAll(
                db, sql: "SELECT at FROM signInFailure WHERE username = ? AND at >= ? ORDER BY at",
                arguments: [username, date])
        }
    }

    public func recordFailure(of username: String, at date: Date) async throws(PeopleRepositoryError) {
        try await write { db in
            // Failures older than the window count for nothing: they go as new ones come.
            try db.execute(
                sql: "DELETE FROM signInFailure WHERE at < ?",
                arguments: [date.addingTimeInterval(-SignInSession.failureWindow)])
            try db.execute(sql: "INSERT INTO signInFailure (username, at) VALUES (?, ?)", arguments: [username, date])
        }
    }

    public func clearFailures(of username: String) async throws(PeopleRepositoryError) {
        try await write { db in
            try db.execute(sql: "DELETE FROM signInFailure WHERE username = ?", arguments: [username])
        }
    }

    private func read<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T)
        async throws(PeopleRepositoryError) -> T
    {
        do {
            return try await database.read(body)
        } catch {
            throw Self.repositoryError(error)
        }
    }

    private func write<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T)
        async throws(PeopleRepositoryError) -> T
    {
        do {
            return try await database.write(body)
        } catch {
            throw Self.repositoryError(error)
        }
    }

    private static func repositoryError(_ error: any Error) -> PeopleRepositoryError {
        (error as? PeopleRepositoryError) ?? .storage(String(describing: error))
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

    init(_ person: Person, passwordHash: String) {
        id = person.id == 0 ? nil : person.id
        username = person.username
        name = person.name
        about = person.about
        self.passwordHash = passwordHash
        friendServiceToken = person.friendServiceToken
        createdAt = person.createdAt
    }

    var person: Person {
        Person(
            id: id ?? 0, username: username, name: name, about: about, friendServiceToken: friendServiceToken,
            createdAt: createdAt)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = Int(inserted.rowID)
    }
}
