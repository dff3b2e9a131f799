import Foundation
import Hummingbird
import HummingbirdTesting
import Prometheus
import SanghaCore
import SanghaStore
import SanghaTestSupport
import SanghaWeb

/// The parts route tests run on: the app's own SQLite stores on a database in memory, bcrypt at
/// its least cost, the deployment's time zone UTC whatever the machine's (pages read the same
/// everywhere).
enum TestDependencies {
    /// Every route test shares it, many at once: its queue is long.
    static let passwords = PasswordHasher(cost: 4, waiting: 10_000)
    static let password = "correct horse battery"
    /// Form tokens and signed cookies the tests can make too (`FormPost`).
    static let signer = CookieSigner(secret: Array(repeating: 7, count: 32))

    /// The app on `data` (a database of its own in memory when nil) and the people of the same
    /// database, unless the test gives `people` of its own (a `Breakable` of them).
    static func make(
        people: (any PeopleRepository)? = nil,
        data: (any OneDatabase)? = nil,
        friends: any FriendService = FakeFriendService.listing([]),
        friendTokens: FriendTokenPolicy = FriendTokenPolicy(.pasted),
        now: @escaping @Sendable () -> Date = { Date() },
        timeZone: TimeZone = TimeZone(identifier: "UTC")!,
        metrics: PrometheusCollectorRegistry? = nil
    ) throws -> Dependencies {
        let data = try data ?? SQLitePersonalData.inMemory()
        return Dependencies(
            people: people ?? data.people, data: data, friendServices: FriendServiceDirectory(friends),
            friendTokens: friendTokens, passwords: passwords, signer: signer,
            makeFormToken: { FormPost.token }, now: now, timeZone: timeZone, metrics: metrics)
    }
}

extension AppConfiguration {
    /// What most route tests run with: anyone may sign up, and many do from one address.
    static let testing = AppConfiguration(signUp: .open, addressLimit: 0)
}

/// Builds the app as `sangha serve` does, on `dependencies`, and runs `test` against it: so the
/// route tests exercise the real middleware and routes, and one place says how. Through the
/// router by default (no server, no peer address: a stranger to `/metrics`); `.live` runs a
/// real server on a free port of localhost.
func withApp(
    configuration: AppConfiguration = .testing,
    dependencies: Dependencies? = nil,
    testing setup: TestingSetup = .router,
    _ test: @Sendable (any TestClientProtocol) async throws -> Void
) async throws {
    let dependencies = try dependencies ?? TestDependencies.make()
    let app = try await buildApplication(configuration: configuration, dependencies: dependencies)
    try await app.test(setup, test)
}

/// The same with a person signed up first, since nearly every page is someone's: `test` gets a
/// client that sends their session cookie (Ada, person 1 of a fresh database).
func withSignedInApp(
    configuration: AppConfiguration = .testing,
    dependencies: Dependencies? = nil,
    testing setup: TestingSetup = .router,
    _ test: @Sendable (SignedInClient) async throws -> Void
) async throws {
    try await withApp(configuration: configuration, dependencies: dependencies, testing: setup) { client in
        try await test(try await client.signedUp())
    }
}
