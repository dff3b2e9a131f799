import Foundation
import SanghaCore
import SanghaViewModels

/// Named states of the friends pages and components, for snapshot tests and the dev gallery.
/// Each is a plain value: no clock, no random token, so what renders is the same every run.

/// The CSRF token every fixture's forms carry, fixed so snapshots are stable.
public let fixtureFormToken = "fixture-form-token"

extension PageContext {
    /// The context of every fixture: a fixed token, clock and time zone, the plain asset names.
    public static let fixture = PageContext(
        formToken: fixtureFormToken,
        now: Date(timeIntervalSince1970: 1_795_000_000),
        timeZone: TimeZone(identifier: "UTC")!,
        person: Person.fixture
    )

    /// The fixture context of a page for someone not signed in (sign-in, sign-up).
    public static let signedOutFixture: PageContext = {
        var context = PageContext.fixture
        context.person = nil
        return context
    }()

    /// The fixture context with a flash to show.
    public static func fixture(flash: FlashViewModel) -> PageContext {
        var context = PageContext.fixture
        context.flash = flash
        return context
    }
}
extension Person {
    /// The person every fixture page is shown to.
    public static let fixture = Person(
        id: 1, username: "ada", name: "Ada Lovelace",
        about: "Sits before sunrise. Counts breaths, loses count, starts again.",
        createdAt: Date(timeIntervalSince1970: 1_780_000_000), timeZone: TimeZone(identifier: "UTC")!)
}

extension Friend {
    static let fixtures: [Friend] = [
        Friend(id: 1, firstname: "Jane", lastname: "Doe", phonenumber: "+15550100"),
        Friend(id: 2, firstname: "Kenji", lastname: "Satō", phonenumber: "0312345678"),
        Friend(id: 3, firstname: "Amira", lastname: "O'Neil-Haddad", phonenumber: "+447700900123"),
    ]

    /// Values a hostile or careless service could send: markup, quotes, ampersands, emoji,
    /// right-to-left text. The page must show them as text.
    static let hostile = Friend(
        id: 66,
        firstname: "<script>alert(\"x\")</script>",
        lastname: "O'Brien & \"Sons\" 🧘 محمد",
        phonenumber: "+1<b>2</b>"
    )
}

extension FriendsListViewModel {
    public enum Fixtures {
        public static let threeFriends = FriendsListViewModel(
            state: .rows(Friend.fixtures.map { FriendRowViewModel(friend: $0, words: .english) }),
            context: .fixture
        )
        public static let empty = FriendsListViewModel(
            state: .empty(FriendsListViewModel.noFriendsMessage), context: .fixture)
        public static let error = FriendsListViewModel(
            state: .error("Loading failed, check network connection"), context: .fixture)
        public static let unauthorized = FriendsListViewModel(
            state: .error("Please login to load your friends."), context: .fixture)
        public static let searchNoMatch = FriendsListViewModel(
            state: .empty("No friends match “zed”."), query: "zed", context: .fixture)
        public static let searchOneMatch = FriendsListViewModel(
            state: .rows([FriendRowViewModel(friend: Friend.fixtures[1], words: .english)]),
            query: "sato",
            context: .fixture
        )
        public static let flash = FriendsListViewModel(
            state: .rows([FriendRowViewModel(friend: Friend.fixtures[0], words: .english)]),
            context: .fixture(flash: .success("Added Jane Doe."))
        )
        public static let errorFlash = FriendsListViewModel(
            state: .rows([FriendRowViewModel(friend: Friend.fixtures[0], words: .english)]),
            context: .fixture(flash: .error(title: "Could not remove Kenji Satō.", message: "Friend not found."))
        )
        /// The FriendService failed; the list saved at its last answer is shown, marked.
        public static let savedAfterFailure = FriendsListViewModel(
            state: FriendsListViewModel.savedState(
                SavedFriendList(friends: Friend.fixtures, savedAt: Date(timeIntervalSince1970: 1_795_000_000)),
                failure: FriendServiceError(.transport("The request timed out.")),
                query: "",
                timeZone: TimeZone(identifier: "UTC")!, words: .english
            ),
            context: .fixture
        )
        /// The last of three pages of a search: Previous keeps the query.
        public static let lastPageOfSearch = FriendsListViewModel(
            state: .rows(
                (1...103).map {
                    FriendRowViewModel(
                        friend: Friend(
                            id: $0, firstname: "Friend", lastname: "Number \($0)", phonenumber: "+1555\($0)"),
                        words: .english)
                }),
            query: "friend number",
            page: 3,
            context: .fixture
        )
        public static let hostile = FriendsListViewModel(
            state: .rows([FriendRowViewModel(friend: Friend.hostile, words: .english)]),
            query: "\"><script>alert(1)</script>",
            context: .fixture(flash: .success("Added <b>you</b> & \"them\"."))
        )
    }
}

extension FriendFormViewModel {
    public enum Fixtures {
        public static let blank = FriendFormViewModel(mode: .add, context: .fixture)
        public static let edit = FriendFormViewModel(
            mode: .update(id: 1), context: .fixture, input: FriendFormInput(friend: Friend.fixtures[0]))
        public static let withErrors = FriendFormViewModel(
            mode: .add, context: .fixture,
            input: FriendFormInput(firstname: "J4ne", lastname: "", phonenumber: "12"),
            errors: FriendDraft(firstname: "J4ne", lastname: "", phonenumber: "12").validationErrors()
        )
        public static let addFailed = FriendFormViewModel(
            mode: .add, context: .fixture,
            input: FriendFormInput(friend: Friend.fixtures[0]),
            alert: AlertViewModel(
                title: "Could not add Jane Doe.",
                message: "Could not connect to server. Check your network and try again later."
            )
        )
        public static let updateUnauthorized = FriendFormViewModel(
            mode: .update(id: 1), context: .fixture,
            input: FriendFormInput(friend: Friend.fixtures[0]),
            alert: AlertViewModel(title: "Failed to update information.", message: "Please login to update friends.")
        )
        public static let hostile = FriendFormViewModel(
            mode: .update(id: 66), context: .fixture,
            input: FriendFormInput(friend: Friend.hostile),
            errors: FriendDraft(firstname: Friend.hostile.firstname, lastname: "", phonenumber: "x").validationErrors()
        )
    }
}

extension ErrorPageViewModel {
    public enum Fixtures {
        public static let notFound = ErrorPageViewModel.notFound(context: .fixture)
        public static let friendLoadFailed = ErrorPageViewModel(
            heading: "Could not load this friend",
            message: "Loading failed, check network connection",
            context: .fixture
        )
    }
}
