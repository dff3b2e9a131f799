import Foundation
import SanghaCore

/// The four things the app asks of the FriendService, each with its own words for failure
/// (docs/architecture.md, "The FriendService"). The reason's message depends on what was
/// being done.
public enum FriendOperation: Sendable {
    case load
    case add(FriendDraft)
    case update
    /// An empty name: the row's was not sent ("Could not remove friend.").
    case delete(fullName: String)

    /// The alert title of a failed write; loading has none (its message stands in the list).
    public func failureTitle(_ words: Words) -> String {
        switch self {
        case .load: words.friendsLoadFailedTitle
        case .add(let draft): words.friendsAddFailed(name: "\(draft.firstname) \(draft.lastname)")
        case .update: words.friendsUpdateFailed
        case .delete(let fullName):
            fullName.isEmpty ? words.friendsRemoveFailedUnnamed : words.friendsRemoveFailed(name: fullName)
        }
    }

    /// The message for `reason`: 401 and 404 have their own, everything else shares one. The
    /// service's own reason for refusing a value stays as it wrote it.
    public func message(for reason: FriendServiceError.Reason, words: Words) -> String {
        switch (self, reason) {
        case (.load, .unauthorized): words.friendsLoadUnauthorized
        case (.load, .notFound): words.friendsLoadNotFound
        case (.load, _): words.friendsLoadFailed
        case (.add, .unauthorized): words.friendsAddUnauthorized
        case (.add, .notFound): words.friendsAddNotFound
        case (.update, .unauthorized): words.friendsUpdateUnauthorized
        case (.update, .notFound): words.friendsUpdateNotFound
        case (.delete, .unauthorized): words.friendsRemoveUnauthorized
        case (.delete, .notFound): words.friendsRemoveNotFound
        case (.add, .invalid(let reason)), (.update, .invalid(let reason)), (.delete, .invalid(let reason)): reason
        case (.add, _), (.update, _), (.delete, _): words.friendsUnreachable
        }
    }

    public func alert(for reason: FriendServiceError.Reason, words: Words) -> AlertViewModel {
        AlertViewModel(title: failureTitle(words), message: message(for: reason, words: words))
    }
}
