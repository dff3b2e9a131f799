import Foundation

/// Someone with an account: their own profiles, sitting sessions and FriendService token.
public struct Person: Sendable, Equatable, Codable, Identifiable {
    public var id: Int
    /// How they sign in: 3–30 ASCII letters, digits, `-` or `_`, unique without regard to case.
    public var username: String
    public var name: String
    /// Their own words on their page.
    public var about: String
    /// Their own FriendService token; nil: the deployment's (`--friend-service-token`).
    public var friendServiceToken: String?
    public var createdAt: Date
    /// May open `/admin`: see everyone, invite, disable, reset passwords. The first person of a
    /// deployment is one.
    public var isAdministrator: Bool
    /// Cannot sign in (and was signed out everywhere when disabled).
    public var isDisabled: Bool
    /// Members of their groups see them under "Sitting now" while they sit ("Show me when I sit").
    public var showsWhenSitting: Bool
    /// Their pages show streaks (days sat in a row): "Show streaks" off hides them everywhere.
    public var showsStreaks: Bool
    /// The language they chose in Settings ("Language"); nil, every new account's: as their
    /// browser says (`LanguageChoice`).
    public var language: Language?
    /// Where they live: their days, streaks and times are counted and shown in it (an IANA
    /// name, `DayClock.timeZone(named:)`). Sign-up sets it; the default, UTC, is for tests and
    /// tools, so that nothing depends on the machine's zone.
    public var timeZone: TimeZone
    /// The hour their day begins (`DayClock.startHours`): a sit before it counts for the day
    /// before.
    public var dayStartHour: Int
    /// "Remind me to sit at": minutes after midnight in their time zone, when their calendar
    /// feed has a daily event with an alarm; nil for none.
    public var reminderMinutes: Int?
    /// The SHA-256 (hex) of their calendar link's token (`/calendar/{token}.ics`); nil while
    /// they have none. The token itself is shown once and never kept.
    public var calendarKey: String?

    public init(
        id: Int = 0, username: String, name: String, about: String = "", friendServiceToken: String? = nil,
        createdAt: Date, isAdministrator: Bool = false, isDisabled: Bool = false, showsWhenSitting: Bool = true,
        showsStreaks: Bool = true, timeZone: TimeZone = .utc, dayStartHour: Int = 0, reminderMinutes: Int? = nil,
        calendarKey: String? = nil, language: Language? = nil
    ) {
        self.language = language
        self.reminderMinutes = reminderMinutes
        self.calendarKey = calendarKey
        self.id = id
        self.username = username
        self.name = name
        self.about = about
        self.friendServiceToken = friendServiceToken
        self.createdAt = createdAt
        self.isAdministrator = isAdministrator
        self.isDisabled = isDisabled
        self.showsWhenSitting = showsWhenSitting
        self.showsStreaks = showsStreaks
        self.timeZone = timeZone
        self.dayStartHour = dayStartHour
    }

    /// How their days are counted.
    public var dayClock: DayClock { DayClock(timeZone: timeZone, startHour: dayStartHour) }

    public static let nameLengthLimit = 100
    public static let aboutLengthLimit = 2_000
    public static let usernameLengths = 3...30
    /// A FriendService token pasted in Settings: visible ASCII, at most this long.
    public static let tokenLengthLimit = 500

    /// Why `name` cannot be a person's name, or nil (in English).
    public static func nameRefusal(_ name: String) -> String? { nameRefusal(name, words: .english) }

