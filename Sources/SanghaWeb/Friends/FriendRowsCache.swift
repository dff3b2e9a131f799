import SanghaCore
import SanghaViewModels

/// The rows of the last whole friends list shown. Concurrent friends pages share one
/// FriendService call (`CoalescingFriendService`), so one list: its rows' strings are built once,
/// not once per page. A row holds nothing of one browser's, so every page shares them as they are.
public final class FriendRowsCache: Sendable {
    private let memo = LastResult<[Friend], [FriendRowViewModel]>()

    public init() {}

    public func rows(for friends: [Friend]) -> [FriendRowViewModel] {
        memo.value(for: friends, FriendsListViewModel.buildRows)
    }
}
