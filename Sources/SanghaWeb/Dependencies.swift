import Foundation
import SanghaCore

/// Everything the routes need from outside, built once at start-up: the real parts in
/// `sangha serve`, fakes in tests.
public struct Dependencies: Sendable {
    public var friendService: any FriendService
    public var profiles: any ProfileRepository
    /// Makes a new CSRF token for a browser that has none; tests fix it.
    public var makeFormToken: @Sendable () -> String

    public init(
        friendService: any FriendService,
        profiles: any ProfileRepository,
        makeFormToken: @escaping @Sendable () -> String = { CSRFMiddleware.randomToken() }
    ) {
        self.friendService = friendService
        self.profiles = profiles
        self.makeFormToken = makeFormToken
    }
}