    /// Why `name` cannot be a person's name, or nil, in `words`' language.
    public static func nameRefusal(_ name: String, words: Words) -> String? {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return words.accountEnterName }
        if trimmed.count > nameLengthLimit { return words.accountNameTooLong(limit: words.number(nameLengthLimit)) }
        if trimmed.unicodeScalars.contains(where: \.isControl) {
            return words.accountNameControl
        }
        if trimmed.unicodeScalars.contains(where: \.isDirectionOverride) {
            return words.accountNameDirection
        }
        return nil
    }

    /// Why `username` cannot be one, or nil (in English).
    public static func usernameRefusal(_ username: String) -> String? { usernameRefusal(username, words: .english) }

    /// Why `username` cannot be one, or nil, in `words`' language.
    public static func usernameRefusal(_ username: String, words: Words) -> String? {
        let allowed = username.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                true
            default: false
            }
        }
        return allowed && usernameLengths.contains(username.utf8.count)
            ? nil : words.accountUsernameInvalid
    }

    public static let minimumPasswordLength = 10
    /// Longer ones are refused: a passphrase, not a document.
    public static let maximumPasswordLength = 200

    /// Why `about` (the person's own text, lines allowed) cannot be kept, or nil (in English).
    public static func aboutRefusal(_ about: String) -> String? { aboutRefusal(about, words: .english) }

    /// Why `about` cannot be kept, or nil, in `words`' language. Other control characters than
    /// line breaks and tabs are refused: a NUL cut the text short in SQLite.
    public static func aboutRefusal(_ about: String, words: Words) -> String? {
        if about.count > aboutLengthLimit { return words.accountAboutTooLong(limit: words.number(aboutLengthLimit)) }
        if about.unicodeScalars.contains(where: { $0.isControl && !"\n\r\t".unicodeScalars.contains($0) }) {
            return words.accountAboutControl
        }
        return nil
    }

    /// Why `password` cannot be one for `username`, or nil (in English).
    public static func passwordRefusal(_ password: String, username: String) -> String? {
        passwordRefusal(password, username: username, words: .english)
    }

    /// Why `password` cannot be one for `username`, or nil, in `words`' language.
    public static func passwordRefusal(_ password: String, username: String, words: Words) -> String? {
        if !username.isEmpty, password.lowercased() == username.lowercased() {
            return words.accountPasswordIsUsername
        }
        return passwordRefusal(password, words: words)
    }

    /// Why `password` cannot be one, or nil (in English).
    public static func passwordRefusal(_ password: String) -> String? { passwordRefusal(password, words: .english) }

    /// Why `password` cannot be one, or nil, in `words`' language.
    public static func passwordRefusal(_ password: String, words: Words) -> String? {
        if password.count < minimumPasswordLength {
            return words.accountPasswordTooShort(minimum: words.number(minimumPasswordLength))
        }
        if password.count > maximumPasswordLength {
            return words.accountPasswordTooLong(maximum: words.number(maximumPasswordLength))
        }
        if CommonPasswords.contains(password) {
            return words.accountPasswordCommon
        }
        return nil
    }

    /// "JD" for Jane Doe: the first letters of the first and last words of the name.
    public var initials: String {
        let words = name.split(whereSeparator: \.isWhitespace)
        let letters = [words.first, words.count > 1 ? words.last : nil].compactMap { $0?.first }
        return letters.isEmpty ? "?" : String(letters).uppercased()
    }

    /// The token's last four characters, as Settings shows it.
    public var friendServiceTokenEnding: String? {
        friendServiceToken.map { String($0.suffix(4)) }
    }
}

extension TimeZone {
    /// UTC (Foundation names it "GMT").
    public static let utc = TimeZone(secondsFromGMT: 0)!
}

extension Unicode.Scalar {
    /// A C0 or C1 control character (Unicode's Cc: NUL, ESC, DEL…). Not the format characters
    /// that `CharacterSet.controlCharacters` also holds: the joiner inside 🧘‍♀️ and the
    /// zero-width non-joiner of Persian names are text.
    public var isControl: Bool { properties.generalCategory == .control }

    /// A bidirectional embedding, override or isolate (U+202A–U+202E, U+2066–U+2069): in a name,
    /// U+202E shows "Ada\u{202E}nimda" as "Adaadmin" and can turn what follows it on a page
    /// around. The marks of right-to-left text (U+200E, U+200F, U+061C) stay allowed.
    public var isDirectionOverride: Bool {
        (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }
}
