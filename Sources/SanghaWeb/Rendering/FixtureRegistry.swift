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
        Fixture("home", HomeViewModel.Fixtures.full),
        Fixture("home-empty", HomeViewModel.Fixtures.empty),
        Fixture("home-friends-down", HomeViewModel.Fixtures.friendsDown),
        Fixture("profiles-panel", HomeViewModel.Fixtures.full.profiles),
        Fixture("friends-panel-error", HomeViewModel.Fixtures.friendsDown.friends),
        Fixture("profiles-list", ProfilesListViewModel.Fixtures.twoProfiles),
        Fixture("profiles-list-empty", ProfilesListViewModel.Fixtures.empty),
        Fixture("profiles-list-storage-failure", ProfilesListViewModel.Fixtures.storageFailure),
        Fixture("profiles-list-name-error", ProfilesListViewModel.Fixtures.nameError),
        Fixture("profiles-list-flash", ProfilesListViewModel.Fixtures.created),
        Fixture("profiles-list-hostile", ProfilesListViewModel.Fixtures.hostile),
        Fixture("profiles-list-second-page", ProfilesListViewModel.Fixtures.secondPage),
        Fixture("profile-editor-new", ProfileEditorViewModel.Fixtures.fresh),
        Fixture("profile-editor-warm-up-on", ProfileEditorViewModel.Fixtures.warmUpOn),
        Fixture("profile-editor-long", ProfileEditorViewModel.Fixtures.long),
        Fixture("profile-editor-saved", ProfileEditorViewModel.Fixtures.saved),
        Fixture("profile-editor-invalid", ProfileEditorViewModel.Fixtures.invalid),
        Fixture("profile-editor-conflict", ProfileEditorViewModel.Fixtures.conflict),
        Fixture("profile-editor-hostile", ProfileEditorViewModel.Fixtures.hostile),
        Fixture("sitting-morning", SittingViewModel.Fixtures.morning),
        Fixture("sitting-new", SittingViewModel.Fixtures.fresh),
        Fixture("sitting-hostile", SittingViewModel.Fixtures.hostile),
        Fixture("sitting-not-saved", SittingViewModel.Fixtures.notSaved),
        Fixture("history", HistoryViewModel.Fixtures.sessions),
        Fixture("history-empty", HistoryViewModel.Fixtures.empty),
        Fixture("history-second-page", HistoryViewModel.Fixtures.secondPage),
        Fixture("history-hostile", HistoryViewModel.Fixtures.hostile),
        Fixture("history-chart", HistoryViewModel.Fixtures.sessions.chart!),
        Fixture("history-session-row", HistoryViewModel.Fixtures.sessions.rows[0]),
        Fixture("paging", HistoryViewModel.Fixtures.secondPage.paging!),
        Fixture("practice-panel", PracticePanelViewModel.Fixtures.practising),
        Fixture("practice-panel-empty", PracticePanelViewModel.Fixtures.empty),
        Fixture("practice-panel-storage-failure", PracticePanelViewModel.Fixtures.storageFailure),
        Fixture("profile-section-off", ProfileEditorViewModel.Fixtures.fresh.sections[1]),
        Fixture("profile-section-on", ProfileEditorViewModel.Fixtures.warmUpOn.sections[1]),
        Fixture("sound-row-repeat", ProfileEditorViewModel.Fixtures.warmUpOn.sections[1].sounds[2]),
        Fixture(
            "gallery",
            GalleryViewModel(
                fixtures: [("home", "pages/home"), ("flash-success", "partials/flash")], context: .fixture)),
        Fixture("friends-list-rows", FriendsListViewModel.Fixtures.threeFriends),
        Fixture("friends-list-empty", FriendsListViewModel.Fixtures.empty),
        Fixture("friends-list-error", FriendsListViewModel.Fixtures.error),
        Fixture("friends-list-unauthorized", FriendsListViewModel.Fixtures.unauthorized),
        Fixture("friends-list-saved-after-failure", FriendsListViewModel.Fixtures.savedAfterFailure),
        Fixture("friends-list-search-no-match", FriendsListViewModel.Fixtures.searchNoMatch),
        Fixture("friends-list-search-one-match", FriendsListViewModel.Fixtures.searchOneMatch),
        Fixture("friends-list-flash", FriendsListViewModel.Fixtures.flash),
        Fixture("friends-list-error-flash", FriendsListViewModel.Fixtures.errorFlash),
        Fixture("friends-list-hostile", FriendsListViewModel.Fixtures.hostile),
        Fixture("friends-list-last-page-of-search", FriendsListViewModel.Fixtures.lastPageOfSearch),
        Fixture("friend-form-blank", FriendFormViewModel.Fixtures.blank),
        Fixture("friend-form-edit", FriendFormViewModel.Fixtures.edit),
        Fixture("friend-form-errors", FriendFormViewModel.Fixtures.withErrors),
        Fixture("friend-form-add-failed", FriendFormViewModel.Fixtures.addFailed),
        Fixture("friend-form-update-unauthorized", FriendFormViewModel.Fixtures.updateUnauthorized),
        Fixture("friend-form-hostile", FriendFormViewModel.Fixtures.hostile),
        Fixture("error-not-found", ErrorPageViewModel.Fixtures.notFound),
        Fixture("error-friend-load-failed", ErrorPageViewModel.Fixtures.friendLoadFailed),
        Fixture("form-field-error", FriendFormViewModel.Fixtures.withErrors.fields[0]),
        Fixture("flash-success", FlashViewModel.success("Saved Jane Doe.")),
        Fixture("flash-error", FlashViewModel.error(title: "Could not remove Jane Doe.", message: "Friend not found.")),
        Fixture("alert", FriendFormViewModel.Fixtures.addFailed.alert!),
        Fixture("sign-in", SignInViewModel.Fixtures.blank),
        Fixture("sign-in-missing", SignInViewModel.Fixtures.missing),
        Fixture("sign-in-wrong-credentials", SignInViewModel.Fixtures.wrongCredentials),
        Fixture("sign-in-too-many-attempts", SignInViewModel.Fixtures.tooManyAttempts),
        Fixture("sign-in-hostile", SignInViewModel.Fixtures.hostile),
        Fixture("sign-up", SignUpViewModel.Fixtures.blank),
        Fixture("sign-up-invalid", SignUpViewModel.Fixtures.invalid),
        Fixture("sign-up-taken", SignUpViewModel.Fixtures.taken),
        Fixture("sign-up-storage-failure", SignUpViewModel.Fixtures.storageFailure),
        Fixture("sign-up-hostile", SignUpViewModel.Fixtures.hostile),
        Fixture("settings-embedded", SettingsViewModel.Fixtures.embedded),
        Fixture("settings-remote-without-token", SettingsViewModel.Fixtures.remoteWithoutToken),
        Fixture("settings-remote-with-token", SettingsViewModel.Fixtures.remoteWithToken),
        Fixture("settings-invalid", SettingsViewModel.Fixtures.invalid),
        Fixture("settings-delete-refused", SettingsViewModel.Fixtures.deleteRefused),
        Fixture("settings-storage-failure", SettingsViewModel.Fixtures.storageFailure),
        Fixture("settings-hostile", SettingsViewModel.Fixtures.hostile),
        Fixture("me", MeViewModel.Fixtures.full),
        Fixture("me-fresh", MeViewModel.Fixtures.fresh),
        Fixture("me-friends-down", MeViewModel.Fixtures.friendsDown),
        Fixture("me-hostile", MeViewModel.Fixtures.hostile),
        Fixture("me-header", MeViewModel.Fixtures.full.header),
        Fixture("me-practice", MeViewModel.Fixtures.full.practice),
        Fixture("me-friends-error", MeViewModel.Fixtures.friendsDown.friends),
        Fixture("me-about-empty", MeViewModel.Fixtures.fresh.about),
    ]
}
