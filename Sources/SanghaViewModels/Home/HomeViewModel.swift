import Foundation
import SanghaCore

/// The home page, a container of two child view models, each rendered by its own partial
/// (seed 002's composition). The panels load side by side; one failing leaves the other whole.
public struct HomeViewModel: Sendable, Equatable, Encodable {
    public let layout: LayoutViewModel
    public let profiles: ProfilesPanelViewModel
    public let friends: FriendsPanelViewModel

    public init(profiles: ProfilesPanelViewModel, friends: FriendsPanelViewModel, flash: FlashViewModel? = nil) {
        self.layout = LayoutViewModel(title: "Home", section: .home, flash: flash)
        self.profiles = profiles
        self.friends = friends
    }

    public static func load(
        profiles profileRepository: any ProfileRepository,
        friends repository: FriendsRepository,
        flash: FlashViewModel? = nil
    ) async -> HomeViewModel {
        async let profiles = ProfilesPanelViewModel.load(from: profileRepository)
        async let friends = FriendsPanelViewModel.load(from: repository)
        return await HomeViewModel(profiles: profiles, friends: friends, flash: flash)
    }
}
