import Foundation
import SanghaCore

/// What a process keeps of each group's page (`Memo`): the page as a member read it, by group
/// and week, served to every member who opens it until something on it changes. A page differs
/// between members only in what a host sees (the links in force, those removed) and in
/// `isHost`, both told from its members; so a page a host read serves every member, and one a
/// member read serves the members who do not host. A sit's page is kept alike, by group and
/// sit, with the group's members and hosts, and forgotten by the same changes; and each
/// person's list of groups (/groups), forgotten with any of its groups, when they make or join
/// one, and when their account goes.
///
/// What changes it, and forgets it:
/// - the group's own writes (a link made or ended, someone joining, leaving, removed or let back
///   in, a sit scheduled or cancelled): that group;
/// - a member starting or stopping a sit, recording, editing, importing or deleting sessions (the
///   week's practice), or changing their name or "Show me when I sit", or deleted: the groups
///   they are a member of;
/// - the clock: a page is not served once the first of these has come: the end of its week, the
///   first of its sits happening once ending, the first of its links expiring, or the first of
///   those sitting passing their end and the grace (`SittingNow.grace`); nor to a request dated
///   before its read.
public struct GroupPageMemo: Sendable {
    struct Key: Hashable, Sendable {
        let group: Int
        let week: DateInterval
    }

    /// A page as it was read, and the span of time it holds for.
    struct Kept: Sendable {
        let page: GroupPage
        let readAt: Date
        let holdsUntil: Date

        /// `sittingUntil`: the earliest end of those sitting (before the grace), nil when no one is.
        init(page: GroupPage, week: DateInterval, readAt: Date, sittingUntil: Date?) {
            self.page = page
            self.readAt = readAt
            var ends = [week.end]
            if let sittingUntil { ends.append(sittingUntil.addingTimeInterval(SittingNow.grace)) }
            ends += page.sits.lazy.filter { !$0.weekly }.map(\.firstEnd)
            ends += page.detail.invitations.map(\.expiresAt)
            holdsUntil = ends.min() ?? week.end
        }

        /// What the page kept tells `person`.
        enum Seen {
            case page(GroupPage)
            case notMember
            /// They host the group, and the page kept is a member's, without the host's parts.
            case readForHost
        }

        func page(for person: Int) -> Seen {
            guard let me = page.detail.members.first(where: { $0.person == person }) else { return .notMember }
            if me.isHost { return page.detail.isHost ? .page(page) : .readForHost }
            guard page.detail.isHost else { return .page(page) }
            var seen = page
            (seen.detail.isHost, seen.detail.invitations, seen.detail.removed) = (false, [], [])
            return .page(seen)
        }
    }

    /// How many pages are kept at most: a page of ten members is a few kilobytes.
    public static let limit = 2_000

    /// A sit's page as a member read it, with the group's members (whether each hosts it), and
    /// the span of time it holds for: until the first of those sitting passes their end and the
    /// grace.
    struct KeptSit: Sendable {
        let page: GroupSitPage
        let members: [Int: Bool]
        let readAt: Date
        let holdsUntil: Date

        init(page: GroupSitPage, members: [Int: Bool], readAt: Date, sittingUntil: Date?) {
            (self.page, self.members, self.readAt) = (page, members, readAt)
            holdsUntil = sittingUntil?.addingTimeInterval(SittingNow.grace) ?? .distantFuture
        }
    }

    struct SitKey: Hashable, Sendable {
        let group: Int
        let sit: Int
    }

    let pages: Memo<Key, Kept?>
    let sits: Memo<SitKey, KeptSit?>
    /// Each person's groups, by person.
    let lists: Memo<Int, [GroupSummary]>

    public init(watch: any ChangeWatch, maximumAge: Duration? = nil) {
        pages = Memo(watch: watch, maximumAge: maximumAge, limit: Self.limit)
        sits = Memo(watch: watch, maximumAge: maximumAge, limit: Self.limit)
        lists = Memo(watch: watch, maximumAge: maximumAge, limit: 10_000)
    }

