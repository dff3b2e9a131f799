import Foundation
import SanghaCore
import SanghaViewModels

extension GroupsViewModel {
    public enum Fixtures {
        static let now = PageContext.fixture.now
        static let summaries = [
            GroupSummary(
                group: SittingGroup(id: 1, name: "Morning sangha", createdAt: now - 30 * 86_400), members: 4,
                isHost: true),
            GroupSummary(
                group: SittingGroup(id: 2, name: "Thursday sit", createdAt: now - 9 * 86_400), members: 1,
                isHost: false),
        ]
        /// Two groups, one hosted.
        public static let list = GroupsViewModel(groups: summaries, context: .fixture)
        /// In no group yet.
        public static let empty = GroupsViewModel(groups: [], context: .fixture)
        /// "Create group" with no name.
        public static let nameError = GroupsViewModel(
            groups: summaries, context: .fixture, name: "   ", nameError: "Name is required.")
        /// The storage did not answer.
        public static let storageFailure = GroupsViewModel(
            groups: [], context: .fixture,
            alert: AlertViewModel(title: "Loading failed.", message: "The database did not answer. Try again soon."))
    }
}

extension GroupViewModel {
    public enum Fixtures {
        static let now = PageContext.fixture.now
        static let group = SittingGroup(id: 1, name: "Morning sangha", createdAt: now - 30 * 86_400)
        static let members = [
            GroupMember(person: 1, name: "Ada Lovelace", username: "ada", isHost: true, joinedAt: now - 30 * 86_400),
            GroupMember(person: 2, name: "Bob Brown", username: "bob", isHost: false, joinedAt: now - 20 * 86_400),
            GroupMember(person: 3, name: "Carol Chen", username: "carol", isHost: false, joinedAt: now - 2 * 86_400),
        ]
        static let practice = [
            MemberPractice(person: 1, totals: SittingTotals(sessions: 3, seconds: 3 * 1200)),
            MemberPractice(person: 2, totals: SittingTotals(sessions: 1, seconds: 600)),
            MemberPractice(person: 3, totals: .zero),
        ]
        static let invitations = [GroupInvitation(id: 7, createdAt: now - 86_400, expiresAt: now + 6 * 86_400)]
        /// A weekly sit beginning in 5 minutes (members may join), and one in two days.
        static let sits = [
            GroupSit(id: 3, group: 1, profile: .evening, startsAt: now + 5 * 60 - 7 * 86_400, weekly: true),
            GroupSit(id: 4, group: 1, profile: .morning, startsAt: now + 2 * 86_400, weekly: false),
        ]

        /// A host's page: members, the week, two sits, the form that schedules one, a link in
        /// force, someone removed.
        public static let host = GroupViewModel(
            detail: GroupDetail(
                group: group, members: members, invitations: invitations, isHost: true,
                removed: [RemovedMember(person: 4, name: "Kenji Sato", username: "kenji", removedAt: now - 2 * 86_400)]),
            practice: practice, sits: sits, profiles: [.morning, .evening], context: .fixture)
        /// "Schedule a sit" with a start in the past and no profile chosen.
        public static let scheduleError = GroupViewModel(
            detail: GroupDetail(group: group, members: members, invitations: invitations, isHost: true),
            practice: practice, sits: sits, profiles: [.morning, .evening],
            schedule: .init(
                startsAt: "2020-01-01T07:00", weekly: true, profileError: "Choose one of your profiles.",
                startsAtError: "The sit cannot begin in the past."),
            context: .fixture)
        /// Right after "Create invitation link": the link, shown once.
        public static let newLink = GroupViewModel(
            detail: GroupDetail(group: group, members: members, invitations: invitations, isHost: true),
            practice: practice, profiles: [.morning], context: .fixture,
            link: .groupInvitation(
                url: "https://sangha.example/groups/invite/" + String(repeating: "ef", count: 32), words: .english))
        /// A member who does not host: no links, no Remove, no form; two members sitting now, one
        /// of them in the sit about to begin.
        public static let member = GroupViewModel(
            detail: GroupDetail(
                group: group,
                members: members.map {
                    var member = $0
                    member.isHost = member.person == 2
                    return member
                }, invitations: [], isHost: false),
            practice: practice,
            sitting: [
                SittingNow(person: 2, name: "Bob Brown", profileName: "Morning sit", since: now - 14 * 60),
                SittingNow(person: 3, name: "Carol Chen", profileName: "Evening", since: now - 3 * 60, sit: 3),
            ], sits: sits, context: .fixture)
        /// Alone in a new group, nobody has sat this week, no sits, and no profile to schedule one with.
        public static let alone = GroupViewModel(
            detail: GroupDetail(group: group, members: [members[0]], invitations: [], isHost: true),
            practice: [MemberPractice(person: 1, totals: .zero)], context: .fixture)
        /// Names a hostile member could choose.
        public static let hostile = GroupViewModel(
            detail: GroupDetail(
                group: SittingGroup(id: 9, name: "<b>Sangha</b> & \"Co\"", createdAt: now),
                members: [
                    members[0],
                    GroupMember(
                        person: 5, name: "<script>alert(1)</script>", username: "x_x", isHost: false, joinedAt: now),
                ], invitations: [], isHost: true),
            practice: [],
            sitting: [
                SittingNow(
                    person: 5, name: "<script>alert(1)</script>", profileName: "<i>sit</i> & \"go\"", since: now, sit: 8
                )
            ],
            sits: [GroupSit(id: 8, group: 9, profile: .hostile, startsAt: now - 60, weekly: false)],
            profiles: [.hostile], context: .fixture)
    }
}

