import Foundation
import SanghaCore

/// `/groups/{id}`, for its members: who is sitting now, its upcoming sits, who is in it, their practice this week,
/// and for a host "Schedule a sit" and the invitation links. A link just made is shown once, on the page the post
/// answers with.
public struct GroupViewModel: Sendable, Equatable, Encodable {
    public let layout: LayoutViewModel
    public let heading: String
    public let alert: AlertViewModel?
    /// An invitation link made by the post this page answers: shown this once.
    public let link: OneTimeLinkViewModel?
    /// Kept current by the page's event stream.
    public let sittingNow: GroupSittingNowViewModel
    /// Kept current by the page's event stream too.
    public let sits: GroupSitsViewModel
    /// A host's form; nil for the other members.
    public let scheduling: GroupScheduleViewModel?
    public let membersHeading: String
    public let members: [GroupMemberViewModel]
    public let weekHeading: String
    /// "Together: 2 hr 10 min in 5 sessions since Monday."
    public let weekSummary: String
    public let week: [String]
    /// A host's part of the page; nil for the other members.
    public let hosting: GroupHostingViewModel?
    public let leaveURL: String
    public let leaveLabel: String
    public let leaveHint: String

    /// `roster`: who is in the group and their week (`GroupRoster`), made before from the same
    /// members and practice; nil, made here.
    public init(
        detail: GroupDetail, practice: [MemberPractice], sitting: [SittingNow] = [], sits: [GroupSit] = [],
        profiles: [Profile] = [], schedule: GroupScheduleViewModel.Form = .empty, context: PageContext,
        link: OneTimeLinkViewModel? = nil, alert: AlertViewModel? = nil, roster: GroupRoster? = nil
    ) {
        let group = detail.group
        let words = context.words
        layout = LayoutViewModel(title: group.name, section: .groups, context: context)
        heading = words.isolated(group.name)
        self.alert = alert
        self.link = link
        sittingNow = GroupSittingNowViewModel(
            group: group.id, sitting: sitting, timeZone: context.timeZone, words: words)
        self.sits = GroupSitsViewModel(
            sits: sits, sitting: sitting, now: context.now, timeZone: context.timeZone, words: words)
        scheduling =
            detail.isHost
            ? GroupScheduleViewModel(group: group.id, profiles: profiles, form: schedule, words: words) : nil
        let roster = roster ?? GroupRoster(detail: detail, practice: practice, timeZone: context.timeZone, words: words)
        (members, week, weekSummary) = (roster.members, roster.week, roster.weekSummary)
        (membersHeading, weekHeading, leaveLabel) = (
            words.groupsMembersHeading, words.groupsWeekHeading, words.groupsLeave
        )
        hosting =
            detail.isHost
            ? GroupHostingViewModel(
                group: group.id, invitations: detail.invitations, removed: detail.removed, signUp: context.signUp,
                timeZone: context.timeZone, words: words)
            : nil
        leaveURL = Paths.leaveGroup.url(group.id)
        let me = context.person?.id
        let otherHosts = detail.members.contains { $0.isHost && $0.person != me }
        leaveHint =
            detail.members.count == 1
            ? words.groupsLeaveOnlyMember
            : detail.isHost && !otherHosts
                ? words.groupsLeaveOnlyHost
                : words.groupsLeaveComeBack
    }

    /// The week `date` is in, from Monday 00:00 in `timeZone`: counted by `Calendar` once per zone
    /// and week (`Weeks`), as every view of a group's page asks for this week again.
    static func week(of date: Date, timeZone: TimeZone) -> DateInterval {
        let local = LocalDay.containing(
            localSecond: Int(date.timeIntervalSince1970.rounded(.down)) + timeZone.secondsFromGMT(for: date)
        ).day
        let monday = local.advanced(by: 1 - local.weekday)
        if let week = weeks.week(monday, in: timeZone), week.start <= date, date < week.end { return week }
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = timeZone
        let week = calendar.dateInterval(of: .weekOfYear, for: date) ?? DateInterval(start: date, duration: 7 * 86_400)
        weeks.keep(week, monday, in: timeZone)
        return week
    }

    private static let weeks = Weeks()

    /// The weeks counted lately, by zone and Monday; forgotten all at once when there are many.
    private final class Weeks: @unchecked Sendable {
        private let lock = NSLock()
        private var kept: [String: (monday: LocalDay, week: DateInterval)] = [:]

