import Foundation

/// What the layout around every page shows: the page title, the navigation, a flash message.
public struct LayoutViewModel: Sendable, Equatable, Encodable {
    public enum Section: String, Sendable, CaseIterable {
        case home, profiles, friends
    }

    public let title: String
    public let navigation: [NavigationItemViewModel]
    public let flash: FlashViewModel?

    public init(title: String, section: Section?, flash: FlashViewModel? = nil) {
        self.title = title
        self.navigation = NavigationItemViewModel.items(current: section)
        self.flash = flash
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
            NavigationItemViewModel(label: "Friends", url: "/friends", isCurrent: current == .friends),
        ]
    }
}
