import Foundation
import GRDB
import SanghaCore
import SanghaStore

/// Personal data and the people of the same database, as `sangha serve` opens them from one
/// file: what a test's app runs on.
public protocol OneDatabase: PersonalData {
    var people: PeopleStore { get }
}

extension SQLitePersonalData: OneDatabase {}

extension BreakableData: OneDatabase where Base: OneDatabase {
    /// The people of `base`'s database, as they are (only the personal data breaks).
    public var people: PeopleStore { base.people }
}

extension SQLitePersonalData {
    /// The app's own SQLite stores on a database of the caller's own, in memory: what the route
    /// and view-model tests run on, people (`people`) and their data in one database as
    /// `sangha serve` keeps them in its file.
    public static func inMemory() throws -> SQLitePersonalData {
        SQLitePersonalData(database: try SanghaDatabase.inMemory())
    }

    /// How many sign-in sessions the database holds, anyone's.
    public func signInSessionCount() async throws -> Int {
        try await database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM signInSession") ?? 0 }
    }
}

/// What seeding a store could not make as the test asked.
public struct SeedError: Error, CustomStringConvertible {
    public let description: String
}

extension PersonalData {
    /// Stores `profiles`, then `sessions`, as `person`'s, through their repositories: the test's
    /// data as the app would have made it. A profile or session that names an id gets that id or
    /// the seed fails (a fresh store counts ids from 1, in the order given); a profile that names
    /// a version is saved again until it has it.
    @discardableResult
    public func store(profiles: [Profile] = [], sessions: [SittingSession] = [], of person: Int) async throws
        -> [SittingSession]
    {
        let repository = self.profiles(of: person)
        for profile in profiles {
            var stored = try await repository.create(profile)
            guard profile.id == 0 || stored.id == profile.id else {
                throw SeedError(description: "profile \(profile.name) was stored as \(stored.id), not \(profile.id)")
            }
            while stored.version < profile.version {
                var saved = profile
                (saved.id, saved.version) = (stored.id, stored.version)
                stored = try await repository.update(saved)
            }
        }
        var recorded: [SittingSession] = []
        for session in sessions {
            let stored = try await self.sessions(of: person).record(session)
            guard session.id == 0 || stored.id == session.id else {
                throw SeedError(description: "a session was stored as \(stored.id), not \(session.id)")
            }
            recorded.append(stored)
        }
        return recorded
    }
}

extension SittingSessionRepository {
    /// Every session of the person, oldest first (by start, then as recorded).
    public func all() async throws -> [SittingSession] {
        try await sessions(after: nil, limit: 100_000)
    }
}

/// A person of their own on the app's SQLite stores in memory, for a view model's test: it
/// loads from and submits to `profiles` and `sessions` as the routes would hand them.
public struct StoredPerson: Sendable {
    public let data: SQLitePersonalData
    public let person: Person

    public var profiles: any ProfileRepository { data.profiles(of: person.id) }
    public var sessions: any SittingSessionRepository { data.sessions(of: person.id) }
    public var savedFriends: any FriendListStorage { data.savedFriends(of: person.id) }

    /// `person` (Ada Lovelace, who counts her days in UTC from midnight, when nil) stored with
    /// `profiles` and `sessions` (`PersonalData.store`), in a database of their own.
    public static func make(_ person: Person? = nil, profiles: [Profile] = [], sessions: [SittingSession] = [])
        async throws -> StoredPerson
    {
        let data = try SQLitePersonalData.inMemory()
        let person = try await data.people.create(
            person
                ?? Person(username: "ada", name: "Ada Lovelace", createdAt: Date(timeIntervalSince1970: 1_790_000_000)),
            passwordHash: "-")
        try await data.store(profiles: profiles, sessions: sessions, of: person.id)
        return StoredPerson(data: data, person: person)
    }

    /// Ada, who counts her days as `clock` does (its zone, its day's start).
    public static func make(clock: DayClock, profiles: [Profile] = [], sessions: [SittingSession] = [])
        async throws -> StoredPerson
    {
        try await make(
            Person(
                username: "ada", name: "Ada Lovelace", createdAt: Date(timeIntervalSince1970: 1_790_000_000),
                timeZone: clock.timeZone, dayStartHour: clock.startHour),
            profiles: profiles, sessions: sessions)
    }
}

/// SQLite's own check of the file behind `database`: `["ok"]` when it is sound. On a thread of
/// its own: a synchronous read waits for a reader.
public func integrityCheck(_ database: any DatabaseWriter) async throws -> [String] {
    try await offThePool { try database.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") } }
}
