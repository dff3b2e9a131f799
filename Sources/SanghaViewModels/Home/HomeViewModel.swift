import Foundation
import SanghaCore

/// The home page, a container of three child view models, each rendered by its own partial.
/// The friends panel loads beside the others; one failing leaves the others whole.
public struct HomeViewModel: Sendable, Equatable, Encodable {
    public let layout: LayoutViewModel
    public let profiles: ProfilesPanelViewModel
    public let friends: FriendsPanelViewModel
    public let practice: PracticePanelViewModel
    /// "N sits on this device are waiting to be sent." for the script, as the history page says
    /// it (`HistoryViewModel.outboxForms`); nil in English, the script's own words.
    public let outboxForms: String?

    public init(
        profiles: ProfilesPanelViewModel, friends: FriendsPanelViewModel, practice: PracticePanelViewModel,
        context: PageContext
    ) {
        self.layout = LayoutViewModel(title: context.words.homeTitle, section: .home, context: context)
        self.outboxForms = HistoryViewModel.outboxForms(context.words)
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
        // The FriendService is asked while the database is read: the remote call is the long
        // wait; the profiles (mostly from memory) and the practice are read one after the other.
        async let friends = FriendsPanelViewModel.load(from: repository, context: context)
        let profiles = await ProfilesPanelViewModel.load(from: profileRepository, words: context.words)
        let practice = await PracticePanelViewModel.load(from: sessions, context: context)
        return await HomeViewModel(profiles: profiles, friends: friends, practice: practice, context: context)
    }
}