extension GroupSitViewModel {
    public enum Fixtures {
        static let now = PageContext.fixture.now
        static let group = GroupViewModel.Fixtures.group
        static let sit = GroupViewModel.Fixtures.sits[0]

        /// A member, 5 minutes before it begins: Join, one person in it already.
        public static let ahead = GroupSitViewModel(
            GroupSitPage(
                sit: sit, group: group, isHost: false,
                sitting: [SittingNow(person: 3, name: "Carol Chen", profileName: "Evening", since: now - 60, sit: 3)]),
            context: .fixture)
        /// A host, while it is under way: two in it, and "Cancel sit".
        public static let underWay = GroupSitViewModel(
            GroupSitPage(
                sit: GroupSit(id: 3, group: 1, profile: .evening, startsAt: now - 10 * 60, weekly: false),
                group: group, isHost: true,
                sitting: [
                    SittingNow(person: 2, name: "Bob Brown", profileName: "Evening", since: now - 10 * 60, sit: 3),
                    SittingNow(person: 3, name: "Carol Chen", profileName: "Evening", since: now - 4 * 60, sit: 3),
                    SittingNow(person: 1, name: "Ada Lovelace", profileName: "Morning", since: now - 60),
                ]), context: .fixture)
        /// A sit that happened once and is over: its timeline, no Join.
        public static let over = GroupSitViewModel(
            GroupSitPage(
                sit: GroupSit(id: 5, group: 1, profile: .morning, startsAt: now - 2 * 86_400, weekly: false),
                group: group, isHost: false, sitting: []), context: .fixture)
        /// A host cancelled it while Carol sat in it: she is told, and no one else can join.
        public static let cancelled = GroupSitViewModel(
            GroupSitPage(
                sit: GroupSit(
                    id: 3, group: 1, profile: .evening, startsAt: now - 10 * 60, weekly: false, cancelled: true),
                group: group, isHost: false,
                sitting: [
                    SittingNow(person: 3, name: "Carol Chen", profileName: "Evening", since: now - 4 * 60, sit: 3)
                ]), context: .fixture)
        /// Names a hostile host and member could choose.
        public static let hostile = GroupSitViewModel(
            GroupSitPage(
                sit: GroupSit(id: 8, group: 9, profile: .hostile, startsAt: now - 60, weekly: false),
                group: SittingGroup(id: 9, name: "<b>Sangha</b> & \"Co\"", createdAt: now), isHost: true,
                sitting: [
                    SittingNow(
                        person: 5, name: "<script>alert(1)</script>", profileName: "<i>sit</i>", since: now, sit: 8)
                ]), context: .fixture)
    }
}

extension GroupInvitationViewModel {
    public enum Fixtures {
        static let group = SittingGroup(id: 1, name: "Morning sangha", createdAt: PageContext.fixture.now)
        static let token = String(repeating: "ef", count: 32)
        /// Someone invited: "Join group".
        public static let invited = GroupInvitationViewModel(
            preview: GroupInvitationPreview(group: group, isMember: false), token: token, context: .fixture)
        /// A member opening the link again.
        public static let member = GroupInvitationViewModel(
            preview: GroupInvitationPreview(group: group, isMember: true), token: token, context: .fixture)
    }
}
