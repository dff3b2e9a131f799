import Foundation
import SanghaCore

/// Everything the routes need from outside, built once at start-up: the real parts in
/// `sangha serve`, fakes in tests.
public struct Dependencies: Sendable {
    /// The friends: the FriendService, with the last list it gave saved locally.
    public var friends: FriendsRepository
    public var profiles: any ProfileRepository
    /// Makes a new CSRF token for a browser that has none; tests fix it.
    public var makeFormToken: @Sendable () -> String

    public init(
        friends: FriendsRepository,
        profiles: any ProfileRepository,
        makeFormToken: @escaping @Sendable () -> String = { CSRFMiddleware.randomToken() }
    ) {
        self.friends = friends
        self.profiles = profiles
        self.makeFormToken = makeFormToken
    }
}
