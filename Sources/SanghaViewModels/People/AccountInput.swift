import Foundation
import SanghaCore

/// The fields of the sign-up, sign-in and settings forms as posted. A missing field counts as
/// empty. Passwords are never put back into a page.
public struct AccountInput: Sendable, Equatable, Decodable {
    public var name: String?
    public var username: String?
    public var password: String?
    /// Where to go after signing in: a local path (`LocalPath`).
    public var next: String?
    public var about: String?
    public var friendServiceToken: String?
    public var currentPassword: String?
    public var newPassword: String?
    /// The sign-up invitation's token (from `/sign-up?invitation=…`), or a reset link's.
    public var invitation: String?
    /// Settings' "Show me when I sit": "on" when checked (an unchecked box sends nothing).
    public var showWhenSitting: String?
    /// "Show streaks": `on` when checked.
    public var showStreaks: String?
    /// An IANA time zone name: Settings' "Time zone", or the browser's at sign-up.
    public var timeZone: String?
    /// Settings' "Day starts at": the hour, `0`–`6`.
    public var dayStartHour: String?
    /// Settings' "Remind me to sit at": `HH:MM`, or empty for no reminder.
    public var reminder: String?
    /// Settings' "Language": a language's tag, or empty for "As my browser says".
    public var language: String?
    /// The password "Connect NAME" asks for.
    public var connectPassword: String?
    /// Settings' "Disconnect NAME" box beside the password: `on` when checked.
    public var endProvider: String?
    /// Settings' "End calendar link" box beside the password: `on` when checked.
    public var endCalendarLink: String?

    public init(
        name: String? = nil, username: String? = nil, password: String? = nil, next: String? = nil,
        about: String? = nil, friendServiceToken: String? = nil, currentPassword: String? = nil,
        newPassword: String? = nil, invitation: String? = nil, showWhenSitting: String? = nil,
        showStreaks: String? = nil, timeZone: String? = nil, dayStartHour: String? = nil, reminder: String? = nil,
        connectPassword: String? = nil, endProvider: String? = nil, endCalendarLink: String? = nil,
        language: String? = nil
    ) {
        self.language = language
        self.reminder = reminder
        self.connectPassword = connectPassword
        self.endProvider = endProvider
        self.endCalendarLink = endCalendarLink
        self.name = name
        self.username = username
        self.password = password
        self.next = next
        self.about = about
        self.friendServiceToken = friendServiceToken
        self.currentPassword = currentPassword
        self.newPassword = newPassword
        self.invitation = invitation
        self.showWhenSitting = showWhenSitting
        self.showStreaks = showStreaks
        self.timeZone = timeZone
        self.dayStartHour = dayStartHour
    }

    /// The token of the group invitation link `next` leads back to, if it does: with
    /// `--sign-up invite` that link admits a new person.
    public var groupInvitation: String? {
        Paths.groupInvitationLink.value(inPath: LocalPath.sanitize(next))
    }

    /// Whether the box "Show me when I sit" was checked.
    public var showsWhenSitting: Bool { showWhenSitting == "on" }
    public var showsStreaks: Bool { showStreaks == "on" }
    /// Whether "Disconnect NAME" was checked beside the password.
    public var endsProvider: Bool { endProvider == "on" }
    /// Whether "End calendar link" was checked beside the password.
    public var endsCalendarLink: Bool { endCalendarLink == "on" }

    var trimmedName: String { (name ?? "").trimmingCharacters(in: .whitespacesAndNewlines) }
    var trimmedUsername: String { (username ?? "").trimmingCharacters(in: .whitespaces) }
}

/// Where a sign-in may lead: a path on this site only. `//evil.example`, `http://evil.example`,
/// `/\evil.example` and anything that is not a plain local path lead home.
public enum LocalPath {
    public static func sanitize(_ next: String?) -> String {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"),
            next.utf8.count <= 2_000,
            !next.unicodeScalars.contains(where: { $0.value < 0x21 || $0 == "\\" || $0.value == 0x7F }),
            let components = URLComponents(string: next), components.scheme == nil, components.host == nil
        else { return "/" }
        return next
    }
}

/// How a sign-up or sign-in ends: signed in (the web layer starts the session and goes on),
/// signed up (the same, for an account this very request made, which is welcomed first), or the
/// form again with why (which the web layer maps to its status).
public enum AccountOutcome<Form: Sendable & Equatable>: Sendable, Equatable {
    case signedIn(Person, next: String)
    case signedUp(Person, next: String)
    case form(Form, Refusal)

    /// Why the form is shown again.
    public enum Refusal: Sendable, Equatable {
        /// A field breaks a rule; each message is by its field.
        case invalid
        /// A wrong username or password (which of the two is not said).
        case wrongCredentials
        /// Too many failed attempts for the username, the address or the device within the window.
        case tooManyAttempts
        /// The password hashing queue is full: try again in a moment.
        case busy
        /// The account is disabled by an administrator.
        case disabled
        /// Sign-up needs an invitation (or is closed), and none valid was brought.
        case invitationNeeded
        /// The database could not be reached or failed.
        case storage
        /// The identity provider's answer is not to be believed (or it refused).
        case providerRefused
        /// The identity provider could not be reached in time.
        case providerUnreachable
    }
}