        func week(_ monday: LocalDay, in timeZone: TimeZone) -> DateInterval? {
            lock.withLock { kept[timeZone.identifier].flatMap { $0.monday == monday ? $0.week : nil } }
        }

        func keep(_ week: DateInterval, _ monday: LocalDay, in timeZone: TimeZone) {
            lock.withLock {
                if kept.count >= 1_000 { kept.removeAll() }
                kept[timeZone.identifier] = (monday, week)
            }
        }
    }

    /// The group's page for a member; not found for anyone else, as for a group that does not
    /// exist.
    /// `roster`: the roster for its `GroupRoster.Source`, as made before from the same (the route
    /// keeps them: `GroupsRoutes.keptRosters`); nil, made here.
    public static func load(
        _ id: Int, groups: any GroupRepository, profiles: any ProfileRepository, context: PageContext,
        link: OneTimeLinkViewModel? = nil, roster: ((GroupRoster.Source) -> GroupRoster)? = nil
    ) async -> LoadOutcome<GroupViewModel> {
        do {
            let week = week(of: context.now, timeZone: context.timeZone)
            guard let read = try await groups.page(id, week: week, at: context.now) else { return .notFound }
            return .page(try await page(read, profiles: profiles, context: context, link: link, roster: roster))
        } catch GroupRepositoryError.notFound {
            return .notFound
        } catch {
            return .failed(
                .storage(
                    error, heading: context.words.groupsUnavailable, otherwise: context.words.groupsReadingGroupFailed,
                    context: context),
                .storage)
        }
    }

    /// The page of the group `read`, with, for a host, their profiles (the first by name) for
    /// "Schedule a sit".
    static func page(
        _ read: GroupPage, profiles: any ProfileRepository, context: PageContext, link: OneTimeLinkViewModel? = nil,
        schedule: GroupScheduleViewModel.Form = .empty, roster: ((GroupRoster.Source) -> GroupRoster)? = nil
    ) async throws -> GroupViewModel {
        let own =
            read.detail.isHost
            ? try await profiles.list(limit: GroupScheduleViewModel.profileLimit, offset: 0).profiles : []
        let source = GroupRoster.Source(
            detail: read.detail, practice: read.practice, timeZone: context.timeZone, language: context.words.language)
        return GroupViewModel(
            detail: read.detail, practice: read.practice, sitting: read.sitting, sits: read.sits, profiles: own,
            schedule: schedule, context: context, link: link,
            roster: roster?(source) ?? GroupRoster(source, words: context.words))
    }

    /// "Create invitation link" (hosts only): keeps the link under `key` (the digest of the
    /// token in `url`) for 7 days, and answers the page with `url` shown this once.
    public static func invite(
        _ id: Int, key: String, url: String, groups: any GroupRepository, profiles: any ProfileRepository,
        context: PageContext
    ) async -> LoadOutcome<GroupViewModel> {
        do {
            try await groups.addInvitation(
                to: id, key: key, at: context.now, expiresAt: context.now.addingTimeInterval(GroupInvitation.lifetime))
        } catch GroupRepositoryError.notFound {
            return .notFound
        } catch {
            return .failed(
                .storage(
                    error, heading: context.words.groupsNoInvitationMade, otherwise: context.words.groupsSavingFailed,
                    context: context),
                .storage)
        }
        let link = OneTimeLinkViewModel(
            heading: context.words.groupsInvitationLink, url: url, note: context.words.groupsInvitationLinkNote)
        return await load(id, groups: groups, profiles: profiles, context: context, link: link)
    }
}

/// Who is in a group and their practice this week, as its page shows them: made from the
/// group's members, their week, whether the reader hosts, their zone and language alone
/// (`Source`), so a page made again from the same may show the same (the route keeps the last one
/// made for each group: ten members' rows and lines were a third of the page's instructions).
public struct GroupRoster: Sendable, Equatable {
    /// What a roster is made from, and all it is made from.
    public struct Source: Sendable, Equatable {
        public let group: Int
        public let members: [GroupMember]
        public let practice: [MemberPractice]
        /// A host's roster has "Remove" on the members who do not host.
        public let isHost: Bool
        public let timeZone: TimeZone
        public let language: Language

