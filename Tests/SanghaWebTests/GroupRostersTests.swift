import Foundation
import SanghaCore
import SanghaViewModels
import Testing

@testable import SanghaWeb

/// `KeptPageParts<GroupRoster>` gives back a group's kept roster only for the very members, week, reader's
/// hosting, zone and language it was made from.
struct GroupRostersTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)
    static let group = SittingGroup(id: 4, name: "Morning", createdAt: now)
    static let members = [
        GroupMember(person: 1, name: "Ada Lovelace", username: "ada", isHost: true, joinedAt: now),
        GroupMember(person: 2, name: "Grace Hopper", username: "grace", isHost: false, joinedAt: now + 86_400),
    ]
    static let week = [MemberPractice(person: 2, totals: SittingTotals(sessions: 2, seconds: 1_800))]
    static let utc = TimeZone(identifier: "UTC")!

    static func source(
        members: [GroupMember] = members, practice: [MemberPractice] = week, isHost: Bool = false,
        timeZone: TimeZone = utc, language: Language = .en
    ) -> GroupRoster.Source {
        GroupRoster.Source(
            detail: GroupDetail(group: group, members: members, invitations: [], isHost: isHost), practice: practice,
            timeZone: timeZone, language: language)
    }

    @Test(
        "The same members and week give the kept roster; a member, a sit, a name, the zone or the language make it again"
    )
    func keptForTheSame() {
        let rosters = KeptPageParts<GroupRoster>(limit: 2_000)
        let first = Self.source()
        let made = rosters.part(first, words: .english)
        #expect(made == GroupRoster(first, words: .english))
        #expect(made.week == ["Ada Lovelace: no sessions yet", "Grace Hopper: 30 min in 2 sessions"])
        #expect(rosters.part(first, words: .english) == made)
        #expect(rosters.count == 1)

        var renamed = Self.members
        renamed[1].name = "Grace B. Hopper"
        let kiritimati = TimeZone(identifier: "Pacific/Kiritimati")!
        for changed in [
            Self.source(members: Array(Self.members.prefix(1))),  // Grace left
            Self.source(members: renamed),  // a new name
            Self.source(practice: [MemberPractice(person: 2, totals: SittingTotals(sessions: 3, seconds: 2_400))]),
            Self.source(timeZone: kiritimati),  // "Joined" the day after at UTC+14
        ] {
            let roster = rosters.part(changed, words: .english)
            #expect(roster == GroupRoster(changed, words: .english))
            #expect(roster != made)
        }
        let german = rosters.part(Self.source(language: .de), words: Words(.de))
        #expect(german == GroupRoster(Self.source(language: .de), words: Words(.de)))
        #expect(german != made)
    }

    @Test("A host's roster, with Remove on the members who do not host, is kept apart from a member's")
    func hostAndMember() {
        let rosters = KeptPageParts<GroupRoster>(limit: 2_000)
        let member = rosters.part(Self.source(), words: .english)
        let host = rosters.part(Self.source(isHost: true), words: .english)
        #expect(member.members.allSatisfy { $0.removeURL == nil })
        #expect(host.members.map(\.removeURL) == [nil, "/groups/4/members/2/remove"])
        #expect(rosters.count == 2)
        #expect(rosters.part(Self.source(), words: .english) == member)
    }
}
