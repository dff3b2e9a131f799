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

    public let title: String
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
    public let addLabel: String

    /// `friends` nil with `errorMessage`: the list could not be loaded and none was saved. In
    /// `words`' language (`errorMessage` and `savedNotice` come as they are).
    public init(friends: [Friend], errorMessage: String? = nil, savedNotice: String? = nil, words: Words) {
        (title, addLabel) = (words.homeFriends, words.homeAddFriend)
        friendCount = friends.count
        items = friends.prefix(Self.limit).map {
            Item(fullName: words.isolated($0.fullName), phoneNumberText: $0.phonenumber)
        }
        hasItems = !items.isEmpty
        emptyMessage = friends.isEmpty && errorMessage == nil ? words.homeNoFriends : nil
        self.errorMessage = errorMessage
        self.savedNotice = savedNotice
        allLabel = friends.count > Self.limit ? words.homeAllFriends(friends.count) : words.homeManageFriends
    }

    public static func load(from repository: FriendsRepository, context: PageContext) async -> FriendsPanelViewModel {
        do {
            switch try await repository.listFriends() {
            case .live(let friends):
                return FriendsPanelViewModel(friends: friends, words: context.words)
            case .saved(let saved, let failure):
                return FriendsPanelViewModel(
                    friends: saved.friends,
                    errorMessage: FriendOperation.load.message(for: failure.reason, words: context.words),
                    savedNotice: FriendsListViewModel.savedNotice(
                        saved, timeZone: context.timeZone, words: context.words),
                    words: context.words
                )
            }
        } catch {
            return FriendsPanelViewModel(
                friends: [], errorMessage: FriendOperation.load.message(for: error.reason, words: context.words),
                words: context.words)
        }
    }
}
