import Foundation

/// A group of people who sit together: its members, one or more of them hosts (its creator
/// first). A group and everything in it exist only for its members.
public struct SittingGroup: Sendable, Equatable, Identifiable {
    public var id: Int
    public var name: String
    public var createdAt: Date

    public init(id: Int, name: String, createdAt: Date) {
        (self.id, self.name, self.createdAt) = (id, name, createdAt)
    }

    public static let nameLengthLimit = 60

    /// Why `name` cannot be a group's name, or nil, in `words`' language; the same rules as a
    /// profile's name (`NameProblem`).
    public static func validateName(_ name: String, words: Words) -> String? {
        switch NameProblem(name, limit: nameLengthLimit) {
        case nil: nil
        case .required: words.groupsNameRequired
        case .tooLong(let limit): words.groupsNameTooLong(limit)
        case .control: words.groupsNameControl
        case .direction: words.groupsNameDirection
        }
    }
}

/// A group as its list shows it to one member.
public struct GroupSummary: Sendable, Equatable {
    public var group: SittingGroup
    public var members: Int
    /// Whether the person who asked hosts it.
    public var isHost: Bool

    public init(group: SittingGroup, members: Int, isHost: Bool) {
        (self.group, self.members, self.isHost) = (group, members, isHost)
    }
}

/// One member of a group.
public struct GroupMember: Sendable, Equatable {
    public var person: Int
    public var name: String
    public var username: String
    public var isHost: Bool
    public var joinedAt: Date

    public init(person: Int, name: String, username: String, isHost: Bool, joinedAt: Date) {
        (self.person, self.name, self.username, self.isHost, self.joinedAt) =
            (person, name, username, isHost, joinedAt)
    }
}

/// Someone a host removed: they cannot join again by a link until a host lets them back in.
public struct RemovedMember: Sendable, Equatable {
    public var person: Int
    public var name: String
    public var username: String
    public var removedAt: Date

    public init(person: Int, name: String, username: String, removedAt: Date) {
        (self.person, self.name, self.username, self.removedAt) = (person, name, username, removedAt)
    }
}

/// A member's practice over some days: their sessions begun in them, counted.
public struct MemberPractice: Sendable, Equatable {
    public var person: Int
    public var totals: SittingTotals

    public init(person: Int, totals: SittingTotals) {
        (self.person, self.totals) = (person, totals)
    }
}

/// An invitation link a host made, as the group page lists it (the token itself is shown only
/// when it is made; the storage keeps its SHA-256).
public struct GroupInvitation: Sendable, Equatable, Identifiable {
    public var id: Int
    public var createdAt: Date
    public var expiresAt: Date

    public init(id: Int, createdAt: Date, expiresAt: Date) {
        (self.id, self.createdAt, self.expiresAt) = (id, createdAt, expiresAt)
    }

    /// An invitation link admits people for 7 days.
    public static let lifetime: TimeInterval = 7 * 24 * 3600
}

/// A group as its page shows it to a member.
public struct GroupDetail: Sendable, Equatable {
    public var group: SittingGroup
    /// Hosts first (in the order they became hosts), then the others by name.
    public var members: [GroupMember]
    /// The invitation links not revoked nor expired; only for a host, else empty.
    public var invitations: [GroupInvitation]
    /// Whether the person who asked hosts it.
    public var isHost: Bool
    /// Those removed and not let back in, newest first; only for a host, else empty.
    public var removed: [RemovedMember]

    public init(
        group: SittingGroup, members: [GroupMember], invitations: [GroupInvitation], isHost: Bool,
        removed: [RemovedMember] = []
    ) {
        (self.group, self.members, self.invitations, self.isHost, self.removed) =
            (group, members, invitations, isHost, removed)
    }
}

/// What a group's page shows of it: the group, its members' practice in a week, who is sitting,
/// and its sits.
public struct GroupPage: Sendable, Equatable {
    public var detail: GroupDetail
    public var practice: [MemberPractice]
    public var sitting: [SittingNow]
    public var sits: [GroupSit]

    public init(detail: GroupDetail, practice: [MemberPractice], sitting: [SittingNow], sits: [GroupSit]) {
        (self.detail, self.practice, self.sitting, self.sits) = (detail, practice, sitting, sits)
    }
}

