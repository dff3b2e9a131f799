import Foundation
import SanghaCore

/// What a process keeps of each person's practice (`Memo`): what
/// `SittingSessionRepository.practice(today:recent:offset:)` read (the totals, the days sat, the
/// streak and a page of sessions), by person and page, for the day it was read on. It changes
/// only when the person's sessions do (a sit recorded, edited, imported or deleted, a profile
/// deleted under them), when their day does (a new day; a new time zone or day start, which
/// counts their days again) and when they are deleted: every such write goes to the database
/// first and then forgets that person's practice, and a practice read for another day is not
/// served. Home, /history and /me of someone who has not sat since read nothing.
///
/// The pages of the person's groups show their week's practice, and their name and sitting:
/// every forget of a person's practice forgets those pages too (`groupPages`).
public struct PracticeMemo: Sendable {
    /// One page of one person's practice.
    public struct Key: Hashable, Sendable {
        public let owner: Int
        public let recent: Int
        public let offset: Int

        public init(owner: Int, recent: Int, offset: Int) {
            (self.owner, self.recent, self.offset) = (owner, recent, offset)
        }
    }

    /// How many pages are kept at most: a practice holds up to a year of days (about 9 KB) and
    /// a page of sessions, so a thousand are tens of megabytes at worst.
    public static let limit = 1_000

    let practices: Memo<Key, Practice>
    /// The groups' pages, which show each member's practice.
    public let groupPages: GroupPageMemo

    public init(watch: any ChangeWatch, maximumAge: Duration? = nil) {
        practices = Memo(watch: watch, maximumAge: maximumAge, limit: Self.limit)
        groupPages = GroupPageMemo(watch: watch, maximumAge: maximumAge)
    }

    /// The practice kept for `key` as of `today`; else the one `read` gives, read once for all
    /// the requests that miss it together (`Memo.value(_:if:keeping:reading:)`).
    public func practice<Failure: Error>(
        _ key: Key, today: LocalDay, reading read: @escaping @Sendable () async throws(Failure) -> Practice
    ) async throws(Failure) -> Practice {
        try await practices.value(key, if: { $0.today == today }, reading: read)
    }

    /// After `owner`'s sessions or sitting changed: their practice, and the group pages they are
    /// on.
    public func forget(owner: Int) {
        practices.forget { key, _ in key.owner == owner }
        groupPages.forget(member: owner)
    }

    /// After the person changed (a new time zone or day start counts their days again, a new
    /// name shows on their groups' pages) or was deleted with their memberships: their practice,
    /// the group pages they are on, and the lists of groups that count them.
    public func forget(person: Int) {
        practices.forget { key, _ in key.owner == person }
        groupPages.forget(person: person)
    }

    public func forgetAll() {
        practices.forgetAll()
        groupPages.forgetAll()
    }
}
