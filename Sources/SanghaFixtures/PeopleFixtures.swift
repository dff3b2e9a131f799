import Foundation
import SanghaCore
import SanghaViewModels

extension SignInViewModel {
    public enum Fixtures {
        /// The empty form, on the way to a page that asked for sign-in.
        public static let blank = SignInViewModel(context: .signedOutFixture, next: "/history")
        /// Posted with nothing typed: a message by each field.
        public static let missing = SignInViewModel(
            context: .signedOutFixture,
            errors: [.username: "Enter your username.", .password: "Enter your password."])
        /// A wrong username or password: the alert, the username kept.
        public static let wrongCredentials = SignInViewModel(
            context: .signedOutFixture, username: "ada",
            alert: AlertViewModel(title: Words.english.signInCouldNot, message: Words.english.signInWrongCredentials))
        /// Too many failures for the username.
        public static let tooManyAttempts = SignInViewModel(
            context: .signedOutFixture, username: "ada",
            alert: AlertViewModel(title: "Could not sign in.", message: "Too many attempts. Try again in 12 minutes."))
        /// With the group's identity provider: its button above the password form.
        public static let withProvider: SignInViewModel = {
            var context = PageContext.signedOutFixture
            context.signInProvider = "Pocket ID"
            return SignInViewModel(context: context, next: "/history")
        }()
        /// `--password-sign-in off`, and the way back from the provider went wrong.
        public static let providerOnlyFailed: SignInViewModel = {
            var context = PageContext.signedOutFixture
            context.signInProvider = "Pocket ID"
            context.passwordSignIn = false
            return SignInViewModel(
                context: context,
                alert: AlertViewModel(
                    title: Words.english.signInCouldNot,
                    message: Words.english.signInProviderFailed(provider: "Pocket ID"))
            )
        }()
        /// What a hostile visitor could put in the username and `next`.
        public static let hostile = SignInViewModel(
            context: .signedOutFixture, username: "<script>alert('u')</script>\" & '", next: "/profiles?a=1&b=\"<x>\"")
    }
}

extension SignUpViewModel {
    public enum Fixtures {
        public static let blank = SignUpViewModel(context: .signedOutFixture)
        /// Every field refused, what was typed kept (never the password).
        public static let invalid = SignUpViewModel(
            context: .signedOutFixture,
            input: AccountInput(name: "", username: "a b", password: "1234567890"),
            errors: [
                .name: Person.nameRefusal("")!,
                .username: Person.usernameRefusal("a b")!,
                .password: Person.passwordRefusal("1234567890")!,
            ])
        /// The username belongs to someone else.
        public static let taken = SignUpViewModel(
            context: .signedOutFixture, input: AccountInput(name: "Ada", username: "ada"),
            errors: [.username: "This username is taken. Choose another."])
        /// The database could not be reached.
        public static let storageFailure = SignUpViewModel(
            context: .signedOutFixture, input: AccountInput(name: "Ada", username: "ada"),
            alert: AlertViewModel(
                title: "Could not create the account.",
                message: "The database is not reachable. Try again in a moment."))
        public static let hostile = SignUpViewModel(
            context: .signedOutFixture,
            input: AccountInput(name: "<b>Ada</b> & \"Sons\" 🧘", username: "<script>", next: "/\"><script>"))
    }
}

extension SettingsViewModel {
    public enum Fixtures {
        /// A few zones for the list, not the system's whole tz database: a tzdata update does not
        /// change the fixtures' pages.
        public static let timeZoneNames = ["America/Santiago", "Asia/Kolkata", "Europe/Berlin", "UTC"]

        /// With the embedded FriendService, which gives each person a token: no token field.
        public static let embedded = SettingsViewModel(
            person: .fixture, acceptsToken: false, context: .fixture, timeZoneNames: timeZoneNames)
        /// With the group's identity provider: connected, with a password ("Disconnect NAME")…
        public static let providerConnected = withProvider(ProviderAccount(isConnected: true, hasPassword: true))
        /// …not yet ("Connect NAME")…
        public static let providerNotConnected = withProvider(ProviderAccount(isConnected: false, hasPassword: true))
        /// …and an account the provider alone signs in (no password: nothing to disconnect).
        public static let providerOnly = withProvider(ProviderAccount(isConnected: true, hasPassword: false))
        /// …which has just signed in there again ("Confirm with NAME"): it may set a password.
        public static let providerOnlyConfirmed = withProvider(
            ProviderAccount(isConnected: true, hasPassword: false, isConfirmed: true))

        /// "Connect NAME" with a wrong password: the message by the field.
        public static let providerConnectRefused = withProvider(
            ProviderAccount(isConnected: false, hasPassword: true),
            errors: [.connectPassword: ProviderSectionViewModel.wrongPassword])
        /// "Connect NAME" with the right password: "Continue to NAME", off to the provider.
        public static let providerConnectContinue = withProvider(
            ProviderAccount(isConnected: false, hasPassword: true),
            continueURL: "https://id.example/authorize?client_id=sangha&state=abc&nonce=def&code_challenge=ghi")
        /// Connected, with a password and a calendar link: beside the password, the boxes that
        /// end the other ways in (one checked, as a refused save keeps it).
        public static let otherWaysIn: SettingsViewModel = {
            var person = Person.fixture
            person.calendarKey = "key"
            return withProvider(
                ProviderAccount(isConnected: true, hasPassword: true), person: person,
                input: AccountInput(name: person.name, about: person.about, endCalendarLink: "on"))
        }()

