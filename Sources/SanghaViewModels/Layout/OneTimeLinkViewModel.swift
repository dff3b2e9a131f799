import Foundation

/// A link just made (a sign-up or group invitation, a password reset), shown once to be copied
/// and sent: only its digest is kept.
public struct OneTimeLinkViewModel: Sendable, Equatable, Encodable {
    public let heading: String
    public let url: String
    public let note: String

    public static func invitation(url: String) -> OneTimeLinkViewModel {
        OneTimeLinkViewModel(
            heading: "Invitation link",
            url: url,
            note:
                "Send this link to the person you invite. It creates one account, within 7 days. It is shown only now.")
    }

    public static func groupInvitation(url: String) -> OneTimeLinkViewModel {
        OneTimeLinkViewModel(
            heading: "Invitation link",
            url: url,
            note:
                "Send this link to the people you invite. Anyone signed in who opens it within 7 days can join. It is shown only now; Revoke ends it."
        )
    }

    public static func passwordReset(url: String, name: String) -> OneTimeLinkViewModel {
        OneTimeLinkViewModel(
            heading: "Password reset link for \(name)",
            url: url,
            note:
                "Send this link to \(name). It sets a new password once, within 24 hours, and signs them out everywhere. It is shown only now."
        )
    }

    public static func calendar(url: String) -> OneTimeLinkViewModel {
        OneTimeLinkViewModel(
            heading: "Calendar link",
            url: url,
            note:
                "Subscribe to this address in your calendar app (“Add calendar from URL”). It is shown only now; Reset calendar link ends it."
        )
    }

    public init(heading: String, url: String, note: String) {
        (self.heading, self.url, self.note) = (heading, url, note)
    }
}
