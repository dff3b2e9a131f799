import Foundation
import SanghaCore

/// Removing a friend from the list's delete button. Either way the person goes back to the
/// list, with a flash saying what happened.
public enum FriendDeletion {
    /// `fullName` comes from the row that was deleted; it names the friend in the messages.
    public static func submit(
        id: Int, fullName: String?, to service: any FriendService, words: Words
    ) async -> Redirect {
        let name = fullName.flatMap { $0.isEmpty ? nil : $0 }
        do {
            try await service.deleteFriend(id: id)
            let text = name.map { words.friendsRemoved(name: $0) } ?? words.friendsRemovedUnnamed
            return Redirect(to: Paths.friends.url, flash: .success(text))
        } catch {
            let alert = FriendOperation.delete(fullName: name ?? "").alert(for: error.reason, words: words)
            return Redirect(to: Paths.friends.url, flash: .error(title: alert.title, message: alert.message))
        }
    }
}
