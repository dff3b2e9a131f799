import Foundation

/// A session sat with a profile: when it began, how long it lasted, and whether it ran to the
/// end. It keeps the profile's name, so deleting the profile keeps its sessions under that name.
public struct SittingSession: Codable, Sendable, Equatable, Identifiable {
    public var id: Int
    /// The profile sat with; nil once that profile is deleted.
    public var profileID: Int?
    public var profileName: String
    public var startedAt: Date
    public var seconds: Int
    public var completed: Bool

    /// A session stopped before this many seconds is not recorded.
    public static let minimumStoppedSeconds = 60

    public init(
        id: Int = 0, profileID: Int?, profileName: String, startedAt: Date, seconds: Int, completed: Bool
    ) {
        self.id = id
        self.profileID = profileID
        self.profileName = profileName
        self.startedAt = startedAt
        self.seconds = seconds
        self.completed = completed
    }

    /// Why the session is not recorded, or nil: a length from one second to a day, and a
    /// stopped one of at least a minute.
    public func refusal() -> String? {
        if !(1...86_400 * 3).contains(seconds) { return "The session's length must be between 1 second and 72 hours." }
        if !completed && seconds < Self.minimumStoppedSeconds {
            return "A session stopped before a minute is not recorded."
        }
        return nil
    }
}

/// Where sessions are kept. The live one is SQLite (SanghaStore); tests use an in-memory one.
public protocol SittingSessionRepository: Sendable {
    /// Stores a new session; the answer has its id.
    func record(_ session: SittingSession) async throws(SittingSessionRepositoryError) -> SittingSession
    /// The newest sessions first, at most `limit`.
    func recent(limit: Int) async throws(SittingSessionRepositoryError) -> [SittingSession]
}

public enum SittingSessionRepositoryError: Error, Sendable, Equatable {
    /// The storage failed: the message is for the log.
    case storage(String)
}
