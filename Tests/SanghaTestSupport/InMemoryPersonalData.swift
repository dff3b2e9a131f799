import Foundation
import SanghaCore
import Synchronization

/// Each person's repositories in memory: the ones a test gives for a person, else empty ones
/// made at the first ask and kept.
public final class InMemoryPersonalData: PersonalData {
    private struct Repositories {
        var profiles: [Int: any ProfileRepository] = [:]
        var sessions: [Int: any SittingSessionRepository] = [:]
        var savedFriends: [Int: any FriendListStorage] = [:]
    }

    private let repositories: Mutex<Repositories>
    private let unreachable = Mutex<(any Error)?>(nil)

    /// From now on `ping` throws `error` (nil: answers again).
    public func failPing(with error: (any Error)?) {
        unreachable.withLock { $0 = error }
    }

    public func ping() async throws {
        if let error = unreachable.withLock({ $0 }) { throw error }
    }

    /// `profiles`, `sessions` and `savedFriends` are person 1's: the first person to sign up.
    public init(
        profiles: any ProfileRepository = InMemoryProfileRepository(),
        sessions: any SittingSessionRepository = InMemorySittingSessionRepository(),
        savedFriends: any FriendListStorage = InMemoryFriendListStorage()
    ) {
        repositories = Mutex(
            Repositories(profiles: [1: profiles], sessions: [1: sessions], savedFriends: [1: savedFriends]))
    }

    public func profiles(of person: Int) -> any ProfileRepository {
        repositories.withLock { repositories in
            if let profiles = repositories.profiles[person] { return profiles }
            let profiles = InMemoryProfileRepository()
            repositories.profiles[person] = profiles
            return profiles
        }
    }

    public func sessions(of person: Int) -> any SittingSessionRepository {
        repositories.withLock { repositories in
            if let sessions = repositories.sessions[person] { return sessions }
            let sessions = InMemorySittingSessionRepository()
            repositories.sessions[person] = sessions
            return sessions
        }
    }

    public func savedFriends(of person: Int) -> any FriendListStorage {
        repositories.withLock { repositories in
            if let saved = repositories.savedFriends[person] { return saved }
            let saved = InMemoryFriendListStorage()
            repositories.savedFriends[person] = saved
            return saved
        }
    }
}