        public init(detail: GroupDetail, practice: [MemberPractice], timeZone: TimeZone, language: Language) {
            (group, members, self.practice, isHost) = (detail.group.id, detail.members, practice, detail.isHost)
            (self.timeZone, self.language) = (timeZone, language)
        }
    }

    public let members: [GroupMemberViewModel]
    /// Each member's week: "Ada Lovelace: 3 sessions, 1 hr 5 min." or "… has not sat this week."
    public let week: [String]
    /// "Together: 2 hr 10 min in 5 sessions since Monday."
    public let weekSummary: String

    public init(detail: GroupDetail, practice: [MemberPractice], timeZone: TimeZone, words: Words) {
        self.init(
            Source(detail: detail, practice: practice, timeZone: timeZone, language: words.language), words: words)
    }

    /// Made from `source`, in `words` (its language).
    public init(_ source: Source, words: Words) {
        // A host's own row has no "Remove": hosts are never removed.
        members = source.members.map { member in
            GroupMemberViewModel(
                member,
                removeURL: source.isHost && !member.isHost
                    ? Paths.removeGroupMember.url(source.group, member.person) : nil,
                timeZone: source.timeZone, words: words)
        }
        let byPerson = Dictionary(
            source.practice.map { ($0.person, $0.totals) }, uniquingKeysWith: { first, _ in first })
        week = source.members.map { member in
            let totals = byPerson[member.person] ?? .zero
            return totals.sessions == 0
                ? words.groupsWeekNoSessions(name: member.name)
                : words.groupsWeekSat(
                    totals.sessions, name: member.name,
                    duration: DurationFormatter.words(from: totals.seconds, words: words))
        }
        let total = source.practice.map(\.totals).reduce(.zero, +)
        weekSummary =
            total.sessions == 0
            ? words.groupsWeekNone
            : words.groupsWeekTogether(
                total.sessions, duration: DurationFormatter.words(from: total.seconds, words: words))
    }
}

/// One member: name, username, "Host", since when, and a host's "Remove".
public struct GroupMemberViewModel: Sendable, Equatable, Encodable {
    public let name: String
    public let username: String
    public let isHost: Bool
    public let hostLabel: String
    public let detail: String
    public let removeURL: String?
    public let removeLabel: String
    /// "Remove Ana Lima".
    public let removeAccessibleLabel: String

    init(_ member: GroupMember, removeURL: String?, timeZone: TimeZone, words: Words) {
        name = words.isolated(member.name)
        username = member.username
        isHost = member.isHost
        (hostLabel, removeLabel) = (words.groupsHost, words.groupsRemove)
        detail = words.groupsJoined(date: CalendarText.shortDate(member.joinedAt, timeZone: timeZone, words: words))
        self.removeURL = removeURL
        removeAccessibleLabel = words.groupsRemoveNamed(name: member.name)
    }
}

/// What a host sees: the invitation links in force, each with "Revoke", and the button that
/// makes one.
public struct GroupHostingViewModel: Sendable, Equatable, Encodable {
    public let heading: String
    /// What a link admits, by `--sign-up`.
    public let hint: String
    public let invitations: [GroupInvitationRowViewModel]
    /// "No invitation link is in force."; nil when one is.
    public let noInvitationsText: String?
    public let createURL: String
    public let createLabel: String
    public let removedHeading: String
    public let removedHint: String
    /// Those removed and not let back in; the section is left out when there are none.
    public let removed: [GroupRemovedRowViewModel]
    public let hasRemoved: Bool

    init(
        group: Int, invitations: [GroupInvitation], removed: [RemovedMember] = [], signUp: SignUpMode = .invite,
        timeZone: TimeZone, words: Words
    ) {
        hint =
            switch signUp {
            case .invite: words.groupsLinksInvite
            case .open: words.groupsLinksOpen
            case .adminInvite, .closed: words.groupsLinksAccountsOnly
            }
        (heading, createLabel) = (words.groupsInvitationLinks, words.groupsCreateInvitation)
        (removedHeading, removedHint) = (words.groupsRemovedHeading, words.groupsRemovedHint)
        self.removed = removed.map { member in
            GroupRemovedRowViewModel(
                name: member.name, username: member.username,
                detail: words.groupsRemovedOn(
                    date: CalendarText.shortDate(member.removedAt, timeZone: timeZone, words: words)),
                readmitURL: Paths.readmitGroupMember.url(group, member.person), words: words)
        }
        hasRemoved = !removed.isEmpty
        self.invitations = invitations.map { invitation in
            GroupInvitationRowViewModel(
                text: words.groupsInvitationMade(
                    made: CalendarText.dayAndTime(invitation.createdAt, timeZone: timeZone, words: words),
                    expires: CalendarText.dayAndTime(invitation.expiresAt, timeZone: timeZone, words: words)),
                revokeURL: Paths.revokeGroupInvitation.url(group, invitation.id), revokeLabel: words.groupsRevoke)
        }
        noInvitationsText = invitations.isEmpty ? words.groupsNoInvitations : nil
        createURL = Paths.groupInvitations.url(group)
    }
}

