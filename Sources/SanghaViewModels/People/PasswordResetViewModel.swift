import Foundation
import SanghaCore

/// `/reset-password?token=…`: a new password, from the one-use link an administrator made.
/// Setting it ends every session of the person, and they sign in with it.
public struct PasswordResetViewModel: Sendable, Equatable, Encodable {
    public let layout: LayoutViewModel
    public let heading: String
    public let intro: String
    public let actionURL: String = Paths.resetPassword.url
    public let submitLabel: String
    /// The link's token, carried to the post.
    public let token: String
    public let newPassword: FormFieldViewModel
    public let alert: AlertViewModel?

    public init(
        name: String, token: String, context: PageContext, error: String? = nil, alert: AlertViewModel? = nil
    ) {
        let words = context.words
        self.layout = LayoutViewModel(title: words.passwordResetTitle, section: nil, context: context)
        (heading, submitLabel) = (words.passwordResetTitle, words.passwordResetSubmit)
        self.intro = words.passwordResetIntro(name: name)
        self.token = token
        self.newPassword = FormFieldViewModel(
            names: FieldNames(name: AccountField.newPassword.formName), label: words.accountNewPassword, value: "",
            error: error, hint: words.signUpPasswordHint(minimum: words.number(Person.minimumPasswordLength)),
            inputType: .password, autocomplete: "new-password", maxLength: Person.maximumPasswordLength)
        self.alert = alert
    }

    /// With `--password-sign-in off` a password signs no one in, so a link sets none: its page
    /// says how to sign in instead (the link stays unused).
    static func passwordsOff(_ context: PageContext) -> ErrorPageViewModel? {
        guard !context.passwordsSignIn, let provider = context.signInProvider else { return nil }
        let words = context.words
        return ErrorPageViewModel(
            heading: words.passwordResetTitle,
            message: words.accountPasswordsOff(way: words.signInWithProvider(provider: provider)), context: context)
    }

    /// The page for the link kept under `key`; not found when it was used or has expired.
    public static func load(token: String, key: String?, people: any PeopleRepository, context: PageContext) async
        -> LoadOutcome<PasswordResetViewModel>
    {
        if let page = passwordsOff(context) { return .failed(page, .forbidden) }
        do {
            guard let person = try await person(ofLink: key, people: people, at: context.now) else {
                return .failed(
                    ErrorPageViewModel(
                        heading: context.words.passwordResetExpiredTitle, message: context.words.passwordResetExpired,
                        context: context),
                    .notFound)
            }
            return .page(PasswordResetViewModel(name: person.name, token: token, context: context))
        } catch {
            let words = context.words
            let message = StorageMessage.text(for: error, otherwise: words.passwordResetReadFailed, words: words)
            return .failed(
                ErrorPageViewModel(heading: words.passwordResetUnreadableTitle, message: message, context: context),
                .storage)
        }
    }

    /// Sets the new password once the rules pass, using up the link; then on to signing in.
    public static func submit(
        token: String, key: String?, newPassword: String, people: any PeopleRepository,
        passwords: any PasswordHashing, context: PageContext
    ) async -> SubmitOutcome<PasswordResetViewModel> {
        if let page = passwordsOff(context) { return .unavailable(page, .forbidden) }
        let words = context.words
        var name = ""
        func form(error: String? = nil, alert: AlertViewModel? = nil) -> PasswordResetViewModel {
            PasswordResetViewModel(name: name, token: token, context: context, error: error, alert: alert)
        }
        do {
            guard let key, let person = try await person(ofLink: key, people: people, at: context.now) else {
                return .notFound
            }
            name = person.name
            if let refusal = Person.passwordRefusal(newPassword, username: person.username, words: words) {
                return .invalid(form(error: refusal))
            }
            let hash = try await passwords.hash(newPassword, lane: .anyone)
            guard try await people.resetPassword(link: key, passwordHash: hash, at: context.now) != nil else {
                return .notFound
            }
            return .redirect(
                Redirect(to: Paths.signIn.url, flash: .success(words.passwordResetDone)))
        } catch PasswordHashingError.busy {
            return .failed(
                form(
                    alert: AlertViewModel(
                        title: words.passwordResetCouldNotSet, message: PasswordHashingError.message(words))),
                .busy)
        } catch {
            let message = StorageMessage.text(for: error, otherwise: words.commonSavingFailed, words: words)
            return .failed(
                form(alert: AlertViewModel(title: words.passwordResetCouldNotSet, message: message)), .storage)
        }
    }

    /// The person whose password the link kept under `key` sets, unless it was used or expired.
    private static func person(ofLink key: String?, people: any PeopleRepository, at date: Date)
        async throws(PeopleRepositoryError) -> Person?
    {
        guard let key, let link = try await people.link(.passwordReset, key: key, at: date) else { return nil }
        return try await people.credentials(id: link.personID)?.person
    }
}
