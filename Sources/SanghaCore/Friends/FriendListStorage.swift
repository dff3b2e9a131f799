import Foundation

/// Local storage of the last list the FriendService gave (the storage half of a
/// repository): SQLite (SanghaStore) or PostgreSQL (SanghaPostgres).
public protocol FriendListStorage: Sendable {
    /// Called with every list the service gives; a store may skip writing one it already has.
    func save(_ friends: [Friend], at date: Date) async throws
    /// The last list saved and when, or nil when none was.
    func load() async throws -> SavedFriendList?
}

public struct SavedFriendList: Sendable, Equatable, Codable {
    public let friends: [Friend]
    public let savedAt: Date

    public init(friends: [Friend], savedAt: Date) {
        self.friends = friends
        self.savedAt = savedAt
    }
}
