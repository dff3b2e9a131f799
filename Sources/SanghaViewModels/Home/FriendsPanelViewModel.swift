import Foundation
import SanghaCore

/// The home page's friends panel: the list's three states, in short.
public struct FriendsPanelViewModel: Sendable, Equatable, Encodable {
    public static let limit = 5

    /// A friend in the panel: name and number, no actions.
    public struct Item: Sendable, Equatable, Encodable {
        public let fullName: String
        public let phoneNumberText: String
    }

    public let title = "Friends"
    /// How many friends the list has (the saved one's, when the service failed).
    public let friendCount: Int
    public let items: [Item]
    public let hasItems: Bool
    public let emptyMessage: String?
    public let errorMessage: String?
    public let savedNotice: String?
    public let allURL: String = Paths.friends.url
    public let allLabel: String
    public let addURL: String = Paths.newFriend.url
    public let addLabel = "Add friend"

    /// `friends` nil with `errorMessage`: the list could not be loaded and none was saved.
    public init(friends: [Friend], errorMessage: String? = nil, savedNotice: String? = nil) {
        friendCount = friends.count
        items = friends.prefix(Self.limit).map { Item(fullName: $0.fullName, phoneNumberText: $0.phonenumber) }
        hasItems = !items.isEmpty
        emptyMessage = friends.isEmpty && errorMessage == nil ? FriendsListViewModel.noFriendsMessage : nil
        self.errorMessage = errorMessage
        self.savedNotice = savedNotice
        allLabel = friends.count > Self.limit ? "All \(friends.count) friends" : "Manage friends"
    }

    public static func load(from repository: FriendsRepository, context: PageContext) async -> FriendsPanelViewModel {
        do {
            switch try await repository.listFriends() {
            case .live(let friends):
                return FriendsPanelViewModel(friends: friends)
            case .saved(let saved, let failure):
                return FriendsPanelViewModel(
                    friends: saved.friends,
                    errorMessage: FriendOperation.load.message(for: failure.reason),
                    savedNotice: FriendsListViewModel.savedNotice(saved, timeZone: context.timeZone)
                )
            }
        } catch {
            return FriendsPanelViewModel(friends: [], errorMessage: FriendOperation.load.message(for: error.reason))
        }
    }
}