        static func withProvider(
            _ account: ProviderAccount, person: Person = .fixture, input: AccountInput? = nil,
            errors: [AccountField: String] = [:], continueURL: String? = nil
        ) -> SettingsViewModel {
            var context = PageContext.fixture
            context.signInProvider = "Pocket ID"
            context.providerAccount = account
            return SettingsViewModel(
                person: person, acceptsToken: false, context: context, input: input, errors: errors,
                timeZoneNames: timeZoneNames, providerContinueURL: continueURL)
        }
        /// A calendar link just made, shown once; a daily reminder at 06:30.
        public static let calendarLink: SettingsViewModel = {
            var person = Person.fixture
            person.calendarKey = "key"
            person.reminderMinutes = 390
            return SettingsViewModel(
                person: person, acceptsToken: false, context: .fixture, timeZoneNames: timeZoneNames,
                calendarLink: .calendar(
                    url: "https://sangha.example/calendar/" + String(repeating: "ef", count: 32) + ".ics",
                    words: .english))
        }()
        /// Notifications on: two devices, newest first, with the choices someone changed and
        /// a reminder at 06:30.
        public static let notifications: SettingsViewModel = {
            var person = Person.fixture
            person.reminderMinutes = 390
            let added = Date(timeIntervalSince1970: 1_795_000_000)
            let devices = [
                PushDevice(
                    id: 2, person: person.id, endpoint: "https://updates.push.services.mozilla.com/wpush/v2/a",
                    p256dh: [], auth: [], name: "Firefox on Android", createdAt: added),
                PushDevice(
                    id: 1, person: person.id, endpoint: "https://fcm.googleapis.com/fcm/send/b", p256dh: [], auth: [],
                    name: "Chrome on Linux", createdAt: added - 86_400 * 40),
            ]
            return SettingsViewModel(
                person: person, acceptsToken: false, context: .fixture, timeZoneNames: timeZoneNames,
                notifications: NotificationsSectionViewModel(
                    devices: devices, choices: PushChoices(sits: true, reminder: false, sitting: true),
                    reminderMinutes: person.reminderMinutes, timeZone: person.timeZone, words: .english))
        }()
        /// Notifications on, no device yet and no reminder time.
        public static let notificationsNone = SettingsViewModel(
            person: .fixture, acceptsToken: false, context: .fixture, timeZoneNames: timeZoneNames,
            notifications: NotificationsSectionViewModel(
                devices: [], choices: .standard, reminderMinutes: nil, timeZone: .utc, words: .english))
        /// With a remote FriendService, before the person pasted a token of their own.
        public static let remoteWithoutToken = SettingsViewModel(
            person: .fixture, acceptsToken: true, context: .fixture, timeZoneNames: timeZoneNames)
        /// With a remote FriendService and the person's own token (shown by its last four).
        public static let remoteWithToken: SettingsViewModel = {
            var person = Person.fixture
            person.friendServiceToken = "secret-token-7f3a"
            return SettingsViewModel(
                person: person, acceptsToken: true, context: .fixture(flash: .success(SettingsViewModel.saved)),
                timeZoneNames: timeZoneNames)
        }()
        /// Refused values, each message by its field, what was typed kept.
        public static let invalid = SettingsViewModel(
            person: .fixture, acceptsToken: true, context: .fixture,
            input: AccountInput(
                name: "", about: "Sits.", friendServiceToken: "has spaces", currentPassword: "",
                newPassword: "short"),
            errors: [
                .name: Person.nameRefusal("")!,
                .friendServiceToken: "A token is up to 500 visible characters, without spaces.",
                .currentPassword: "Enter your current password to change it.",
                .newPassword: Person.passwordRefusal("short")!,
            ], timeZoneNames: timeZoneNames)
        /// Deleting the account without the right password.
        public static let deleteRefused = SettingsViewModel(
            person: .fixture, acceptsToken: false, context: .fixture,
            errors: [.password: "Type your password to delete the account."], timeZoneNames: timeZoneNames)
        /// The database failed while saving.
        public static let storageFailure = SettingsViewModel(
            person: .fixture, acceptsToken: false, context: .fixture, input: AccountInput(name: "Ada", about: ""),
            alert: AlertViewModel(
                title: "Could not save the settings.",
                message: "The database is not reachable. Try again in a moment."), timeZoneNames: timeZoneNames)
        public static let hostile = SettingsViewModel(
            person: MeViewModel.Fixtures.hostilePerson, acceptsToken: true,
            context: MeViewModel.Fixtures.shownTo(MeViewModel.Fixtures.hostilePerson), timeZoneNames: timeZoneNames)
    }
}
