import Foundation

/// What the layout around every page shows: the page title, the navigation, a flash message,
/// and where the stylesheet, script and icon are.
public struct LayoutViewModel: Sendable, Equatable, Encodable {
    public enum Section: String, Sendable, CaseIterable {
        case home, profiles, history, friends
    }

    public let title: String
    public let navigation: [NavigationItemViewModel]
    public let flash: FlashViewModel?
    public let assets: AssetURLs

    public init(title: String, section: Section?, context: PageContext) {
        self.title = title
        self.navigation = NavigationItemViewModel.items(current: section)
        self.flash = context.flash
        self.assets = context.assets
    }
}

/// One link of the navigation bar.
public struct NavigationItemViewModel: Sendable, Equatable, Encodable {
    public let label: String
    public let url: String
    public let isCurrent: Bool

    static func items(current: LayoutViewModel.Section?) -> [NavigationItemViewModel] {
        [
            NavigationItemViewModel(label: "Home", url: "/", isCurrent: current == .home),
            NavigationItemViewModel(label: "Profiles", url: "/profiles", isCurrent: current == .profiles),
            NavigationItemViewModel(label: "History", url: "/history", isCurrent: current == .history),
            NavigationItemViewModel(label: "Friends", url: "/friends", isCurrent: current == .friends),
        ]
    }
}
