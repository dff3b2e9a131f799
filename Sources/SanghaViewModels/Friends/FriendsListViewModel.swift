import Foundation
import SanghaCore

/// The friends page: a search box and one of the seed's three cell types — the rows, the error
/// row, or the empty row — or, when the FriendService fails but an earlier list was saved, that
/// list's rows under the error message, marked with when it was saved.
public struct FriendsListViewModel: Sendable, Equatable, Encodable {
    /// The three states of the list. A view model is built from one, so it can never show rows
    /// and an error at once.
    public enum State: Sendable, Equatable {
        case rows([FriendRowViewModel])
        case error(String)
        case empty(String)
        /// The service failed (`error`); the rows are the last list it gave, `notice` says when.
        case savedRows([FriendRowViewModel], error: String, notice: String)
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
    /// "Showing the list saved on …", when the rows are a saved list.
    public let savedNotice: String?

    public init(state: State, query: String = "", flash: FlashViewModel? = nil) {
        self.layout = LayoutViewModel(title: "Friends", section: .friends, flash: flash)
        self.query = query
        self.hasQuery = !query.isEmpty
        switch state {
        case .rows(let rows):
            (self.rows, self.errorMessage, self.emptyMessage, self.savedNotice) = (rows, nil, nil, nil)
        case .error(let message):
            (self.rows, self.errorMessage, self.emptyMessage, self.savedNotice) = ([], message, nil, nil)
        case .empty(let message):
            (self.rows, self.errorMessage, self.emptyMessage, self.savedNotice) = ([], nil, message, nil)
        case .savedRows(let rows, let error, let notice):
            (self.rows, self.errorMessage, self.emptyMessage, self.savedNotice) = (rows, error, nil, notice)
        }
        self.hasRows = !rows.isEmpty
    }

    /// Loads the friends and keeps those whose name or phone number contains `query`,
    /// ignoring case and diacritics. With `rows`, the rows of a whole list are built once for
    /// all the pages that show that same list.
    public static func load(
        from repository: FriendsRepository,
        query rawQuery: String? = nil,
        formToken: String,
        flash: FlashViewModel? = nil,
        timeZone: TimeZone = .current,
        rows memo: FriendRowsMemo? = nil
    ) async -> FriendsListViewModel {
        let query = rawQuery?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let state: State
        do {
            switch try await repository.listFriends() {
            case .live(let friends):
                state = Self.state(for: friends, query: query, formToken: formToken, memo: memo)
            case .saved(let saved, let failure):
                state = Self.savedState(saved, failure: failure, query: query, formToken: formToken, timeZone: timeZone)
            }
        } catch {
            state = .error(FriendOperation.load.message(for: error.reason))
        }
        return FriendsListViewModel(state: state, query: query, flash: flash)
    }

    static func savedState(
        _ saved: SavedFriendList,
        failure: FriendServiceError,
        query: String,
        formToken: String,
        timeZone: TimeZone
    ) -> State {
        let message = FriendOperation.load.message(for: failure.reason)
        guard case .rows(let rows) = state(for: saved.friends, query: query, formToken: formToken) else {
            return .error(message)
        }
        let when = SavedTimeFormatter.string(from: saved.savedAt, timeZone: timeZone)
        return .savedRows(rows, error: message, notice: "Showing the list saved on \(when).")
    }

    static func state(for friends: [Friend], query: String, formToken: String, memo: FriendRowsMemo? = nil) -> State {
        if friends.isEmpty { return .empty(noFriendsMessage) }
        if query.isEmpty, let memo {
            let rows = memo.value(for: friends) { $0.map { FriendRowViewModel(friend: $0, formToken: formToken) } }
            return .rows(rows.first?.formToken == formToken ? rows : rows.map { $0.with(formToken: formToken) })
        }
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
