import SanghaCore
import SanghaFixtures
import SanghaTestSupport
import SanghaViewModels
import Synchronization
import Testing

@Suite("Friends list view model")
struct FriendsListViewModelTests {
    @Test("Friends become rows, in the service's order")
    func rows() async throws {
        let page = try #require(
            await FriendsListViewModel.load(
                from: FriendsRepository(remote: FakeFriendService.listing([.jane, .kenji])), context: .fixture
            ).shownPage)
        #expect(page.rows.map(\.fullName) == ["Jane Doe", "Kenji Satō"])
        #expect(page.hasRows)
        #expect(page.errorMessage == nil)
        #expect(page.emptyMessage == nil)
    }

    @Test("A row shows the full name, the phone number and its two actions")
    func row() {
        let row = FriendRowViewModel(friend: .jane, words: .english)
        #expect(row.fullName == "Jane Doe")
        #expect(row.phoneNumberText == "+15550100")
        #expect(row.editURL == "/friends/1/edit")
        #expect(row.deleteURL == "/friends/1/delete")
        #expect(row.deleteLabel == "Delete Jane Doe")
    }

    @Test("A whole list's rows come from the builder passed in; a search builds its own")
    func rowsBuilder() async throws {
        let repository = FriendsRepository(remote: FakeFriendService.listing([.jane, .kenji]))
        let built = Mutex(0)
        let rows: FriendsListViewModel.RowsBuilder = { friends in
            built.withLock { $0 += 1 }
            return FriendsListViewModel.buildRows(friends)
        }
        let page = try #require(
            await FriendsListViewModel.load(from: repository, context: .fixture, rows: rows).shownPage)
        #expect(page.rows.map(\.fullName) == ["Jane Doe", "Kenji Satō"])
        #expect(page.layout.formToken == fixtureFormToken)
        let search = try #require(
            await FriendsListViewModel.load(from: repository, query: "kenji", context: .fixture, rows: rows).shownPage)
        #expect(search.rows.map(\.fullName) == ["Kenji Satō"])
        #expect(built.withLock { $0 } == 1)
    }

    @Test("No friends: the empty row says No data available")
    func empty() async throws {
        let page = try #require(
            await FriendsListViewModel.load(
                from: FriendsRepository(remote: FakeFriendService.listing([])), context: .fixture
            ).shownPage)
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
    func error(reason: FriendServiceError.Reason, message: String) async throws {
        let page = try #require(
            await FriendsListViewModel.load(
                from: FriendsRepository(remote: FakeFriendService.failing(reason)), context: .fixture
            ).shownPage)
        #expect(page.errorMessage == message)
        #expect(page.rows.isEmpty)
        #expect(page.emptyMessage == nil)
    }

    @Test("The query filters by name or phone number, ignoring case and accents")
    func search() async throws {
        let service = FriendsRepository(remote: FakeFriendService.listing([.jane, .kenji, .amira]))
        #expect(
            try #require(await FriendsListViewModel.load(from: service, query: "JANE", context: .fixture).shownPage)
                .rows.map(\.id) == [1])
        #expect(
            try #require(await FriendsListViewModel.load(from: service, query: "sato", context: .fixture).shownPage)
                .rows.map(\.id) == [2])
        #expect(
            try #require(await FriendsListViewModel.load(from: service, query: "o'neil", context: .fixture).shownPage)
                .rows.map(\.id) == [3])
        #expect(
            try #require(await FriendsListViewModel.load(from: service, query: "0312", context: .fixture).shownPage)
                .rows.map(\.id) == [2])
        #expect(
            try #require(await FriendsListViewModel.load(from: service, query: "+44 7700", context: .fixture).shownPage)
                .rows.map(\.id) == [3])
        #expect(
            try #require(await FriendsListViewModel.load(from: service, query: "  ", context: .fixture).shownPage).rows
                .count == 3)
    }

    @Test("A query that matches nobody says so, and keeps the query")
    func noMatch() async throws {
        let page = try #require(
            await FriendsListViewModel.load(
                from: FriendsRepository(remote: FakeFriendService.listing([.jane])), query: "zed", context: .fixture
            ).shownPage)
        #expect(page.emptyMessage == "No friends match “zed”.")
        #expect(page.query == "zed")
        #expect(page.hasQuery)
    }

    @Test("A flash passed in is shown by the layout")
    func flash() async throws {
        let page = try #require(
            await FriendsListViewModel.load(
                from: FriendsRepository(remote: FakeFriendService.listing([])),
                context: .fixture(flash: .success("Added Jane Doe."))
            ).shownPage)
        #expect(page.layout.flash == .success("Added Jane Doe."))
        #expect(page.layout.account?.navigation.first(where: \.isCurrent)?.url == "/friends")
    }

    @Test(
        "A long list shows 50 rows a page with Previous and Next that keep the search; past the last page is not found")
    func paging() async throws {
        let friends = (1...120).map {
            Friend(id: $0, firstname: "Friend", lastname: "Number \($0)", phonenumber: "+1555\($0)")
        }
        let repository = FriendsRepository(remote: FakeFriendService.listing(friends))
        let first = try #require(await FriendsListViewModel.load(from: repository, context: .fixture).shownPage)
        #expect(first.rows.map(\.id) == Array(1...50))
        #expect(first.paging?.label == "Page 1 of 3")
        #expect(first.paging?.previousURL == nil)
        #expect(first.paging?.nextURL == "/friends?page=2")
        #expect(first.layout.title == "Friends")

        let last = try #require(await FriendsListViewModel.load(from: repository, page: 3, context: .fixture).shownPage)
        #expect(last.rows.map(\.id) == Array(101...120))
        #expect(last.paging?.previousURL == "/friends?page=2")
        #expect(last.paging?.nextURL == nil)
        #expect(last.layout.title == "Friends, page 3")
        #expect(await FriendsListViewModel.load(from: repository, page: 4, context: .fixture) == .notFound)

        // "+1555 1" matches 1, 10–19, 100–120: 32 rows, one page, no links.
        let search = try #require(
            await FriendsListViewModel.load(from: repository, query: "+1555 1", context: .fixture).shownPage)
        #expect(search.rows.count == 32)
        #expect(search.paging == nil)
        let number = try #require(
            await FriendsListViewModel.load(from: repository, query: "Number", page: 2, context: .fixture).shownPage)
        #expect(number.rows.first?.id == 51)
        #expect(number.paging?.previousURL == "/friends?q=Number")
        #expect(number.paging?.nextURL == "/friends?q=Number&page=3")
        let plus = try #require(
            await FriendsListViewModel.load(from: repository, query: "+1 555", context: .fixture).shownPage)
        #expect(plus.paging?.nextURL == "/friends?q=%2B1%20555&page=2")
    }

    @Test("A failing service with no saved list is one page with the error")
    func failingIsOnePage() async throws {
        let outcome = await FriendsListViewModel.load(
            from: FriendsRepository(remote: FakeFriendService.failing(.transport("down"))), page: 1, context: .fixture)
        #expect(outcome.shownPage?.errorMessage == "Loading failed, check network connection")
        #expect(outcome.shownPage?.paging == nil)
        // Page 2 of a list that could not be loaded says why, not "no page 2".
        let second = await FriendsListViewModel.load(
            from: FriendsRepository(remote: FakeFriendService.failing(.transport("down"))), page: 2, context: .fixture)
        #expect(second.shownPage?.errorMessage == "Loading failed, check network connection")
    }
}