/// What a sit's page shows of it: the sit, its group (and whether the person hosts it), and who
/// is sitting in the group.
public struct GroupSitPage: Sendable, Equatable {
    public var sit: GroupSit
    public var group: SittingGroup
    public var isHost: Bool
    public var sitting: [SittingNow]

    public init(sit: GroupSit, group: SittingGroup, isHost: Bool, sitting: [SittingNow]) {
        (self.sit, self.group, self.isHost, self.sitting) = (sit, group, isHost, sitting)
    }
}

/// What an invitation link shows the person who opens it.
public struct GroupInvitationPreview: Sendable, Equatable {
    public var group: SittingGroup
    public var isMember: Bool
    /// A host removed the person: no link lets them join until a host lets them back in.
    public var isRemoved: Bool

    public init(group: SittingGroup, isMember: Bool, isRemoved: Bool = false) {
        (self.group, self.isMember, self.isRemoved) = (group, isMember, isRemoved)
    }
}

public enum GroupRepositoryError: Error, Sendable, Equatable {
    /// No such group, member or invitation for this person: they are not a member, not a host
    /// where one must be, or it does not exist. Pages answer 404 alike.
    case notFound
    /// A host removed this person from the group, and has not let them back in: joining is refused.
    case removed
    /// The group has `GroupSit.limitPerGroup` sits to come already: nothing was scheduled.
    case tooManySits
    /// The group has `GroupSit.limitNotOverPerGroup` sits not over, cancelled ones counted:
    /// nothing was scheduled.
    case tooManySitsNotOver
    /// The storage failed: the message is for the log.
    case storage(String)
    /// The database could not be reached in time; it may be back in a moment.
    case unreachable(String)
}

extension GroupRepositoryError: StorageError {
    public var isUnreachable: Bool {
        if case .unreachable = self { true } else { false }
    }
}

/// The groups as one person may see and change them: every question names that person, so a
/// group they are not in answers `notFound`, as one that does not exist.
public protocol GroupRepository: Sendable {
    /// The person's groups, by name.
    func list() async throws(GroupRepositoryError) -> [GroupSummary]
    /// A new group with the person as its first host.
    func create(name: String, at date: Date) async throws(GroupRepositoryError) -> SittingGroup
    /// The group, if the person is a member.
    func group(_ id: Int, at date: Date) async throws(GroupRepositoryError) -> GroupDetail?
    /// For each member, their sessions begun in `start ..< end`.
    func practice(of group: Int, from start: Date, to end: Date) async throws(GroupRepositoryError)
        -> [MemberPractice]
    /// A host's new invitation link, kept as `key` (the token's digest) until `expiresAt`.
    func addInvitation(to group: Int, key: String, at date: Date, expiresAt: Date) async throws(GroupRepositoryError)
    /// A host ends an invitation link.
    func revokeInvitation(_ id: Int, of group: Int) async throws(GroupRepositoryError)
    /// The group an invitation link (by its key) admits to, while it is valid.
    func invitation(key: String, at date: Date) async throws(GroupRepositoryError) -> GroupInvitationPreview?
    /// Joins the group of a valid invitation link; its id. Joining twice changes nothing.
    func join(key: String, at date: Date) async throws(GroupRepositoryError) -> Int
    /// The person leaves. When the last host goes (leaving, or deleting their account), the
    /// member who joined first becomes a host; when the last member goes, the group is deleted.
    func leave(_ group: Int) async throws(GroupRepositoryError)
    /// A host removes a member who is not a host: in the same transaction they are kept out, so
    /// no link lets them join again until a host lets them back in (`readmit`).
    func remove(_ member: Int, from group: Int, at date: Date) async throws(GroupRepositoryError)
    /// A host lets someone removed join again by a link (they are not made a member).
    func readmit(_ person: Int, to group: Int) async throws(GroupRepositoryError)

