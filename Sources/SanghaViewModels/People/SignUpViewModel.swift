import Foundation
import SanghaCore

/// The sign-up page, and what creating an account leads to.
public struct SignUpViewModel: Sendable, Equatable, Encodable {
    public let layout: LayoutViewModel
    public let heading: String
    public let actionURL: String = Paths.signUp.url
    public let submitLabel: String
    public let next: String
    /// The invitation's token, carried from `/sign-up?invitation=…` to the post ("" for none).
    public let invitation: String
    /// Whether the form is shown: false when sign-up needs an invitation (or is closed) and the
    /// page was opened without one; `alert` says so.
    public let isOpen: Bool
    /// The name, username and password form: when sign-up is open here, and passwords sign in
    /// (with `--password-sign-in off` accounts are made by the provider's button alone).
    public let showsPasswordForm: Bool
    public let fields: [FormFieldViewModel]
    public let alert: AlertViewModel?
    /// "Sign in" instead, keeping where the person was going.
    public let signInURL: String
    public let signInPrompt: String
    public let signInLabel: String
    /// "Sign in with NAME" instead of a password, bringing the invitation and where the person
    /// was going: their account is made on the way back. nil without an identity provider, or
    /// when the form is not offered.
    public let providerSignIn: LinkViewModel?
    /// The language picker at the foot of the page.
    public let languagePicker: LanguagePickerViewModel

    public static func invitationNeeded(_ words: Words) -> AlertViewModel {
        AlertViewModel(title: words.signUpInvitationNeeded, message: words.signUpInvitationNeededDetail)
    }
    public static func closed(_ words: Words) -> AlertViewModel {
        AlertViewModel(title: words.signUpClosed, message: words.signUpClosedDetail)
    }

    public init(
        context: PageContext, input: AccountInput = AccountInput(), errors: [AccountField: String] = [:],
        alert: AlertViewModel? = nil, isOpen: Bool = true
    ) {
        let words = context.words
        self.layout = LayoutViewModel(title: words.signUpTitle, section: nil, context: context)
        (heading, submitLabel) = (words.signUpTitle, words.signUpSubmit)
        (signInPrompt, signInLabel) = (words.signUpHaveAccount, words.signUpSignIn)
        self.next = LocalPath.sanitize(input.next)
        self.invitation = input.invitation ?? ""
        self.isOpen = isOpen
        self.showsPasswordForm = isOpen && context.passwordsSignIn
        self.fields = [
            FormFieldViewModel(
                names: FieldNames(name: AccountField.name.formName), label: words.accountName, value: input.name ?? "",
                error: errors[.name],
                autocomplete: "name", maxLength: Person.nameLengthLimit),
            FormFieldViewModel(
                names: FieldNames(name: AccountField.username.formName), label: words.accountUsername,
                value: input.username ?? "",
                error: errors[.username],
                hint: words.signUpUsernameHint, autocomplete: "username",
                maxLength: Person.usernameLengths.upperBound),
            FormFieldViewModel(
                names: FieldNames(name: AccountField.password.formName), label: words.accountPassword, value: "",
                error: errors[.password],
                hint: words.signUpPasswordHint(minimum: words.number(Person.minimumPasswordLength)),
                inputType: .password, autocomplete: "new-password", maxLength: Person.maximumPasswordLength),
        ]
        self.alert = alert
        self.signInURL = SignInViewModel.url(Paths.signIn.url, next: self.next)
        self.languagePicker = LanguagePickerViewModel(
            next: Self.url(Paths.signUp.url, next: self.next, invitation: self.invitation), context: context)
        let (next, invitation) = (self.next, self.invitation)
        self.providerSignIn = context.signInProvider.flatMap { provider in
            guard isOpen else { return nil }
            return LinkViewModel(
                url: Self.url(Paths.providerSignInStart.url, next: next, invitation: invitation),
                label: words.signInWithProvider(provider: provider))
        }
    }

    /// `path?next=…&invitation=…`, each only when there is one.
    static func url(_ path: String, next: String, invitation: String) -> String {
        var components = URLComponents()
        components.path = path
        let items =
            (next == "/" ? [] : [URLQueryItem(name: "next", value: next)])
            + (invitation.isEmpty ? [] : [URLQueryItem(name: "invitation", value: invitation)])
        components.queryItems = items.isEmpty ? nil : items
        // A `+` in a query reads as a space: it is sent encoded.
        return (components.string ?? components.path).replacingOccurrences(of: "+", with: "%2B")
    }

