import Foundation
import PostgresNIO
import SanghaCore
import SanghaTestSupport
import Synchronization
import Testing

@testable import SanghaPostgres

/// What an instance on PostgreSQL keeps in memory (sign-in sessions, profiles read by id, pages
/// of each person's profiles), and how it learns that another instance changed them: the bound is
/// the notice's delivery, and `PostgresChangeFeed.maximumAge` whatever happens.
@Suite("PostgreSQL: what instances keep, and hear of each other", .enabled(if: TestPostgres.runs))
struct PostgresChangeFeedTests {
    /// One instance: its own pool, its own feed (listening), its data.
    struct Instance {
        let database: SanghaPostgres.PostgresDatabase
        let feed: PostgresChangeFeed
        let data: PostgresPersonalData
        var people: PostgresPeopleStore { data.people }
    }

    /// An instance; `maximumAge` long (a minute) so a change seen in a test can only have come by
    /// its notice.
    func instance(_ storage: PostgresStorage, listening: Bool = true, maximumAge: Duration = .seconds(60))
        async throws -> Instance
    {
        let database = PostgresDatabase(configuration: storage.configuration, logger: TestPostgres.logger)
        await storage.clients.run(database.client)
        try await database.migrate()
        let feed = PostgresChangeFeed(database: database, logger: TestPostgres.logger)
        if listening {
            await storage.clients.run { try? await feed.run() }
            #expect(try await eventually(within: .seconds(10)) { feed.isListening })
        }
        return Instance(
            database: database, feed: feed,
            data: PostgresPersonalData(database: database, feed: feed, maximumAge: maximumAge))
    }

    /// Runs `act`, then waits until `instance` has heard `change` (its own notice of what `act`
    /// did), so that what it keeps next is kept until the next notice; whether it did in 10 s.
    func hears(
        _ change: PostgresChangeFeed.Change, on instance: Instance, after act: () async throws -> Void
    ) async throws -> Bool {
        let heard = Mutex<[PostgresChangeFeed.Change]>([])
        instance.feed.subscribe { change in if let change { heard.withLock { $0.append(change) } } }
        try await act()
        return try await eventually(within: .seconds(10)) { heard.withLock { $0 }.contains(change) }
    }

    /// A change no instance announces, straight in the database.
    func rename(_ id: Int, to name: String, in database: SanghaPostgres.PostgresDatabase) async throws {
        try await database.client.query(
            "UPDATE profile SET name = \(name) WHERE id = \(id)", logger: TestPostgres.logger)
    }

