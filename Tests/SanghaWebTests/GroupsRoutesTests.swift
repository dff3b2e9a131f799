import Foundation
import Hummingbird
import HummingbirdTesting
import SanghaCore
import SanghaStore
import SanghaTestSupport
import SanghaViewModels
import Synchronization
import Testing

@testable import SanghaWeb

/// Groups through the routes, on SQLite in memory (groups join people and their sessions).
@Suite("Groups routes")
struct GroupsRoutesTests {
    static func dependencies(_ data: (any OneDatabase)? = nil) throws -> Dependencies {
        try TestDependencies.make(data: data, timeZone: TimeZone(identifier: "UTC")!)
    }

    /// Tuesday 2026-11-24, 18:00 UTC: the clock of the tests whose pages are compared whole.
    static let tuesday = Date(timeIntervalSince1970: 1_795_543_200)

    /// The same on `clock`.
    static func dependencies(clock: PeopleRoutesTests.TestClock) throws -> Dependencies {
        var dependencies = try Self.dependencies()
        dependencies.now = { clock.now }
        return dependencies
    }

    /// The token of the invitation link a page shows.
    static func invitationToken(in body: String) throws -> String {
        let match = try #require(body.firstMatch(of: /\/groups\/invite\/([0-9a-f]{64})/))
        return String(match.1)
    }

    /// The message of the flash `response` sets for the next page.
    static func flash(_ response: TestResponse) throws -> String? {
        let cookie = try #require(response.headers[values: .setCookie].first { $0.hasPrefix(FlashCookie.name + "=") })
        let value = cookie.dropFirst(FlashCookie.name.count + 1).prefix { $0 != ";" }
        let signed = try #require(TestDependencies.signer.verified(String(value), for: "flash"))
        return FlashCookie.decode(signed)?.message
    }

    static func body(_ response: TestResponse) -> String { String(buffer: response.body) }

