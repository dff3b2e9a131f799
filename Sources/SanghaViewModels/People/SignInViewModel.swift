import Foundation
import SanghaCore

/// The sign-in page, and what signing in leads to.
public struct SignInViewModel: Sendable, Equatable, Encodable {
    public let layout: LayoutViewModel
    public let heading: String
    public let actionURL: String = Paths.signIn.url
    public let submitLabel: String
    /// Where the person goes once signed in; a local path.
    public let next: String
    public let fields: [FormFieldViewModel]
    public let alert: AlertViewModel?
    /// "Create account", keeping where the person was going: offered when sign-up is open
    /// (with invitations, people come with a link).
    public let offersSignUp: Bool
    public let signUpURL: String
    public let signUpPrompt: String
    public let signUpLabel: String
    /// "Sign in with NAME", keeping where the person was going; nil without an identity provider.
    public let providerSignIn: LinkViewModel?
    /// The username and password form (not with `--password-sign-in off`).
    public let showsPasswordForm: Bool
    /// Between the provider's button and the password form, when there are both.
    public let passwordPrompt: String?
    /// The language picker at the foot of the page.
    public let languagePicker: LanguagePickerViewModel

    public init(
        context: PageContext, username: String = "", next: String? = nil, errors: [AccountField: String] = [:],
        alert: AlertViewModel? = nil
    ) {
        let words = context.words
        self.layout = LayoutViewModel(title: words.signInTitle, section: nil, context: context)
        (heading, submitLabel) = (words.signInTitle, words.signInSubmit)
        (signUpPrompt, signUpLabel) = (words.signInNewHere, words.signInCreateAccount)
        self.next = LocalPath.sanitize(next)
        self.fields = [
            FormFieldViewModel(
                names: FieldNames(name: AccountField.username.formName), label: words.accountUsername, value: username,
                error: errors[.username],
                autocomplete: "username", maxLength: Person.usernameLengths.upperBound),
            FormFieldViewModel(
                names: FieldNames(name: AccountField.password.formName), label: words.accountPassword, value: "",
                error: errors[.password],
                inputType: .password,
                autocomplete: "current-password", maxLength: Person.maximumPasswordLength),
        ]
        self.alert = alert
        // A group's invitation link admits new people too (with `--sign-up invite`; `closed`
        // admits no one).
        // Without passwords (`--password-sign-in off`) accounts are made by the provider's button.
        let passwords = context.passwordsSignIn
        switch context.signUp {
        case .open: offersSignUp = passwords
        case .invite: offersSignUp = passwords && Paths.groupInvitationLink.value(inPath: self.next) != nil
        case .adminInvite, .closed: offersSignUp = false
        }
        self.signUpURL = Self.url(Paths.signUp.url, next: self.next)
        let next = self.next
        self.providerSignIn = context.signInProvider.map {
            LinkViewModel(
                url: Self.url(Paths.providerSignInStart.url, next: next), label: words.signInWithProvider(provider: $0))
        }
        self.showsPasswordForm = passwords
        self.passwordPrompt = passwords && context.signInProvider != nil ? words.signInOrWithPassword : nil
        self.languagePicker = LanguagePickerViewModel(
            next: Self.url(Paths.signIn.url, next: self.next), context: context)
    }

    /// `path?next=…` (`path` alone when `next` is home).
    public static func url(_ path: String, next: String) -> String {
        SignUpViewModel.url(path, next: next, invitation: "")
    }

    /// Checks the username and password. Each check is counted first (per username and per
    /// address, or against the browser's device cookie for the account: `Requester`), in the
    /// repository so every instance agrees; past a limit, 429. A right password clears the count.
    public static func submit(
        _ input: AccountInput, people: any PeopleRepository, passwords: any PasswordHashing,
        requester: Requester = Requester(), context: PageContext
    ) async -> AccountOutcome<SignInViewModel> {
        let words = context.words
        let username = input.trimmedUsername
        let password = input.password ?? ""
        func form(
            _ refusal: AccountOutcome<SignInViewModel>.Refusal, errors: [AccountField: String] = [:],
            message: String? = nil
        ) -> AccountOutcome<SignInViewModel> {
            .form(
                SignInViewModel(
                    context: context, username: username, next: input.next, errors: errors,
                    alert: message.map { AlertViewModel(title: words.signInCouldNot, message: $0) }),
                refusal)
        }
        var missing: [AccountField: String] = [:]
        if username.isEmpty { missing[.username] = words.signInEnterUsername }
        if password.isEmpty { missing[.password] = words.signInEnterPassword }
        guard missing.isEmpty else { return form(.invalid, errors: missing) }
        // A name that cannot be a username is wrong without a database or a hash.
        guard Person.usernameRefusal(username) == nil else {
            return form(.wrongCredentials, message: words.signInWrongCredentials)
        }
        let lane = requester.lane(for: username)
        do {
            // Counted as a failure before the password is checked, cleared when it is right.
            if let minutes = try await requester.countCheck(of: username, people: people, at: context.now) {
                return form(.tooManyAttempts, message: Requester.tooManyAttempts(minutes: minutes, words: words))
            }
            guard let found = try await people.credentials(username: username) else {
                try await passwords.verifyNoOne(password, lane: lane)
                return form(.wrongCredentials, message: words.signInWrongCredentials)
            }
            // Someone who signs in only through the identity provider has no password to match.
            guard !found.passwordHash.isEmpty else {
                try await passwords.verifyNoOne(password, lane: lane)
                return form(.wrongCredentials, message: words.signInWrongCredentials)
            }
            guard try await passwords.verify(password, against: found.passwordHash, lane: lane) else {
                return form(.wrongCredentials, message: words.signInWrongCredentials)
            }
            try await requester.checkSucceeded(of: username, people: people, at: context.now)
            // Said only to whoever knows the password.
            guard !found.person.isDisabled else { return form(.disabled, message: words.signInDisabled) }
            return .signedIn(found.person, next: LocalPath.sanitize(input.next))
        } catch PasswordHashingError.busy {
            await requester.checkNotMade(of: username, people: people, at: context.now)
            return form(.busy, message: PasswordHashingError.message(words))
        } catch {
            return form(
                .storage, message: StorageMessage.text(for: error, otherwise: words.signInFailed, words: words))
        }
    }
}
