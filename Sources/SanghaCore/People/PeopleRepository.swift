import Foundation

/// Where people are kept, with their sign-in sessions and their recent failed sign-ins: in the
/// database, so every instance agrees on who is signed in and how many attempts were made.
public protocol PeopleRepository: Sendable {
    /// Stores a new person with their password's hash, in one transaction with the checks of
    /// `admission`: `.usernameTaken` when the username is used (ignoring case),
    /// `.invitationNeeded` when an invitation is needed and `admission` has no valid one (it is
    /// used up by the sign-up). The first person of a deployment is its administrator, and
    /// profiles and sitting sessions that belong to nobody (made before Sangha had people)
    /// become theirs. With `identity`, they sign in through the identity provider (and
    /// `passwordHash` is empty: no password); `.identityTaken` when it is someone's already.
    func create(
        _ person: Person, passwordHash: String, identity: ProviderIdentity?, admission: Admission, at date: Date
    ) async throws(PeopleRepositoryError) -> Person
    /// The person the identity provider's (issuer, subject) signs in, and their password's hash
    /// (empty: they have no password).
    func credentials(identity: ProviderIdentity) async throws(PeopleRepositoryError) -> (
        person: Person, passwordHash: String
    )?
    /// Whether anyone has an account yet (a new deployment's first sign-up needs no invitation).
    func hasAnyone() async throws(PeopleRepositoryError) -> Bool
    /// A page of everyone by name (ignoring case), with their last sign-in and open sessions:
    /// at most `limit` after skipping `offset`, and how many there are in all. The
    /// administrator's list, read a page at a time.
    func overview(at date: Date, limit: Int, offset: Int) async throws(PeopleRepositoryError) -> PeopleOverviewPage
    /// Disables the person and ends every session of theirs (in one transaction), or enables them.
    /// `.lastAdministrator` when they are the last administrator who can sign in: checked in the
    /// same transaction, so two administrators disabling each other at once cannot both succeed.
    func setDisabled(_ disabled: Bool, of id: Int) async throws(PeopleRepositoryError)
    /// Makes the person an administrator.
    func makeAdministrator(_ id: Int) async throws(PeopleRepositoryError)
    /// Keeps a one-use link (an invitation or a password reset) until it is used or expires.
    func add(_ link: OneUseLink) async throws(PeopleRepositoryError)
    /// The link of that kind kept under `key`, unless it was used or has expired at `date`.
    func link(_ kind: OneUseLink.Kind, key: String, at date: Date) async throws(PeopleRepositoryError) -> OneUseLink?
    /// Uses the password-reset link `key`: in one transaction the link goes, the person's
    /// password becomes `passwordHash` and every session of theirs ends. nil (and nothing
    /// changed) when the link was used or has expired.
    func resetPassword(link key: String, passwordHash: String, at date: Date)
        async throws(PeopleRepositoryError) -> Person?
    /// Connects the identity provider's (issuer, subject) to the person: from now on it signs
    /// them in (a subject of the same issuer connected before is replaced). `.identityTaken`
    /// when it signs someone else in; `.notFound` without the person.
    func connect(_ identity: ProviderIdentity, to id: Int) async throws(PeopleRepositoryError)
    /// Disconnects every subject of `issuer` from the person.
    func disconnect(issuer: String, from id: Int) async throws(PeopleRepositoryError)
    /// The issuers whose identity provider signs the person in.
    func connectedIssuers(of id: Int) async throws(PeopleRepositoryError) -> Set<String>
    /// The deployment's secret for signing cookies: made by the first instance that asks and the
    /// same for every instance after it.
    func cookieSecret() async throws(PeopleRepositoryError) -> [UInt8]
    /// The person with that username (ignoring case) and their password's hash.
    func credentials(username: String) async throws(PeopleRepositoryError) -> (person: Person, passwordHash: String)?
    /// The person with that id and their password's hash.
    func credentials(id: Int) async throws(PeopleRepositoryError) -> (person: Person, passwordHash: String)?
    /// Stores the name, about text and FriendService token of `person`.
    func update(_ person: Person) async throws(PeopleRepositoryError)
    /// Sets the person's calendar link (`Person.calendarKey`, the SHA-256 of its token), or
    /// ends it (nil): the old link's address then finds no one.
    func setCalendarKey(_ key: String?, of id: Int) async throws(PeopleRepositoryError)
    /// Whose calendar link has the token with SHA-256 `key`; nil for none, or a person disabled.
    func person(calendarKey key: String) async throws(PeopleRepositoryError) -> Person?
    /// Stores a new password's hash and, in the same transaction, ends every other sign-in
    /// session of the person (`key`'s is kept; nil: all of them): whoever knew the old password
    /// is signed out, and a failure changes neither.
    func setPasswordHash(_ hash: String, of id: Int, keepingSession key: String?) async throws(PeopleRepositoryError)
    /// Removes the person and everything that is theirs: profiles, sitting sessions, sign-in
    /// sessions, the saved friends list. `.lastAdministrator` when they are the last
    /// administrator who can sign in and anyone else has an account.
    func delete(id: Int) async throws(PeopleRepositoryError)

