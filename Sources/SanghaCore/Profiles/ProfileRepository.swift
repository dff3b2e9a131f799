import Foundation

/// Where profiles are kept. The live one is SQLite (SanghaStore); tests use an in-memory one.
public protocol ProfileRepository: Sendable {
    /// Every profile, by name.
    func list() async throws(ProfileRepositoryError) -> [Profile]
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

public enum ProfileRepositoryError: Error, Sendable, Equatable {
    /// The profile was saved by someone else since it was loaded; `current` is what is stored.
    case conflict(current: Profile)
    case notFound
    /// The storage failed (disk full, file unreadable): the message is for the log.
    case storage(String)
    /// The database could not be reached in time; it may be back in a moment.
    case unreachable(String)
}
