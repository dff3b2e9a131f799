import Hummingbird
import SanghaViewModels

/// A view model with the template it renders with. A view model and its template share a
/// name: `FriendsPanelViewModel` renders with `Templates/partials/friends-panel.mustache`.
///
/// A partial that reads a name of the page around it (a row's delete form reads the page's
/// `{{layout.formToken}}`) is rendered only within its page: `FriendRowViewModel` and
/// `ProfileRowViewModel` are not renderable alone.
public protocol Renderable: Encodable, Sendable {
    static var template: String { get }
    /// The template compiled to Swift at build time (the CompileTemplates plugin): the same
    /// bytes swift-mustache renders, without reflection, in the buffer a response sends.
    func compiledHTMLBuffer() -> ByteBuffer
}

/// A view model that is a whole page: it has the layout's title, navigation and flash.
public protocol Page: Renderable {
    var layout: LayoutViewModel { get }
}

extension FriendsListViewModel: Page {
    public static let template = "pages/friends-list"
}

extension FriendFormViewModel: Page {
    public static let template = "pages/friend-form"
}

extension ErrorPageViewModel: Page {
    public static let template = "pages/error"
}

extension OfflineViewModel: Page {
    public static let template = "pages/offline"
}

extension HomeViewModel: Page {
    public static let template = "pages/home"
}

extension SittingViewModel: Page {
    public static let template = "pages/sitting"
}

extension HistoryViewModel: Page {
    public static let template = "pages/history"
}

extension PracticeLogImportViewModel: Page {
    public static let template = "pages/history-import"
}

extension SessionEditViewModel: Page {
    public static let template = "pages/session-edit"
}

extension ProfilesListViewModel: Page {
    public static let template = "pages/profiles-list"
}

extension ProfileEditorViewModel: Page {
    public static let template = "pages/profile-editor"
}

extension SignUpViewModel: Page {
    public static let template = "pages/sign-up"
}

extension SignInViewModel: Page {
    public static let template = "pages/sign-in"
}

extension SettingsViewModel: Page {
    public static let template = "pages/settings"
}

extension AdminViewModel: Page {
    public static let template = "pages/admin"
}

extension GroupsViewModel: Page {
    public static let template = "pages/groups"
}

extension GroupViewModel: Page {
    public static let template = "pages/group"
}

extension GroupInvitationViewModel: Page {
    public static let template = "pages/group-invitation"
}

extension GroupSittingNowViewModel: Renderable {
    public static let template = "partials/group-sitting-now"
}

extension GroupSitsViewModel: Renderable {
    public static let template = "partials/group-sits"
}

extension GroupSitViewModel: Page {
    public static let template = "pages/group-sit"
}

extension GroupSitPeopleViewModel: Renderable {
    public static let template = "partials/group-sit-people"
}

extension OneTimeLinkViewModel: Renderable {
    public static let template = "partials/one-time-link"
}

extension PasswordResetViewModel: Page {
    public static let template = "pages/password-reset"
}

extension ProfilesPanelViewModel: Renderable {
    public static let template = "partials/profiles-panel"
}

extension FriendsPanelViewModel: Renderable {
    public static let template = "partials/friends-panel"
}

extension PracticePanelViewModel: Renderable {
    public static let template = "partials/practice-panel"
}

extension HistoryYearViewModel: Renderable {
    public static let template = "partials/history-year"
}

extension HistoryChartViewModel: Renderable {
    public static let template = "partials/history-chart"
}

extension HistorySessionRowViewModel: Renderable {
    public static let template = "partials/history-session-row"
}

extension PagingViewModel: Renderable {
    public static let template = "partials/paging"
}

extension ProfileSectionViewModel: Renderable {
    public static let template = "partials/profile-section"
}

extension SoundRowViewModel: Renderable {
    public static let template = "partials/sound-row"
}

extension FormFieldViewModel: Renderable {
    public static let template = "partials/form-field"
}

extension FlashViewModel: Renderable {
    public static let template = "partials/flash"
}

extension AlertViewModel: Renderable {
    public static let template = "partials/alert"
}

extension MeViewModel: Page {
    public static let template = "pages/me"
}

extension MeHeaderViewModel: Renderable {
    public static let template = "partials/me-header"
}

extension MePracticeViewModel: Renderable {
    public static let template = "partials/me-practice"
}

extension MeFriendsViewModel: Renderable {
    public static let template = "partials/me-friends"
}

extension MeAboutViewModel: Renderable {
    public static let template = "partials/me-about"
}
