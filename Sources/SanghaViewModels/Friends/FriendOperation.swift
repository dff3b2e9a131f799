import Foundation
import SanghaCore

/// The four things the app asks of the FriendService, each with its own words for failure
/// (docs/architecture.md, "The FriendService"). The reason's message depends on what was
/// being done.
public enum FriendOperation: Sendable {
    case load
    case add(FriendDraft)
    case update
    case delete(fullName: String)

    /// The alert title of a failed write; loading has none (its message stands in the list).
    public var failureTitle: String {
        switch self {
        case .load: "Could not load friends."
        case .add(let draft): "Could not add \(draft.firstname) \(draft.lastname)."
        case .update: "Failed to update information."
        case .delete(let fullName): "Could not remove \(fullName)."
        }
    }

    /// The message for `reason`: 401 and 404 have their own, everything else shares one.
    public func message(for reason: FriendServiceError.Reason) -> String {
        switch (self, reason) {
        case (.load, .unauthorized): "Please login to load your friends."
        case (.load, .notFound): "Could not complete request, please try again."
        case (.load, _): "Loading failed, check network connection"
        case (.add, .unauthorized): "Please login to add friends."
        case (.add, .notFound): "Failed to add friend. Please try again."
        case (.update, .unauthorized): "Please login to update friends."
        case (.update, .notFound): "Failed to update friend. Please try again."
        case (.delete, .unauthorized): "Please login to remove friends."
        case (.delete, .notFound): "Friend not found."
        case (.add, .invalid(let reason)), (.update, .invalid(let reason)), (.delete, .invalid(let reason)): reason
        case (.add, _), (.update, _), (.delete, _):
            "Could not connect to server. Check your network and try again later."
        }
    }

    public func alert(for reason: FriendServiceError.Reason) -> AlertViewModel {
        AlertViewModel(title: failureTitle, message: message(for: reason))
    }
}