    /// Starts a sign-in session: `key` (a digest of the cookie's id) names it from now on; it
    /// remembers whether a password or the identity provider started it.
    func startSession(key: String, of id: Int, at date: Date, by method: SignInMethod)
        async throws(PeopleRepositoryError)
    /// Ends every session a password started (`--password-sign-in off`), on every instance;
    /// answers how many. A session from before Sangha kept how it began counts as a password's
    /// unless its person has no password.
    func endPasswordSessions() async throws(PeopleRepositoryError) -> Int
    /// The person signed in by the session `key`, if it exists, was used within
    /// `SignInSession.lifetime` of `date` and began less than `SignInSession.longestLife` before
    /// it; using it makes it last again from `date` (but never past its longest life).
    func person(session key: String, at date: Date) async throws(PeopleRepositoryError) -> Person?
    func endSession(key: String) async throws(PeopleRepositoryError)

    /// When the attempts counted against `key` (a username, or an `AttemptKey`) were made since
    /// `date`, oldest first.
    func failures(of key: String, since date: Date) async throws(PeopleRepositoryError) -> [Date]
    /// Counts an attempt against `key` at `date` (a success clears or forgets it), unless `limit`
    /// attempts within `SignInSession.failureWindow` are counted already; answers those earlier
    /// attempts, oldest first. One step for every instance: of attempts made at the same moment,
    /// no more than the limit are counted, so a burst of guesses cannot pass the limit while the
    /// passwords are checked.
    func countAttempt(of key: String, limit: Int, at date: Date) async throws(PeopleRepositoryError) -> [Date]
    /// Takes back the attempt counted against `key` at `date` (a sign-in from an address that
    /// succeeded is not held against the address).
    func forgetAttempt(of key: String, at date: Date) async throws(PeopleRepositoryError)
    /// After a sign-in that succeeded: the count starts again.
    func clearFailures(of key: String) async throws(PeopleRepositoryError)
}

extension PeopleRepository {
    /// Everyone, by name, read `pageSize` at a time (`sangha people`, tests): no read holds more
    /// than a page. Someone who signs up or goes meanwhile may be missed or listed twice.
    public func overview(at date: Date, pageSize: Int = 500) async throws(PeopleRepositoryError) -> [PersonOverview] {
        var everyone: [PersonOverview] = []
        while true {
            let page = try await overview(at: date, limit: pageSize, offset: everyone.count)
            everyone += page.people
            if page.people.count < pageSize { return everyone }
        }
    }

    /// Stores a new person with a password (see the requirement).
    public func create(_ person: Person, passwordHash: String, admission: Admission, at date: Date)
        async throws(PeopleRepositoryError) -> Person
    {
        try await create(person, passwordHash: passwordHash, identity: nil, admission: admission, at: date)
    }