    @Test(
        "A profile read is kept: a change announced elsewhere is seen as its notice arrives, not before"
    )
    func profiles() async throws {
        try await Backend.postgres.withStorage { storage in
            guard let storage = storage as? PostgresStorage else { return }
            let (a, b) = (try await instance(storage), try await instance(storage))
            let ada = try await a.people.create(Stores.person("ada"), passwordHash: "-")
            let created = try await a.data.profiles(of: ada.id).create(.new(named: "Morning"))
            #expect(try await a.data.profiles(of: ada.id).get(id: created.id)?.name == "Morning")

            try await rename(created.id, to: "Unannounced", in: b.database)
            #expect(try await a.data.profiles(of: ada.id).get(id: created.id)?.name == "Morning", "kept")

            var renamed = try #require(try await b.data.profiles(of: ada.id).get(id: created.id))
            renamed.name = "Announced"
            _ = try await b.data.profiles(of: ada.id).update(renamed)
            // Kept for a minute otherwise: the notice did it.
            #expect(
                try await eventually(within: .seconds(10)) {
                    try await a.data.profiles(of: ada.id).get(id: created.id)?.name == "Announced"
                })
            #expect(try await b.data.profiles(of: ada.id).delete(id: created.id))
            #expect(
                try await eventually(within: .seconds(10)) {
                    try await a.data.profiles(of: ada.id).get(id: created.id) == nil
                })
            // Another person never gets a profile kept for its owner.
            let grace = try await a.people.create(Stores.person("grace"), passwordHash: "-")
            let hers = try await a.data.profiles(of: grace.id).create(.new(named: "Hers"))
            #expect(try await a.data.profiles(of: grace.id).get(id: hers.id) != nil)
            #expect(try await a.data.profiles(of: ada.id).get(id: hers.id) == nil)
        }
    }

    @Test(
        "A page of a person's profiles is kept: a create, save or delete on another instance is seen as its notice arrives"
    )
    func profileLists() async throws {
        try await Backend.postgres.withStorage { storage in
            guard let storage = storage as? PostgresStorage else { return }
            let (a, b) = (try await instance(storage), try await instance(storage))
            let ada = try await a.people.create(Stores.person("ada"), passwordHash: "-")
            let grace = try await a.people.create(Stores.person("grace"), passwordHash: "-")
            func names(_ person: Int) async throws -> [String] {
                try await a.data.profiles(of: person).list(limit: 10, offset: 0).profiles.map(\.name)
            }
            var created: Profile?
            // Its own creates' notices heard, so that what is kept next is kept until the next one.
            let heardOwn = try await hears(.profileList(owner: grace.id), on: a) {
                created = try await a.data.profiles(of: ada.id).create(.new(named: "Morning"))
                #expect(try await names(ada.id) == ["Morning"], "this instance's own create is seen at once")
                _ = try await a.data.profiles(of: grace.id).create(.new(named: "Hers"))
            }
            #expect(heardOwn)
            let morning = try #require(created)
            #expect(try await names(ada.id) == ["Morning"])
            #expect(try await names(grace.id) == ["Hers"])

            try await rename(morning.id, to: "Unannounced", in: b.database)
            #expect(try await names(ada.id) == ["Morning"], "kept")

            _ = try await b.data.profiles(of: ada.id).create(.new(named: "Evening"))
            #expect(
                try await eventually(within: .seconds(10)) { try await names(ada.id) == ["Evening", "Unannounced"] })
            var renamed = try #require(try await b.data.profiles(of: ada.id).get(id: morning.id))
            renamed.name = "Dawn"
            _ = try await b.data.profiles(of: ada.id).update(renamed)
            #expect(try await eventually(within: .seconds(10)) { try await names(ada.id) == ["Dawn", "Evening"] })
            #expect(try await b.data.profiles(of: ada.id).delete(id: morning.id))
            #expect(try await eventually(within: .seconds(10)) { try await names(ada.id) == ["Evening"] })
            #expect(try await names(grace.id) == ["Hers"], "another person's page is theirs alone")
        }
    }

    @Test(
        "A person's practice is kept: a sit recorded, edited, imported or deleted, a profile deleted, or new settings on another instance are seen as its notice arrives"
    )
    func practice() async throws {
        try await Backend.postgres.withStorage { storage in
            guard let storage = storage as? PostgresStorage else { return }
            let (a, b) = (try await instance(storage), try await instance(storage))
            var ada = try await a.people.create(Stores.person("ada"), passwordHash: "-")
            let start = Date(timeIntervalSince1970: 1_794_981_600)
            let today = ada.dayClock.day(of: start)
            func seen() async throws -> Practice {
                try await a.data.sessions(of: ada.id).practice(today: today, recent: 5, offset: 0)
            }
            func sit(_ hoursBefore: Double, seconds: Int = 600) -> SittingSession {
                SittingSession(
                    profileID: nil, profileName: "Sit", startedAt: start.addingTimeInterval(-3600 * hoursBefore),
                    seconds: seconds, completed: true)
            }
            #expect(try await seen().totals == .zero)
            // A sit no instance announces, straight in the database: the kept practice stands.
            try await b.database.client.query(
                """
                INSERT INTO sitting_session (profile_name, started_at, seconds, completed, owner_id)
                VALUES ('Unannounced', \(start), 60, true, \(ada.id))
                """, logger: TestPostgres.logger)
            #expect(try await seen().totals == .zero, "kept")
            let first = try await b.data.sessions(of: ada.id).record(sit(0), clientID: nil)
            #expect(try await eventually(within: .seconds(10)) { try await seen().totals.sessions == 2 })
            var edited = first
            edited.seconds = 1200
            #expect(try await b.data.sessions(of: ada.id).update(edited))
            #expect(try await eventually(within: .seconds(10)) { try await seen().todays.seconds == 1260 })
            _ = try await b.data.sessions(of: ada.id).importSessions([sit(24)], commit: true)
            #expect(try await eventually(within: .seconds(10)) { try await seen().streak == 2 })
            #expect(try await b.data.sessions(of: ada.id).delete(id: first.id))
            #expect(try await eventually(within: .seconds(10)) { try await seen().totals.sessions == 2 })
            let profile = try await b.data.profiles(of: ada.id).create(.new(named: "Morning"))
            _ = try await b.data.sessions(of: ada.id).record(
                SittingSession(
                    profileID: profile.id, profileName: "Morning", startedAt: start, seconds: 60, completed: true),
                clientID: nil)
            #expect(
                try await eventually(within: .seconds(10)) { try await seen().recent.first?.profileID == profile.id })
            #expect(try await b.data.profiles(of: ada.id).delete(id: profile.id))
            #expect(try await eventually(within: .seconds(10)) { try await seen().recent.first?.profileID == nil })
            // Honolulu (10 hours behind): the sits of 06:00 UTC fall on the day before.
            ada.timeZone = TimeZone(identifier: "Pacific/Honolulu")!
            try await b.people.update(ada)
            #expect(try await eventually(within: .seconds(10)) { try await seen().todays.sessions == 0 })
        }
    }

    @Test(
        "A group's page is kept: a link, a member, a sit, who sits, a member's practice or name changed on another instance is seen as its notice arrives"
    )
    func groupPage() async throws {
        try await Backend.postgres.withStorage { storage in
            guard let storage = storage as? PostgresStorage else { return }
            let (a, b) = (try await instance(storage), try await instance(storage))
            let ada = try await a.people.create(Stores.person("ada"), passwordHash: "-")
            var grace = try await a.people.create(Stores.person("grace"), passwordHash: "-")
            let now = Date(timeIntervalSince1970: 1_795_000_000)
            let week = DateInterval(start: now - 3600, end: now + 86_400)
            var made: SittingGroup?
            #expect(
                try await hears(.groupsOf(person: ada.id), on: a) {
                    made = try await a.data.groups(of: ada.id).create(name: "Zen", at: now)
                })
            let zen = try #require(made)
            func seen() async throws -> GroupPage? {
                try await a.data.groups(of: ada.id).page(zen.id, week: week, at: now + 10)
            }
            func eventually(_ condition: (GroupPage) -> Bool) async throws -> Bool {
                try await SanghaTestSupport.eventually(within: .seconds(10)) {
                    try await seen().map(condition) ?? false
                }
            }
            #expect(try await seen()?.detail.members.count == 1)
            // A change straight in the database, announced by no instance: the page kept stands.
            try await b.database.client.query(
                "UPDATE sitting_group SET name = 'Unannounced' WHERE id = \(zen.id)", logger: TestPostgres.logger)
            #expect(try await seen()?.detail.group.name == "Zen", "kept")

            try await b.data.groups(of: ada.id).addInvitation(to: zen.id, key: "link", at: now, expiresAt: now + 3600)
            #expect(try await eventually { $0.detail.invitations.count == 1 })
            #expect(try await a.data.groups(of: grace.id).list().isEmpty)
            // Ada's list kept on `a` before Grace joins: what follows must forget it there.
            #expect(try await a.data.groups(of: ada.id).list().map(\.members) == [1])
            _ = try await b.data.groups(of: grace.id).join(key: "link", at: now)
            #expect(try await eventually { $0.detail.members.map(\.person) == [ada.id, grace.id] })
            #expect(
                try await SanghaTestSupport.eventually(within: .seconds(10)) {
                    try await a.data.groups(of: grace.id).list().map(\.members) == [2]
                }, "the list of the one who joined, kept on another instance")
            #expect(try await a.data.groups(of: ada.id).list().map(\.members) == [2])
            _ = try await b.data.groups(of: grace.id).create(name: "Tea", at: now)
            #expect(
                try await SanghaTestSupport.eventually(within: .seconds(10)) {
                    try await a.data.groups(of: grace.id).list().count == 2
                }, "a group made on another instance")
            _ = try await b.data.sessions(of: grace.id).record(
                SittingSession(profileID: nil, profileName: "X", startedAt: now, seconds: 300, completed: true),
                clientID: nil)
            #expect(try await eventually { $0.practice.last?.totals == SittingTotals(sessions: 1, seconds: 300) })
            _ = try await b.data.groups(of: grace.id).startSitting(
                profileName: "X", sit: nil, at: now, until: now + 600)
            #expect(try await eventually { $0.sitting.map(\.person) == [grace.id] })
            grace.name = "Grace Hopper"
            try await b.people.update(grace)
            #expect(try await eventually { $0.detail.members.last?.name == "Grace Hopper" })
            let sit = try await b.data.groups(of: ada.id).scheduleSit(
                GroupSit(group: zen.id, profile: .new(named: "Evening"), startsAt: now + 60, weekly: true), at: now)
            #expect(try await eventually { $0.sits.count == 1 })
            // A sit's page, kept alike.
            func sitPage() async throws -> GroupSitPage? {
                try await a.data.groups(of: grace.id).sitPage(sit.id, of: zen.id, at: now + 10)
            }
            #expect(try await sitPage()?.sit.cancelled == false)
            try await b.data.groups(of: ada.id).cancelSit(sit.id, of: zen.id, at: now)
            #expect(
                try await SanghaTestSupport.eventually(within: .seconds(10)) {
                    try await sitPage()?.sit.cancelled == true
                })
        }
    }

    @Test("Whatever the notices, nothing kept is used past its maximum age, counted from its read")
    func maximumAge() async throws {
        try await Backend.postgres.withStorage { storage in
            guard let storage = storage as? PostgresStorage else { return }
            let a = try await instance(storage, maximumAge: .milliseconds(300))
            let ada = try await a.people.create(Stores.person("ada"), passwordHash: "-")
            let created = try await a.data.profiles(of: ada.id).create(.new(named: "Morning"))
            #expect(try await a.data.profiles(of: ada.id).get(id: created.id)?.name == "Morning")
            try await rename(created.id, to: "Unannounced", in: a.database)
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await a.data.profiles(of: ada.id).get(id: created.id)?.name == "Unannounced")
        }
    }

    @Test("A session ended, or a person changed, on one instance is not honoured by another once it hears")
    func sessions() async throws {
        try await Backend.postgres.withStorage { storage in
            guard let storage = storage as? PostgresStorage else { return }
            let (a, b) = (try await instance(storage), try await instance(storage))
            let now = Date()
            let ada = try await a.people.create(Stores.person("ada"), passwordHash: "-")
            try await a.people.startSession(key: "key-a", of: ada.id, at: now)
            try await a.people.startSession(key: "key-b", of: ada.id, at: now)
            #expect(try await a.people.person(session: "key-a", at: now)?.id == ada.id)
            #expect(try await a.people.person(session: "key-b", at: now)?.id == ada.id)

            try await b.people.endSession(key: "key-a")
            #expect(
                try await eventually(within: .seconds(10)) {
                    try await a.people.person(session: "key-a", at: now) == nil
                })
            #expect(try await a.people.person(session: "key-b", at: now)?.id == ada.id)

            var renamed = ada
            renamed.name = "Ada Byron"
            try await b.people.update(renamed)
            #expect(
                try await eventually(within: .seconds(10)) {
                    try await a.people.person(session: "key-b", at: now)?.name == "Ada Byron"
                })
            // A new password on one instance ends the sessions the other kept.
            try await a.people.startSession(key: "key-c", of: ada.id, at: now)
            #expect(try await a.people.person(session: "key-c", at: now)?.id == ada.id)
            try await b.people.setPasswordHash("hash-new", of: ada.id, keepingSession: "key-b")
            #expect(
                try await eventually(within: .seconds(10)) {
                    try await a.people.person(session: "key-c", at: now) == nil
                })
            #expect(try await a.people.person(session: "key-b", at: now)?.id == ada.id)
            try await b.people.delete(id: ada.id)
            #expect(
                try await eventually(within: .seconds(10)) {
                    try await a.people.person(session: "key-b", at: now) == nil
                })
        }
    }

    @Test(
        "The person a calendar feed's key names is kept: a new name, a new key or the person disabled on another instance is seen as its notice arrives"
    )
    func calendarKeys() async throws {
        try await Backend.postgres.withStorage { storage in
            guard let storage = storage as? PostgresStorage else { return }
            let (a, b) = (try await instance(storage), try await instance(storage))
            _ = try await a.people.create(Stores.person("root"), passwordHash: "-")  // administers
            let ada = try await a.people.create(Stores.person("ada"), passwordHash: "-")
            #expect(try await hears(.person(ada.id), on: a) { try await a.people.setCalendarKey("key", of: ada.id) })
            #expect(try await a.people.person(calendarKey: "key")?.name == ada.name)
            // Renamed straight in the database, announced by no one: the kept person is served.
            try await a.database.client.query(
                "UPDATE person SET name = 'Not announced' WHERE id = \(ada.id)", logger: TestPostgres.logger)
            #expect(try await a.people.person(calendarKey: "key")?.name == ada.name, "kept")

            var renamed = ada
            renamed.name = "Ada Byron"
            try await b.people.update(renamed)
            #expect(
                try await eventually(within: .seconds(10)) {
                    try await a.people.person(calendarKey: "key")?.name == "Ada Byron"
                })
            try await b.people.setCalendarKey("new key", of: ada.id)
            #expect(
                try await eventually(within: .seconds(10)) { try await a.people.person(calendarKey: "key") == nil })
            #expect(try await a.people.person(calendarKey: "new key")?.id == ada.id)
            try await b.people.setDisabled(true, of: ada.id)
            #expect(
                try await eventually(within: .seconds(10)) {
                    try await a.people.person(calendarKey: "new key") == nil
                })
            // This instance's own change is seen at once.
            try await a.people.setDisabled(false, of: ada.id)
            #expect(try await a.people.person(calendarKey: "new key")?.id == ada.id)
            try await a.people.setCalendarKey(nil, of: ada.id)
            #expect(try await a.people.person(calendarKey: "new key") == nil)
        }
    }

    @Test(
        "/admin's page is kept: a person changed or signed out on another instance is seen as its notice arrives, this instance's writes at once"
    )
    func overviews() async throws {
        try await Backend.postgres.withStorage { storage in
            guard let storage = storage as? PostgresStorage else { return }
            let (a, b) = (try await instance(storage), try await instance(storage))
            _ = try await a.people.create(Stores.person("root"), passwordHash: "-")  // administers
            let ada = try await a.people.create(Stores.person("ada"), passwordHash: "-")
            let now = Date()
            func row(at date: Date = now) async throws -> PersonOverview? {
                try await a.people.overview(at: date, limit: 10, offset: 0).people.first { $0.person.id == ada.id }
            }
            #expect(try await row()?.sessions == 0)
            // Renamed straight in the database, announced by no one: the kept page is served.
            try await a.database.client.query(
                "UPDATE person SET name = 'Not announced' WHERE id = \(ada.id)", logger: TestPostgres.logger)
            #expect(try await row()?.person.name == ada.name, "kept")

            try await b.people.setDisabled(true, of: ada.id)
            #expect(try await eventually(within: .seconds(10)) { try await row()?.person.isDisabled == true })
            // This instance's own writes are seen at once.
            try await a.people.setDisabled(false, of: ada.id)
            #expect(try await row()?.person.isDisabled == false)
            try await a.people.startSession(key: "key-a", of: ada.id, at: now, by: .password)
            #expect(try await row()?.sessions == 1)
            try await b.people.endSession(key: "key-a")
            #expect(try await eventually(within: .seconds(10)) { try await row()?.sessions == 0 })
            // A sign-in stops counting at the end of its lifetime, with no write.
            try await a.people.startSession(key: "key-b", of: ada.id, at: now, by: .password)
            #expect(try await row()?.sessions == 1)
            #expect(try await row(at: now.addingTimeInterval(SignInSession.lifetime + 60))?.sessions == 0)
        }
    }

    @Test("An instance that is not listening keeps nothing: every read is the database's")
    func notListening() async throws {
        try await Backend.postgres.withStorage { storage in
            guard let storage = storage as? PostgresStorage else { return }
            let quiet = try await instance(storage, listening: false)
            let ada = try await quiet.people.create(Stores.person("ada"), passwordHash: "-")
            let created = try await quiet.data.profiles(of: ada.id).create(.new(named: "Morning"))
            #expect(try await quiet.data.profiles(of: ada.id).get(id: created.id)?.name == "Morning")
            try await rename(created.id, to: "Changed", in: quiet.database)
            #expect(try await quiet.data.profiles(of: ada.id).get(id: created.id)?.name == "Changed")
        }
    }

    @Test("Group events published on one instance reach every instance's subscribers, its own once")
    func groupEvents() async throws {
        try await Backend.postgres.withStorage { storage in
            guard let storage = storage as? PostgresStorage else { return }
            let (a, b) = (try await instance(storage), try await instance(storage))
            let (heardByA, heardByB) = (Heard(), Heard())
            a.data.groupEvents.subscribe { heardByA.receive($0) }
            b.data.groupEvents.subscribe { heardByB.receive($0) }

            let events: [GroupEvent] = [
                .changed(group: 7), .membershipEnded(group: 7, person: 3),
                .signedOutEverywhere(person: 3, except: "kept"), .signedOutEverywhere(person: 4, except: nil),
            ]
            await a.data.groupEvents.publish(events)
            #expect(try await eventually(within: .seconds(10)) { heardByB.events == events })
            #expect(try await eventually(within: .seconds(10)) { heardByA.events == events })

            // Notices arrive in the order they were committed, so once A hears one B sent after
            // its own, it has heard every copy of those it will: one each. Other changes (a
            // person's) are no group events.
            let ada = try await b.people.create(Stores.person("ada"), passwordHash: "-")
            try await b.people.update(ada)
            let marker = GroupEvent.signedOut(session: "key")
            await b.data.groupEvents.publish([marker])
            #expect(try await eventually(within: .seconds(10)) { heardByA.events.last == marker })
            #expect(heardByA.events == events + [marker], "the publisher's subscriber hears its events once")
            #expect(try await eventually(within: .seconds(10)) { heardByB.events == events + [marker] })
        }
    }

    @Test("Without a feed, group events still reach the instance's own subscribers, once, and the others")
    func groupEventsWithoutFeed() async throws {
        try await Backend.postgres.withStorage { storage in
            guard let storage = storage as? PostgresStorage else { return }
            let listening = try await instance(storage)
            let quiet = PostgresPersonalData(database: listening.database)
            let (heardHere, heardThere) = (Heard(), Heard())
            quiet.groupEvents.subscribe { heardHere.receive($0) }
            listening.data.groupEvents.subscribe { heardThere.receive($0) }

            await quiet.groupEvents.publish([.changed(group: 1)])
            #expect(heardHere.events == [.changed(group: 1)], "delivered here as it was sent")
            #expect(try await eventually(within: .seconds(10)) { heardThere.events == [.changed(group: 1)] })
            #expect(heardHere.events == [.changed(group: 1)])
        }
    }
}

