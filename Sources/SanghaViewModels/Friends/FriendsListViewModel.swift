import Foundation
import SanghaCore

/// The friends page: a search box and one of the three cell types — the rows, the error
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

    /// The empty row's words, in English (`words.friendsNoData`).
    public static let noFriendsMessage = Words.english.friendsNoData

    public let layout: LayoutViewModel
    public let query: String
    public let hasQuery: Bool
    public let searchURL: String = Paths.friends.url
    public let addURL: String = Paths.newFriend.url
    public let heading: String
    public let addLabel: String
    public let searchLabel: String
    public let searchPlaceholder: String
    public let searchButton: String
    public let clearSearchLabel: String
    public let rows: [FriendRowViewModel]
    public let hasRows: Bool
    public let errorMessage: String?
    public let emptyMessage: String?
    /// "Showing the list saved on …", when the rows are a saved list.
    public let savedNotice: String?
    /// Previous and Next when the list is longer than a page; they keep the search.
    public let paging: PagingViewModel?

    /// Page `page` (50 rows; from 1) of the list `state` holds.
    public init(state: State, query: String = "", page: Int = 1, context: PageContext) {
        let words = context.words
        self.layout = LayoutViewModel(
            title: page > 1 ? words.friendsTitlePage(page: words.number(page)) : words.friendsTitle,
            section: .friends, context: context)
        (heading, addLabel) = (words.friendsTitle, words.friendsAdd)
        (searchLabel, searchPlaceholder) = (words.friendsSearchLabel, words.friendsSearchPlaceholder)
        (searchButton, clearSearchLabel) = (words.friendsSearch, words.friendsClearSearch)
        self.query = query
        self.hasQuery = !query.isEmpty
        let all: [FriendRowViewModel]
        switch state {
        case .rows(let rows):
            (all, self.errorMessage, self.emptyMessage, self.savedNotice) = (rows, nil, nil, nil)
        case .error(let message):
            (all, self.errorMessage, self.emptyMessage, self.savedNotice) = ([], message, nil, nil)
        case .empty(let message):
            (all, self.errorMessage, self.emptyMessage, self.savedNotice) = ([], nil, message, nil)
        case .savedRows(let rows, let error, let notice):
            (all, self.errorMessage, self.emptyMessage, self.savedNotice) = (rows, error, nil, notice)
        }
        self.rows = Array(PagingViewModel.slice(all, page: page))
        self.hasRows = !rows.isEmpty
        self.paging = PagingViewModel(
            page: page, pageCount: PagingViewModel.pageCount(rows: all.count), path: Paths.friends.url,
            parameters: query.isEmpty ? [] : [("q", query)], words: words)
    }

    /// Builds the rows of a whole list. The web layer may pass one that shares the rows among the
    /// pages showing the same list: a row holds nothing of one browser's (its delete form reads
    /// the page's token).
    public typealias RowsBuilder = @Sendable (_ friends: [Friend]) -> [FriendRowViewModel]

    public static let buildRows: RowsBuilder = { friends in makeRows(friends, words: .english) }

    /// The rows of `friends`, in `words`' language.
    public static func makeRows(_ friends: [Friend], words: Words) -> [FriendRowViewModel] {
        friends.map { FriendRowViewModel(friend: $0, words: words) }
    }

    /// Loads the friends, keeps those whose name or phone number contains `query` (ignoring
    /// case and diacritics), and shows page `page` of them; a page past the last is not found
    /// (the first always exists). Without `rows`, the rows are built in the page's language.
    public static func load(
        from repository: FriendsRepository,
        query rawQuery: String? = nil,
        page: Int = 1,
        context: PageContext,
        rows: RowsBuilder? = nil
    ) async -> LoadOutcome<FriendsListViewModel> {
        let words = context.words
        let rows = rows ?? { makeRows($0, words: words) }
        let query = rawQuery?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let state: State
        do {
            switch try await repository.listFriends() {
            case .live(let friends):
                state = Self.state(for: friends, query: query, rows: rows, words: words)
            case .saved(let saved, let failure):
                state = Self.savedState(
                    saved, failure: failure, query: query, timeZone: context.timeZone, words: words)
            }
        } catch {
            state = .error(FriendOperation.load.message(for: error.reason, words: words))
        }
        // A failure has no rows, and says so on whichever page was asked for.
        guard state.isError || page <= PagingViewModel.pageCount(rows: state.rowCount) else { return .notFound }
        return .page(FriendsListViewModel(state: state, query: query, page: page, context: context))
    }

    /// The rows of the list saved at the service's last answer, marked with why it is shown.
    public static func savedState(
        _ saved: SavedFriendList,
        failure: FriendServiceError,
        query: String,
        timeZone: TimeZone,
        words: Words
    ) -> State {
        let message = FriendOperation.load.message(for: failure.reason, words: words)
        guard case .rows(let rows) = state(for: saved.friends, query: query, words: words) else {
            return .error(message)
        }
        return .savedRows(rows, error: message, notice: savedNotice(saved, timeZone: timeZone, words: words))
    }

    /// "Showing the list saved on …". (The time is written as English writes it, in every
    /// language, until the formatters speak the person's.)
    static func savedNotice(_ saved: SavedFriendList, timeZone: TimeZone, words: Words) -> String {
        words.friendsSavedNotice(time: SavedTimeFormatter.string(from: saved.savedAt, timeZone: timeZone))
    }

    static func state(for friends: [Friend], query: String, rows: RowsBuilder? = nil, words: Words)
        -> State
    {
        if friends.isEmpty { return .empty(words.friendsNoData) }
        if query.isEmpty { return .rows((rows ?? { makeRows($0, words: words) })(friends)) }
        let matches = friends.filter { $0.matches(query) }
        if matches.isEmpty { return .empty(words.friendsNoMatch(query: query)) }
        return .rows(makeRows(matches, words: words))
    }
}

extension FriendsListViewModel.State {
    var isError: Bool {
        if case .error = self { true } else { false }
    }

    var rowCount: Int {
        switch self {
        case .rows(let rows), .savedRows(let rows, _, _): rows.count
        case .error, .empty: 0
        }
    }
}

extension Friend {
    func matches(_ query: String) -> Bool {
        let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive]
        return fullName.range(of: query, options: options) != nil
            || phonenumber.range(of: query.filter { !$0.isWhitespace }, options: options) != nil
    }
}