    /// The person began (or resumed) sitting with the profile named `profileName`, in the group
    /// sit `sit` if any (kept only if it is a sit of one of their groups, not cancelled), to end
    /// by `until`; a sit already under way in the same group sit (or alone) keeps its start. The
    /// ids of the person's groups.
    func startSitting(profileName: String, sit: Int?, at date: Date, until: Date) async throws(GroupRepositoryError)
        -> [Int]
    /// The person stopped sitting. The ids of the person's groups.
    func stopSitting() async throws(GroupRepositoryError) -> [Int]
    /// The members sitting now (`until` not yet past by `SittingNow.grace`) who show it, by
    /// when they began (in another group's sit, without its name); not found when the person is
    /// not a member.
    func sittingNow(in group: Int, at date: Date) async throws(GroupRepositoryError) -> [SittingNow]

    /// The group's page (`group`, `practice` in `week`, `sittingNow`, `sits`) at `date`, if the
    /// person is a member: a storage may read it at once.
    func page(_ id: Int, week: DateInterval, at date: Date) async throws(GroupRepositoryError) -> GroupPage?

    /// A sit's page (the sit, its group, `sittingNow`) at `date`, if the person is a member and
    /// the sit is the group's: a storage may read it at once.
    func sitPage(_ sit: Int, of group: Int, at date: Date) async throws(GroupRepositoryError) -> GroupSitPage?

    /// A host schedules `sit` for its group (its id is ignored); the sit as stored.
    /// `.tooManySits` when the group has `GroupSit.limitPerGroup` sits to come,
    /// `.tooManySitsNotOver` when it has `GroupSit.limitNotOverPerGroup` not over, cancelled
    /// ones counted.
    func scheduleSit(_ sit: GroupSit, at date: Date) async throws(GroupRepositoryError) -> GroupSit
    /// The group's sits not over at `date` nor cancelled (every weekly one, and those happening
    /// once that have not ended), by their first start.
    func sits(of group: Int, at date: Date) async throws(GroupRepositoryError) -> [GroupSit]
    /// One of the group's sits, or nil (over, cancelled or not).
    func sit(_ id: Int, of group: Int) async throws(GroupRepositoryError) -> GroupSit?
    /// Every sit of the person's groups not over at `date` (every weekly one, and those happening
    /// once that have not ended), cancelled ones too until they are over (`GroupSit`), with their
    /// group's name, by first start: what the person's calendar feed lists.
    func calendarSits(at date: Date) async throws(GroupRepositoryError) -> [CalendarSit]
    /// One of the group's sits (over, cancelled or not) with the group's name, if the person is a
    /// member: "Add to calendar". nil when they are not, or the group has no such sit.
    func calendarSit(_ id: Int, of group: Int) async throws(GroupRepositoryError) -> CalendarSit?
    /// A host cancels one of the group's sits: it is no longer listed nor joined; whoever sits in
    /// it sits on, and their session is recorded with the group as before.
    func cancelSit(_ id: Int, of group: Int, at date: Date) async throws(GroupRepositoryError)
}

extension GroupRepository {
    /// The page read a question at a time.
    public func page(_ id: Int, week: DateInterval, at date: Date) async throws(GroupRepositoryError) -> GroupPage? {
        guard let detail = try await group(id, at: date) else { return nil }
        return GroupPage(
            detail: detail, practice: try await practice(of: id, from: week.start, to: week.end),
            sitting: try await sittingNow(in: id, at: date), sits: try await sits(of: id, at: date))
    }

    /// The sit's page read a question at a time.
    public func sitPage(_ sit: Int, of group: Int, at date: Date) async throws(GroupRepositoryError) -> GroupSitPage? {
        guard let detail = try await self.group(group, at: date), let found = try await self.sit(sit, of: group) else {
            return nil
        }
        return GroupSitPage(
            sit: found, group: detail.group, isHost: detail.isHost, sitting: try await sittingNow(in: group, at: date))
    }

    /// The sit and its group's name read a question at a time.
    public func calendarSit(_ id: Int, of group: Int) async throws(GroupRepositoryError) -> CalendarSit? {
        guard let found = try await sit(id, of: group),
            let summary = try await list().first(where: { $0.group.id == group })
        else { return nil }
        return CalendarSit(sit: found, groupName: summary.group.name)
    }

    /// The person began (or resumed) sitting alone.
    public func startSitting(profileName: String, at date: Date, until: Date) async throws(GroupRepositoryError)
        -> [Int]
    {
        try await startSitting(profileName: profileName, sit: nil, at: date, until: until)
    }
}