/// Someone removed, with "Let back in".
public struct GroupRemovedRowViewModel: Sendable, Equatable, Encodable {
    public let name: String
    public let username: String
    /// "Removed 3 Dec 2026".
    public let detail: String
    public let readmitURL: String
    public let readmitLabel: String
    /// "Let Ana Lima back in".
    public let readmitAccessibleLabel: String

    init(name: String, username: String, detail: String, readmitURL: String, words: Words) {
        (self.name, self.username, self.detail, self.readmitURL) = (
            words.isolated(name), username, detail, readmitURL
        )
        readmitLabel = words.groupsLetBackIn
        readmitAccessibleLabel = words.groupsLetBackInNamed(name: name)
    }
}

public struct GroupInvitationRowViewModel: Sendable, Equatable, Encodable {
    public let text: String
    public let revokeURL: String
    public let revokeLabel: String
}

/// What a member does to a group with a button: leave it, remove a member, revoke a link.
public enum GroupAction: Sendable, Equatable {
    case leave
    case remove(member: Int)
    case readmit(person: Int)
    case revoke(invitation: Int)

    /// What the group's streams are told once it is done by `person`: whoever is no longer a
    /// member loses them, and may have been sitting in it.
    public func events(on group: Int, by person: Int) -> [GroupEvent] {
        switch self {
        case .leave: [.membershipEnded(group: group, person: person), .changed(group: group)]
        case .remove(let member): [.membershipEnded(group: group, person: member), .changed(group: group)]
        case .readmit, .revoke: []
        }
    }

    /// Does it; not found when the group, the member or the link is not this person's to touch.
    /// Done, it tells the group's open pages (`events`).
    public func perform(on group: Int, groups: any GroupRepository, context: PageContext) async -> SubmitOutcome<
        GroupViewModel
    > {
        let back = Paths.group.url(group)
        let words = context.words
        let events = context.person.map { self.events(on: group, by: $0.id) } ?? []
        do {
            switch self {
            case .leave:
                let name = try await groups.group(group, at: context.now)?.group.name
                try await groups.leave(group)
                return .redirect(
                    Redirect(
                        to: Paths.groups.url,
                        flash: .success(name.map { words.groupsLeft(name: $0) } ?? words.groupsLeftUnnamed),
                        events: events))
            case .remove(let member):
                let name = try await groups.group(group, at: context.now)?.members.first { $0.person == member }?.name
                try await groups.remove(member, from: group, at: context.now)
                return .redirect(
                    Redirect(
                        to: back,
                        flash: .success(
                            name.map { words.groupsMemberRemoved(name: $0) } ?? words.groupsMemberRemovedUnnamed),
                        events: events))
            case .readmit(let person):
                let name = try await groups.group(group, at: context.now)?.removed.first { $0.person == person }?.name
                try await groups.readmit(person, to: group)
                return .redirect(
                    Redirect(
                        to: back,
                        flash: .success(name.map { words.groupsReadmitted(name: $0) } ?? words.groupsReadmittedUnnamed))
                )
            case .revoke(let invitation):
                try await groups.revokeInvitation(invitation, of: group)
                return .redirect(
                    Redirect(to: back, flash: .success(words.groupsRevoked)))
            }
        } catch GroupRepositoryError.notFound {
            return .notFound
        } catch {
            let message = StorageMessage.text(for: error, otherwise: words.groupsSavingFailed, words: words)
            return .refused(Redirect(to: back, flash: .error(title: words.groupsNothingChanged, message: message)))
        }
    }
}
