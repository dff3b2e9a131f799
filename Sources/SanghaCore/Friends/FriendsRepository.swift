import Foundation

/// The friends as the app reads them: the FriendService first, and when it fails, the last
/// list it gave, kept in local storage (a repository of remote and storage).
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
            // A list that cannot be saved is still shown; saving is only for a later failure.
            try? await storage?.save(friends, at: now())
            return .live(friends)
        } catch {
            guard let saved = try? await storage?.load() else { throw error }
            return .saved(saved, failure: error)
        }
    }
}
