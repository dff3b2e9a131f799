import Foundation
import Prometheus
import SanghaCore

/// Everything the routes need from outside, built once at start-up: the real parts in
/// `sangha serve`, fakes in tests.
public struct Dependencies: Sendable {
    /// The friends: the FriendService, with the last list it gave saved locally.
    public var friends: FriendsRepository
    public var profiles: any ProfileRepository
    /// The sessions sat.
    public var sessions: any SittingSessionRepository
    /// Makes a new CSRF token for a browser that has none; tests fix it.
    public var makeFormToken: @Sendable () -> String
    /// The clock pages read the time from; tests fix it.
    public var now: @Sendable () -> Date
    /// The time zone pages show times in.
    public var timeZone: TimeZone
    /// Where the process's metrics are kept, served at `GET /metrics`; nil: no such page.
    public var metrics: PrometheusCollectorRegistry?

    public init(
        friends: FriendsRepository,
        profiles: any ProfileRepository,
        sessions: any SittingSessionRepository,
        makeFormToken: @escaping @Sendable () -> String = { FormToken.random() },
        now: @escaping @Sendable () -> Date = { Date() },
        timeZone: TimeZone = .current,
        metrics: PrometheusCollectorRegistry? = nil
    ) {
        self.friends = friends
        self.profiles = profiles
        self.sessions = sessions
        self.makeFormToken = makeFormToken
        self.now = now
        self.timeZone = timeZone
        self.metrics = metrics
    }
}
