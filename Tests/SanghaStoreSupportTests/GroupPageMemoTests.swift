import Foundation
import SanghaCore
import SanghaStoreSupport
import Synchronization
import Testing

/// A group's page kept for its members (`GroupPageMemo`): who it is served to without a read,
/// and when it is read again.
@Suite("A group's page kept for its members")
struct GroupPageMemoTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)
    static let week = DateInterval(start: now - 3600, end: now + 86_400)
    static let (host, member, stranger) = (1, 2, 3)

    /// The reads a memo asked for.
    final class Reads: Sendable {
        private let value = Atomic<Int>(0)
        func add() { value.add(1, ordering: .relaxed) }
        var count: Int { value.load(ordering: .relaxed) }
    }

    /// The page as `person` reads it from the database at `date`: a host's with its links and
    /// removals; the link in force until `now + 600`, the sitter shown until `sittingUntil` and
    /// the grace, as the stores read them.
    static func read(by person: Int, at date: Date = now, sittingUntil: Date? = nil) -> (
        GroupPage, sittingUntil: Date?
    )? {
        guard person != stranger else { return nil }
        let members = [
            GroupMember(person: host, name: "Ada", username: "ada", isHost: true, joinedAt: now),
            GroupMember(person: member, name: "Grace", username: "grace", isHost: false, joinedAt: now),
        ]
        let isHost = person == host
        let detail = GroupDetail(
            group: SittingGroup(id: 7, name: "Zen", createdAt: now), members: members,
            invitations: isHost && date < now + 600
                ? [GroupInvitation(id: 1, createdAt: now, expiresAt: now + 600)] : [],
            isHost: isHost,
            removed: isHost ? [RemovedMember(person: 9, name: "Eve", username: "eve", removedAt: now)] : [])
        let shown = sittingUntil.map { date < $0 + SittingNow.grace } ?? false
        let sitting = shown ? [SittingNow(person: member, name: "Grace", profileName: "X", since: now)] : []
        return (GroupPage(detail: detail, practice: [], sitting: sitting, sits: []), shown ? sittingUntil : nil)
    }

    /// Asks `memo` for `person`'s page at `date`, counting the reads.
    static func page(
        _ memo: GroupPageMemo, _ person: Int, at date: Date = now, reads: Reads, sittingUntil: Date? = nil
    ) async -> GroupPage? {
        await memo.page(of: person, 7, week: week, at: date) { () async -> (GroupPage, sittingUntil: Date?)? in
            reads.add()
            return read(by: person, at: date, sittingUntil: sittingUntil)
        }
    }

    @Test("A host's page serves every member, without the host's parts; a member's serves members, not hosts")
    func servedTo() async {
        let (memo, reads) = (GroupPageMemo(watch: AloneOnData()), Reads())
        #expect(await Self.page(memo, Self.member, reads: reads)?.detail.isHost == false)
        #expect(await Self.page(memo, Self.member, reads: reads) != nil)
        #expect(reads.count == 1, "the second member's request read nothing")
        let hosts = await Self.page(memo, Self.host, reads: reads)
        #expect(hosts?.detail.invitations.count == 1 && hosts?.detail.removed.count == 1)
        #expect(reads.count == 2, "a member's page lacks a host's parts: read")
        let members = await Self.page(memo, Self.member, reads: reads)
        #expect(members == Self.read(by: Self.member)?.0, "the host's page, as a member sees it")
        #expect(await Self.page(memo, Self.host, reads: reads) == hosts)
        #expect(await Self.page(memo, Self.stranger, reads: reads) == nil, "not a member")
        #expect(reads.count == 2)
    }

    @Test(
        "Read again after a change to the group or one of its members, at its first link's expiry, and past a sitter's end and the grace"
    )
    func readAgain() async {
        let (memo, reads) = (GroupPageMemo(watch: AloneOnData()), Reads())
        func count() -> Int { reads.count }
        _ = await Self.page(memo, Self.host, reads: reads)
        memo.forget(group: 8)
        memo.forget(member: 5)
        _ = await Self.page(memo, Self.host, reads: reads)
        #expect(count() == 1, "another group's change, someone else's")
        memo.forget(member: Self.member)
        _ = await Self.page(memo, Self.host, reads: reads)
        #expect(count() == 2)
        memo.forget(group: 7)
        _ = await Self.page(memo, Self.host, reads: reads)
        _ = await Self.page(memo, Self.host, at: Self.now + 599, reads: reads)
        #expect(count() == 3)
        _ = await Self.page(memo, Self.host, at: Self.now + 600, reads: reads)
        #expect(count() == 4, "the link expired")
        _ = await Self.page(memo, Self.host, at: Self.now + 10, reads: reads)
        #expect(count() == 5, "a request dated before the read")

        memo.forgetAll()
        _ = await Self.page(memo, Self.member, reads: reads, sittingUntil: Self.now + 300)
        _ = await Self.page(memo, Self.member, at: Self.now + 300 + SittingNow.grace - 1, reads: reads)
        #expect(count() == 6)
        _ = await Self.page(memo, Self.member, at: Self.now + 300 + SittingNow.grace, reads: reads)
        #expect(count() == 7, "the sitter is no longer shown")
        _ = await Self.page(memo, Self.member, at: Self.week.end - 1, reads: reads)
        #expect(count() == 7)
        _ = await Self.page(memo, Self.member, at: Self.week.end, reads: reads)
        // Its week is over: the page kept is not served, nor the one read at the week's end,
        // which holds until then, so the request reads for itself too.
        #expect(count() == 9, "its week is over")
    }

    @Test(
        "A sit's page serves every member, a host as a host, until the group or a member changes or a sitter's end and the grace pass"
    )
    func sitPage() async {
        let (memo, reads) = (GroupPageMemo(watch: AloneOnData()), Reads())
        let sit = GroupSit(id: 4, group: 7, profile: .new(named: "Evening"), startsAt: Self.now, weekly: true)
        let group = SittingGroup(id: 7, name: "Zen", createdAt: Self.now)
        func page(_ person: Int, at date: Date = Self.now) async -> GroupSitPage? {
            await memo.sitPage(of: person, 4, of: 7, at: date) {
                () async -> (GroupSitPage, members: [Int: Bool], sittingUntil: Date?)? in
                reads.add()
                guard person != Self.stranger else { return nil }
                let shown = date < Self.now + 300 + SittingNow.grace
                return (
                    GroupSitPage(sit: sit, group: group, isHost: person == Self.host, sitting: []),
                    [Self.host: true, Self.member: false], shown ? Self.now + 300 : nil
                )
            }
        }
        #expect(await page(Self.member)?.isHost == false)
        #expect(await page(Self.host)?.isHost == true)
        #expect(await page(Self.stranger) == nil)
        #expect(reads.count == 1)
        memo.forget(member: Self.member)
        _ = await page(Self.host)
        memo.forget(group: 7)
        _ = await page(Self.host)
        #expect(reads.count == 3)
        _ = await page(Self.host, at: Self.now + 300 + SittingNow.grace)
        #expect(reads.count == 4, "the sitter is no longer shown")
    }

    @Test(
        "A person's list of groups is kept until one of its groups changes, they make or join one, or they or someone in a group of theirs changes their account"
    )
    func lists() async {
        let (memo, reads) = (GroupPageMemo(watch: AloneOnData()), Reads())
        // Person 1 is in group 7, person 2 in 7 and 8, person 3 in 9.
        let groups = [1: [7], 2: [7, 8], 3: [9]]
        /// Asks for each of `people`'s lists, counting the reads.
        func lists(_ people: [Int] = [1, 2, 3]) async {
            for person in people {
                _ = await memo.list(of: person) { () async -> [GroupSummary] in
                    reads.add()
                    return groups[person, default: []].map {
                        GroupSummary(
                            group: SittingGroup(id: $0, name: "G\($0)", createdAt: Self.now), members: 2,
                            isHost: false)
                    }
                }
            }
        }
        await lists([1, 2, 3, 1])
        #expect(reads.count == 3)
        memo.forget(group: 8)
        await lists([1, 2])
        #expect(reads.count == 4, "only the list with the group")
        memo.forget(member: 1)
        await lists()
        #expect(reads.count == 4, "a member's sitting or practice is on no list")
        memo.forget(listOf: 2)
        await lists([1, 2])
        #expect(reads.count == 5, "only their own list")
        memo.forget(person: 1)
        await lists()
        #expect(reads.count == 7, "theirs, and those sharing a group with them")
        memo.forget(person: 5)
        await lists([3])
        #expect(reads.count == 8, "someone whose list is not kept: every list")
    }

    @Test("Members who miss the page together share one read")
    func shared() async {
        let (memo, reads) = (GroupPageMemo(watch: AloneOnData()), Reads())
        let pages = await withTaskGroup(of: GroupPage?.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    await memo.page(of: Self.member, 7, week: Self.week, at: Self.now) {
                        () async -> (GroupPage, sittingUntil: Date?)? in
                        reads.add()
                        try? await Task.sleep(for: .milliseconds(50))
                        return Self.read(by: Self.member)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(pages.allSatisfy { $0 == Self.read(by: Self.member)?.0 })
        #expect(reads.count == 1)
    }

    @Test("Nothing kept when the watch does not hear every change")
    func unwatched() async {
        let (memo, reads) = (GroupPageMemo(watch: UnwatchedData()), Reads())
        _ = await Self.page(memo, Self.host, reads: reads)
        _ = await Self.page(memo, Self.host, reads: reads)
        #expect(reads.count == 2)
    }
}
