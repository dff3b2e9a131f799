import Foundation
import SanghaCore

/// What a process keeps of `/admin`'s pages (`Memo`): each page of everyone as read, until the
/// first of the sign-ins it counts would stop counting, since the counts change with the clock and
/// not only with writes. Every write that changes a person or who is signed in forgets them all;
/// a session's touch only lengthens it, and forgets nothing.
public struct KeptOverview: Sendable {
    /// One page of everyone.
    public struct Key: Hashable, Sendable {
        public let limit: Int
        public let offset: Int

        public init(limit: Int, offset: Int) { (self.limit, self.offset) = (limit, offset) }
    }

    public let page: PeopleOverviewPage
    /// When the first sign-in counted (on any page) ends: the page may be served until then.
    public let until: Date

    /// `page`, read while the sign-ins in force were last used no sooner than `earliestUse` and
    /// began no sooner than `earliestStart` (nil: none in force).
    public init(page: PeopleOverviewPage, earliestUse: Date?, earliestStart: Date?) {
        self.page = page
        // The earliest last use and the earliest start may be two sessions': the sooner end of
        // either is no later than the first session's end.
        until = SignInSession.end(startedAt: earliestStart, lastUsed: earliestUse)
    }
}
