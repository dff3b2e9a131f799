import Foundation
import SanghaCore

/// Everything the routes need from outside, built once at start-up: the real parts in
/// `sangha serve`, fakes in tests.
public struct Dependencies: Sendable {
    public var friendService: any FriendService
    public var profiles: any ProfileRepository

    public init(friendService: any FriendService, profiles: any ProfileRepository) {
        self.friendService = friendService
        self.profiles = profiles
    }
}
