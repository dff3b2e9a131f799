import Foundation
import SanghaCore

/// What the layout around every page shows: the page title, the navigation, a flash message,
/// and where the stylesheet, script and icon are; and the page's one form token, which every form
/// of the page (its rows' too) reads up the context stack as `{{layout.formToken}}`.
public struct LayoutViewModel: Sendable, Equatable, Encodable {
    public enum Section: String, Sendable, CaseIterable {
        case home, profiles, history, friends, groups, me, settings, admin
    }

    public let title: String
    /// The page's language, as `<html lang>` says it, and its direction (`dir`: `rtl` for Arabic).
    public let languageTag: String
    public let direction: String
    public let skipLinkLabel: String
    /// The navigation of someone signed in; nil on the sign-in and sign-up pages.
    public let account: AccountNavigationViewModel?
    public let flash: FlashViewModel?
    public let assets: AssetURLs
    /// The CSRF token every form of the page carries.
    public let formToken: String
    public let homeURL: String = Paths.home.url
    /// The web app manifest, which makes Sangha installable.
    public let manifestURL: String = Paths.manifest.url
    /// What the service worker writes at the top of this page opened again without a network
    /// ("You are offline. This page is from {time}.", `{time}` where it puts the time it was
    /// kept), in the page's language; nil in English, the worker's own words (so the English
    /// page stays as it was).
    public let offlineNotice: String?

    public init(title: String, section: Section?, context: PageContext) {
        self.title = title
        self.languageTag = context.language.tag
        self.direction = context.language.isRightToLeft ? "rtl" : "ltr"
        self.skipLinkLabel = context.words.layoutSkipToContent
        self.account = context.person.map {
            AccountNavigationViewModel(person: $0, current: section, words: context.words)
        }
        self.flash = context.flash
        self.assets = context.assets
        self.formToken = context.formToken
        self.offlineNotice = context.language == .en ? nil : context.words.offlineKeptPage(time: "{time}")
    }
}

/// The navigation of someone signed in: the site's pages, the person's name (a link to their
/// page), Settings and the Sign out button (a form post: signing out changes state).
public struct AccountNavigationViewModel: Sendable, Equatable, Encodable {
    /// What a screen reader calls the navigation bar.
    public let navigationLabel: String
    public let navigation: [NavigationItemViewModel]
    /// The person's id: the page's script keeps the sits of this person on the device, and
    /// sends them only as this person.
    public let personID: Int
    public let name: String
    public let meURL: String = Paths.me.url
    public let isMeCurrent: Bool
    public let settingsURL: String = Paths.settings.url
    public let settingsLabel: String
    public let isSettingsCurrent: Bool
    public let signOutURL: String = Paths.signOut.url
    public let signOutLabel: String
    /// With script, the page posts the sign-out itself first and deletes the pages kept on the
    /// device only once it is done; then it opens this page, as the form's answer would.
    public let signedOutURL: String = Paths.signIn.url
    /// What the page says when the sign-out could not be sent (no network): the person stays
    /// signed in, and the kept pages stay.
    public let signOutOfflineText: String
    /// What the page says when Sangha answered but did not sign the person out.
    public let signOutFailedText: String

    public init(person: Person, current: LayoutViewModel.Section?, words: Words) {
        self.navigationLabel = words.layoutMainNavigation
        self.navigation = NavigationItemViewModel.items(
            current: current, administrator: person.isAdministrator, words: words)
        self.personID = person.id
        self.name = words.isolated(person.name)
        self.isMeCurrent = current == .me
        self.isSettingsCurrent = current == .settings
        self.settingsLabel = words.layoutSettings
        self.signOutLabel = words.layoutSignOut
        self.signOutOfflineText = words.layoutSignOutOffline
        self.signOutFailedText = words.layoutSignOutFailed
    }
}

/// One link of the navigation bar.
public struct NavigationItemViewModel: Sendable, Equatable, Encodable {
    public let label: String
    public let url: String
    public let isCurrent: Bool

    static func items(current: LayoutViewModel.Section?, administrator: Bool, words: Words) -> [NavigationItemViewModel]
    {
        var items = [
            NavigationItemViewModel(label: words.layoutHome, url: Paths.home.url, isCurrent: current == .home),
            NavigationItemViewModel(
                label: words.layoutProfiles, url: Paths.profiles.url, isCurrent: current == .profiles),
            NavigationItemViewModel(label: words.layoutHistory, url: Paths.history.url, isCurrent: current == .history),
            NavigationItemViewModel(label: words.layoutFriends, url: Paths.friends.url, isCurrent: current == .friends),
            NavigationItemViewModel(label: words.layoutGroups, url: Paths.groups.url, isCurrent: current == .groups),
        ]
        if administrator {
            items.append(
                NavigationItemViewModel(label: words.layoutAdmin, url: Paths.admin.url, isCurrent: current == .admin))
        }
        return items
    }
}
