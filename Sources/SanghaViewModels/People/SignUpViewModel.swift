import Foundation
import SanghaCore

/// The sign-up page, and what creating an account leads to.
public struct SignUpViewModel: Sendable, Equatable, Encodable {
    public let layout: LayoutViewModel
    public let heading = "Create account"
    public let actionURL = "/sign-up"
    public let submitLabel = "Create account"
    public let next: String
    public let fields: [FormFieldViewModel]
    public let alert: AlertViewModel?
    /// "Sign in" instead, keeping where the person was going.
    public let signInURL: String
    public let signInPrompt = "Have an account?"
    public let signInLabel = "Sign in"

    public init(
        context: PageContext, input: AccountInput = AccountInput(), errors: [AccountField: String] = [:],
        alert: AlertViewModel? = nil
    ) {
        self.layout = LayoutViewModel(title: "Create account", section: nil, context: context)
        self.next = LocalPath.sanitize(input.next)
        self.fields = [
            FormFieldViewModel(
                name: AccountField.name.formName, label: "Name", value: input.name ?? "", error: errors[.name],
                autocomplete: "name", maxLength: Person.nameLengthLimit),
            FormFieldViewModel(
                name: AccountField.username.formName, label: "Username", value: input.username ?? "",
                error: errors[.username],
                hint: "3 to 30 letters (a–z), digits, - or _.", autocomplete: "username",
                maxLength: Person.usernameLengths.upperBound),
            FormFieldViewModel(
                name: AccountField.password.formName, label: "Password", value: "", error: errors[.password],
                hint: "At least \(Person.minimumPasswordLength) characters, not a common password.",
                inputType: .password, autocomplete: "new-password", maxLength: Person.maximumPasswordLength),
        ]
        self.alert = alert
        self.signInURL = SignInViewModel.url("/sign-in", next: self.next)
    }

    /// Checks the fields, hashes the password and stores the person; `makeToken` gives them a
    /// FriendService token of their own (with the embedded service), nil: none.
    public static func submit(
        _ input: AccountInput, people: any PeopleRepository, passwords: any PasswordHashing,
        makeToken: (@Sendable () -> String)?, context: PageContext
    ) async -> AccountOutcome<SignUpViewModel> {
        var errors: [AccountField: String] = [:]
        if let refusal = Person.nameRefusal(input.name ?? "") { errors[.name] = refusal }
        if let refusal = Person.usernameRefusal(input.trimmedUsername) { errors[.username] = refusal }
        if let refusal = Person.passwordRefusal(input.password ?? "", username: input.trimmedUsername) {
            errors[.password] = refusal
        }
        guard errors.isEmpty else {
            return .form(SignUpViewModel(context: context, input: input, errors: errors), .invalid)
        }
        let person = Person(
            username: input.trimmedUsername, name: input.trimmedName, friendServiceToken: makeToken?(),
            createdAt: context.now)
        do {
            let hash = try await passwords.hash(input.password ?? "")
            let created = try await people.create(person, passwordHash: hash)
            return .signedIn(created, next: LocalPath.sanitize(input.next))
        } catch PeopleRepositoryError.usernameTaken {
            return .form(
                SignUpViewModel(
                    context: context, input: input, errors: [.username: "This username is taken. Choose another."]),
                .invalid)
        } catch {
            let alert = AlertViewModel(
                title: "Could not create the account.",
                message: StorageMessage.text(for: error, otherwise: "Creating the account failed. Please try again."))
            return .form(SignUpViewModel(context: context, input: input, alert: alert), .storage)
        }
    }
}