    /// Stores a new person as an open sign-up would (fixtures, tools, tests).
    public func create(_ person: Person, passwordHash: String) async throws(PeopleRepositoryError) -> Person {
        try await create(person, passwordHash: passwordHash, admission: .anyone, at: person.createdAt)
    }

    /// Starts a sign-in session a password started (fixtures, tools, tests).
    public func startSession(key: String, of id: Int, at date: Date) async throws(PeopleRepositoryError) {
        try await startSession(key: key, of: id, at: date, by: .password)
    }

    /// An attempt to sign in as `username`, against `SignInSession.failureLimit`.
    public func countAttempt(of username: String, at date: Date) async throws(PeopleRepositoryError) -> [Date] {
        try await countAttempt(of: username, limit: SignInSession.failureLimit, at: date)
    }
}

public enum PeopleRepositoryError: Error, Sendable, Equatable {
    case usernameTaken
    /// The identity provider's (issuer, subject) signs someone in already.
    case identityTaken
    /// Sign-up needs an invitation, and none valid was given.
    case invitationNeeded
    case notFound
    /// The change would leave no administrator who can sign in (disabling or deleting the last
    /// one while anyone else has an account): nothing changed.
    case lastAdministrator
    /// The storage failed: the message is for the log.
    case storage(String)
    /// The database could not be reached in time; it may be back in a moment.
    case unreachable(String)
}

/// Who the group's identity provider says someone is: its issuer and their subject there.
/// Nothing else (an e-mail, a username) ever names a person.
public struct ProviderIdentity: Sendable, Hashable {
    public var issuer: String
    public var subject: String

    public init(issuer: String, subject: String) {
        (self.issuer, self.subject) = (issuer, subject)
    }
}

/// What started a sign-in session: with `--password-sign-in off`, those a password started end.
public enum SignInMethod: String, Sendable, Equatable {
    case password
    case provider
}

/// The rules of sign-in sessions and failed attempts.
public enum SignInSession {
    /// A session unused this long has ended.
    public static let lifetime: TimeInterval = 30 * 86_400
    /// A session this long after its sign-in has ended, however much it was used.
    public static let longestLife: TimeInterval = 90 * 86_400

    /// Whether a session signed in at `startedAt` and last used at `lastUsed` has ended at `date`.
    public static func hasEnded(startedAt: Date, lastUsed: Date, at date: Date) -> Bool {
        date >= end(startedAt: startedAt, lastUsed: lastUsed)
    }

    /// When a session signed in at `startedAt` and last used at `lastUsed` ends, unless it is
    /// used again (a nil time counts as none: `.distantFuture` when both are nil).
    public static func end(startedAt: Date?, lastUsed: Date?) -> Date {
        min(
            lastUsed.map { $0.addingTimeInterval(lifetime) } ?? .distantFuture,
            startedAt.map { $0.addingTimeInterval(longestLife) } ?? .distantFuture)
    }
    /// A session's last use is written at most this often: a page is a read, not a write.
    public static let touchInterval: TimeInterval = 600
    /// Whether a session remembered with `lastUsed` and `startedAt` may be honoured at `date`
    /// without asking the database: its last use needs no new write yet, and it has not reached
    /// its longest life.
    public static func isServableFromMemory(startedAt: Date, lastUsed: Date, at date: Date) -> Bool {
        date.timeIntervalSince(lastUsed) < touchInterval && date.timeIntervalSince(startedAt) < longestLife
    }
    /// Failures within `failureWindow` after which a username is refused for a while.
    public static let failureLimit = 5
    public static let failureWindow: TimeInterval = 15 * 60
}

extension PeopleRepositoryError: StorageError {
    public var isUnreachable: Bool {
        if case .unreachable = self { true } else { false }
    }
}
