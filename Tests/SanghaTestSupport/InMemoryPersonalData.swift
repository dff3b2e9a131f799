import Foundation
import SanghaCore
import SanghaStoreSupport
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

    /// Groups need people's names and everyone's sessions, which this fake does not join: the
    /// group tests run on SQLite in memory (`SQLitePersonalData`). Here every question fails.
    public func groups(of person: Int) -> any GroupRepository { NoGroups() }

    public let groupEvents: any GroupEventBus = InProcessGroupEventBus()
}

/// A group repository whose every question fails as an unreachable storage would.
public struct NoGroups: GroupRepository {
    static let error = GroupRepositoryError.unreachable("InMemoryPersonalData keeps no groups")
    public func list() async throws(GroupRepositoryError) -> [GroupSummary] { throw Self.error }
    public func create(name: String, at date: Date) async throws(GroupRepositoryError) -> SittingGroup {
        throw Self.error
    }
    public func group(_ id: Int, at date: Date) async throws(GroupRepositoryError) -> GroupDetail? { throw Self.error }
    public func practice(of group: Int, from start: Date, to end: Date) async throws(GroupRepositoryError)
        -> [MemberPractice]
    { throw Self.error }
    public func addInvitation(to group: Int, key: String, at date: Date, expiresAt: Date)
        async throws(GroupRepositoryError)
    { throw Self.error }
    public func revokeInvitation(_ id: Int, of group: Int) async throws(GroupRepositoryError) { throw Self.error }
    public func invitation(key: String, at date: Date) async throws(GroupRepositoryError) -> GroupInvitationPreview? {
        throw Self.error
    }
    public func join(key: String, at date: Date) async throws(GroupRepositoryError) -> Int { throw Self.error }
    public func leave(_ group: Int) async throws(GroupRepositoryError) { throw Self.error }
    public func remove(_ member: Int, from group: Int, at date: Date) async throws(GroupRepositoryError) {
        throw Self.error
    }
    public func readmit(_ person: Int, to group: Int) async throws(GroupRepositoryError) { throw Self.error }
    public func startSitting(profileName: String, sit: Int?, at date: Date, until: Date)
        async throws(GroupRepositoryError) -> [Int]
    { throw Self.error }
    public func stopSitting() async throws(GroupRepositoryError) -> [Int] { throw Self.error }
    public func sittingNow(in group: Int, at date: Date) async throws(GroupRepositoryError) -> [SittingNow] {
        throw Self.error
    }
    public func scheduleSit(_ sit: GroupSit, at date: Date) async throws(GroupRepositoryError) -> GroupSit {
        throw Self.error
    }
    public func sits(of group: Int, at date: Date) async throws(GroupRepositoryError) -> [GroupSit] {
        throw Self.error
    }
    public func sit(_ id: Int, of group: Int) async throws(GroupRepositoryError) -> GroupSit? { throw Self.error }
    public func calendarSits(at date: Date) async throws(GroupRepositoryError) -> [CalendarSit] { throw Self.error }
    public func cancelSit(_ id: Int, of group: Int, at date: Date) async throws(GroupRepositoryError) {
        throw Self.error
    }
}
