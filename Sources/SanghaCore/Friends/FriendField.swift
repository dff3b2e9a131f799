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
        refusal(of: value).map(message)
    }

    /// How `value` breaks this field's rule, nil when it keeps it: what `validate` says, for a
    /// page that says it in the person's language.
    public func refusal(of value: String) -> Refusal? {
        switch self {
        case .firstname, .lastname: nameRefusal(value)
        case .phonenumber: Self.phoneNumberRefusal(value)
        }
    }

    /// The ways a value breaks a field's rule, each with its message (`message(_:)`).
    public enum Refusal: Sendable, CaseIterable {
        /// Nothing there.
        case required
        /// More characters than the field takes (names only: a phone number's length is part of
        /// what it may contain).
        case tooLong
        /// A character, or for a phone number a form, that the field does not take.
        case notAllowed
    }

    /// What the person reads when a value breaks the rule so.
    public func message(_ refusal: Refusal) -> String {
        switch (self, refusal) {
        case (.phonenumber, .required): "Phone number is required."
        case (.phonenumber, _): "Phone number must be 3 to 20 digits, optionally starting with +."
        case (_, .required): "\(noun) is required."
        case (_, .tooLong): "\(noun) must be at most \(Self.nameLengthLimit) characters."
        case (_, .notAllowed): "\(noun) may contain only letters, spaces, hyphens and apostrophes."
        }
    }

    private var noun: String {
        switch self {
        case .firstname: "First name"
        case .lastname: "Last name"
        case .phonenumber: "Phone number"
        }
    }

    // The rule as data, for the page's script: the friend form hands these to it (attributes of
    // its inputs), and the script applies exactly them, so the page refuses what the server
    // refuses and nothing else. The Swift tests write vectors of values with the server's verdict,
    // which the script's tests check (Tests/JavaScript/server-vectors.json).

    /// The most characters a value may have, counted as Swift counts them (grapheme clusters:
    /// "é" written as e and a combining accent is one; JavaScript's `Intl.Segmenter` counts the
    /// same); nil where the pattern bounds the length.
    public var maxCharacters: Int? {
        self == .phonenumber ? nil : Self.nameLengthLimit
    }

    /// A JavaScript regular expression (with the `u` flag) that a whole value keeping the rule
    /// matches, once it has its characters and length: what `nameRefusal` and
    /// `phoneNumberRefusal` allow, written as JavaScript reads it.
    public var pattern: String {
        switch self {
        // Each scalar: Unicode's Alphabetic property, a nonspacing or spacing mark, a space,
        // a hyphen, an apostrophe or a right single quotation mark.
        case .firstname, .lastname: #"^[\p{Alphabetic}\p{Mn}\p{Mc} '\u2019-]+$"#
        case .phonenumber: #"^\+?[0-9]{3,20}$"#
        }
    }

    /// Names are letters in any script, spaces, hyphens and apostrophes, 1–50 characters.
    func nameRefusal(_ value: String) -> Refusal? {
        if value.trimmingCharacters(in: .whitespaces).isEmpty { return .required }
        if value.count > Self.nameLengthLimit { return .tooLong }
        let allowed = value.unicodeScalars.allSatisfy { scalar in
            scalar == " " || scalar == "-" || scalar == "'" || scalar == "\u{2019}"
                || scalar.properties.isAlphabetic || scalar.properties.generalCategory == .nonspacingMark
                || scalar.properties.generalCategory == .spacingMark
        }
        return allowed ? nil : .notAllowed
    }

    /// A phone number is 3–20 digits, optionally after a leading `+`.
    static func phoneNumberRefusal(_ value: String) -> Refusal? {
        if value.isEmpty { return .required }
        let digits = value.hasPrefix("+") ? value.dropFirst() : Substring(value)
        let isDigits = !digits.isEmpty && digits.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
        guard isDigits, phoneDigitsRange.contains(digits.count) else { return .notAllowed }
        return nil
    }
}
