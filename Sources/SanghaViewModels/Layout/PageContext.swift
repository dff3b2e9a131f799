import Foundation
import SanghaCore

/// What every page of one request shares: the browser's form token, the flash message the
/// previous response left, the request's time and the time zone to show times in, and the
/// addresses of the stylesheet and script.
///
/// The web layer's middleware builds one per request; a handler hands it to a view model as one
/// parameter, and the view model gives each part to the children that show it.
public struct PageContext: Sendable, Equatable {
    /// The CSRF token every form of the page carries.
    public var formToken: String
    /// Shown once, on this page.
    public var flash: FlashViewModel?
    /// When the request arrived.
    public var now: Date
    /// The signed-in person's, else the deployment's.
    public var timeZone: TimeZone
    /// The hour the person's day begins (`DayClock.startHours`).
    public var dayStartHour: Int = 0
    public var assets: AssetURLs
    /// Who is signed in; nil on the sign-in and sign-up pages.
    public var person: Person?
    /// Who may create an account (`--sign-up`): the sign-in page offers it when the person
    /// could.
    public var signUp: SignUpMode
    /// The group's identity provider's name ("Sign in with NAME"); nil: Sangha has none.
    public var signInProvider: String?
    /// The provider's name for sentences: "the identity provider" when there is none.
    var providerName: String { signInProvider ?? words.accountIdentityProvider }
    /// Whether people may sign in with a password (`--password-sign-in`).
    public var passwordSignIn = true
    /// Whether a password signs anyone in here: `--password-sign-in off` turns passwords off
    /// only beside an identity provider. The sign-in and sign-up forms, reset links and
    /// /admin's "Reset password" all follow it.
    public var passwordsSignIn: Bool { passwordSignIn || signInProvider == nil }
    /// The language the page is in (`LanguageChoice`: the person's, the `lang` cookie's, the
    /// browser's or the deployment's), and everything the page says in it.
    public var language: Language = .en {
        didSet { words = Words(language) }
    }
    public private(set) var words: Words = .english
    /// How the signed-in person stands with the identity provider, for Settings (read by the
    /// settings routes only); nil elsewhere, or without a provider.
    public var providerAccount: ProviderAccount?

    /// Whether the pages show streaks: the signed-in person's "Show streaks".
    public var showsStreaks: Bool { person?.showsStreaks ?? true }

    /// How the person counts days, and which of them today is.
    public var dayClock: DayClock { DayClock(timeZone: timeZone, startHour: dayStartHour) }
    public var today: LocalDay { dayClock.day(of: now) }

    /// The context for `person`, signed in: times shown in their time zone, days counted from
    /// their hour.
    public mutating func signIn(_ person: Person) {
        self.person = person
        timeZone = person.timeZone
        dayStartHour = person.dayStartHour
    }

    public init(
        formToken: String = "",
        flash: FlashViewModel? = nil,
        now: Date = Date(),
        timeZone: TimeZone = .current,
        assets: AssetURLs = .plain,
        person: Person? = nil,
        signUp: SignUpMode = .open
    ) {
        self.person = person
        self.signUp = signUp
        self.formToken = formToken
        self.flash = flash
        self.now = now
        self.timeZone = timeZone
        self.assets = assets
    }

    /// The same context without its flash: for the parts of a page that must not show it again.
    public var withoutFlash: PageContext {
        var context = self
        context.flash = nil
        return context
    }
}

/// Whether the identity provider signs the person in, and whether a password does too.
public struct ProviderAccount: Sendable, Equatable {
    public var isConnected: Bool
    public var hasPassword: Bool
    /// Signed in again at the provider ("Confirm with NAME") within the last ten minutes: what
    /// an account without a password shows instead of its password, to set one or to delete.
    public var isConfirmed: Bool
    /// The issuers, as kept with the person, that are the provider's (a trailing slash aside):
    /// what disconnecting ends.
    public var issuers: [String]

    public init(isConnected: Bool, hasPassword: Bool, isConfirmed: Bool = false, issuers: [String] = []) {
        (self.isConnected, self.hasPassword, self.isConfirmed) = (isConnected, hasPassword, isConfirmed)
        self.issuers = issuers
    }
}

/// Where the layout finds its static files. The server names them by a digest of their content
/// (`/css/sangha.1a2b3c4d.css`), so a browser may keep them for a year and still never use a
/// stale one; fixtures and development use the plain names.
public struct AssetURLs: Sendable, Equatable, Encodable {
    public let stylesheet: String
    public let script: String
    public let icon: String
    /// The icon iOS puts on the home screen (`apple-touch-icon`).
    public let touchIcon: String
    /// Each catalogue sound's address by its name; the pages that ring them ask `sound(named:)`.
    private let sounds: [String: String]

    public init(stylesheet: String, script: String, icon: String, touchIcon: String, sounds: [String: String] = [:]) {
        self.stylesheet = stylesheet
        self.script = script
        self.icon = icon
        self.touchIcon = touchIcon
        self.sounds = sounds
    }

    public static let plain = AssetURLs(
        stylesheet: "/css/sangha.css", script: "/js/sangha.js", icon: "/favicon.svg",
        touchIcon: "/icons/apple-touch-icon.png")

    /// The address of a catalogue sound: by its digest name when the server has one, else its
    /// plain one (`/sounds/wood-block.mp3`).
    public func sound(named name: String) -> String {
        sounds[name] ?? SoundCatalogue.path(of: name)
    }

    /// The layout's JSON names the stylesheet, script and icon; the sounds are in the pages
    /// that ring them.
    private enum CodingKeys: String, CodingKey {
        case stylesheet, script, icon, touchIcon
    }
}
