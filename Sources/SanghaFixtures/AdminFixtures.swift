import Foundation
import SanghaCore
import SanghaViewModels

extension AdminViewModel {
    public enum Fixtures {
        static let administrator: PageContext = {
            var context = PageContext.fixture
            context.person?.isAdministrator = true
            return context
        }()

        static let everyone: [PersonOverview] = [
            PersonOverview(
                person: Person(
                    id: 1, username: "ada", name: "Ada Lovelace", createdAt: Date(timeIntervalSince1970: 1_780_000_000),
                    isAdministrator: true),
                lastSignIn: Date(timeIntervalSince1970: 1_794_990_000), sessions: 2),
            PersonOverview(
                person: Person(
                    id: 2, username: "bob", name: "Bob Brown", createdAt: Date(timeIntervalSince1970: 1_790_000_000)),
                lastSignIn: nil, sessions: 0),
            PersonOverview(
                person: Person(
                    id: 3, username: "carol", name: "Carol Chen", createdAt: Date(timeIntervalSince1970: 1_791_000_000),
                    isDisabled: true),
                lastSignIn: Date(timeIntervalSince1970: 1_792_000_000), sessions: 0),
        ]
        static let people = PeopleOverviewPage(people: everyone, count: everyone.count)

        /// Everyone, invitations by link (the default).
        public static let list = AdminViewModel(people: people, signUp: .invite, context: administrator)
        /// Right after "Invite someone": the link, shown once.
        public static let invitation = AdminViewModel(
            people: people, signUp: .invite, context: administrator,
            link: .invitation(
                url: "https://sangha.example/sign-up?invitation=" + String(repeating: "ab", count: 32), words: .english)
        )
        /// Right after "Reset password" for Bob.
        public static let passwordReset = AdminViewModel(
            people: people, signUp: .invite, context: administrator,
            link: .passwordReset(
                url: "https://sangha.example/reset-password?token=" + String(repeating: "cd", count: 32),
                name: "Bob Brown", words: .english))
        /// The second page of three: 120 people, 50 a page.
        public static let paged = AdminViewModel(
            people: PeopleOverviewPage(people: everyone, count: 120), page: 2, signUp: .invite,
            context: administrator)
        /// Sign-up closed: no invitations.
        public static let closed = AdminViewModel(people: people, signUp: .closed, context: administrator)
        /// Names and usernames a hostile member could choose.
        public static let hostile = AdminViewModel(
            people: PeopleOverviewPage(
                people: [
                    PersonOverview(
                        person: Person(
                            id: 4, username: "x_x", name: "<script>alert('n')</script> & \"Sons\"",
                            createdAt: Date(timeIntervalSince1970: 1_790_000_000)),
                        lastSignIn: nil, sessions: 1)
                ], count: 1), signUp: .open, context: administrator)
    }
}

extension PasswordResetViewModel {
    public enum Fixtures {
        public static let blank = PasswordResetViewModel(
            name: "Bob Brown", token: String(repeating: "cd", count: 32), context: .signedOutFixture)
        public static let invalid = PasswordResetViewModel(
            name: "Bob Brown", token: String(repeating: "cd", count: 32), context: .signedOutFixture,
            error: Person.passwordRefusal("1234567890"))
    }
}

extension SignUpViewModel.Fixtures {
    /// Without an invitation, when sign-up needs one: no form.
    public static let invitationNeeded = SignUpViewModel(
        context: .signedOutFixture, alert: SignUpViewModel.invitationNeeded(.english), isOpen: false)
    /// Opened with an invitation: the form carries it.
    public static let invited = SignUpViewModel(
        context: .signedOutFixture, input: AccountInput(invitation: String(repeating: "ab", count: 32)))
}