    @Test("Create, invite, join, remove, revoke, leave; every route is 404 to anyone not in the group")
    func lifecycle() async throws {
        let clock = PeopleRoutesTests.TestClock(Self.tuesday)
        try await withApp(dependencies: try Self.dependencies(clock: clock)) { client in
            let ada = try await client.signedUp()
            let bob = try await client.signedUp(username: "bob", name: "Bob Brown")
            try await ada.post("/groups", form: "name=+") { assertResponse($0, named: "create-no-name") }
            try await ada.post("/groups", form: "name=Morning+sangha") { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/groups/1")
            }
            // "Morning sangha, 1 member · you host"
            try await ada.execute(uri: "/groups", method: .get) { assertResponse($0, named: "groups-ada") }
            // Bob is not in it: as if it did not exist, on every route and in JSON.
            try await bob.execute(uri: "/groups", method: .get) { assertResponse($0, named: "groups-bob-none") }
            for (method, uri) in [
                (HTTPRequest.Method.get, "/groups/1"), (.post, "/groups/1/invitations"), (.post, "/groups/1/leave"),
                (.post, "/groups/1/members/1/remove"), (.post, "/groups/1/invitations/1/revoke"),
                (.get, "/groups/999"),
            ] {
                let status =
                    method == .get
                    ? try await bob.execute(uri: uri, method: .get) { $0.status }
                    : try await bob.post(uri, form: "") { $0.status }
                #expect(status == .notFound, "\(method) \(uri)")
            }
            try await bob.execute(uri: "/groups/1", method: .get, headers: [.accept: "application/json"]) {
                assertResponse($0, named: "group-json-stranger")
            }

            let token = try await ada.post("/groups/1/invitations", form: "") { response in
                assertResponse(response, named: "invitation-link")
                return try Self.invitationToken(in: Self.body(response))
            }
            try await bob.execute(uri: "/groups/invite/\(token)", method: .get) {
                assertResponse($0, named: "invitation")
            }
            try await bob.execute(uri: "/groups/invite/" + String(repeating: "0", count: 64), method: .get) {
                assertResponse($0, named: "invitation-not-valid")
            }
            try await bob.post("/groups/invite/\(token)", form: "") { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/groups/1")
            }
            try await bob.post("/groups/invite/\(token)", form: "") { #expect($0.status == .seeOther) }
            // Both members; only hosts make links and remove members.
            try await bob.execute(uri: "/groups/1", method: .get) { assertResponse($0, named: "group-bob") }
            try await bob.post("/groups/1/invitations", form: "") { #expect($0.status == .notFound) }
            try await bob.post("/groups/1/members/1/remove", form: "") { #expect($0.status == .notFound) }

            // The host removes Bob; he is a stranger to the group again.
            try await ada.post("/groups/1/members/2/remove", form: "") { response in
                #expect(response.status == .seeOther)
            }
            try await bob.execute(uri: "/groups/1", method: .get) { #expect($0.status == .notFound) }
            // And stays out: the link he joined by does not take him back, until Ada lets him. Its
            // page says so, with no "Join group".
            try await bob.execute(uri: "/groups/invite/\(token)", method: .get) { response in
                let page = String(buffer: response.body)
                #expect(response.status == .ok)
                #expect(page.contains(GroupInvitationViewModel.removedMessage))
                #expect(!page.contains(Words.english.groupsJoinGroup))
            }
            try await bob.post("/groups/invite/\(token)", form: "") { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/groups")
                let message = try Self.flash(response)
                #expect(message == GroupInvitationViewModel.removedMessage)
            }
            try await bob.execute(uri: "/groups", method: .get) { assertResponse($0, named: "groups-bob-none") }
            // "Removed": Bob, whom Ada may let back in.
            try await ada.execute(uri: "/groups/1", method: .get) { assertResponse($0, named: "group-ada-removed") }
            try await bob.post("/groups/1/removed/2/readmit", form: "") { #expect($0.status == .notFound) }
            try await ada.post("/groups/1/removed/2/readmit", form: "") { response in
                #expect(response.status == .seeOther)
                let message = try Self.flash(response)
                #expect(message == "Bob Brown may join again by an invitation link.")
            }
            try await ada.execute(uri: "/groups/1", method: .get) { assertResponse($0, named: "group-ada-alone") }
            try await ada.post("/groups/1/removed/2/readmit", form: "") { #expect($0.status == .notFound) }
            try await bob.post("/groups/invite/\(token)", form: "") { #expect($0.headers[.location] == "/groups/1") }
            try await ada.post("/groups/1/members/2/remove", form: "") { #expect($0.status == .seeOther) }
            // Revoked, the link admits no one.
            let revoke = try await ada.execute(uri: "/groups/1", method: .get) { response in
                let match = try #require(Self.body(response).firstMatch(of: /\/groups\/1\/invitations\/(\d+)\/revoke/))
                return String(match.0)
            }
            try await ada.post(revoke, form: "") { #expect($0.status == .seeOther) }
            try await bob.post("/groups/invite/\(token)", form: "") { #expect($0.status == .notFound) }

            // The last member leaving deletes the group.
            try await ada.post("/groups/1/leave", form: "") { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/groups")
            }
            try await ada.execute(uri: "/groups/1", method: .get) { #expect($0.status == .notFound) }
        }
    }

    @Test("With --sign-up invite, a group's link takes a stranger through sign-up and back to it")
    func strangerSignsUp() async throws {
        let configuration = AppConfiguration(signUp: .invite, addressLimit: 0)
        try await withApp(configuration: configuration, dependencies: try Self.dependencies()) { client in
            let ada = try await client.signedUp()  // the first account needs no invitation
            try await ada.post("/groups", form: "name=Morning+sangha") { #expect($0.status == .seeOther) }
            let token = try await ada.post("/groups/1/invitations", form: "") {
                try Self.invitationToken(in: Self.body($0))
            }
            let link = "/groups/invite/\(token)"
            try await client.execute(uri: link, method: .get) { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/sign-in?next=\(link)")
            }
            // Create account is offered, and goes on to this link…
            try await client.execute(uri: "/sign-in?next=\(link)", method: .get) { response in
                assertResponse(response, named: "sign-in-with-link")
                #expect(Self.body(response).firstMatch(of: /href="\/sign-up\?next=([^"]*)"/)?.1 == link[...])
            }
            // …but not without the link.
            try await client.execute(uri: "/sign-in", method: .get) { assertResponse($0, named: "sign-in") }
            try await client.execute(uri: "/sign-up?next=\(link)", method: .get) { #expect($0.status == .ok) }
            let form = "name=Carol&username=carol&password=correct+horse+battery"
            // A made-up link admits no one.
            try await client.post(
                "/sign-up", form: form + "&next=/groups/invite/" + String(repeating: "0", count: 64)
            ) { #expect($0.status == .forbidden) }
            let carol = try await client.post("/sign-up", form: form + "&next=\(link)") { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == link)
                return SignedInClient(
                    base: client, sessionCookie: try #require(SignedInClient.sessionCookie(in: response)))
            }
            try await carol.post(link, form: "") { #expect($0.headers[.location] == "/groups/1") }
            try await carol.execute(uri: "/groups/1", method: .get) { #expect($0.status == .ok) }
            // The link stays good for the next person within its 7 days.
            try await client.post("/sign-up", form: "name=Dan&username=dan&password=correct+horse+battery&next=\(link)")
            {
                #expect($0.status == .seeOther)
            }
        }
    }

    @Test(
        "With --sign-up admin-invite, a group's link admits only people with an account; an administrator's invitation still signs someone up"
    )
    func administratorsInvite() async throws {
        let configuration = AppConfiguration(signUp: .adminInvite, addressLimit: 0)
        let clock = PeopleRoutesTests.TestClock(Self.tuesday)
        try await withApp(configuration: configuration, dependencies: try Self.dependencies(clock: clock)) { client in
            let ada = try await client.signedUp()  // the first account needs no invitation
            try await ada.post("/groups", form: "name=Morning+sangha") { #expect($0.status == .seeOther) }
            // The link, and that "only people who have an account can use it".
            let token = try await ada.post("/groups/1/invitations", form: "") { response in
                assertResponse(response, named: "invitation")
                return try Self.invitationToken(in: Self.body(response))
            }
            let link = "/groups/invite/\(token)"
            // No Create account.
            try await client.execute(uri: "/sign-in?next=\(link)", method: .get) {
                assertResponse($0, named: "sign-in-with-link")
            }
            try await client.execute(uri: "/sign-up?next=\(link)", method: .get) { #expect($0.status == .forbidden) }
            let form = "name=Carol&username=carol&password=correct+horse+battery"
            try await client.post("/sign-up", form: form + "&next=\(link)") { #expect($0.status == .forbidden) }
            // An administrator's invitation works as ever.
            let invitation = try await ada.post("/admin/invitations", form: "") { response in
                let match = try #require(Self.body(response).firstMatch(of: /invitation=([0-9a-f]{64})/))
                return String(match.1)
            }
            try await client.post("/sign-up", form: form + "&invitation=\(invitation)") {
                #expect($0.status == .seeOther)
            }
        }
    }

    @Test("With --sign-up closed, a group's link offers no account to create")
    func closedDoor() async throws {
        let configuration = AppConfiguration(signUp: .closed, addressLimit: 0)
        try await withApp(configuration: configuration, dependencies: try Self.dependencies()) { client in
            let link = "/groups/invite/" + String(repeating: "ab", count: 32)
            // 200, and no Create account.
            try await client.execute(uri: "/sign-in?next=\(link)", method: .get) {
                assertResponse($0, named: "sign-in-with-link")
            }
        }
    }

    @Test("Sitting now: a member's sit shows on the group's page, not when they hide it, and not once they stop")
    func sittingNow() async throws {
        try await withApp(dependencies: try Self.dependencies(clock: PeopleRoutesTests.TestClock(Self.tuesday))) {
            client in
            let ada = try await client.signedUp()
            let bob = try await client.signedUp(username: "bob", name: "Bob Brown")
            let carol = try await client.signedUp(username: "carol", name: "Carol")
            try await ada.post("/groups", form: "name=Morning+sangha") { #expect($0.status == .seeOther) }
            let token = try await ada.post("/groups/1/invitations", form: "") {
                try Self.invitationToken(in: Self.body($0))
            }
            try await bob.post("/groups/invite/\(token)", form: "") { #expect($0.status == .seeOther) }
            let profile = try await bob.post("/profiles", form: "name=Evening") { response in
                try #require(response.headers[.location]).split(separator: "/").last.map(String.init) ?? ""
            }
            // "No one is sitting now."
            try await ada.execute(uri: "/groups/1", method: .get) { assertResponse($0, named: "group-no-one") }

            try await bob.post("/sitting", form: "profile=\(profile)&seconds=600") { #expect($0.status == .noContent) }
            // "Bob Brown · Evening" since 18:00.
            try await ada.execute(uri: "/groups/1", method: .get) { assertResponse($0, named: "group-bob-sitting") }
            // Only their own profiles, and a length a sit can have.
            try await bob.post("/sitting", form: "profile=999") { #expect($0.status == .notFound) }
            try await carol.post("/sitting", form: "profile=\(profile)") { #expect($0.status == .notFound) }
            try await bob.post("/sitting", form: "profile=\(profile)&seconds=0") {
                assertResponse($0, named: "sitting-no-seconds")
            }
            // Carol is not in the group: its page and its events are not there for her.
            try await carol.execute(uri: "/groups/1", method: .get) { #expect($0.status == .notFound) }
            try await carol.execute(uri: "/groups/1/events", method: .get) { #expect($0.status == .notFound) }

            // "Show me when I sit" off (an unchecked box sends nothing): hidden, though sitting.
            // "Show me when I sit", checked.
            try await bob.execute(uri: "/settings", method: .get) { assertResponse($0, named: "settings-shown") }
            try await bob.post("/settings", form: "name=Bob+Brown") { #expect($0.status == .seeOther) }
            try await bob.execute(uri: "/settings", method: .get) { assertResponse($0, named: "settings-hidden") }
            try await ada.execute(uri: "/groups/1", method: .get) { assertResponse($0, named: "group-no-one") }
            try await bob.post("/settings", form: "name=Bob+Brown&showWhenSitting=on") {
                #expect($0.status == .seeOther)
            }
            try await ada.execute(uri: "/groups/1", method: .get) { assertResponse($0, named: "group-bob-sitting") }
            try await bob.post("/sitting/stop", form: "") { #expect($0.status == .noContent) }
            try await ada.execute(uri: "/groups/1", method: .get) { assertResponse($0, named: "group-no-one") }
        }
    }

    @Test(
        "Group sits: a host schedules one, members join it from ten minutes before, it goes into their history with the group"
    )
    func groupSits() async throws {
        // The server's clock, moved by the test: 2026-11-24 18:00 UTC.
        let clock = PeopleRoutesTests.TestClock(Self.tuesday)
        try await withApp(dependencies: try Self.dependencies(clock: clock)) { client in
            let ada = try await client.signedUp()
            let bob = try await client.signedUp(username: "bob", name: "Bob Brown")
            let carol = try await client.signedUp(username: "carol", name: "Carol")
            try await ada.post("/groups", form: "name=Morning+sangha") { #expect($0.status == .seeOther) }
            let token = try await ada.post("/groups/1/invitations", form: "") {
                try Self.invitationToken(in: Self.body($0))
            }
            try await bob.post("/groups/invite/\(token)", form: "") { #expect($0.status == .seeOther) }
            try await ada.post("/profiles", form: "name=Evening") { #expect($0.status == .seeOther) }
            // "No sits are scheduled."; a host may schedule one with Evening.
            try await ada.execute(uri: "/groups/1", method: .get) { assertResponse($0, named: "group-ada-no-sits") }
            // A member who does not host schedules none.
            try await bob.execute(uri: "/groups/1", method: .get) { assertResponse($0, named: "group-bob-no-sits") }

            // What breaks a rule is said by its field, what was typed kept; nothing is scheduled.
            try await ada.post("/groups/1/sits", form: "profile=9&startsAt=2026-11-24T17:00&weekly=on") {
                assertResponse($0, named: "schedule-invalid")
            }
            try await ada.post("/groups/1/sits", form: "profile=1&startsAt=2026-02-30T19:00") {
                assertResponse($0, named: "schedule-no-such-date")
            }
            // Only a host schedules, and only with their own profile; anyone else: 404.
            try await bob.post("/groups/1/sits", form: "profile=1&startsAt=2026-11-24T19:00") {
                #expect($0.status == .notFound)
            }
            try await carol.post("/groups/1/sits", form: "profile=1&startsAt=2026-11-24T19:00") {
                #expect($0.status == .notFound)
            }
            try await ada.post("/groups/1/sits", form: "profile=1&startsAt=2026-11-24T19:00&weekly=on") { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/groups/1")
            }
            // Editing the profile afterwards does not change the sit.
            try await ada.post("/profiles/1", form: "name=Changed&version=1&main.duration=10:00") {
                #expect($0.status == .seeOther)
            }
            // The profile did change: its sitting page is 10:00.
            try await ada.execute(uri: "/profiles/1/sit", method: .get) { assertResponse($0, named: "sitting-changed") }
            // Evening, Tue 24 Nov 2026, 19:00 · 07:30 · every week; no Join an hour before.
            try await bob.execute(uri: "/groups/1", method: .get) { assertResponse($0, named: "group-bob-sit") }
            // Its start for the script (data-starts-at); no Cancel for a member.
            try await bob.execute(uri: "/groups/1/sits/1", method: .get) { assertResponse($0, named: "sit-bob") }
            for uri in ["/groups/1/sits/1", "/groups/1/events?sit=1", "/groups/1/sits/2"] {
                let status = try await carol.execute(uri: uri, method: .get) { $0.status }
                #expect(status == .notFound, "\(uri)")
            }
            try await bob.execute(uri: "/groups/1/sits/2", method: .get) { #expect($0.status == .notFound) }
            try await bob.execute(uri: "/groups/1/events?sit=2", method: .get) { #expect($0.status == .notFound) }

            // Not open yet: joining is refused until ten minutes before.
            try await bob.post("/sitting", form: "group=1&sit=1") { assertResponse($0, named: "join-too-early") }
            try await carol.post("/sitting", form: "group=1&sit=1") { #expect($0.status == .notFound) }
            clock.advance(3000)  // 18:50
            try await bob.execute(uri: "/groups/1", method: .get) { assertResponse($0, named: "group-bob-join") }
            try await bob.post("/sitting", form: "group=1&sit=1") { #expect($0.status == .noContent) }
            // "Sitting in it: Bob Brown"
            try await ada.execute(uri: "/groups/1", method: .get) { assertResponse($0, named: "group-ada-bob-in-it") }
            // Bob in "In this sit"; Cancel sit for a host.
            try await ada.execute(uri: "/groups/1/sits/1", method: .get) {
                assertResponse($0, named: "sit-ada-bob-in-it")
            }

            // Bob sat it to the end: his history says with whom; none of Ada's.
            clock.advance(600 + 450)
            let session = "group=1&sit=1&startedAt=2026-11-24T19:00:00Z&seconds=450&completed=true"
            try await carol.post("/sessions", form: session) { #expect($0.status == .notFound) }
            try await bob.post("/sessions", form: session) { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/groups/1/sits/1")
            }
            // "Evening with Morning sangha"
            try await bob.execute(uri: "/history", method: .get) { assertResponse($0, named: "history-bob") }
            try await ada.execute(uri: "/history", method: .get) { assertResponse($0, named: "history-ada") }
            // Weekly: next Tuesday's (1 Dec 2026, 19:00) is the one shown now.
            try await bob.execute(uri: "/groups/1", method: .get) { assertResponse($0, named: "group-bob-next-week") }

            // A host cancels it: gone for everyone.
            try await bob.post("/groups/1/sits/1/cancel", form: "") { #expect($0.status == .notFound) }
            try await ada.post("/groups/1/sits/1/cancel", form: "") { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/groups/1")
            }
            try await bob.execute(uri: "/groups/1", method: .get) { assertResponse($0, named: "group-bob-cancelled") }
            // "A host cancelled this sit.", and no Join.
            try await bob.execute(uri: "/groups/1/sits/1", method: .get) {
                assertResponse($0, named: "sit-bob-cancelled")
            }
            try await bob.post("/sitting", form: "group=1&sit=1") { assertResponse($0, named: "join-cancelled") }
            // Who sat in it still records their time; a session longer than the sit is refused.
            try await bob.post("/sessions", form: session.replacingOccurrences(of: "450", with: "451")) {
                #expect($0.status == .unprocessableContent)
            }
            try await bob.post("/sessions", form: session) { #expect($0.status == .seeOther) }
            try await carol.post("/sitting", form: "group=1&sit=1") { assertResponse($0, named: "join-stranger") }
        }
    }

    @Test("GET /clock answers the server's time in milliseconds, never cached")
    func clock() async throws {
        var dependencies = try Self.dependencies()
        dependencies.now = { Date(timeIntervalSince1970: 1_795_975_200.123_4) }
        try await withApp(dependencies: dependencies) { client in
            try await client.execute(uri: "/clock", method: .get) { response in
                #expect(response.status == .ok)
                #expect(Self.body(response) == #"{"now":1795975200123}"#)
                #expect(response.headers[.cacheControl] == "no-store")
            }
        }
    }
}

extension GroupsRoutesTests {
    @Test("A 'Schedule a sit' or 'Cancel sit' the storage refused goes back with why, and tells no group's page")
    func refusedTellsNoOne() async throws {
        let data = BreakableData(try SQLitePersonalData.inMemory())
        let told = Mutex<[GroupEvent?]>([])
        data.groupEvents.subscribe { event in told.withLock { $0.append(event) } }
        var dependencies = try Self.dependencies(data)
        dependencies.now = { Date(timeIntervalSince1970: 1_795_543_200) }  // 2026-11-24 18:00 UTC
        try await withSignedInApp(dependencies: dependencies) { ada in
            try await Self.scheduleSit(as: ada)
            told.withLock { $0 = [] }
            data.faults.groups.fail(.unreachable)
            try await ada.post("/groups/1/sits", form: "profile=1&startsAt=2026-11-25T19%3A00") { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/groups/1")
                let message = try Self.flash(response)
                #expect(message == StorageMessage.unreachable)
            }
            try await ada.post("/groups/1/sits/1/cancel", form: "") { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/groups/1/sits/1")
                let message = try Self.flash(response)
                #expect(message == StorageMessage.unreachable)
            }
        }
        #expect(told.withLock { $0 }.isEmpty)
        // Nothing changed: the one sit is there, not cancelled.
        let sits = try await data.base.groups(of: 1).sits(of: 1, at: Date(timeIntervalSince1970: 1_795_543_200))
        #expect(sits.count == 1)
    }

    /// Ada's group 1, with her profile 1 and its sit 1 at 2026-11-24 19:00 UTC.
    static func scheduleSit(as ada: SignedInClient) async throws {
        try await ada.post("/profiles", form: "name=Morning") { #expect($0.status == .seeOther) }
        try await ada.post("/groups", form: "name=Morning+sangha") { #expect($0.status == .seeOther) }
        try await ada.post("/groups/1/sits", form: "profile=1&startsAt=2026-11-24T19%3A00") {
            #expect($0.status == .seeOther)
        }
    }

    @Test("A group sit's session whose sit could not be read is a 503 with why, not a 404: the script keeps it")
    func sessionOfUnreadableSit() async throws {
        let data = BreakableData(try SQLitePersonalData.inMemory())
        let clock = Mutex(Date(timeIntervalSince1970: 1_795_543_200))  // 2026-11-24 18:00 UTC
        var dependencies = try Self.dependencies(data)
        dependencies.now = { clock.withLock { $0 } }
        try await withSignedInApp(dependencies: dependencies) { ada in
            try await Self.scheduleSit(as: ada)
            clock.withLock { $0 += 70 * 60 }  // the sit sat, from 19:00 to 19:07:30
            data.faults.groups.fail(.unreachable)
            let session = "group=1&sit=1&startedAt=2026-11-24T19:00:00Z&seconds=450&completed=true"
            try await ada.post("/sessions", form: session) { response in
                // 503, with why (the storage cannot be reached).
                assertResponse(response, named: "unreadable")
            }
        }
        #expect(try await data.base.sessions(of: 1).all().isEmpty)
    }
}
