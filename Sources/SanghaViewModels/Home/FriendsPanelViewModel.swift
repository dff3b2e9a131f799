import Foundation
import SanghaCore

/// The home page's friends panel: the list's three states, in short.
public struct FriendsPanelViewModel: Sendable, Equatable, Encodable {
    public static let limit = 5

    public let title = "Friends"
    public let rows: [FriendRowViewModel]
    public let hasRows: Bool
    public let emptyMessage: String?
    public let errorMessage: String?
    public let allURL = "/friends"
    public let allLabel: String
    public let addURL = "/friends/new"

    public init(state: FriendsListViewModel.State, total: Int = 0) {
        switch state {
        case .rows(let rows):
            (self.rows, emptyMessage, errorMessage) = (Array(rows.prefix(Self.limit)), nil, nil)
        case .error(let message):
            (rows, emptyMessage, errorMessage) = ([], nil, message)
        case .empty(let message):
            (rows, emptyMessage, errorMessage) = ([], message, nil)
        }
        hasRows = !rows.isEmpty
        allLabel = total > Self.limit ? "All \(total) friends" : "Manage friends"
    }

    public static func load(from service: any FriendService) async -> FriendsPanelViewModel {
        do {
            let friends = try await service.listFriends()
            return FriendsPanelViewModel(
                state: FriendsListViewModel.state(for: friends, query: "", formToken: ""), total: friends.count)
        } catch {
            return FriendsPanelViewModel(state: .error(FriendOperation.load.message(for: error.reason)))
        }
    }
}
