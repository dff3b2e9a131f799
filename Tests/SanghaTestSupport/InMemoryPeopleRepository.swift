import Foundation
import SanghaCore

/// People, sign-in sessions and failures in memory, with the same rules as the stores:
/// usernames unique without regard to case, sessions ending after `SignInSession.lifetime` unused.
public actor InMemoryPeopleRepository: PeopleRepository {
    private var people: [Int: (person: Person, hash: String)] = [:]
    private var sessions: [String: (person: Int, lastUsed: Date, startedAt: Date)] = [:]
    private var failures: [(username: String, at: Date)] = []
    private var nextID = 1
    private var failing: PeopleRepositoryError?

    public init() {}

    /// From now on every call fails with `error` (nil: none does).
    public func fail(with error: PeopleRepositoryError?) {
        failing = error
    }

    public var sessionCount: Int { sessions.count }

    private func check() throws(PeopleRepositoryError) {
        if let failing { throw failing }
    }

    public func create(_ person: Person, passwordHash: String) async throws(PeopleRepositoryError) -> Person {
        try check()
        guard !people.values.contains(where: { $0.person.username.lowercased() == person.username.lowercased() })
        else { throw .usernameTaken }
        var created = person
        created.id = nextID
        nextID += 1
        people[created.id] = (created, passwordHash)
        return created
    }

    public func credentials(username: String) async throws(PeopleRepositoryError) -> (
        person: Person, passwordHash: String
    )? {
        try check()
        return people.values.first { $0.person.username.lowercased() == username.lowercased() }
            .map { ($0.person, $0.hash) }
    }

    public func credentials(id: Int) async throws(PeopleRepositoryError) -> (person: Person, passwordHash: String)? {
        try check()
        return people[id].map { ($0.person, $0.hash) }
    }

    public func update(_ person: Person) async throws(PeopleRepositoryError) {
        try check()
        guard let stored = people[person.id] else { throw .notFound }
        var updated = stored.person
        updated.name = person.name
        updated.about = person.about
        updated.friendServiceToken = person.friendServiceToken
        people[person.id] = (updated, stored.hash)
    }

    public func setPasswordHash(_ hash: String, of id: Int, keepingSession key: String?)
        async throws(PeopleRepositoryError)
    {
        try check()
        guard let stored = people[id] else { throw .notFound }
        people[id] = (stored.person, hash)
        sessions = sessions.filter { $0.value.person != id || $0.key == key }
    }

    public func delete(id: Int) async throws(PeopleRepositoryError) {
        try check()
        people[id] = nil
        sessions = sessions.filter { $0.value.person != id }
    }

    public func startSession(key: String, of id: Int, at date: Date) async throws(PeopleRepositoryError) {
        try check()
        // As the stores: sessions unused for their lifetime go when a new one starts.
        sessions = sessions.filter { date.timeIntervalSince($0.value.lastUsed) < SignInSession.lifetime }
        sessions[key] = (id, date, date)
    }

    public func person(session key: String, at date: Date) async throws(PeopleRepositoryError) -> Person? {
        try check()
        guard let session = sessions[key], let person = people[session.person]?.person else { return nil }
        guard !SignInSession.hasEnded(startedAt: session.startedAt, lastUsed: session.lastUsed, at: date) else {
            sessions[key] = nil
            return nil
        }
        sessions[key] = (session.person, date, session.startedAt)
        return person
    }

    public func endSession(key: String) async throws(PeopleRepositoryError) {
        try check()
        sessions[key] = nil
    }

    public func failures(of username: String, since date: Date) async throws(PeopleRepositoryError) -> [Date] {
        try check()
        return failures.filter { $0.username.lowercased() == username.lowercased() && $0.at >= date }.map(\.at)
            .sorted()
    }

    public func countAttempt(of username: String, at date: Date) async throws(PeopleRepositoryError) -> [Date] {
        let earlier = try await failures(of: username, since: date.addingTimeInterval(-SignInSession.failureWindow))
        if earlier.count < SignInSession.failureLimit { failures.append((username, date)) }
        return earlier
    }

    public func clearFailures(of username: String) async throws(PeopleRepositoryError) {
        try check()
        failures.removeAll { $0.username.lowercased() == username.lowercased() }
    }
}
