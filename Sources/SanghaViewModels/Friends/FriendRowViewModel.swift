import Foundation
import SanghaCore

/// One friend in the list: what the row shows and the two actions on it.
public struct FriendRowViewModel: Sendable, Equatable, Encodable {
    public let id: Int
    public let fullName: String
    public let phoneNumberText: String
    public let editURL: String
    public let deleteURL: String
    /// "Edit" and "Delete".
    public let editText: String
    public let deleteText: String
    /// Labels of the buttons for screen readers: "Edit Jane Doe", "Delete Jane Doe".
    public let editLabel: String
    public let deleteLabel: String
    /// The question the browser asks before deleting.
    public let deleteConfirmation: String

    public init(friend: Friend, words: Words) {
        let fullName = friend.fullName
        self.id = friend.id
        // Isolated as shown; posted back with a deletion, it names the friend in its flash,
        // which does not isolate it again.
        self.fullName = words.isolated(fullName)
        self.phoneNumberText = friend.phonenumber
        self.editURL = Paths.editFriend.url(friend.id)
        self.deleteURL = Paths.deleteFriend.url(friend.id)
        (self.editText, self.deleteText) = (words.friendsEdit, words.friendsDelete)
        self.editLabel = words.friendsEditNamed(name: fullName)
        self.deleteLabel = words.friendsDeleteNamed(name: fullName)
        self.deleteConfirmation = words.friendsDeleteConfirm(name: fullName)
    }
}
