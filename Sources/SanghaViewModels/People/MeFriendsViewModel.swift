import Foundation
import SanghaCore

/// The friends on the person's own page: how many, the first few by name, or why the list
/// could not be loaded. What it shows of the list, and the words for a failure, are the home
/// page's friends panel's.
public struct MeFriendsViewModel: Sendable, Equatable, Encodable {
    public let title: String
    /// `3 friends`; nil when the list could not be loaded and none was saved.
    public let countText: String?
    /// The first `FriendsPanelViewModel.limit` friends' full names.
    public let names: [String]
    public let hasNames: Bool
    public let errorMessage: String?
    /// The list shown is the one saved at the service's last answer.
    public let savedNotice: String?
    public let allURL: String
    public let allLabel: String
    public let addURL: String
    public let addLabel: String

    /// What the home page's friends panel shows of the same list, with how many there are.
    public init(panel: FriendsPanelViewModel, words: Words) {
        title = words.layoutFriends
        let failedWithNothing = panel.friendCount == 0 && panel.errorMessage != nil
        countText = failedWithNothing ? nil : words.meFriends(panel.friendCount)
        names = panel.items.map(\.fullName)
        hasNames = panel.hasItems
        errorMessage = panel.errorMessage
        savedNotice = panel.savedNotice
        allURL = panel.allURL
        allLabel = panel.allLabel
        addURL = panel.addURL
        addLabel = panel.addLabel
    }

    /// `friends` empty with `errorMessage`: the list could not be loaded and none was saved.
    public init(friends: [Friend], errorMessage: String? = nil, savedNotice: String? = nil, words: Words) {
        self.init(
            panel: FriendsPanelViewModel(
                friends: friends, errorMessage: errorMessage, savedNotice: savedNotice, words: words),
            words: words)
    }

    /// The list as the friends panel loads it: the service's, else the saved one with the
    /// failure's message, else the message alone.
    public static func load(from repository: FriendsRepository, context: PageContext) async -> MeFriendsViewModel {
        MeFriendsViewModel(
            panel: await FriendsPanelViewModel.load(from: repository, context: context), words: context.words)
    }
}