    /// The page as `mode` opens it: the form, or why there is none (an invitation is needed,
    /// or sign-up is closed) unless the deployment has no one yet (its first person becomes its
    /// administrator) or the invitation is valid.
    /// `invitationKey` is the key of `input.invitation` (whose form the web layer checked).
    /// A person on their way to a group's invitation link (`next`) gets the form too with
    /// `invite`: the link is checked when the account is created.
    public static func load(
        _ input: AccountInput, invitationKey: String?, mode: SignUpMode, people: any PeopleRepository,
        context: PageContext
    ) async -> LoadOutcome<SignUpViewModel> {
        let form = SignUpViewModel(context: context, input: input)
        if mode == .open { return .page(form) }
        if mode == .invite, input.groupInvitation != nil { return .page(form) }
        do {
            if try await !people.hasAnyone() { return .page(form) }
            if mode == .invite || mode == .adminInvite, let invitationKey,
                try await people.link(.invitation, key: invitationKey, at: context.now) != nil
            {
                return .page(form)
            }
        } catch {
            let alert = AlertViewModel(
                title: context.words.signUpCouldNotOpen,
                message: StorageMessage.text(for: error, otherwise: context.words.commonTryAgain, words: context.words))
            return .partial(SignUpViewModel(context: context, input: input, alert: alert, isOpen: false), .storage)
        }
        return .partial(
            SignUpViewModel(
                context: context, input: input,
                alert: mode == .closed ? closed(context.words) : invitationNeeded(context.words), isOpen: false),
            .forbidden)
    }

    /// Checks the fields, hashes the password and stores the person; `makeToken` gives them a
    /// FriendService token of their own (with the embedded service), nil: none. With `mode`
    /// `invite` the invitation is used up by the sign-up, or else a group's invitation link
    /// (`groupInvitationKey`, the key of `input.groupInvitation`) admits; sign-ups count against the address.
    public static func submit(
        _ input: AccountInput, mode: SignUpMode = .open, invitationKey: String? = nil,
        groupInvitationKey: String? = nil, people: any PeopleRepository,
        passwords: any PasswordHashing, requester: Requester = Requester(), makeToken: (@Sendable () -> String)?,
        context: PageContext
    ) async -> AccountOutcome<SignUpViewModel> {
        var errors: [AccountField: String] = [:]
        if let refusal = Person.nameRefusal(input.name ?? "", words: context.words) { errors[.name] = refusal }
        if let refusal = Person.usernameRefusal(input.trimmedUsername, words: context.words) {
            errors[.username] = refusal
        }
        if let refusal = Person.passwordRefusal(
            input.password ?? "", username: input.trimmedUsername, words: context.words)
        {
            errors[.password] = refusal
        }
        guard errors.isEmpty else {
            return .form(SignUpViewModel(context: context, input: input, errors: errors), .invalid)
        }
        // The browser's time zone when its script said it, else the deployment's.
        let person = Person(
            username: input.trimmedUsername, name: input.trimmedName, friendServiceToken: makeToken?(),
            createdAt: context.now, timeZone: input.timeZone.flatMap(DayClock.timeZone(named:)) ?? context.timeZone)
        let admission = Admission(mode: mode, invitationKey: invitationKey, groupInvitationKey: groupInvitationKey)
        func refused(_ alert: AlertViewModel, _ refusal: AccountOutcome<SignUpViewModel>.Refusal)
            -> AccountOutcome<SignUpViewModel>
        {
            .form(SignUpViewModel(context: context, input: input, alert: alert), refusal)
        }
        do {
            if let minutes = try await requester.countSignUp(people: people, at: context.now) {
                return refused(
                    AlertViewModel(
                        title: context.words.signUpCouldNotCreate,
                        message: Requester.tooManyAttempts(minutes: minutes, words: context.words)),
                    .tooManyAttempts)
            }
            let hash = try await passwords.hash(input.password ?? "", lane: .anyone)
            let created = try await people.create(person, passwordHash: hash, admission: admission, at: context.now)
            return .signedUp(created, next: LocalPath.sanitize(input.next))
        } catch PasswordHashingError.busy {
            return refused(
                AlertViewModel(
                    title: context.words.signUpCouldNotCreate, message: PasswordHashingError.message(context.words)),
                .busy)
        } catch PeopleRepositoryError.invitationNeeded {
            return .form(
                SignUpViewModel(
                    context: context, input: input,
                    alert: mode == .closed ? closed(context.words) : invitationNeeded(context.words), isOpen: false),
                .invitationNeeded)
        } catch PeopleRepositoryError.usernameTaken {
            return .form(
                SignUpViewModel(
                    context: context, input: input, errors: [.username: context.words.signUpUsernameTaken]),
                .invalid)
        } catch {
            let alert = AlertViewModel(
                title: context.words.signUpCouldNotCreate,
                message: StorageMessage.text(for: error, otherwise: context.words.signUpFailed, words: context.words))
            return .form(SignUpViewModel(context: context, input: input, alert: alert), .storage)
        }
    }
}
