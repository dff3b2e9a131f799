import Foundation
import SanghaCore

/// One friend in the list: what the row shows and the two actions on it.
public struct FriendRowViewModel: Sendable, Equatable, Encodable {
    public let id: Int
    public let fullName: String
    public let phoneNumberText: String
    public let editURL: String
    public let deleteURL: String
    /// Labels of the buttons for screen readers: "Edit Jane Doe", "Delete Jane Doe".
    public let editLabel: String
    public let deleteLabel: String
    /// The question the browser asks before deleting.
    public let deleteConfirmation: String
    /// The CSRF token the delete form carries.
    public let formToken: String

    public init(friend: Friend, formToken: String) {
        let fullName = friend.fullName
        self.id = friend.id
        self.fullName = fullName
        self.phoneNumberText = friend.phonenumber
        let url = "/friends/" + String(friend.id)
        self.editURL = url + "/edit"
        self.deleteURL = url + "/delete"
        self.editLabel = "Edit " + fullName
        self.deleteLabel = "Delete " + fullName
        self.deleteConfirmation = "Remove " + fullName + " from your friends?"
        self.formToken = formToken
    }

    /// The same row in another browser's page: with its token.
    public func with(formToken: String) -> FriendRowViewModel {
        FriendRowViewModel(copying: self, formToken: formToken)
    }

    private init(copying row: FriendRowViewModel, formToken: String) {
        (id, fullName, phoneNumberText) = (row.id, row.fullName, row.phoneNumberText)
        (editURL, deleteURL) = (row.editURL, row.deleteURL)
        (editLabel, deleteLabel, deleteConfirmation) = (row.editLabel, row.deleteLabel, row.deleteConfirmation)
        self.formToken = formToken
    }
}
