import Foundation

/// A field of a friend, with the rule its value must keep.
///
/// The same rules run in the reference FriendService and in Sangha's forms, so the form can
/// say what is wrong before anything is sent.
public enum FriendField: String, CaseIterable, Codable, Sendable, Hashable {
    case firstname
    case lastname
    case phonenumber

    public static let nameLengthLimit = 50
    public static let phoneDigitsRange = 3...20

    /// A reason when `value` breaks this field's rule, nil when it keeps it.
    public func validate(_ value: String) -> String? {
        switch self {
        case .firstname: Self.validateName(value, label: "First name")
        case .lastname: Self.validateName(value, label: "Last name")
        case .phonenumber: Self.validatePhoneNumber(value)
        }
    }

    /// Names are letters in any script, spaces, hyphens and apostrophes, 1–50 characters.
    static func validateName(_ value: String, label: String) -> String? {
        if value.trimmingCharacters(in: .whitespaces).isEmpty {
            return "\(label) is required."
        }
        if value.count > nameLengthLimit {
            return "\(label) must be at most \(nameLengthLimit) characters."
        }
        let allowed = value.unicodeScalars.allSatisfy { scalar in
            scalar == " " || scalar == "-" || scalar == "'" || scalar == "\u{2019}"
                || scalar.properties.isAlphabetic || scalar.properties.generalCategory == .nonspacingMark
                || scalar.properties.generalCategory == .spacingMark
        }
        return allowed ? nil : "\(label) may contain only letters, spaces, hyphens and apostrophes."
    }

    /// A phone number is 3–20 digits, optionally after a leading `+`.
    static func validatePhoneNumber(_ value: String) -> String? {
        if value.isEmpty { return "Phone number is required." }
        let digits = value.hasPrefix("+") ? value.dropFirst() : Substring(value)
        let isDigits = !digits.isEmpty && digits.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
        guard isDigits, phoneDigitsRange.contains(digits.count) else {
            return "Phone number must be 3 to 20 digits, optionally starting with +."
        }
        return nil
    }
}
