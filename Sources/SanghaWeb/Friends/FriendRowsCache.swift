import SanghaCore
import SanghaViewModels

/// The rows of the last whole friends list shown. Concurrent friends pages share one
/// FriendService call (`CoalescingFriendService`), so one list: its rows' strings are built once,
/// not once per page, and a page for another browser copies them with its own form token.
public final class FriendRowsCache: Sendable {
    private let memo = Memo<[Friend], [FriendRowViewModel]>()

    public init() {}

    public func rows(for friends: [Friend], formToken: String) -> [FriendRowViewModel] {
        let rows = memo.value(for: friends) { FriendsListViewModel.buildRows($0, formToken) }
        return rows.first?.formToken == formToken ? rows : rows.map { $0.with(formToken: formToken) }
    }
}
