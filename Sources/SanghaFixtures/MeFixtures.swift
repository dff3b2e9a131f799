import Foundation
import SanghaCore
import SanghaViewModels

extension MeViewModel {
    public enum Fixtures {
        /// Someone who signed up at the fixture clock: no profile, session or friend, no words
        /// yet.
        public static let freshPerson = Person(
            id: 2, username: "grace", name: "Grace Hopper", createdAt: PageContext.fixture.now)

        /// Values a careless or hostile person could type: markup, quotes, ampersands, emoji,
        /// right-to-left text, line breaks. The page must show them as text.
        public static let hostilePerson = Person(
            id: 66, username: "mallory",
            name: "<script>alert(\"me\")</script> O'Brien & \"Sons\" 🧘 محمد",
            about: "<b>Bold</b> & \"quoted\" 'words'\n<script>alert('about')</script>",
            createdAt: Date(timeIntervalSince1970: 1_780_000_000))

        /// Ada: two profiles, six sessions with a three-day streak, three friends, her words.
        public static let full = MeViewModel(
            header: MeHeaderViewModel(
                person: .fixture, sessionCount: SittingSession.fixtures.count, timeZone: PageContext.fixture.timeZone,
                words: .english),
            practice: practising(profiles: [Profile.morning, Profile.evening]),
            friends: MeFriendsViewModel(friends: Friend.fixtures, words: .english),
            about: MeAboutViewModel(person: .fixture, words: .english),
            context: .fixture
        )

        /// Just signed up: nothing yet anywhere, each part says so and where to begin.
        public static let fresh = MeViewModel(
            header: MeHeaderViewModel(
                person: freshPerson, sessionCount: 0, timeZone: PageContext.fixture.timeZone, words: .english),
            practice: MePracticeViewModel(
                practice: .fixture([]), profiles: [], timeZone: PageContext.fixture.timeZone, words: .english),
            friends: MeFriendsViewModel(friends: [], words: .english),
            about: MeAboutViewModel(person: freshPerson, words: .english),
            context: shownTo(freshPerson)
        )

        /// The FriendService failed and no list was saved: the friends part says why, the rest
        /// is whole.
        public static let friendsDown = MeViewModel(
            header: MeHeaderViewModel(
                person: .fixture, sessionCount: SittingSession.fixtures.count, timeZone: PageContext.fixture.timeZone,
                words: .english),
            practice: practising(profiles: [Profile.morning, Profile.evening]),
            friends: MeFriendsViewModel(
                friends: [],
                errorMessage: FriendOperation.load.message(for: .transport("The request timed out."), words: .english),
                words: .english),
            about: MeAboutViewModel(person: .fixture, words: .english),
            context: .fixture
        )

        /// Markup and quotes in the name, the about text, a profile, a session and a friend.
        public static let hostile: MeViewModel = {
            var session = SittingSession.fixtures[0]
            session.profileName = Profile.hostile.name
            session.profileID = Profile.hostile.id
            return MeViewModel(
                header: MeHeaderViewModel(
                    person: hostilePerson, sessionCount: 1, timeZone: PageContext.fixture.timeZone, words: .english),
                practice: MePracticeViewModel(
                    practice: .fixture([session]), profiles: [Profile.hostile],
                    timeZone: PageContext.fixture.timeZone, words: .english),
                friends: MeFriendsViewModel(friends: [Friend.hostile], words: .english),
                about: MeAboutViewModel(person: hostilePerson, words: .english),
                context: shownTo(hostilePerson)
            )
        }()

        /// The practice of the fixture sessions, the newest few shown, with `profiles`.
        static func practising(profiles: [Profile]) -> MePracticeViewModel {
            MePracticeViewModel(
                practice: .fixture(SittingSession.fixtures), profiles: profiles,
                timeZone: PageContext.fixture.timeZone, words: .english)
        }

        /// The fixture context of `person`'s own page.
        static func shownTo(_ person: Person) -> PageContext {
            var context = PageContext.fixture
            context.person = person
            return context
        }
    }
}
