import Foundation
import SanghaCore

/// The person's own page, `/me`, composed like a profile screen: a header, their practice,
/// their friends and their own words, each a child view model rendered by its own partial.
/// The parts load side by side; one failing shows its message and leaves the others whole.
public struct MeViewModel: Sendable, Equatable, Encodable {
    public let layout: LayoutViewModel
    public let header: MeHeaderViewModel
    public let practice: MePracticeViewModel
    public let friends: MeFriendsViewModel
    public let about: MeAboutViewModel

    /// The page is titled with the header's name.
    public init(
        header: MeHeaderViewModel, practice: MePracticeViewModel, friends: MeFriendsViewModel,
        about: MeAboutViewModel, context: PageContext
    ) {
        self.layout = LayoutViewModel(title: header.name, section: .me, context: context)
        self.header = header
        self.practice = practice
        self.friends = friends
        self.about = about
    }

    public static func load(
        person: Person,
        profiles: any ProfileRepository,
        sessions: any SittingSessionRepository,
        friends repository: FriendsRepository,
        context: PageContext
    ) async -> MeViewModel {
        // The FriendService is asked while the database is read once: the header's count is the
        // practice's totals.
        async let friends = MeFriendsViewModel.load(from: repository, context: context)
        let sat = await MePracticeViewModel.practice(from: sessions, context: context)
        let practice = await MePracticeViewModel.load(profiles: profiles, sat: sat, context: context)
        // A practice that could not be read may still have its count (one read more, only then).
        var count = sat.practice?.totals.sessions
        if sat.practice == nil { count = try? await sessions.totals().sessions }
        let header = MeHeaderViewModel(
            person: person, sessionCount: count, timeZone: context.timeZone, words: context.words)
        return await MeViewModel(
            header: header, practice: practice, friends: friends,
            about: MeAboutViewModel(person: person, words: context.words),
            context: context)
    }
}