    /// The group's page as `person` sees it at `date`, if they are a member: the one kept, else
    /// what `read` gives (the page as `person` sees it and the earliest end of those sitting),
    /// kept for the members after them. Members who miss it together share one read
    /// (`Memo.value(_:if:keeping:reading:)`): on PostgreSQL, where a page is used for 2 s at most,
    /// a busy page's requests found it old together, and their reads were its tail.
    public func page<Failure: Error>(
        of person: Int, _ group: Int, week: DateInterval, at date: Date,
        reading read: @escaping @Sendable () async throws(Failure) -> (GroupPage, sittingUntil: Date?)?
    ) async throws(Failure) -> GroupPage? {
        // nil: no page for whoever read (not a member, or no such group), kept for no one.
        let kept: Kept? = try await pages.value(
            Key(group: group, week: week),
            if: { kept in
                guard let kept, kept.readAt <= date, date < kept.holdsUntil else { return false }
                if case .readForHost = kept.page(for: person) { return false }
                return true
            },
            keeping: { $0 != nil },
            reading: { () async throws(Failure) -> Kept? in
                try await read().map { Kept(page: $0, week: week, readAt: date, sittingUntil: $1) }
            })
        guard let kept, case .page(let seen) = kept.page(for: person) else { return nil }
        return seen
    }

    /// The sit's page as `person` sees it at `date`, if they are a member and the group has the
    /// sit: the one kept, else what `read` gives (the page, the group's members with whether each
    /// hosts it, and the earliest end of those sitting), kept for the members after them; one
    /// read for the members who miss it together.
    public func sitPage<Failure: Error>(
        of person: Int, _ sit: Int, of group: Int, at date: Date,
        reading read:
            @escaping @Sendable () async throws(Failure) -> (
                GroupSitPage, members: [Int: Bool], sittingUntil: Date?
            )?
    ) async throws(Failure) -> GroupSitPage? {
        let kept: KeptSit? = try await sits.value(
            SitKey(group: group, sit: sit),
            // A page of nil is its reader's alone: another request reads for itself.
            if: { kept in kept.map { $0.readAt <= date && date < $0.holdsUntil } ?? false },
            keeping: { $0 != nil },
            reading: { () async throws(Failure) -> KeptSit? in
                try await read().map { KeptSit(page: $0, members: $1, readAt: date, sittingUntil: $2) }
            })
        guard let kept, let isHost = kept.members[person] else { return nil }
        var seen = kept.page
        seen.isHost = isHost
        return seen
    }

    /// `person`'s groups: the list kept, else what `read` gives, kept.
    public func list<Failure: Error>(
        of person: Int, reading read: @escaping @Sendable () async throws(Failure) -> [GroupSummary]
    ) async throws(Failure) -> [GroupSummary] {
        try await lists.value(person, reading: read)
    }

    /// After the group changed.
    public func forget(group: Int) {
        pages.forget { key, _ in key.group == group }
        sits.forget { key, _ in key.group == group }
        lists.forget { _, list in list.contains { $0.group.id == group } }
    }

    /// After something of `person` shown on their groups' pages changed (their week's practice,
    /// their sitting): the pages they are on. A list of groups shows none of it, so every list
    /// stays.
    public func forget(member person: Int) {
        pages.forget { _, kept in kept?.page.detail.members.contains { $0.person == person } ?? false }
        sits.forget { _, kept in kept?.members[person] != nil }
    }

    /// After `person` made or joined a group: their own list (a group's other members' lists
    /// count its members, and go with `forget(group:)`).
    public func forget(listOf person: Int) {
        lists.forget(person)
    }

    /// After `person`'s account changed or went with its memberships: the pages they are on,
    /// their list, and the lists of everyone in a group of theirs, which count its members
    /// (every list, when theirs is not kept).
    public func forget(person: Int) {
        forget(member: person)
        let (theirs, _) = lists.value(person)
        guard let groups = theirs.map({ Set($0.map(\.group.id)) }) else { return lists.forgetAll() }
        lists.forget { key, list in key == person || list.contains { groups.contains($0.group.id) } }
    }

    public func forgetAll() {
        pages.forgetAll()
        sits.forgetAll()
        lists.forgetAll()
    }
}
