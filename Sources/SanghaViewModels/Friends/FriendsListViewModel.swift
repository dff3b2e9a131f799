import Foundation
import SanghaCore

/// The friends page: a search box and exactly one of the seed's three cell types — the rows,
/// the error row, or the empty row.
public struct FriendsListViewModel: Sendable, Equatable, Encodable {
    /// The three states of the list. A view model is built from one, so it can never show rows
    /// and an error at once.
    public enum State: Sendable, Equatable {
        case rows([FriendRowViewModel])
        case error(String)
        case empty(String)
    }

    public static let noFriendsMessage = "No data available"

    public let layout: LayoutViewModel
    public let query: String
    public let hasQuery: Bool
    public let searchURL = "/friends"
    public let addURL = "/friends/new"
    public let rows: [FriendRowViewModel]
    public let hasRows: Bool
    public let errorMessage: String?
    public let emptyMessage: String?

    public init(state: State, query: String = "", flash: FlashViewModel? = nil) {
        self.layout = LayoutViewModel(title: "Friends", section: .friends, flash: flash)
        self.query = query
        self.hasQuery = !query.isEmpty
        switch state {
        case .rows(let rows):
            (self.rows, self.errorMessage, self.emptyMessage) = (rows, nil, nil)
        case .error(let message):
            (self.rows, self.errorMessage, self.emptyMessage) = ([], message, nil)
        case .empty(let message):
            (self.rows, self.errorMessage, self.emptyMessage) = ([], nil, message)
        }
        self.hasRows = !rows.isEmpty
    }

    /// Loads the friends and keeps those whose name or phone number contains `query`,
    /// ignoring case and diacritics.
    public static func load(
        from service: any FriendService,
        query rawQuery: String? = nil,
        formToken: String,
        flash: FlashViewModel? = nil
    ) async -> FriendsListViewModel {
        let query = rawQuery?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        do {
            let friends = try await service.listFriends()
            return FriendsListViewModel(
                state: state(for: friends, query: query, formToken: formToken), query: query, flash: flash)
        } catch {
            return FriendsListViewModel(
                state: .error(FriendOperation.load.message(for: error.reason)),
                query: query,
                flash: flash
            )
        }
    }

    static func state(for friends: [Friend], query: String, formToken: String) -> State {
        if friends.isEmpty { return .empty(noFriendsMessage) }
        let matches = query.isEmpty ? friends : friends.filter { $0.matches(query) }
        if matches.isEmpty { return .empty("No friends match “\(query)”.") }
        return .rows(matches.map { FriendRowViewModel(friend: $0, formToken: formToken) })
    }
}

extension Friend {
    func matches(_ query: String) -> Bool {
        let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive]
        return fullName.range(of: query, options: options) != nil
            || phonenumber.range(of: query.filter { !$0.isWhitespace }, options: options) != nil
    }
}
