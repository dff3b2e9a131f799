import SanghaCore
import SanghaFixtures
import SanghaTestSupport
import SanghaViewModels
import SanghaWeb
import Synchronization
import Testing

@Suite("The last result")
struct LastResultTests {
    @Test("The same input gives the kept result without calling again; another input calls again")
    func lastInput() {
        let memo = LastResult<[Int], String>()
        let calls = Mutex(0)
        let describe = { (numbers: [Int]) -> String in
            calls.withLock { $0 += 1 }
            return numbers.map(String.init).joined(separator: ",")
        }
        #expect(memo.value(for: [1, 2], describe) == "1,2")
        #expect(memo.value(for: [1, 2], describe) == "1,2")
        #expect(calls.withLock { $0 } == 1)
        #expect(memo.value(for: [3], describe) == "3")
        #expect(memo.value(for: [1, 2], describe) == "1,2")
        #expect(calls.withLock { $0 } == 3)
    }
}

@Suite("Friend rows cache")
struct FriendRowsCacheTests {
    @Test("Pages showing the same list share its rows, each page with its own token; a changed list is new rows")
    func sharedRows() async throws {
        let friends = Mutex<[Friend]>([.jane, .kenji])
        let repository = FriendsRepository(remote: FakeFriendService(list: { friends.withLock { $0 } }))
        let cache = FriendRowsCache()
        let load = { (token: String, query: String?) async throws in
            try #require(
                await FriendsListViewModel.load(
                    from: repository, query: query, context: PageContext(formToken: token),
                    rows: { cache.rows(for: $0, words: .english) }
                ).shownPage)
        }
        let first = try await load("token-a", nil)
        let again = try await load("token-a", nil)
        let other = try await load("token-b", nil)
        #expect(first.rows == again.rows)
        #expect(other.rows == first.rows)
        #expect(other.rows == [.init(friend: .jane, words: .english), .init(friend: .kenji, words: .english)])
        #expect((first.layout.formToken, other.layout.formToken) == ("token-a", "token-b"))
        // Every form of the page carries the page's own token.
        #expect(Set(formTokens(in: other.compiledHTML())) == ["token-b"])

        friends.withLock { $0 = [.amira] }
        let changed = try await load("token-a", nil)
        #expect(changed.rows == [.init(friend: .amira, words: .english)])
        let searched = try await load("token-a", "zzz")
        #expect(searched.rows.isEmpty)
        #expect(searched.emptyMessage == "No friends match “zzz”.")
    }
}
