import Foundation

/// Where one person's profiles are kept: SQLite (SanghaStore) or PostgreSQL (SanghaPostgres),
/// both held to one conformance suite.
public protocol ProfileRepository: Sendable {
    /// `limit` profiles by name (ignoring case), from the `offset`th, and how many there are.
    func list(limit: Int, offset: Int) async throws(ProfileRepositoryError) -> ProfileListPage
    func get(id: Int) async throws(ProfileRepositoryError) -> Profile?
    /// Stores a new profile; the answer has its id and version 1.
    func create(_ profile: Profile) async throws(ProfileRepositoryError) -> Profile
    /// Stores `profile` over the stored one if that is still at `profile.version`; the answer
    /// has the next version. A newer stored version is a `.conflict`, never overwritten.
    /// Version 0 says the version is unknown (a post that did not name one): it overwrites.
    func update(_ profile: Profile) async throws(ProfileRepositoryError) -> Profile
    /// Whether a profile with that id existed.
    func delete(id: Int) async throws(ProfileRepositoryError) -> Bool
}

extension ProfileRepository {
    /// Every profile, by name.
    public func list() async throws(ProfileRepositoryError) -> [Profile] {
        try await list(limit: Int(Int32.max), offset: 0).profiles
    }
}

/// Part of the profiles, and how many there are in all (read together, so they agree).
public struct ProfileListPage: Sendable, Equatable {
    public let profiles: [Profile]
    public let total: Int

    public init(profiles: [Profile], total: Int) {
        self.profiles = profiles
        self.total = total
    }
}

public enum ProfileRepositoryError: Error, Sendable, Equatable {
    /// The profile was saved by someone else since it was loaded; `current` is what is stored.
    case conflict(current: Profile)
    case notFound
    /// The storage failed (disk full, file unreadable): the message is for the log.
    case storage(String)
    /// The database could not be reached in time; it may be back in a moment.
    case unreachable(String)
}
