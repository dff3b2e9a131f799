import Foundation
import SanghaCore

/// The home page, a container of three child view models, each rendered by its own partial.
/// The panels load side by side; one failing leaves the other whole.
public struct HomeViewModel: Sendable, Equatable, Encodable {
    public let layout: LayoutViewModel
    public let profiles: ProfilesPanelViewModel
    public let friends: FriendsPanelViewModel
    public let practice: PracticePanelViewModel

    public init(
        profiles: ProfilesPanelViewModel, friends: FriendsPanelViewModel, practice: PracticePanelViewModel,
        context: PageContext
    ) {
        self.layout = LayoutViewModel(title: "Home", section: .home, context: context)
        self.profiles = profiles
        self.friends = friends
        self.practice = practice
    }

    public static func load(
        profiles profileRepository: any ProfileRepository,
        friends repository: FriendsRepository,
        sessions: any SittingSessionRepository,
        context: PageContext
    ) async -> HomeViewModel {
        async let profiles = ProfilesPanelViewModel.load(from: profileRepository)
        async let friends = FriendsPanelViewModel.load(from: repository, context: context)
        async let practice = PracticePanelViewModel.load(from: sessions, context: context)
        return await HomeViewModel(profiles: profiles, friends: friends, practice: practice, context: context)
    }
}
