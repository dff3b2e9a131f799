import Foundation
import SanghaCore
import Synchronization

/// The saved friends list in memory.
public final class InMemoryFriendListStorage: FriendListStorage {
    private let saved: Mutex<SavedFriendList?>

    public init(_ saved: SavedFriendList? = nil) {
        self.saved = Mutex(saved)
    }

    public func save(_ friends: [Friend], at date: Date) async throws {
        saved.withLock { $0 = SavedFriendList(friends: friends, savedAt: date) }
    }

    public func load() async throws -> SavedFriendList? {
        saved.withLock { $0 }
    }
}
