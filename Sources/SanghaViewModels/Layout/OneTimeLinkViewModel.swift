import Foundation
import SanghaCore

/// A link just made (a sign-up or group invitation, a password reset), shown once to be copied
/// and sent: only its digest is kept.
public struct OneTimeLinkViewModel: Sendable, Equatable, Encodable {
    public let heading: String
    public let url: String
    public let note: String

    public static func invitation(url: String, words: Words) -> OneTimeLinkViewModel {
        OneTimeLinkViewModel(
            heading: words.oneTimeLinkInvitation, url: url, note: words.oneTimeLinkInvitationNote)
    }

    /// A group's invitation link: anyone signed in who opens it within 7 days joins the group.
    public static func groupInvitation(url: String, words: Words) -> OneTimeLinkViewModel {
        OneTimeLinkViewModel(
            heading: words.oneTimeLinkInvitation, url: url, note: words.oneTimeLinkGroupInvitationNote)
    }

    /// A password reset link for the person named `name`.
    public static func passwordReset(url: String, name: String, words: Words) -> OneTimeLinkViewModel {
        OneTimeLinkViewModel(
            heading: words.oneTimeLinkPasswordReset(name: name), url: url,
            note: words.oneTimeLinkPasswordResetNote(name: name))
    }

    /// The person's calendar address.
    public static func calendar(url: String, words: Words) -> OneTimeLinkViewModel {
        OneTimeLinkViewModel(heading: words.oneTimeLinkCalendar, url: url, note: words.oneTimeLinkCalendarNote)
    }

    public init(heading: String, url: String, note: String) {
        (self.heading, self.url, self.note) = (heading, url, note)
    }
}
