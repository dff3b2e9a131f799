import Foundation
import SanghaCore

/// The fields of the add and edit forms as posted. A field that is missing counts as empty,
/// so the person sees "… is required." next to it rather than an error page.
public struct FriendFormInput: Sendable, Equatable, Decodable {
    public var firstname: String?
    public var lastname: String?
    public var phonenumber: String?

    public init(firstname: String? = nil, lastname: String? = nil, phonenumber: String? = nil) {
        self.firstname = firstname
        self.lastname = lastname
        self.phonenumber = phonenumber
    }

    public init(friend: Friend) {
        self.init(firstname: friend.firstname, lastname: friend.lastname, phonenumber: friend.phonenumber)
    }

    subscript(field: FriendField) -> String {
        switch field {
        case .firstname: firstname ?? ""
        case .lastname: lastname ?? ""
        case .phonenumber: phonenumber ?? ""
        }
    }

    /// What is sent to the service: names without surrounding spaces, the phone number without
    /// the spaces, dashes, dots and brackets people type to group digits.
    public var draft: FriendDraft {
        FriendDraft(
            firstname: self[.firstname].trimmingCharacters(in: .whitespacesAndNewlines),
            lastname: self[.lastname].trimmingCharacters(in: .whitespacesAndNewlines),
            phonenumber: self[.phonenumber].filter { !Self.separators.contains($0) }
        )
    }

    static let separators: Set<Character> = [" ", "-", ".", "(", ")", "\u{00A0}"]

    /// What `draft` does to `field`, for the page's script: the characters it removes (a phone
    /// number's separators) and those it trims from a name's ends (Foundation's
    /// `whitespacesAndNewlines`: Unicode's separators Z*, U+0009 to U+000D and U+0085), as
    /// character classes of a JavaScript regular expression.
    static func scriptCleaning(of field: FriendField) -> (removed: String?, trimmed: String?) {
        field == .phonenumber ? (#" \-.()\u00A0"#, nil) : (nil, #"\p{Z}\t-\r\u0085"#)
    }
}
