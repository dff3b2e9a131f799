import Foundation
import SanghaCore
import Synchronization

/// The list this process saved last for each person, and when: a store of the saved friends
/// list writes an unchanged list again only after `refreshInterval`, and a changed one at once.
public final class FriendListSaveThrottle: Sendable {
    /// How long an unchanged list waits before it is written again.
    public static let refreshInterval: TimeInterval = 60
    private let saved = Mutex<[Int: SavedFriendList]>([:])
    /// The list each person's store last wrote, once the write is done.
    private let written = Mutex<[Int: SavedFriendList]>([:])

    public init() {}

    /// Whether `friends` differ from the last list saved for `person`, or that was saved
    /// `refreshInterval` ago or more; if so, `friends` at `date` count as saved from now on.
    public func needsSaving(_ friends: [Friend], at date: Date, for person: Int) -> Bool {
        saved.withLock { lists in
            if let saved = lists[person], saved.friends == friends,
                date.timeIntervalSince(saved.savedAt) < Self.refreshInterval
            {
                // This very array from now on: the next page sharing it compares in O(1).
                lists[person] = SavedFriendList(friends: friends, savedAt: saved.savedAt)
                return false
            }
            lists[person] = SavedFriendList(friends: friends, savedAt: date)
            return true
        }
    }

    /// The list this process wrote last for `person`, and when, if it has written one since it
    /// started.
    public func lastWritten(for person: Int) -> SavedFriendList? {
        written.withLock { $0[person] }
    }

    /// `friends` at `date` are written for `person`.
    public func wrote(_ friends: [Friend], at date: Date, for person: Int) {
        written.withLock { $0[person] = SavedFriendList(friends: friends, savedAt: date) }
    }

    /// After a failed write, or when the person's list changed hands (a new token, an account
    /// deleted): the next list is written whatever it is.
    public func forget(_ person: Int) {
        _ = saved.withLock { $0.removeValue(forKey: person) }
        _ = written.withLock { $0.removeValue(forKey: person) }
    }
}
