import SanghaViewModels

/// A view model that is a whole page, and the template it renders with.
///
/// The view model and its template share a name: `FriendsListViewModel` renders with
/// `Templates/pages/friends-list.mustache`.
public protocol Page: Encodable, Sendable {
    static var template: String { get }
    /// The page's `<title>`, navigation and flash; every page has them.
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
