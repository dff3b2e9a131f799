import Foundation
import SanghaCore

/// People, sign-in sessions and failures in memory, with the same rules as the stores:
/// usernames unique without regard to case, sessions ending after `SignInSession.lifetime` unused.
public actor InMemoryPeopleRepository: PeopleRepository {
    private var people: [Int: (person: Person, hash: String)] = [:]
    private var sessions: [String: (person: Int, lastUsed: Date, startedAt: Date)] = [:]
    /// The keys of the sessions a password started.
    private var passwordSessions: Set<String> = []
    private var failures: [(username: String, at: Date)] = []
    private var links: [String: OneUseLink] = [:]
    private var lastSignIn: [Int: Date] = [:]
    private var identities: [ProviderIdentity: Int] = [:]
    private let secret = (0..<32).map { _ in UInt8.random(in: .min ... .max) }
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

    public func create(
        _ person: Person, passwordHash: String, identity: ProviderIdentity?, admission: Admission, at date: Date
    ) async throws(PeopleRepositoryError) -> Person {
        try check()
        if let identity, identities[identity] != nil { throw .identityTaken }
        let first = people.isEmpty
        if case .invitation(let key) = admission, !first {
            guard let key, let link = links[key], link.kind == .invitation, link.expiresAt > date else {
                throw .invitationNeeded
            }
        }
        // Group links live with the groups, which this fake does not keep.
        if case .groupInvitation = admission, !first { throw .invitationNeeded }
        guard !people.values.contains(where: { $0.person.username.lowercased() == person.username.lowercased() })
        else { throw .usernameTaken }
        if case .invitation(let key?) = admission { links[key] = nil }
        var created = person
        created.isAdministrator = first
        created.id = nextID
        nextID += 1
        people[created.id] = (created, passwordHash)
        if let identity { identities[identity] = created.id }
        return created
    }

    public func connect(_ identity: ProviderIdentity, to id: Int) async throws(PeopleRepositoryError) {
        try check()
        if let owner = identities[identity], owner != id { throw .identityTaken }
        guard people[id] != nil else { throw .notFound }
        identities = identities.filter { !($0.value == id && $0.key.issuer == identity.issuer) }
        identities[identity] = id
    }

    public func disconnect(issuer: String, from id: Int) async throws(PeopleRepositoryError) {
        try check()
        identities = identities.filter { !($0.value == id && $0.key.issuer == issuer) }
    }

    public func connectedIssuers(of id: Int) async throws(PeopleRepositoryError) -> Set<String> {
        try check()
        return Set(identities.filter { $0.value == id }.map(\.key.issuer))
    }

    public func credentials(identity: ProviderIdentity) async throws(PeopleRepositoryError) -> (
        person: Person, passwordHash: String
    )? {
        try check()
        return identities[identity].flatMap { people[$0] }
    }

    public func hasAnyone() async throws(PeopleRepositoryError) -> Bool {
        try check()
        return !people.isEmpty
    }

    public func overview(at date: Date, limit: Int, offset: Int) async throws(PeopleRepositoryError)
        -> PeopleOverviewPage
    {
        try check()
        let everyone = people.values.map(\.person).sorted {
            ($0.name.lowercased(), $0.id) < ($1.name.lowercased(), $1.id)
        }
        let page = everyone.dropFirst(max(offset, 0)).prefix(max(limit, 0)).map { person in
            PersonOverview(
                person: person, lastSignIn: lastSignIn[person.id],
                sessions: sessions.values.filter {
                    $0.person == person.id
                        && !SignInSession.hasEnded(startedAt: $0.startedAt, lastUsed: $0.lastUsed, at: date)
                }.count)
        }
        return PeopleOverviewPage(people: page, count: everyone.count)
    }

    public func setDisabled(_ disabled: Bool, of id: Int) async throws(PeopleRepositoryError) {
        try check()
        guard var stored = people[id] else { throw .notFound }
        if disabled, isLastAdministrator(id, alone: true) { throw .lastAdministrator }
        stored.person.isDisabled = disabled
        people[id] = stored
        if disabled { sessions = sessions.filter { $0.value.person != id } }
    }

    public func makeAdministrator(_ id: Int) async throws(PeopleRepositoryError) {
        try check()
        guard var stored = people[id] else { throw .notFound }
        stored.person.isAdministrator = true
        people[id] = stored
    }

    public func add(_ link: OneUseLink) async throws(PeopleRepositoryError) {
        try check()
        links[link.key] = link
    }

    public func link(_ kind: OneUseLink.Kind, key: String, at date: Date) async throws(PeopleRepositoryError)
        -> OneUseLink?
    {
        try check()
        guard let link = links[key], link.kind == kind, link.expiresAt > date else { return nil }
        return link
    }

    public func resetPassword(link key: String, passwordHash: String, at date: Date)
        async throws(PeopleRepositoryError) -> Person?
    {
        guard let link = try await link(.passwordReset, key: key, at: date), let stored = people[link.personID]
        else { return nil }
        links[key] = nil
        people[link.personID] = (stored.person, passwordHash)
        sessions = sessions.filter { $0.value.person != link.personID }
        return stored.person
    }

    public func cookieSecret() async throws(PeopleRepositoryError) -> [UInt8] {
        try check()
        return secret
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
        updated.showsWhenSitting = person.showsWhenSitting
        updated.showsStreaks = person.showsStreaks
        updated.timeZone = person.timeZone
        updated.dayStartHour = person.dayStartHour
        updated.reminderMinutes = person.reminderMinutes
        updated.language = person.language
        people[person.id] = (updated, stored.hash)
    }

    public func setCalendarKey(_ key: String?, of id: Int) async throws(PeopleRepositoryError) {
        try check()
        guard people[id] != nil else { throw .notFound }
        people[id]?.person.calendarKey = key
    }

    public func person(calendarKey key: String) async throws(PeopleRepositoryError) -> Person? {
        try check()
        return people.values.map(\.person).first { $0.calendarKey == key && !$0.isDisabled }
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
        if isLastAdministrator(id, alone: false) { throw .lastAdministrator }
        people[id] = nil
        sessions = sessions.filter { $0.value.person != id }
        identities = identities.filter { $0.value != id }
    }

    public func startSession(key: String, of id: Int, at date: Date, by method: SignInMethod)
        async throws(PeopleRepositoryError)
    {
        try check()
        // As the stores: sessions unused for their lifetime go when a new one starts.
        sessions = sessions.filter { date.timeIntervalSince($0.value.lastUsed) < SignInSession.lifetime }
        sessions[key] = (id, date, date)
        if method == .password { passwordSessions.insert(key) } else { passwordSessions.remove(key) }
        lastSignIn[id] = date
    }

    public func endPasswordSessions() async throws(PeopleRepositoryError) -> Int {
        try check()
        let ended = sessions.keys.filter { passwordSessions.contains($0) }
        for key in ended { sessions[key] = nil }
        passwordSessions = []
        return ended.count
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

    public func countAttempt(of username: String, limit: Int, at date: Date) async throws(PeopleRepositoryError)
        -> [Date]
    {
        let earlier = try await failures(of: username, since: date.addingTimeInterval(-SignInSession.failureWindow))
        if earlier.count < limit { failures.append((username, date)) }
        return earlier
    }

    public func forgetAttempt(of key: String, at date: Date) async throws(PeopleRepositoryError) {
        try check()
        if let index = failures.firstIndex(where: { $0.username.lowercased() == key.lowercased() && $0.at == date }) {
            failures.remove(at: index)
        }
    }

    public func clearFailures(of username: String) async throws(PeopleRepositoryError) {
        try check()
        failures.removeAll { $0.username.lowercased() == username.lowercased() }
    }

    /// As the stores: the last administrator who can sign in, while others have accounts.
    private func isLastAdministrator(_ id: Int, alone: Bool) -> Bool {
        let everyone = people.values.map(\.person)
        guard let person = people[id]?.person, person.isOnlyAdministrator(among: everyone) else { return false }
        return alone || everyone.count > 1
    }
}
