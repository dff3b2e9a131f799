import Foundation
import SanghaCore

/// What a process keeps of profiles (`Memo`): each read by id, with its owner (the editor, the
/// busiest page), and the pages of each person's list (home, /profiles, a group's page). Both
/// stores keep them alike; every write goes to the database first and then forgets (or, on
/// SQLite, replaces) what it changed.
public struct ProfileMemo: Sendable {
    /// A profile as kept, with its owner: another person asking for its id is not given it.
    public struct OwnedProfile: Sendable {
        public let owner: Int
        public let profile: Profile

        public init(owner: Int, profile: Profile) { (self.owner, self.profile) = (owner, profile) }
    }

    /// One page of one person's list.
    public struct ListKey: Hashable, Sendable {
        public let owner: Int
        public let limit: Int
        public let offset: Int

        public init(owner: Int, limit: Int, offset: Int) {
            (self.owner, self.limit, self.offset) = (owner, limit, offset)
        }
    }

    public let profiles: Memo<Int, OwnedProfile>
    public let pages: Memo<ListKey, ProfileListPage>

    public init(watch: any ChangeWatch, maximumAge: Duration? = nil) {
        profiles = Memo(watch: watch, maximumAge: maximumAge)
        pages = Memo(watch: watch, maximumAge: maximumAge)
    }

    /// After profile `id` of `owner` was saved or deleted.
    public func forget(_ id: Int, owner: Int) {
        forget(profile: id)
        forgetPages(of: owner)
    }

    /// After profile `id` was saved or deleted (its owner's pages are told apart).
    public func forget(profile id: Int) {
        profiles.forget(id)
    }

    /// After a profile of `owner` was created (or saved or deleted).
    public func forgetPages(of owner: Int) {
        pages.forget { key, _ in key.owner == owner }
    }

    /// After the person changed or was deleted.
    public func forget(owner: Int) {
        profiles.forget { $1.owner == owner }
        forgetPages(of: owner)
    }

    public func forgetAll() {
        profiles.forgetAll()
        pages.forgetAll()
    }
}

/// A sign-in session as kept in memory (`Memo`, by the session's key): its person, its last use
/// as the database now has it, and when it began. It is served from memory only until it is due
/// to be touched (`SignInSession.isServableFromMemory`).
public struct KeptSignInSession: Sendable {
    public let person: Person
    public let lastUsed: Date
    public let startedAt: Date

    public init(person: Person, lastUsed: Date, startedAt: Date) {
        (self.person, self.lastUsed, self.startedAt) = (person, lastUsed, startedAt)
    }

    /// The person, if the session may be served from memory at `date`.
    public func person(at date: Date) -> Person? {
        SignInSession.isServableFromMemory(startedAt: startedAt, lastUsed: lastUsed, at: date) ? person : nil
    }
}
