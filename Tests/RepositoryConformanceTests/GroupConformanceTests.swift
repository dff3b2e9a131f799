import Foundation
import SanghaCore
import Testing

/// The groups' contract on every backend: a group exists for its members only, its hosts keep
/// its links, hosting passes to the member who joined first, and the last member takes the
/// group with them.
@Suite("Group conformance")
struct GroupConformanceTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)
    static let week = GroupInvitation.lifetime

    @Test(
        "A group is its members' alone: made, listed by name, shown to its host, unknown to others",
        arguments: Backend.available)
    func membersOnly(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let (ada, now) = (stores.person, Self.now)
            let groups = stores.data.groups(of: ada.id)
            let zen = try await groups.create(name: "zen", at: now)
            #expect(zen.name == "zen" && zen.createdAt == now)
            let morning = try await groups.create(name: "Morning", at: now + 1)
            #expect(
                try await groups.list() == [
                    GroupSummary(group: morning, members: 1, isHost: true),
                    GroupSummary(group: zen, members: 1, isHost: true),
                ])
            let host = GroupMember(person: ada.id, name: "Ada", username: "ada", isHost: true, joinedAt: now)
            #expect(
                try await groups.group(zen.id, at: now)
                    == GroupDetail(group: zen, members: [host], invitations: [], isHost: true))
            #expect(try await groups.group(999_999, at: now) == nil)
            #expect(try await storage.open().data.groups(of: ada.id).group(zen.id, at: now)?.members == [host])

            // To anyone else it is as if it did not exist.
            try await groups.addInvitation(to: zen.id, key: "link", at: now, expiresAt: now + Self.week)
            let link = try #require(try await groups.group(zen.id, at: now)?.invitations.first)
            let grace = try await stores.signUp("grace")
            let theirs = stores.data.groups(of: grace.id)
            #expect(try await theirs.list().isEmpty)
            #expect(try await theirs.group(zen.id, at: now) == nil)
            await #expect(throws: GroupRepositoryError.notFound) {
                try await theirs.practice(of: zen.id, from: now, to: now + 86_400)
            }
            await #expect(throws: GroupRepositoryError.notFound) {
                try await theirs.addInvitation(to: zen.id, key: "theirs", at: now, expiresAt: now + Self.week)
            }
            await #expect(throws: GroupRepositoryError.notFound) {
                try await theirs.revokeInvitation(link.id, of: zen.id)
            }
            await #expect(throws: GroupRepositoryError.notFound) { try await theirs.leave(zen.id) }
            await #expect(throws: GroupRepositoryError.notFound) {
                try await theirs.remove(ada.id, from: zen.id, at: now)
            }
            #expect(try await theirs.invitation(key: "theirs", at: now) == nil)
            let kept = try await groups.group(zen.id, at: now)
            #expect(kept?.members == [host])
            #expect(kept?.invitations == [link])
        }
    }

    @Test(
        "Invitation links: valid until they expire, joined once, made and revoked by a host only",
        arguments: Backend.available)
    func invitations(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let (ada, now, week) = (stores.person, Self.now, Self.week)
            let groups = stores.data.groups(of: ada.id)
            let zen = try await groups.create(name: "Zen", at: now)
            try await groups.addInvitation(to: zen.id, key: "link", at: now, expiresAt: now + week)
            let link = try #require(try await groups.group(zen.id, at: now)?.invitations.first)
            #expect(link.createdAt == now && link.expiresAt == now + week)

            let grace = try await stores.signUp("grace")
            let graces = stores.data.groups(of: grace.id)
            let preview = GroupInvitationPreview(group: zen, isMember: false)
            #expect(try await graces.invitation(key: "link", at: now) == preview)
            #expect(try await graces.invitation(key: "link", at: now + week) == nil)
            #expect(try await graces.invitation(key: "unknown", at: now) == nil)
            await #expect(throws: GroupRepositoryError.notFound) { try await graces.join(key: "link", at: now + week) }
            await #expect(throws: GroupRepositoryError.notFound) { try await graces.join(key: "unknown", at: now) }
            #expect(try await graces.join(key: "link", at: now + 10) == zen.id)
            #expect(try await graces.join(key: "link", at: now + 20) == zen.id, "joining twice changes nothing")
            #expect(try await graces.invitation(key: "link", at: now + 30)?.isMember == true)
            #expect(try await graces.list() == [GroupSummary(group: zen, members: 2, isHost: false)])
            let seen = try #require(try await graces.group(zen.id, at: now + 30))
            #expect(!seen.isHost)
            #expect(seen.invitations.isEmpty, "only hosts see the links")
            #expect(
                seen.members == [
                    GroupMember(person: ada.id, name: "Ada", username: "ada", isHost: true, joinedAt: now),
                    GroupMember(person: grace.id, name: "Grace", username: "grace", isHost: false, joinedAt: now + 10),
                ])

            // A member who is not a host makes and ends no links, and removes no one.
            await #expect(throws: GroupRepositoryError.notFound) {
                try await graces.addInvitation(to: zen.id, key: "grace's", at: now, expiresAt: now + week)
            }
            await #expect(throws: GroupRepositoryError.notFound) {
                try await graces.revokeInvitation(link.id, of: zen.id)
            }
            await #expect(throws: GroupRepositoryError.notFound) {
                try await graces.remove(ada.id, from: zen.id, at: now)
            }
            #expect(try await graces.invitation(key: "grace's", at: now) == nil)
            #expect(try await graces.invitation(key: "link", at: now) != nil)

            // A host's links, oldest first, while valid; one revoked admits no one.
            try await groups.addInvitation(to: zen.id, key: "second", at: now + 60, expiresAt: now + 60 + week)
            let both = try await groups.group(zen.id, at: now + 60)?.invitations ?? []
            try #require(both.count == 2)
            #expect(both[0] == link)
            #expect(both[1].createdAt == now + 60 && both[1].expiresAt == now + 60 + week)
            #expect(try await groups.group(zen.id, at: now + week)?.invitations == [both[1]])
            let other = try await groups.create(name: "Other", at: now)
            await #expect(throws: GroupRepositoryError.notFound) {
                try await groups.revokeInvitation(link.id, of: other.id)
            }
            try await groups.revokeInvitation(link.id, of: zen.id)
            await #expect(throws: GroupRepositoryError.notFound) {
                try await groups.revokeInvitation(link.id, of: zen.id)
            }
            #expect(try await graces.invitation(key: "link", at: now) == nil)
            let bob = try await stores.signUp("bob")
            await #expect(throws: GroupRepositoryError.notFound) {
                try await stores.data.groups(of: bob.id).join(key: "link", at: now + 70)
            }
            #expect(try await stores.data.groups(of: bob.id).join(key: "second", at: now + 70) == zen.id)

            // Hosts first, then the others by name, whenever they joined.
            let carol = try await stores.signUp("carol")
            _ = try await stores.data.groups(of: carol.id).join(key: "second", at: now + 80)
            #expect(
                try await groups.group(zen.id, at: now + 90)?.members.map(\.person)
                    == [ada.id, bob.id, carol.id, grace.id])
            #expect(try await groups.list().first(where: { $0.group.id == zen.id })?.members == 4)
        }
    }

    @Test("A host removes members who are not hosts; a member leaves", arguments: Backend.available)
    func removeAndLeave(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let (ada, now) = (stores.person, Self.now)
            let groups = stores.data.groups(of: ada.id)
            let zen = try await groups.create(name: "Zen", at: now)
            try await groups.addInvitation(to: zen.id, key: "link", at: now, expiresAt: now + Self.week)
            let grace = try await stores.signUp("grace")
            let bob = try await stores.signUp("bob")
            let (graces, bobs) = (stores.data.groups(of: grace.id), stores.data.groups(of: bob.id))
            _ = try await graces.join(key: "link", at: now + 10)
            _ = try await bobs.join(key: "link", at: now + 10)

            await #expect(throws: GroupRepositoryError.notFound) {
                try await graces.remove(bob.id, from: zen.id, at: now)
            }
            await #expect(throws: GroupRepositoryError.notFound) {
                try await groups.remove(ada.id, from: zen.id, at: now)
            }
            await #expect(throws: GroupRepositoryError.notFound) {
                try await groups.remove(999_999, from: zen.id, at: now)
            }
            try await groups.remove(bob.id, from: zen.id, at: now)
            await #expect(throws: GroupRepositoryError.notFound) {
                try await groups.remove(bob.id, from: zen.id, at: now)
            }
            #expect(try await bobs.group(zen.id, at: now) == nil)
            #expect(try await bobs.list().isEmpty)
            #expect(try await groups.group(zen.id, at: now)?.members.map(\.person) == [ada.id, grace.id])

            try await graces.leave(zen.id)
            await #expect(throws: GroupRepositoryError.notFound) { try await graces.leave(zen.id) }
            #expect(try await graces.group(zen.id, at: now) == nil)
            #expect(try await groups.list() == [GroupSummary(group: zen, members: 1, isHost: true)])
            #expect(try await groups.group(zen.id, at: now)?.isHost == true, "a member leaving passes nothing on")
            // Whoever left may come back by a link; whoever was removed, only once a host lets them.
            #expect(try await graces.join(key: "link", at: now + 20) == zen.id)
            #expect(try await groups.group(zen.id, at: now)?.removed.map(\.person) == [bob.id])
            #expect(try await groups.group(zen.id, at: now)?.removed.first?.removedAt == now)
            #expect(try await graces.group(zen.id, at: now)?.removed == [], "a host's to see")
            await #expect(throws: GroupRepositoryError.removed) { try await bobs.join(key: "link", at: now + 20) }
            // The link's page knows before Bob presses anything; Grace, a member, was not removed.
            #expect(try await bobs.invitation(key: "link", at: now + 20)?.isRemoved == true)
            #expect(try await graces.invitation(key: "link", at: now + 20)?.isRemoved == false)
            #expect(try await bobs.group(zen.id, at: now + 20) == nil)
            await #expect(throws: GroupRepositoryError.notFound) { try await graces.readmit(bob.id, to: zen.id) }
            try await groups.readmit(bob.id, to: zen.id)
            await #expect(throws: GroupRepositoryError.notFound) { try await groups.readmit(bob.id, to: zen.id) }
            #expect(try await groups.group(zen.id, at: now)?.removed == [])
            #expect(try await bobs.invitation(key: "link", at: now + 20)?.isRemoved == false)
            #expect(try await bobs.group(zen.id, at: now + 20) == nil, "let back in is not made a member")
            #expect(try await bobs.join(key: "link", at: now + 30) == zen.id)
        }
    }

    @Test(
        "Practice: each member's sessions begun in the range; zero for those who sat none", arguments: Backend.available
    )
    func practice(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let (ada, now, day) = (stores.person, Self.now, 86_400.0)
            let groups = stores.data.groups(of: ada.id)
            let zen = try await groups.create(name: "Zen", at: now)
            try await groups.addInvitation(to: zen.id, key: "link", at: now, expiresAt: now + Self.week)
            let grace = try await stores.signUp("grace")
            let bob = try await stores.signUp("bob")
            _ = try await stores.data.groups(of: grace.id).join(key: "link", at: now)
            // Ada: two in the range, one a second before it, one at its end. Bob, who is not a
            // member, one in it. Grace none.
            let sittings: [(person: Int, start: Date, seconds: Int)] = [
                (ada.id, now - 1, 60), (ada.id, now, 600), (ada.id, now + 3600, 300), (ada.id, now + day, 900),
                (bob.id, now + 60, 1200),
            ]
            for sitting in sittings {
                _ = try await stores.data.sessions(of: sitting.person).record(
                    SittingSession(
                        profileID: nil, profileName: "X", startedAt: sitting.start, seconds: sitting.seconds,
                        completed: true))
            }
            for viewer in [ada.id, grace.id] {
                let practice = try await stores.data.groups(of: viewer).practice(of: zen.id, from: now, to: now + day)
                #expect(practice.count == 2)
                #expect(
                    Dictionary(practice.map { ($0.person, $0.totals) }, uniquingKeysWith: { first, _ in first }) == [
                        ada.id: SittingTotals(sessions: 2, seconds: 900),
                        grace.id: SittingTotals(sessions: 0, seconds: 0),
                    ])
            }
            await #expect(throws: GroupRepositoryError.notFound) {
                try await stores.data.groups(of: bob.id).practice(of: zen.id, from: now, to: now + day)
            }
        }
    }

    @Test(
        "When the last host leaves, the member who joined first hosts; when the last member leaves, the group goes",
        arguments: Backend.available)
    func hostingPassesOn(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let (ada, now) = (stores.person, Self.now)
            let zen = try await stores.data.groups(of: ada.id).create(name: "Zen", at: now)
            try await stores.data.groups(of: ada.id).addInvitation(
                to: zen.id, key: "link", at: now, expiresAt: now + Self.week)
            // Joined in an order that is neither their ids' nor their names'.
            let grace = try await stores.signUp("grace")
            let bob = try await stores.signUp("bob")
            let carol = try await stores.signUp("carol")
            let (graces, bobs, carols) = (
                stores.data.groups(of: grace.id), stores.data.groups(of: bob.id), stores.data.groups(of: carol.id)
            )
            _ = try await carols.join(key: "link", at: now + 1)
            _ = try await graces.join(key: "link", at: now + 2)
            _ = try await bobs.join(key: "link", at: now + 3)

            try await stores.data.groups(of: ada.id).leave(zen.id)
            let carolSees = try #require(try await carols.group(zen.id, at: now))
            #expect(carolSees.isHost)
            #expect(carolSees.members.map(\.person) == [carol.id, bob.id, grace.id])
            #expect(carolSees.members.map(\.isHost) == [true, false, false])
            #expect(carolSees.invitations.map(\.expiresAt) == [now + Self.week], "the links stay")
            try await carols.addInvitation(to: zen.id, key: "carol's", at: now, expiresAt: now + Self.week)

            try await bobs.leave(zen.id)
            #expect(try await graces.group(zen.id, at: now)?.isHost == false)
            try await carols.leave(zen.id)
            #expect(try await graces.list() == [GroupSummary(group: zen, members: 1, isHost: true)])
            try await graces.leave(zen.id)
            #expect(try await graces.list().isEmpty)

            // The group is gone, and its links with it.
            let dan = try await stores.signUp("dan")
            let dans = stores.data.groups(of: dan.id)
            for key in ["link", "carol's"] {
                #expect(try await dans.invitation(key: key, at: now) == nil)
                await #expect(throws: GroupRepositoryError.notFound) { try await dans.join(key: key, at: now) }
                await #expect(throws: PeopleRepositoryError.invitationNeeded) {
                    try await stores.people.create(
                        Stores.person("erin"), passwordHash: "x", admission: .groupInvitation(key: key), at: now)
                }
            }
        }
    }

    @Test(
        "Deleting a host's account passes hosting on, and deletes the groups it leaves empty",
        arguments: Backend.available)
    func accountDeleted(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let now = Self.now
            let grace = try await stores.signUp("grace")
            let bob = try await stores.signUp("bob")
            let carol = try await stores.signUp("carol")
            let graces = stores.data.groups(of: grace.id)
            let zen = try await graces.create(name: "Zen", at: now)
            let solo = try await graces.create(name: "Solo", at: now)
            try await graces.addInvitation(to: zen.id, key: "zen", at: now, expiresAt: now + Self.week)
            try await graces.addInvitation(to: solo.id, key: "solo", at: now, expiresAt: now + Self.week)
            // Carol joined first, though Bob's id is lower.
            _ = try await stores.data.groups(of: carol.id).join(key: "zen", at: now + 1)
            _ = try await stores.data.groups(of: bob.id).join(key: "zen", at: now + 2)

            try await stores.people.delete(id: grace.id)
            let carols = stores.data.groups(of: carol.id)
            #expect(try await carols.list() == [GroupSummary(group: zen, members: 2, isHost: true)])
            #expect(try await carols.group(zen.id, at: now)?.members.map(\.person) == [carol.id, bob.id])
            #expect(try await carols.invitation(key: "zen", at: now)?.isMember == true)
            #expect(try await carols.invitation(key: "solo", at: now) == nil)
            #expect(try await stores.data.groups(of: bob.id).group(zen.id, at: now)?.isHost == false)
        }
    }

    @Test(
        "Signing up with a group's link: it admits many until it expires or is revoked, and nothing else does",
        arguments: Backend.available)
    func signUp(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let (people, now, week) = (stores.people, Self.now, Self.week)
            let groups = stores.data.groups(of: stores.person.id)
            let zen = try await groups.create(name: "Zen", at: now)
            try await groups.addInvitation(to: zen.id, key: "link", at: now, expiresAt: now + week)
            for username in ["bob", "carol"] {
                let person = try await people.create(
                    Stores.person(username), passwordHash: "x", admission: .groupInvitation(key: "link"), at: now + 10)
                #expect(!person.isAdministrator)
            }
            #expect(try await groups.group(zen.id, at: now + 20)?.invitations.count == 1, "the link stays")

            // An unknown or expired link, an administrator's invitation as a group's link, a
            // group's link as an administrator's invitation: refused.
            try await people.add(
                OneUseLink(key: "invitation", kind: .invitation, personID: stores.person.id, expiresAt: now + week))
            let refused: [(Admission, Date)] = [
                (.groupInvitation(key: "unknown"), now), (.groupInvitation(key: "link"), now + week),
                (.groupInvitation(key: "invitation"), now), (.invitation(key: "link"), now),
            ]
            for (admission, date) in refused {
                await #expect(throws: PeopleRepositoryError.invitationNeeded) {
                    try await people.create(Stores.person("dan"), passwordHash: "x", admission: admission, at: date)
                }
            }
            let link = try #require(try await groups.group(zen.id, at: now)?.invitations.first)
            try await groups.revokeInvitation(link.id, of: zen.id)
            await #expect(throws: PeopleRepositoryError.invitationNeeded) {
                try await people.create(
                    Stores.person("dan"), passwordHash: "x", admission: .groupInvitation(key: "link"), at: now + 30)
            }
            #expect(try await people.credentials(username: "dan") == nil)
            #expect(try await people.credentials(username: "carol") != nil)
        }
    }

    @Test(
        "Sitting now: members see who sits, with which profile, since when, until the end is a grace past",
        arguments: Backend.available)
    func sittingNow(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let (ada, now) = (stores.person, Self.now)
            let groups = stores.data.groups(of: ada.id)
            let zen = try await groups.create(name: "Zen", at: now)
            let morning = try await groups.create(name: "Morning", at: now)
            try await groups.addInvitation(to: zen.id, key: "link", at: now, expiresAt: now + Self.week)
            let bob = try await stores.signUp("bob")
            let bobs = stores.data.groups(of: bob.id)
            _ = try await bobs.join(key: "link", at: now)
            let adasGroups = [zen.id, morning.id].sorted()
            #expect(try await bobs.sittingNow(in: zen.id, at: now).isEmpty)

            // Ada sits for ten minutes: her groups are told; the members see her, she too.
            #expect(try await groups.startSitting(profileName: "Morning", at: now, until: now + 600) == adasGroups)
            let sitting = SittingNow(person: ada.id, name: "Ada", profileName: "Morning", since: now)
            #expect(try await bobs.sittingNow(in: zen.id, at: now + 1) == [sitting])
            #expect(try await groups.sittingNow(in: zen.id, at: now + 1) == [sitting])
            #expect(try await groups.sittingNow(in: morning.id, at: now + 1) == [sitting])
            #expect(try await storage.open().data.groups(of: bob.id).sittingNow(in: zen.id, at: now + 1) == [sitting])

            // Started again while under way (resumed, another profile, a later end): it keeps its
            // start, and is shown until the new end is a grace past.
            #expect(
                try await groups.startSitting(profileName: "Evening", at: now + 300, until: now + 1200) == adasGroups)
            var resumed = sitting
            resumed.profileName = "Evening"
            #expect(try await bobs.sittingNow(in: zen.id, at: now + 700) == [resumed])
            #expect(try await bobs.sittingNow(in: zen.id, at: now + 1200 + SittingNow.grace - 1) == [resumed])
            // A pause shorter than the grace past its end: still the same sit.
            #expect(
                try await groups.startSitting(profileName: "Evening", at: now + 1230, until: now + 1800) == adasGroups)
            #expect(try await bobs.sittingNow(in: zen.id, at: now + 1800) == [resumed])
            let over = now + 1800 + SittingNow.grace
            #expect(try await bobs.sittingNow(in: zen.id, at: over).isEmpty, "a grace past its end")
            #expect(try await groups.sittingNow(in: zen.id, at: over).isEmpty)
            // At that very instant a start is a new sit: what is shown and what is kept agree.
            #expect(try await groups.startSitting(profileName: "Dawn", at: over, until: over + 600) == adasGroups)
            let dawn = SittingNow(person: ada.id, name: "Ada", profileName: "Dawn", since: over)
            #expect(try await bobs.sittingNow(in: zen.id, at: over + 1) == [dawn])

            // Begun after that: a new sit, from its own start.
            #expect(
                try await groups.startSitting(profileName: "Night", at: now + 3000, until: now + 3600) == adasGroups)
            let again = SittingNow(person: ada.id, name: "Ada", profileName: "Night", since: now + 3000)
            #expect(try await bobs.sittingNow(in: zen.id, at: now + 3001) == [again])

            // Two sitting: by when they began; Bob's only group is told.
            #expect(try await bobs.startSitting(profileName: "Bob's", at: now + 2900, until: now + 3600) == [zen.id])
            let bobSitting = SittingNow(person: bob.id, name: "Bob", profileName: "Bob's", since: now + 2900)
            #expect(try await groups.sittingNow(in: zen.id, at: now + 3002) == [bobSitting, again])
            #expect(try await groups.sittingNow(in: morning.id, at: now + 3002) == [again], "Bob is not in it")

            // Stopped: gone at once. Stopping when not sitting changes nothing.
            #expect(try await groups.stopSitting() == adasGroups)
            #expect(try await bobs.sittingNow(in: zen.id, at: now + 3003) == [bobSitting])
            #expect(try await groups.stopSitting() == adasGroups)
            #expect(try await bobs.stopSitting() == [zen.id])
            #expect(try await groups.sittingNow(in: zen.id, at: now + 3004).isEmpty)

            // Someone in no group sits alone: no group is told.
            let carol = try await stores.signUp("carol")
            let carols = stores.data.groups(of: carol.id)
            #expect(try await carols.startSitting(profileName: "Alone", at: now, until: now + 600) == [])
            #expect(try await carols.stopSitting() == [])
        }
    }

    @Test(
        "A group's page at once is its questions one at a time, for a host and a member, with everything it shows",
        arguments: Backend.available)
    func pageAtOnce(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let (ada, now, day) = (stores.person, Self.now, 86_400.0)
            let groups = stores.data.groups(of: ada.id)
            let zen = try await groups.create(name: "Zen", at: now)
            let tea = try await groups.create(name: "Tea", at: now)
            try await groups.addInvitation(to: zen.id, key: "link", at: now, expiresAt: now + Self.week)
            try await groups.addInvitation(to: zen.id, key: "later", at: now + 1, expiresAt: now + Self.week)
            try await groups.addInvitation(to: zen.id, key: "gone", at: now - Self.week, expiresAt: now)
            try await groups.addInvitation(to: tea.id, key: "tea", at: now, expiresAt: now + Self.week)
            var people: [Person] = []
            for name in ["carol", "bob", "dave", "erin"] {
                let person = try await stores.signUp(name)
                _ = try await stores.data.groups(of: person.id).join(key: "link", at: now)
                people.append(person)
            }
            let (carol, bob, dave, erin) = (people[0], people[1], people[2], people[3])
            _ = try await stores.data.groups(of: bob.id).join(key: "tea", at: now)
            try await groups.remove(dave.id, from: zen.id, at: now)
            try await groups.remove(erin.id, from: zen.id, at: now + 1)
            let zenSit = try await groups.scheduleSit(
                GroupSit(group: zen.id, profile: Self.evening, startsAt: now + 600, weekly: true), at: now)
            let teaSit = try await groups.scheduleSit(
                GroupSit(group: tea.id, profile: .new(named: "Matcha"), startsAt: now, weekly: false), at: now)
            for (person, start, seconds) in [
                (ada.id, now - 60, 600), (carol.id, now + 60, 300), (ada.id, now + day, 60),
            ] {
                _ = try await stores.data.sessions(of: person).record(
                    SittingSession(
                        profileID: nil, profileName: "X", startedAt: start, seconds: seconds, completed: true))
            }
            // Ada in her group's sit, Bob in another group's, Carol alone.
            _ = try await groups.startSitting(profileName: zenSit.name, sit: zenSit.id, at: now, until: now + 600)
            _ = try await stores.data.groups(of: bob.id).startSitting(
                profileName: teaSit.name, sit: teaSit.id, at: now + 1, until: now + 600)
            _ = try await stores.data.groups(of: carol.id).startSitting(
                profileName: "Alone", at: now + 2, until: now + 600)

            let week = DateInterval(start: now - 3600, end: now + 3600)
            for reader in [groups, stores.data.groups(of: carol.id)] {
                let page = try #require(try await reader.page(zen.id, week: week, at: now + 3))
                #expect(page.detail == (try await reader.group(zen.id, at: now + 3)))
                #expect(page.practice == (try await reader.practice(of: zen.id, from: week.start, to: week.end)))
                #expect(page.sitting == (try await reader.sittingNow(in: zen.id, at: now + 3)))
                #expect(page.sits == (try await reader.sits(of: zen.id, at: now + 3)))
            }
            let hosts = try #require(try await groups.page(zen.id, week: week, at: now + 3))
            #expect(hosts.detail.isHost && hosts.detail.invitations.count == 2 && hosts.detail.removed.count == 2)
            #expect(hosts.detail.members.map(\.person) == [ada.id, bob.id, carol.id], "the host, then by name")
            #expect(hosts.practice.count == 3 && hosts.sits == [zenSit])
            #expect(hosts.sitting.map(\.sit) == [zenSit.id, nil, nil])
            #expect(hosts.sitting.map(\.inAnotherGroupsSit) == [false, true, false])
            #expect(hosts.sitting.map(\.profileName) == [zenSit.name, "", "Alone"])
            let carols = try #require(try await stores.data.groups(of: carol.id).page(zen.id, week: week, at: now + 3))
            #expect(!carols.detail.isHost && carols.detail.invitations.isEmpty && carols.detail.removed.isEmpty)
            #expect(try await stores.data.groups(of: dave.id).page(zen.id, week: week, at: now) == nil, "removed")
        }
    }

    @Test(
        "A group's page, kept for its members, shows at the next read every change: links, members, removals, sits, who sits, the week's practice, names, and the clock's",
        arguments: Backend.available)
    func pageKept(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let (ada, now) = (stores.person, Self.now)
            let groups = stores.data.groups(of: ada.id)
            let zen = try await groups.create(name: "Zen", at: now)
            let week = DateInterval(start: now - 3600, end: now + 86_400)
            func page(_ person: Int, at date: Date = now + 10) async throws -> GroupPage? {
                try await stores.data.groups(of: person).page(zen.id, week: week, at: date)
            }
            #expect(try await page(ada.id)?.detail.members.map(\.person) == [ada.id])
            // The lists of groups (/groups), kept alike.
            func list(_ person: Int) async throws -> [String] {
                try await stores.data.groups(of: person).list().map { "\($0.group.name) \($0.members)" }
            }
            #expect(try await list(ada.id) == ["Zen 1"])
            let tea = try await groups.create(name: "Tea", at: now)
            #expect(try await list(ada.id) == ["Tea 1", "Zen 1"], "made")

            try await groups.addInvitation(to: zen.id, key: "link", at: now, expiresAt: now + 3600)
            #expect(try await page(ada.id)?.detail.invitations.map(\.expiresAt) == [now + 3600])
            #expect(try await page(ada.id, at: now + 3600)?.detail.invitations == [], "expired")
            var grace = try await stores.signUp("grace")
            #expect(try await page(grace.id) == nil, "not a member, the page kept or not")
            #expect(try await list(grace.id) == [])
            _ = try await stores.data.groups(of: grace.id).join(key: "link", at: now)
            #expect(try await list(grace.id) == ["Zen 2"], "joined")
            #expect(try await list(ada.id) == ["Tea 1", "Zen 2"], "one more member")
            #expect(try await page(ada.id)?.detail.members.map(\.person) == [ada.id, grace.id])
            let graces = try #require(try await page(grace.id))
            #expect(!graces.detail.isHost && graces.detail.invitations.isEmpty, "a host's parts are a host's")
            #expect(try await page(ada.id)?.detail.invitations.count == 1, "and the host's page still has them")

            _ = try await stores.data.sessions(of: grace.id).record(
                SittingSession(profileID: nil, profileName: "X", startedAt: now, seconds: 300, completed: true))
            #expect(
                try await page(ada.id)?.practice.first { $0.person == grace.id }?.totals
                    == SittingTotals(sessions: 1, seconds: 300))

            _ = try await stores.data.groups(of: grace.id).startSitting(profileName: "X", at: now, until: now + 600)
            #expect(try await page(ada.id)?.sitting.map(\.person) == [grace.id])
            #expect(
                try await page(ada.id, at: now + 600 + SittingNow.grace)?.sitting == [], "past its end and the grace")
            #expect(
                try await page(ada.id)?.sitting.map(\.person) == [grace.id], "a page read later is not served earlier")
            _ = try await stores.data.groups(of: grace.id).stopSitting()
            #expect(try await page(ada.id)?.sitting == [])

            grace.name = "Grace Hopper"
            try await stores.people.update(grace)
            #expect(try await page(ada.id)?.detail.members.last?.name == "Grace Hopper")
            _ = try await stores.data.groups(of: grace.id).startSitting(profileName: "X", at: now, until: now + 600)
            #expect(try await page(ada.id)?.sitting.count == 1)
            grace.showsWhenSitting = false
            try await stores.people.update(grace)
            #expect(try await page(ada.id)?.sitting == [], "'Show me when I sit' turned off")

            let once = try await groups.scheduleSit(
                GroupSit(group: zen.id, profile: Self.evening, startsAt: now + 60, weekly: false), at: now)
            let weekly = try await groups.scheduleSit(
                GroupSit(group: zen.id, profile: Self.evening, startsAt: now + 120, weekly: true), at: now)
            #expect(try await page(grace.id)?.sits == [once, weekly])
            #expect(try await page(grace.id, at: once.firstEnd)?.sits == [weekly], "the sit happening once is over")
            // A sit's page, kept alike.
            func sitPage(_ person: Int, at date: Date = now + 10) async throws -> GroupSitPage? {
                try await stores.data.groups(of: person).sitPage(weekly.id, of: zen.id, at: date)
            }
            #expect(try await sitPage(grace.id)?.isHost == false)
            #expect(try await sitPage(ada.id)?.isHost == true, "a host, from the page a member read")
            var showing = grace
            showing.showsWhenSitting = true
            try await stores.people.update(showing)
            _ = try await stores.data.groups(of: grace.id).startSitting(
                profileName: "X", sit: weekly.id, at: now, until: now + 600)
            #expect(try await sitPage(ada.id)?.sitting.map(\.sit) == [weekly.id])
            #expect(try await sitPage(ada.id, at: now + 600 + SittingNow.grace)?.sitting == [], "past the grace")
            try await groups.cancelSit(weekly.id, of: zen.id, at: now)
            #expect(try await sitPage(grace.id)?.sit.cancelled == true)
            #expect(try await page(grace.id)?.sits == [once])

            try await groups.remove(grace.id, from: zen.id, at: now)
            #expect(try await list(grace.id) == [], "removed")
            #expect(try await list(ada.id) == ["Tea 1", "Zen 1"], "one member fewer")
            #expect(try await page(grace.id) == nil, "removed")
            #expect(try await sitPage(grace.id) == nil, "removed")
            #expect(try await page(ada.id)?.detail.removed.map(\.person) == [grace.id])
            try await groups.readmit(grace.id, to: zen.id)
            #expect(try await page(ada.id)?.detail.removed == [])
            try await groups.revokeInvitation(
                try #require(try await page(ada.id)?.detail.invitations.first).id, of: zen.id)
            #expect(try await page(ada.id)?.detail.invitations == [])
            try await groups.leave(zen.id)
            #expect(try await page(ada.id) == nil, "left, and the group with her")
            #expect(try await list(ada.id) == ["Tea 1"])
            try await groups.leave(tea.id)
            #expect(try await list(ada.id) == [])
        }
    }

    @Test(
        "Sitting now: those who turned 'Show me when I sit' off are never shown; starts at one moment go by id",
        arguments: Backend.available)
    func sittingNowHidden(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let (ada, now) = (stores.person, Self.now)
            let groups = stores.data.groups(of: ada.id)
            let zen = try await groups.create(name: "Zen", at: now)
            try await groups.addInvitation(to: zen.id, key: "link", at: now, expiresAt: now + Self.week)
            let bob = try await stores.signUp("bob")
            let carol = try await stores.signUp("carol")
            for person in [bob, carol] { _ = try await stores.data.groups(of: person.id).join(key: "link", at: now) }

            var hidden = bob
            hidden.showsWhenSitting = false
            try await stores.people.update(hidden)
            for person in [carol, bob, ada] {
                #expect(
                    try await stores.data.groups(of: person.id).startSitting(
                        profileName: "Zazen", at: now, until: now + 600) == [zen.id])
            }
            let shown = [ada, carol].map {
                SittingNow(person: $0.id, name: $0.name, profileName: "Zazen", since: now)
            }
            for viewer in [ada, bob, carol] {
                #expect(try await stores.data.groups(of: viewer.id).sittingNow(in: zen.id, at: now + 1) == shown)
            }
            // Turned on again: shown, the sit under way too.
            hidden.showsWhenSitting = true
            try await stores.people.update(hidden)
            let bobSitting = SittingNow(person: bob.id, name: "Bob", profileName: "Zazen", since: now)
            #expect(try await groups.sittingNow(in: zen.id, at: now + 2) == [shown[0], bobSitting, shown[1]])
        }
    }

    @Test(
        "Sitting now is a group's members' alone: not found to others, and no one sitting elsewhere is in it",
        arguments: Backend.available)
    func sittingNowMembersOnly(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let (ada, now) = (stores.person, Self.now)
            let groups = stores.data.groups(of: ada.id)
            let zen = try await groups.create(name: "Zen", at: now)
            try await groups.addInvitation(to: zen.id, key: "link", at: now, expiresAt: now + Self.week)
            let bob = try await stores.signUp("bob")
            let grace = try await stores.signUp("grace")
            let (bobs, graces) = (stores.data.groups(of: bob.id), stores.data.groups(of: grace.id))
            let hers = try await graces.create(name: "Grace's", at: now)

            _ = try await groups.startSitting(profileName: "Zazen", at: now, until: now + 600)
            await #expect(throws: GroupRepositoryError.notFound) { try await bobs.sittingNow(in: zen.id, at: now) }
            await #expect(throws: GroupRepositoryError.notFound) { try await graces.sittingNow(in: zen.id, at: now) }
            await #expect(throws: GroupRepositoryError.notFound) { try await groups.sittingNow(in: hers.id, at: now) }
            await #expect(throws: GroupRepositoryError.notFound) {
                try await groups.sittingNow(in: 999_999, at: now)
            }

            // Grace sits in her own group only; Bob, who joins Zen, is listed while a member.
            #expect(try await graces.startSitting(profileName: "Hers", at: now, until: now + 600) == [hers.id])
            #expect(try await graces.sittingNow(in: hers.id, at: now + 1).map(\.person) == [grace.id])
            _ = try await bobs.join(key: "link", at: now)
            _ = try await bobs.startSitting(profileName: "Bob's", at: now + 1, until: now + 600)
            #expect(try await groups.sittingNow(in: zen.id, at: now + 2).map(\.person) == [ada.id, bob.id])
            try await bobs.leave(zen.id)
            #expect(try await groups.sittingNow(in: zen.id, at: now + 3).map(\.person) == [ada.id])
            await #expect(throws: GroupRepositoryError.notFound) { try await bobs.sittingNow(in: zen.id, at: now + 3) }

            // Back in the group while still sitting: listed again. A deleted account's sit goes
            // with it.
            _ = try await bobs.join(key: "link", at: now + 4)
            #expect(try await groups.sittingNow(in: zen.id, at: now + 5).map(\.person) == [ada.id, bob.id])
            try await stores.people.delete(id: bob.id)
            #expect(try await groups.sittingNow(in: zen.id, at: now + 5).map(\.person) == [ada.id])
        }
    }
}

