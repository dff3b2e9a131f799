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
            from: FriendsRepository(remote: FakeFriendService.listing([.jane, .kenji])), context: .fixture)
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

    @Test("A whole list's rows come from the builder passed in; a search builds its own")
    func rowsBuilder() async {
        let repository = FriendsRepository(remote: FakeFriendService.listing([.jane, .kenji]))
        let built = Mutex(0)
        let rows: FriendsListViewModel.RowsBuilder = { friends, token in
            built.withLock { $0 += 1 }
            return FriendsListViewModel.buildRows(friends, token)
        }
        let page = await FriendsListViewModel.load(from: repository, context: .fixture, rows: rows)
        #expect(page.rows.map(\.formToken) == [fixtureFormToken, fixtureFormToken])
        let search = await FriendsListViewModel.load(from: repository, query: "kenji", context: .fixture, rows: rows)
        #expect(search.rows.map(\.fullName) == ["Kenji Satō"])
        #expect(built.withLock { $0 } == 1)
    }

    @Test("No friends: the empty row says No data available")
    func empty() async {
        let page = await FriendsListViewModel.load(
            from: FriendsRepository(remote: FakeFriendService.listing([])), context: .fixture)
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
            from: FriendsRepository(remote: FakeFriendService.failing(reason)), context: .fixture)
        #expect(page.errorMessage == message)
        #expect(page.rows.isEmpty)
        #expect(page.emptyMessage == nil)
    }

    @Test("The query filters by name or phone number, ignoring case and accents")
    func search() async {
        let service = FriendsRepository(remote: FakeFriendService.listing([.jane, .kenji, .amira]))
        #expect(await FriendsListViewModel.load(from: service, query: "JANE", context: .fixture).rows.map(\.id) == [1])
        #expect(await FriendsListViewModel.load(from: service, query: "sato", context: .fixture).rows.map(\.id) == [2])
        #expect(
            await FriendsListViewModel.load(from: service, query: "o'neil", context: .fixture).rows.map(\.id) == [3])
        #expect(await FriendsListViewModel.load(from: service, query: "0312", context: .fixture).rows.map(\.id) == [2])
        #expect(
            await FriendsListViewModel.load(from: service, query: "+44 7700", context: .fixture).rows.map(\.id) == [3])
        #expect(await FriendsListViewModel.load(from: service, query: "  ", context: .fixture).rows.count == 3)
    }

    @Test("A query that matches nobody says so, and keeps the query")
    func noMatch() async {
        let page = await FriendsListViewModel.load(
            from: FriendsRepository(remote: FakeFriendService.listing([.jane])), query: "zed", context: .fixture)
        #expect(page.emptyMessage == "No friends match “zed”.")
        #expect(page.query == "zed")
        #expect(page.hasQuery)
    }

    @Test("A flash passed in is shown by the layout")
    func flash() async {
        let page = await FriendsListViewModel.load(
            from: FriendsRepository(remote: FakeFriendService.listing([])),
            context: .fixture(flash: .success("Added Jane Doe.")))
        #expect(page.layout.flash == .success("Added Jane Doe."))
        #expect(page.layout.navigation.first(where: \.isCurrent)?.url == "/friends")
    }
}
