import Foundation
import SanghaCore

/// The home page, a container of two child view models, each rendered by its own partial.
/// The panels load side by side; one failing leaves the other whole.
public struct HomeViewModel: Sendable, Equatable, Encodable {
    public let layout: LayoutViewModel
    public let profiles: ProfilesPanelViewModel
    public let friends: FriendsPanelViewModel

    public init(profiles: ProfilesPanelViewModel, friends: FriendsPanelViewModel, context: PageContext) {
        self.layout = LayoutViewModel(title: "Home", section: .home, context: context)
        self.profiles = profiles
        self.friends = friends
    }

    public static func load(
        profiles profileRepository: any ProfileRepository,
        friends repository: FriendsRepository,
        context: PageContext
    ) async -> HomeViewModel {
        async let profiles = ProfilesPanelViewModel.load(from: profileRepository)
        async let friends = FriendsPanelViewModel.load(from: repository, context: context)
        return await HomeViewModel(profiles: profiles, friends: friends, context: context)
    }
}
