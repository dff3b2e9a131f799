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
    public let savedNotice: String?
    public let allURL = "/friends"
    public let allLabel: String
    public let addURL = "/friends/new"

    public init(state: FriendsListViewModel.State, total: Int = 0) {
        switch state {
        case .rows(let rows):
            (self.rows, emptyMessage, errorMessage, savedNotice) = (Array(rows.prefix(Self.limit)), nil, nil, nil)
        case .error(let message):
            (rows, emptyMessage, errorMessage, savedNotice) = ([], nil, message, nil)
        case .empty(let message):
            (rows, emptyMessage, errorMessage, savedNotice) = ([], message, nil, nil)
        case .savedRows(let rows, let error, let notice):
            (self.rows, emptyMessage, errorMessage, savedNotice) = (Array(rows.prefix(Self.limit)), nil, error, notice)
        }
        hasRows = !rows.isEmpty
        allLabel = total > Self.limit ? "All \(total) friends" : "Manage friends"
    }

    public static func load(from repository: FriendsRepository, timeZone: TimeZone = .current) async
        -> FriendsPanelViewModel
    {
        do {
            switch try await repository.listFriends() {
            case .live(let friends):
                let state = FriendsListViewModel.state(for: friends, query: "", formToken: "")
                return FriendsPanelViewModel(state: state, total: friends.count)
            case .saved(let saved, let failure):
                let state = FriendsListViewModel.savedState(
                    saved,
                    failure: failure,
                    query: "",
                    formToken: "",
                    timeZone: timeZone
                )
                return FriendsPanelViewModel(state: state, total: saved.friends.count)
            }
        } catch {
            return FriendsPanelViewModel(state: .error(FriendOperation.load.message(for: error.reason)))
        }
    }
}