extension GroupConformanceTests {
    /// A profile of 10 minutes with a bell at its start.
    static var evening: Profile {
        var profile = Profile.new(named: "Evening")
        profile.duration = 600
        profile[.main].sounds = [Sound(type: .begin, enabled: true, name: "Bell")]
        return profile
    }

    @Test(
        "A person's calendar: every sit of their groups not over, cancelled ones too, with the group's name; none of a group left",
        arguments: Backend.available)
    func calendarSits(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let (ada, now) = (stores.person, Self.now)
            let groups = stores.data.groups(of: ada.id)
            let zen = try await groups.create(name: "Morning, \"quiet\"; sangha", at: now)
            let solo = try await groups.create(name: "Solo", at: now)
            try await groups.addInvitation(to: zen.id, key: "link", at: now, expiresAt: now + Self.week)
            let bob = try await stores.signUp("bob")
            let bobs = stores.data.groups(of: bob.id)
            _ = try await bobs.join(key: "link", at: now)
            let past = try await groups.scheduleSit(
                GroupSit(group: zen.id, profile: Self.evening, startsAt: now + 60, weekly: false), at: now)
            let weekly = try await groups.scheduleSit(
                GroupSit(
                    group: zen.id, profile: Profile.new(named: "Dawn"), startsAt: now + 600, weekly: true,
                    timeZone: TimeZone(identifier: "Europe/Berlin")!), at: now)
            let cancelled = try await groups.scheduleSit(
                GroupSit(group: zen.id, profile: Self.evening, startsAt: now + 7200, weekly: false), at: now)
            try await groups.cancelSit(cancelled.id, of: zen.id, at: now)
            let alone = try await groups.scheduleSit(
                GroupSit(group: solo.id, profile: Self.evening, startsAt: now + 3600, weekly: false), at: now)

            let later = past.firstEnd  // the first sit is over
            var expected = [weekly, alone, cancelled].map {
                CalendarSit(sit: $0, groupName: $0.group == zen.id ? zen.name : "Solo", revisedAt: now)
            }
            expected[2].sit.cancelled = true
            #expect(try await groups.calendarSits(at: later) == expected)
            // Bob is in Zen only; once he leaves, none.
            #expect(try await bobs.calendarSits(at: later) == [expected[0], expected[2]])
            try await bobs.leave(zen.id)
            #expect(try await bobs.calendarSits(at: later) == [])
        }
    }

    @Test(
        "Add to calendar: one sit of a group of the person's with the group's name, over or cancelled too; nil for anyone else's or another group's",
        arguments: Backend.available)
    func calendarSit(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let (ada, now) = (stores.person, Self.now)
            let groups = stores.data.groups(of: ada.id)
            let zen = try await groups.create(name: "Zen", at: now)
            let solo = try await groups.create(name: "Solo", at: now)
            try await groups.addInvitation(to: zen.id, key: "link", at: now, expiresAt: now + Self.week)
            let bob = try await stores.signUp("bob")
            let bobs = stores.data.groups(of: bob.id)
            _ = try await bobs.join(key: "link", at: now)
            let once = try await groups.scheduleSit(
                GroupSit(group: zen.id, profile: Self.evening, startsAt: now + 60, weekly: false), at: now)
            var cancelled = try await groups.scheduleSit(
                GroupSit(
                    group: zen.id, profile: Profile.new(named: "Dawn"), startsAt: now + 7200, weekly: true,
                    timeZone: TimeZone(identifier: "Europe/Berlin")!), at: now)
            // Cancelled later than it was scheduled: that is when it last changed.
            try await groups.cancelSit(cancelled.id, of: zen.id, at: now + 30)
            cancelled.cancelled = true
            let alone = try await groups.scheduleSit(
                GroupSit(group: solo.id, profile: Self.evening, startsAt: now + 3600, weekly: false), at: now)

            let onceInZen = CalendarSit(sit: once, groupName: "Zen", revisedAt: now)
            #expect(try await groups.calendarSit(once.id, of: zen.id) == onceInZen)
            #expect(try await bobs.calendarSit(once.id, of: zen.id) == onceInZen)
            #expect(
                try await bobs.calendarSit(cancelled.id, of: zen.id)
                    == CalendarSit(sit: cancelled, groupName: "Zen", revisedAt: now + 30))
            #expect(
                try await groups.calendarSit(alone.id, of: solo.id)
                    == CalendarSit(sit: alone, groupName: "Solo", revisedAt: now))
            // Bob is not in Solo; a sit asked for under another group, or none, is no one's.
            #expect(try await bobs.calendarSit(alone.id, of: solo.id) == nil)
            #expect(try await groups.calendarSit(alone.id, of: zen.id) == nil)
            #expect(try await groups.calendarSit(once.id, of: solo.id) == nil)
            #expect(try await groups.calendarSit(alone.id + 100, of: zen.id) == nil)
            // Once Bob leaves, Zen's are not his either.
            try await bobs.leave(zen.id)
            #expect(try await bobs.calendarSit(once.id, of: zen.id) == nil)
        }
    }

    @Test(
        "A group has at most GroupSit.limitPerGroup sits to come: one more is refused, a cancelled or past one frees its place",
        arguments: Backend.available)
    func sitsToCome(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let (ada, now) = (stores.person, Self.now)
            let groups = stores.data.groups(of: ada.id)
            let zen = try await groups.create(name: "Zen", at: now)
            var made: [GroupSit] = []
            for index in 0..<GroupSit.limitPerGroup {
                made.append(
                    try await groups.scheduleSit(
                        GroupSit(
                            group: zen.id, profile: Self.evening, startsAt: now + 3600 * Double(index + 1),
                            weekly: index % 10 == 0), at: now))
            }
            let oneMore = GroupSit(group: zen.id, profile: Self.evening, startsAt: now + 600, weekly: false)
            await #expect(throws: GroupRepositoryError.tooManySits) { try await groups.scheduleSit(oneMore, at: now) }
            #expect(try await groups.sits(of: zen.id, at: now).count == GroupSit.limitPerGroup)
            try await groups.cancelSit(made[5].id, of: zen.id, at: now)
            _ = try await groups.scheduleSit(oneMore, at: now)
            await #expect(throws: GroupRepositoryError.tooManySits) { try await groups.scheduleSit(oneMore, at: now) }
            // Once the first one-off sit is over, its place is free.
            _ = try await groups.scheduleSit(oneMore, at: made[1].firstEnd + 1)
            // Another group is counted apart.
            let solo = try await groups.create(name: "Solo", at: now)
            _ = try await groups.scheduleSit(
                GroupSit(group: solo.id, profile: Self.evening, startsAt: now + 600, weekly: false), at: now)
        }
    }

    @Test(
        "Cancelled sits not over count too, against GroupSit.limitNotOverPerGroup; a cancelled weekly sit is over ten days after its cancellation",
        arguments: Backend.available)
    func sitsNotOver(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let (ada, now) = (stores.person, Self.now)
            let groups = stores.data.groups(of: ada.id)
            let zen = try await groups.create(name: "Zen", at: now)
            // A weekly sit, then sits happening once over the next four days, each cancelled as
            // soon as it is made.
            let weekly = try await groups.scheduleSit(
                GroupSit(group: zen.id, profile: Self.evening, startsAt: now + 600, weekly: true), at: now)
            try await groups.cancelSit(weekly.id, of: zen.id, at: now)
            for index in 1..<GroupSit.limitNotOverPerGroup {
                let once = try await groups.scheduleSit(
                    GroupSit(group: zen.id, profile: Self.evening, startsAt: now + 3600 * Double(index), weekly: false),
                    at: now)
                try await groups.cancelSit(once.id, of: zen.id, at: now)
            }
            #expect(try await groups.sits(of: zen.id, at: now) == [], "none to come")
            #expect(try await groups.calendarSits(at: now).count == GroupSit.limitNotOverPerGroup)
            let oneMore = GroupSit(group: zen.id, profile: Self.evening, startsAt: now + 600, weekly: false)
            await #expect(throws: GroupRepositoryError.tooManySitsNotOver) {
                try await groups.scheduleSit(oneMore, at: now)
            }
            #expect(try await groups.calendarSits(at: now).count == GroupSit.limitNotOverPerGroup, "nothing made")
            // Nine days on, the sits that happened once are over; the weekly one is still in
            // calendars, marked cancelled, and counted.
            let later = now + 9 * 86_400
            #expect(try await groups.calendarSits(at: later).map(\.sit.id) == [weekly.id])
            var next = oneMore
            next.startsAt = later + 3 * 86_400
            let made = try await groups.scheduleSit(next, at: later)
            // Ten days after its cancellation it is over too, and leaves calendars.
            let gone = now + GroupSit.cancelledWeeklyListing + 1
            #expect(try await groups.calendarSits(at: gone).map(\.sit.id) == [made.id])
            #expect(try await groups.calendarSits(at: gone - 2).map(\.sit.id) == [weekly.id, made.id])
        }
    }

    @Test(
        "Group sits: a host schedules them with a copy of the profile, members read them, no one else can",
        arguments: Backend.available)
    func sits(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let (ada, now) = (stores.person, Self.now)
            let groups = stores.data.groups(of: ada.id)
            let zen = try await groups.create(name: "Zen", at: now)
            try await groups.addInvitation(to: zen.id, key: "link", at: now, expiresAt: now + Self.week)
            let bob = try await stores.signUp("bob")
            let bobs = stores.data.groups(of: bob.id)
            _ = try await bobs.join(key: "link", at: now)
            #expect(try await bobs.sits(of: zen.id, at: now).isEmpty)

            var profile = try await stores.profiles.create(Self.evening)
            let once = try await groups.scheduleSit(
                GroupSit(group: zen.id, profile: profile, startsAt: now + 3600, weekly: false), at: now)
            let weekly = try await groups.scheduleSit(
                GroupSit(
                    group: zen.id, profile: Profile.new(named: "Dawn"), startsAt: now + 600, weekly: true,
                    timeZone: TimeZone(identifier: "America/Santiago")!), at: now
            )
            #expect(once.id > 0 && weekly.id > once.id)
            // A weekly sit keeps its host's zone (its time of day is theirs).
            #expect(try await bobs.sit(weekly.id, of: zen.id)?.timeZone.identifier == "America/Santiago")
            // The copy is the profile's as it was: editing or deleting the profile changes nothing.
            #expect(once.profile.segments == Self.evening.segments && once.profile.id == 0)
            profile.duration = 60
            _ = try await stores.profiles.update(profile)
            #expect(try await bobs.sits(of: zen.id, at: now) == [weekly, once], "by their first start")
            #expect(try await stores.profiles.delete(id: profile.id))
            #expect(try await storage.open().data.groups(of: bob.id).sit(once.id, of: zen.id) == once)
            #expect(try await bobs.sit(999_999, of: zen.id) == nil)

            // A sit that happens once is listed until it ends; a weekly one always.
            #expect(try await bobs.sits(of: zen.id, at: once.firstEnd - 1) == [weekly, once])
            #expect(try await bobs.sits(of: zen.id, at: once.firstEnd) == [weekly])
            #expect(try await bobs.sit(once.id, of: zen.id) == once, "still readable once over")

            // The page at once is the page a question at a time; nothing for anyone else.
            let week = DateInterval(start: now - 86_400, end: now + 86_400)
            _ = try await bobs.startSitting(profileName: once.name, sit: once.id, at: now, until: now + 600)
            let page = try await bobs.page(zen.id, week: week, at: now + 1)
            #expect(page?.detail == (try await bobs.group(zen.id, at: now + 1)))
            #expect(page?.practice == (try await bobs.practice(of: zen.id, from: week.start, to: week.end)))
            #expect(page?.sitting == (try await bobs.sittingNow(in: zen.id, at: now + 1)) && page?.sitting.count == 1)
            #expect(page?.sits == [weekly, once])
            let dave = stores.data.groups(of: (try await stores.signUp("dave")).id)
            #expect(try await dave.page(zen.id, week: week, at: now) == nil)
            // A sit's page at once is its questions one at a time, for a host and a member.
            for (reader, hosts) in [(bobs, false), (groups, true)] {
                let sitPage = try #require(try await reader.sitPage(once.id, of: zen.id, at: now + 1))
                #expect(sitPage.sit == once && sitPage.group == zen && sitPage.isHost == hosts)
                #expect(sitPage.sitting == (try await reader.sittingNow(in: zen.id, at: now + 1)))
                #expect(sitPage.sitting.count == 1)
            }
            #expect(try await bobs.sitPage(999_999, of: zen.id, at: now) == nil, "no such sit")
            #expect(try await dave.sitPage(once.id, of: zen.id, at: now) == nil, "not a member")
            _ = try await bobs.stopSitting()

            // A member who is not a host neither schedules nor cancels.
            await #expect(throws: GroupRepositoryError.notFound) {
                try await bobs.scheduleSit(
                    GroupSit(group: zen.id, profile: profile, startsAt: now, weekly: false), at: now)
            }
            await #expect(throws: GroupRepositoryError.notFound) {
                try await bobs.cancelSit(once.id, of: zen.id, at: now)
            }
            // Anyone else: not found, as for a group that does not exist.
            let carol = try await stores.signUp("carol")
            let carols = stores.data.groups(of: carol.id)
            await #expect(throws: GroupRepositoryError.notFound) { try await carols.sits(of: zen.id, at: now) }
            await #expect(throws: GroupRepositoryError.notFound) { try await carols.sit(once.id, of: zen.id) }
            await #expect(throws: GroupRepositoryError.notFound) {
                try await carols.cancelSit(once.id, of: zen.id, at: now)
            }
            await #expect(throws: GroupRepositoryError.notFound) {
                try await carols.scheduleSit(
                    GroupSit(group: zen.id, profile: profile, startsAt: now, weekly: false), at: now)
            }
            // Another group's sit is not found through this one.
            let theirs = try await carols.create(name: "Theirs", at: now)
            #expect(try await carols.sit(once.id, of: theirs.id) == nil)
            #expect(try await carols.sitPage(once.id, of: theirs.id, at: now) == nil)

            // Cancelled: no longer listed, still read (as cancelled); cancelling again is not found.
            try await groups.cancelSit(once.id, of: zen.id, at: now)
            #expect(try await bobs.sits(of: zen.id, at: now) == [weekly])
            var cancelled = once
            cancelled.cancelled = true
            #expect(try await bobs.sit(once.id, of: zen.id) == cancelled)
            #expect(try await bobs.sitPage(once.id, of: zen.id, at: now)?.sit == cancelled, "its page says so")
            await #expect(throws: GroupRepositoryError.notFound) {
                try await groups.cancelSit(once.id, of: zen.id, at: now)
            }
        }
    }

    @Test(
        "Group sits: who sits in one is shown in it to its group only, unnamed to their other groups; a sit begins anew on joining or leaving one; a cancelled sit leaves them sitting",
        arguments: Backend.available)
    func sittingInASit(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let (ada, now) = (stores.person, Self.now)
            let groups = stores.data.groups(of: ada.id)
            let zen = try await groups.create(name: "Zen", at: now)
            let morning = try await groups.create(name: "Morning", at: now)
            let sit = try await groups.scheduleSit(
                GroupSit(group: zen.id, profile: Self.evening, startsAt: now, weekly: false), at: now)
            // Sitting alone first: joining the group sit is a new sit, from the join.
            _ = try await groups.startSitting(profileName: "Dawn", at: now - 300, until: now + 600)
            let groupIDs = try await groups.startSitting(profileName: "Evening", sit: sit.id, at: now, until: now + 600)
            #expect(groupIDs == [zen.id, morning.id].sorted())
            let inIt = SittingNow(person: ada.id, name: "Ada", profileName: "Evening", since: now, sit: sit.id)
            #expect(try await groups.sittingNow(in: zen.id, at: now + 1) == [inIt])
            let elsewhere = SittingNow(
                person: ada.id, name: "Ada", profileName: "", since: now, sit: nil, inAnotherGroupsSit: true)
            #expect(try await groups.sittingNow(in: morning.id, at: now + 1) == [elsewhere], "not named to Morning")
            // Resumed in the same sit: the same since.
            _ = try await groups.startSitting(profileName: "Evening", sit: sit.id, at: now + 5, until: now + 600)
            #expect(try await groups.sittingNow(in: zen.id, at: now + 6) == [inIt])
            // Sitting alone again: no longer in the group sit, from then.
            _ = try await groups.startSitting(profileName: "Evening", at: now + 10, until: now + 600)
            let alone = SittingNow(person: ada.id, name: "Ada", profileName: "Evening", since: now + 10)
            #expect(try await groups.sittingNow(in: zen.id, at: now + 11) == [alone])
            #expect(try await groups.sittingNow(in: morning.id, at: now + 11) == [alone])
            // A sit of a group the person is not in is not kept: sitting alone.
            let carol = try await stores.signUp("carol")
            let carols = stores.data.groups(of: carol.id)
            _ = try await carols.startSitting(profileName: "Evening", sit: sit.id, at: now + 12, until: now + 600)
            let theirs = try await carols.create(name: "Theirs", at: now)
            #expect(try await carols.sittingNow(in: theirs.id, at: now + 13).map(\.inAnotherGroupsSit) == [false])
            // Cancelled while Ada sits in it: she sits on, in it; no one joins it any more.
            _ = try await groups.startSitting(profileName: "Evening", sit: sit.id, at: now + 20, until: now + 600)
            try await groups.cancelSit(sit.id, of: zen.id, at: now + 21)
            var stillIn = inIt
            stillIn.since = now + 20
            #expect(try await groups.sittingNow(in: zen.id, at: now + 22) == [stillIn])
            #expect(try await groups.sit(sit.id, of: zen.id)?.cancelled == true)
            #expect(try await groups.sits(of: zen.id, at: now + 22).isEmpty)
            _ = try await groups.stopSitting()
            _ = try await groups.startSitting(profileName: "Evening", sit: sit.id, at: now + 30, until: now + 600)
            #expect(try await groups.sittingNow(in: zen.id, at: now + 31).map(\.sit) == [nil])
        }
    }
}

extension Stores {
    /// Another person, signed up as an open sign-up would.
    fileprivate func signUp(_ username: String) async throws -> Person {
        try await people.create(Stores.person(username), passwordHash: "x")
    }
}
