import Foundation
import SanghaCore

/// The sign-in page, and what signing in leads to.
public struct SignInViewModel: Sendable, Equatable, Encodable {
    public let layout: LayoutViewModel
    public let heading = "Sign in"
    public let actionURL = "/sign-in"
    public let submitLabel = "Sign in"
    /// Where the person goes once signed in; a local path.
    public let next: String
    public let fields: [FormFieldViewModel]
    public let alert: AlertViewModel?
    /// "Create account", keeping where the person was going.
    public let signUpURL: String
    public let signUpPrompt = "New here?"
    public let signUpLabel = "Create account"

    public static let wrongCredentials = "Wrong username or password."

    public init(
        context: PageContext, username: String = "", next: String? = nil, errors: [AccountField: String] = [:],
        alert: AlertViewModel? = nil
    ) {
        self.layout = LayoutViewModel(title: "Sign in", section: nil, context: context)
        self.next = LocalPath.sanitize(next)
        self.fields = [
            FormFieldViewModel(
                name: AccountField.username.formName, label: "Username", value: username, error: errors[.username],
                autocomplete: "username", maxLength: Person.usernameLengths.upperBound),
            FormFieldViewModel(
                name: AccountField.password.formName, label: "Password", value: "", error: errors[.password],
                inputType: .password,
                autocomplete: "current-password", maxLength: Person.maximumPasswordLength),
        ]
        self.alert = alert
        self.signUpURL = Self.url("/sign-up", next: self.next)
    }

    /// `path?next=…` (`path` alone when `next` is home).
    public static func url(_ path: String, next: String) -> String {
        guard next != "/" else { return path }
        var components = URLComponents()
        components.path = path
        components.queryItems = [URLQueryItem(name: "next", value: next)]
        // A `+` in a query reads as a space: it is sent encoded.
        return (components.string ?? path).replacingOccurrences(of: "+", with: "%2B")
    }

    /// Checks the username and password, counting failures per username in the repository so
    /// every instance agrees; after `SignInSession.failureLimit` within the window, 429.
    public static func submit(
        _ input: AccountInput, people: any PeopleRepository, passwords: any PasswordHashing, context: PageContext
    ) async -> AccountOutcome<SignInViewModel> {
        let username = input.trimmedUsername
        let password = input.password ?? ""
        func form(
            _ refusal: AccountOutcome<SignInViewModel>.Refusal, errors: [AccountField: String] = [:],
            alert: AlertViewModel? = nil
        ) -> AccountOutcome<SignInViewModel> {
            .form(
                SignInViewModel(context: context, username: username, next: input.next, errors: errors, alert: alert),
                refusal)
        }
        var missing: [AccountField: String] = [:]
        if username.isEmpty { missing[.username] = "Enter your username." }
        if password.isEmpty { missing[.password] = "Enter your password." }
        guard missing.isEmpty else { return form(.invalid, errors: missing) }
        let refused = AlertViewModel(title: "Could not sign in.", message: wrongCredentials)
        // A name that cannot be a username is wrong without a database or a hash.
        guard Person.usernameRefusal(username) == nil else { return form(.wrongCredentials, alert: refused) }
        do {
            // Counted as a failure before the password is checked, cleared when it is right.
            let failures = try await people.countAttempt(of: username, at: context.now)
            if failures.count >= SignInSession.failureLimit {
                // Allowed again when the oldest of the last `failureLimit` leaves the window.
                let freed = failures[failures.count - SignInSession.failureLimit]
                    .addingTimeInterval(SignInSession.failureWindow)
                let minutes = max(1, Int((freed.timeIntervalSince(context.now) / 60).rounded(.up)))
                return form(
                    .tooManyAttempts,
                    alert: AlertViewModel(
                        title: "Could not sign in.",
                        message: "Too many attempts. Try again in \(CountText.of(minutes, "minute"))."))
            }
            guard let found = try await people.credentials(username: username) else {
                await passwords.verifyNoOne(password)
                return form(.wrongCredentials, alert: refused)
            }
            guard await passwords.verify(password, against: found.passwordHash) else {
                return form(.wrongCredentials, alert: refused)
            }
            try await people.clearFailures(of: username)
            return .signedIn(found.person, next: LocalPath.sanitize(input.next))
        } catch {
            return form(
                .storage,
                alert: AlertViewModel(
                    title: "Could not sign in.",
                    message: StorageMessage.text(for: error, otherwise: "Signing in failed. Please try again.")))
        }
    }
}
