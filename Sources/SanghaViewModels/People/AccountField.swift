import Foundation

/// A field of the sign-up, sign-in and settings forms, as `ProfileField` is one of the profile
/// editor's: errors are kept by it, and the posted name is said once, here.
public enum AccountField: String, Hashable, Sendable, CaseIterable {
    case name
    case username
    /// The password of sign-up and sign-in, and the one that confirms deleting the account.
    case password
    case about
    case friendServiceToken
    case currentPassword
    case newPassword
    case timeZone
    case dayStartHour
    /// "Remind me to sit at".
    case reminder
    /// The password "Connect NAME" asks for first.
    case connectPassword

    /// The name the form posts it under (`AccountInput`'s property).
    public var formName: String { rawValue }
}
