import Foundation
import Synchronization

/// The friends as the app reads them: the FriendService first, and when it fails, the last
/// list it gave, kept in local storage (seed 004's Repository: Remote + Storage).
///
/// Only reading falls back. Writes go to the service alone and fail when it fails: a change is
/// never queued to be sent later without the person knowing.
public struct FriendsRepository: Sendable {
    /// What a list request found.
    public enum Listing: Sendable, Equatable {
        /// The service answered.
        case live([Friend])
        /// The service failed; this is the last list it gave, saved at that time.
        case saved(SavedFriendList, failure: FriendServiceError)
    }

    public let remote: any FriendService
    public let storage: (any FriendListStorage)?
    public let now: @Sendable () -> Date
    /// An unchanged list is written again at most this often, to refresh its time; a changed
    /// one at once. Every page view writing to SQLite would cost more than the page.
    public static let refreshInterval: TimeInterval = 60
    private let lastSaved = LastSaved()

    public init(
        remote: any FriendService,
        storage: (any FriendListStorage)? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.remote = remote
        self.storage = storage
        self.now = now
    }

    /// The service's list, saved for later; or, when the service fails, the saved one.
    /// Throws only when the service fails and nothing was ever saved.
    public func listFriends() async throws(FriendServiceError) -> Listing {
        do {
            let friends = try await remote.listFriends()
            let date = now()
            if let storage, lastSaved.needsSaving(friends, at: date) {
                // A list that cannot be saved is still shown; saving is only for a later failure.
                do {
                    try await storage.save(friends, at: date)
                } catch {
                    lastSaved.forget()
                }
            }
            return .live(friends)
        } catch {
            guard let saved = try? await storage?.load() else { throw error }
            return .saved(saved, failure: error)
        }
    }
}

/// The list this process saved last, and when.
private final class LastSaved: Sendable {
    private let saved = Mutex<SavedFriendList?>(nil)

    /// Whether `friends` differ from the last list saved, or that was saved long enough ago;
    /// if so, `friends` at `date` count as saved from now on.
    func needsSaving(_ friends: [Friend], at date: Date) -> Bool {
        saved.withLock { last in
            if let saved = last, saved.friends == friends,
                date.timeIntervalSince(saved.savedAt) < FriendsRepository.refreshInterval
            {
                // This very array from now on: the next page sharing it compares in O(1).
                last = SavedFriendList(friends: friends, savedAt: saved.savedAt)
                return false
            }
            last = SavedFriendList(friends: friends, savedAt: date)
            return true
        }
    }

    func forget() {
        saved.withLock { $0 = nil }
    }
}
