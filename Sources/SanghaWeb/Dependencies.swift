import Foundation
import Prometheus
import SanghaCore
import SanghaOIDC

/// Everything the routes need from outside, built once at start-up: the real parts in
/// `sangha serve`, fakes in tests.
public struct Dependencies: Sendable {
    /// People, their sign-in sessions and failed sign-ins.
    public var people: any PeopleRepository
    /// Each person's profiles, sitting sessions and saved friends list: a handler gets the
    /// repositories of the signed-in person only.
    public var data: any PersonalData
    /// The FriendService as each person reaches it, with their token.
    public var friendServices: FriendServiceDirectory
    /// How people get those tokens (issued with the embedded service, pasted with a remote one).
    public var friendTokens: FriendTokenPolicy
    public var passwords: any PasswordHashing
    /// Signs the flash, device cookies and form tokens with the deployment's secret.
    public var signer: CookieSigner
    /// Makes a new CSRF nonce for a browser that has none; tests fix it.
    public var makeFormToken: @Sendable () -> String
    /// The clock pages read the time from; tests fix it.
    public var now: @Sendable () -> Date
    /// The time zone pages show times in.
    public var timeZone: TimeZone
    /// Where the process's metrics are kept, served at `GET /metrics`; nil: no such page.
    public var metrics: PrometheusCollectorRegistry?
    /// The group's identity provider (OpenID Connect); nil: people sign in with passwords only.
    public var identityProvider: OpenIDProvider?
    /// Notifications by Web Push; nil: Sangha sends none (no `--push-contact`).
    public var push: PushSetup?

    public init(
        people: any PeopleRepository,
        data: any PersonalData,
        friendServices: FriendServiceDirectory,
        friendTokens: FriendTokenPolicy = FriendTokenPolicy(.pasted),
        passwords: any PasswordHashing = PasswordHasher(),
        signer: CookieSigner = .random(),
        makeFormToken: @escaping @Sendable () -> String = { SecretToken.make() },
        now: @escaping @Sendable () -> Date = { Date() },
        timeZone: TimeZone = .current,
        metrics: PrometheusCollectorRegistry? = nil,
        identityProvider: OpenIDProvider? = nil,
        push: PushSetup? = nil
    ) {
        self.identityProvider = identityProvider
        self.push = push
        self.people = people
        self.data = data
        self.friendServices = friendServices
        self.friendTokens = friendTokens
        self.passwords = passwords
        self.signer = signer
        self.makeFormToken = makeFormToken
        self.now = now
        self.timeZone = timeZone
        self.metrics = metrics
    }

    /// The friends of `person`: their FriendService, with their last list saved for when it fails.
    public func friends(of person: Person) -> FriendsRepository {
        FriendsRepository(
            remote: friendServices.service(for: person), storage: data.savedFriends(of: person.id), now: now)
    }
}
