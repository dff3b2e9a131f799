import SanghaCore
import SanghaViewModels

/// The rows of the last whole friends list shown. Concurrent friends pages share one
/// FriendService call (`CoalescingFriendService`), so one list: its rows' strings are built once,
/// not once per page. A row holds nothing of one browser's, so every page in the same language
/// shares them as they are; a page in another language builds its own.
public final class FriendRowsCache: Sendable {
    /// A list, in a language.
    private struct Key: Equatable, Sendable {
        let friends: [Friend]
        let language: Language
    }

    private let memo = LastResult<Key, [FriendRowViewModel]>()

    public init() {}

    /// The rows of `friends`, in `words`' language.
    public func rows(for friends: [Friend], words: Words) -> [FriendRowViewModel] {
        memo.value(for: Key(friends: friends, language: words.language)) {
            FriendsListViewModel.makeRows($0.friends, words: words)
        }
    }
}
