import Foundation

/// Where people are kept, with their sign-in sessions and their recent failed sign-ins: in the
/// database, so every instance agrees on who is signed in and how many attempts were made.
public protocol PeopleRepository: Sendable {
    /// Stores a new person with their password's hash; `.usernameTaken` when the username is
    /// used (ignoring case). Profiles and sitting sessions that belong to nobody (made before
    /// Sangha had people) become theirs.
    func create(_ person: Person, passwordHash: String) async throws(PeopleRepositoryError) -> Person
    /// The person with that username (ignoring case) and their password's hash.
    func credentials(username: String) async throws(PeopleRepositoryError) -> (person: Person, passwordHash: String)?
    /// The person with that id and their password's hash.
    func credentials(id: Int) async throws(PeopleRepositoryError) -> (person: Person, passwordHash: String)?
    /// Stores the name, about text and FriendService token of `person`.
    func update(_ person: Person) async throws(PeopleRepositoryError)
    /// Stores a new password's hash and, in the same transaction, ends every other sign-in
    /// session of the person (`key`'s is kept; nil: all of them): whoever knew the old password
    /// is signed out, and a failure changes neither.
    func setPasswordHash(_ hash: String, of id: Int, keepingSession key: String?) async throws(PeopleRepositoryError)
    /// Removes the person and everything that is theirs: profiles, sitting sessions, sign-in
    /// sessions, the saved friends list.
    func delete(id: Int) async throws(PeopleRepositoryError)

    /// Starts a sign-in session: `key` (a digest of the cookie's id) names it from now on.
    func startSession(key: String, of id: Int, at date: Date) async throws(PeopleRepositoryError)
    /// The person signed in by the session `key`, if it exists, was used within
    /// `SignInSession.lifetime` of `date` and began less than `SignInSession.longestLife` before
    /// it; using it makes it last again from `date` (but never past its longest life).
    func person(session key: String, at date: Date) async throws(PeopleRepositoryError) -> Person?
    func endSession(key: String) async throws(PeopleRepositoryError)

    /// When `username` failed to sign in since `date`, oldest first.
    func failures(of username: String, since date: Date) async throws(PeopleRepositoryError) -> [Date]
    /// Counts an attempt to sign in as `username` at `date` as a failure (a success clears it),
    /// unless `SignInSession.failureLimit` failures within `SignInSession.failureWindow` are
    /// counted already; answers those earlier failures, oldest first. One step for every
    /// instance: of attempts made at the same moment, no more than the limit are counted, so a
    /// burst of guesses cannot pass the limit while the passwords are checked.
    func countAttempt(of username: String, at date: Date) async throws(PeopleRepositoryError) -> [Date]
    /// After a sign-in that succeeded: the count starts again.
    func clearFailures(of username: String) async throws(PeopleRepositoryError)
}

public enum PeopleRepositoryError: Error, Sendable, Equatable {
    case usernameTaken
    case notFound
    /// The storage failed: the message is for the log.
    case storage(String)
    /// The database could not be reached in time; it may be back in a moment.
    case unreachable(String)
}

/// The rules of sign-in sessions and failed attempts.
public enum SignInSession {
    /// A session unused this long has ended.
    public static let lifetime: TimeInterval = 30 * 86_400
    /// A session this long after its sign-in has ended, however much it was used.
    public static let longestLife: TimeInterval = 90 * 86_400

    /// Whether a session signed in at `startedAt` and last used at `lastUsed` has ended at `date`.
    public static func hasEnded(startedAt: Date, lastUsed: Date, at date: Date) -> Bool {
        date.timeIntervalSince(lastUsed) >= lifetime || date.timeIntervalSince(startedAt) >= longestLife
    }
    /// A session's last use is written at most this often: a page is a read, not a write.
    public static let touchInterval: TimeInterval = 600
    /// Failures within `failureWindow` after which a username is refused for a while.
    public static let failureLimit = 5
    public static let failureWindow: TimeInterval = 15 * 60
}

extension PeopleRepositoryError: StorageError {
    public var isUnreachable: Bool {
        if case .unreachable = self { true } else { false }
    }
}