/// What a notice says, read without a server.
@Suite("PostgreSQL: a notice's payload")
struct ChangePayloadTests {
    @Test("A notice's payload names one change; anything else is ignored")
    func payloads() {
        for change in [
            PostgresChangeFeed.Change.session("abc"), .person(7), .profile(12), .profileList(owner: 7),
            .practice(owner: 7), .group(.changed(group: 3)),
            .group(.membershipEnded(group: 3, person: 9)), .group(.signedOut(session: "abc")),
        ] {
            #expect(PostgresChangeFeed.Change(payload: change.payload) == change)
        }
        #expect(PostgresChangeFeed.Change(payload: "person seven") == nil)
        #expect(PostgresChangeFeed.Change(payload: "profile 12 7") == nil)
        #expect(PostgresChangeFeed.Change(payload: "profiles ada") == nil)
        #expect(PostgresChangeFeed.Change(payload: "practice ada") == nil)
        #expect(PostgresChangeFeed.Change(payload: "weather 7") == nil)
        #expect(PostgresChangeFeed.Change(payload: "group weather 7") == nil)
        #expect(PostgresChangeFeed.Change(payload: "group sitting") == nil)
        #expect(PostgresChangeFeed.Change(payload: "") == nil)
    }
}

/// What a group event bus's subscriber heard: the events, in order (nil, "some may have been
/// missed", left out: a feed that reconnects during a test says it).
private final class Heard: Sendable {
    private let heard = Mutex<[GroupEvent]>([])

    func receive(_ event: GroupEvent?) {
        guard let event else { return }
        heard.withLock { $0.append(event) }
    }

    var events: [GroupEvent] { heard.withLock { $0 } }
}
