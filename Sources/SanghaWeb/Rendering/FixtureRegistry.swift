import SanghaViewModels

/// One named state of a page or component.
public struct Fixture: Sendable {
    public let name: String
    public let value: any Renderable

    public init(_ name: String, _ value: any Renderable) {
        self.name = name
        self.value = value
    }

    public var template: String { type(of: value).template }
}

/// Every page and component in each of its states. Snapshot tests iterate it, so a fixture
/// added here gets a snapshot without a new test.
public enum FixtureRegistry {
    public static let all: [Fixture] = [
        Fixture("friends-list-rows", FriendsListViewModel.Fixtures.threeFriends),
        Fixture("friends-list-empty", FriendsListViewModel.Fixtures.empty),
        Fixture("friends-list-error", FriendsListViewModel.Fixtures.error),
        Fixture("friends-list-unauthorized", FriendsListViewModel.Fixtures.unauthorized),
        Fixture("friends-list-search-no-match", FriendsListViewModel.Fixtures.searchNoMatch),
        Fixture("friends-list-search-one-match", FriendsListViewModel.Fixtures.searchOneMatch),
        Fixture("friends-list-flash", FriendsListViewModel.Fixtures.flash),
        Fixture("friends-list-error-flash", FriendsListViewModel.Fixtures.errorFlash),
        Fixture("friends-list-hostile", FriendsListViewModel.Fixtures.hostile),
        Fixture("friend-form-blank", FriendFormViewModel.Fixtures.blank),
        Fixture("friend-form-edit", FriendFormViewModel.Fixtures.edit),
        Fixture("friend-form-errors", FriendFormViewModel.Fixtures.withErrors),
        Fixture("friend-form-add-failed", FriendFormViewModel.Fixtures.addFailed),
        Fixture("friend-form-update-unauthorized", FriendFormViewModel.Fixtures.updateUnauthorized),
        Fixture("friend-form-hostile", FriendFormViewModel.Fixtures.hostile),
        Fixture("error-not-found", ErrorPageViewModel.Fixtures.notFound),
        Fixture("error-friend-load-failed", ErrorPageViewModel.Fixtures.friendLoadFailed),
        Fixture("friend-row", FriendRowViewModel.Fixtures.jane),
        Fixture("friend-row-hostile", FriendRowViewModel.Fixtures.hostile),
        Fixture("form-field-error", FriendFormViewModel.Fixtures.withErrors.fields[0]),
        Fixture("flash-success", FlashViewModel.success("Saved Jane Doe.")),
        Fixture("flash-error", FlashViewModel.error(title: "Could not remove Jane Doe.", message: "Friend not found.")),
        Fixture("alert", FriendFormViewModel.Fixtures.addFailed.alert!),
    ]
}
