import SanghaCore
import SanghaTestSupport
import SanghaViewModels
import Synchronization
import Testing

@Suite("Friends list view model")
struct FriendsListViewModelTests {
    @Test("Friends become rows, in the service's order")
    func rows() async {
        let page = await FriendsListViewModel.load(
            from: FriendsRepository(remote: FakeFriendService.listing([.jane, .kenji])), formToken: "token")
        #expect(page.rows.map(\.fullName) == ["Jane Doe", "Kenji Satō"])
        #expect(page.hasRows)
        #expect(page.errorMessage == nil)
        #expect(page.emptyMessage == nil)
    }

    @Test("A row shows the full name, the phone number and its two actions")
    func row() {
        let row = FriendRowViewModel(friend: .jane, formToken: "token")
        #expect(row.fullName == "Jane Doe")
        #expect(row.phoneNumberText == "+15550100")
        #expect(row.editURL == "/friends/1/edit")
        #expect(row.deleteURL == "/friends/1/delete")
        #expect(row.deleteLabel == "Delete Jane Doe")
    }

    @Test("Pages showing the same list share its rows; each carries its own token; a changed list is new rows")
    func sharedRows() async {
        let friends = Mutex<[Friend]>([.jane, .kenji])
        let repository = FriendsRepository(remote: FakeFriendService(list: { friends.withLock { $0 } }))
        let memo = FriendRowsMemo()
        let load = { (token: String, query: String?) in
            await FriendsListViewModel.load(from: repository, query: query, formToken: token, rows: memo)
        }
        let first = await load("token-a", nil)
        let again = await load("token-a", nil)
        let other = await load("token-b", nil)
        #expect(first.rows == again.rows)
        #expect(other.rows.map(\.formToken) == ["token-b", "token-b"])
        #expect(other.rows.map(\.fullName) == first.rows.map(\.fullName))
        #expect(
            other.rows == [.init(friend: .jane, formToken: "token-b"), .init(friend: .kenji, formToken: "token-b")])

        friends.withLock { $0 = [.amira] }
        let changed = await load("token-a", nil)
        #expect(changed.rows == [.init(friend: .amira, formToken: "token-a")])
        let searched = await load("token-a", "zzz")
        #expect(searched.rows.isEmpty)
        #expect(searched.emptyMessage == "No friends match “zzz”.")
    }

    @Test("No friends: the empty row says No data available")
    func empty() async {
        let page = await FriendsListViewModel.load(
            from: FriendsRepository(remote: FakeFriendService.listing([])), formToken: "token")
        #expect(page.rows.isEmpty)
        #expect(!page.hasRows)
        #expect(page.emptyMessage == "No data available")
        #expect(page.errorMessage == nil)
    }

    @Test(
        "A failed load shows the error row with the message for its reason",
        arguments: [
            (FriendServiceError.Reason.unauthorized, "Please login to load your friends."),
            (.notFound, "Could not complete request, please try again."),
            (.server(status: 500), "Loading failed, check network connection"),
            (.server(status: 503), "Loading failed, check network connection"),
            (.transport("timed out"), "Loading failed, check network connection"),
            (.decoding("garbage"), "Loading failed, check network connection"),
            (.invalid("bad"), "Loading failed, check network connection"),
        ]
    )
    func error(reason: FriendServiceError.Reason, message: String) async {
        let page = await FriendsListViewModel.load(
            from: FriendsRepository(remote: FakeFriendService.failing(reason)), formToken: "token")
        #expect(page.errorMessage == message)
        #expect(page.rows.isEmpty)
        #expect(page.emptyMessage == nil)
    }

    @Test("The query filters by name or phone number, ignoring case and accents")
    func search() async {
        let service = FriendsRepository(remote: FakeFriendService.listing([.jane, .kenji, .amira]))
        #expect(await FriendsListViewModel.load(from: service, query: "JANE", formToken: "token").rows.map(\.id) == [1])
        #expect(await FriendsListViewModel.load(from: service, query: "sato", formToken: "token").rows.map(\.id) == [2])
        #expect(
            await FriendsListViewModel.load(from: service, query: "o'neil", formToken: "token").rows.map(\.id) == [3])
        #expect(await FriendsListViewModel.load(from: service, query: "0312", formToken: "token").rows.map(\.id) == [2])
        #expect(
            await FriendsListViewModel.load(from: service, query: "+44 7700", formToken: "token").rows.map(\.id) == [3])
        #expect(await FriendsListViewModel.load(from: service, query: "  ", formToken: "token").rows.count == 3)
    }

    @Test("A query that matches nobody says so, and keeps the query")
    func noMatch() async {
        let page = await FriendsListViewModel.load(
            from: FriendsRepository(remote: FakeFriendService.listing([.jane])), query: "zed", formToken: "token")
        #expect(page.emptyMessage == "No friends match “zed”.")
        #expect(page.query == "zed")
        #expect(page.hasQuery)
    }

    @Test("A flash passed in is shown by the layout")
    func flash() async {
        let page = await FriendsListViewModel.load(
            from: FriendsRepository(remote: FakeFriendService.listing([])), formToken: "token",
            flash: .success("Added Jane Doe."))
        #expect(page.layout.flash == .success("Added Jane Doe."))
        #expect(page.layout.navigation.first(where: \.isCurrent)?.url == "/friends")
    }
}
