import Crypto
import Foundation
import GRDB
import Logging
import PostgresNIO
import SanghaCore
import SanghaPostgres
import SanghaPush
import SanghaStore
import SanghaTestSupport
import SanghaWeb
import Synchronization
import Testing

/// The scheduler on both stores, asked at instants the test chooses (its clock): a group sit ten
/// minutes before (a weekly one each week across its host's summer-time change, one scheduled
/// less than ten minutes ahead at once, a moved one at its new time, a cancelled one never), the
/// daily reminder (on both summer-time days, skipped once sat), "NAME is sitting"; and two
/// instances on one PostgreSQL sending one push per device.
@Suite("Push scheduler")
struct PushSchedulerTests {
    static let logger = Logger(label: "push-scheduler-test", factory: { _ in SwiftLogNoOpLogHandler() })
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    final class Sent: Sendable {
        let messages = Mutex<[PushMessage]>([])
        func take() -> [PushMessage] {
            messages.withLock { messages in
                defer { messages = [] }
                return messages
            }
        }
    }

    struct Payload: Decodable, Equatable {
        let title: String
        let body: String
        let url: String
        let tag: String
    }

    static func payload(_ message: PushMessage) throws -> Payload {
        try JSONDecoder().decode(Payload.self, from: Data(message.payload))
    }

    static func scheduler(_ stores: Stores, _ sent: Sent) -> PushScheduler {
        PushScheduler(
            repository: stores.push, send: { messages in sent.messages.withLock { $0 += messages } },
            logger: logger)
    }

    /// A person with a zone, in `group` (joined by its link "link").
    static func member(
        _ stores: Stores, _ name: String, zone: TimeZone = berlin, reminder: Int? = nil, at date: Date
    ) async throws -> Person {
        var person = try await stores.people.create(Stores.person(name), passwordHash: "x")
        person.timeZone = zone
        person.reminderMinutes = reminder
        try await stores.people.update(person)
        _ = try await stores.data.groups(of: person.id).join(key: "link", at: date)
        return person
    }

    static func device(_ stores: Stores, _ person: Person, _ name: String, endpoint: String? = nil) async throws
        -> PushDevice
    {
        try await stores.push.add(
            PushDevice(
                person: person.id, endpoint: endpoint ?? "https://fcm.googleapis.com/fcm/send/\(name)",
                p256dh: [UInt8](P256.KeyAgreement.PrivateKey().publicKey.x963Representation),
                auth: Array(repeating: 3, count: 16), name: "Firefox on Linux",
                createdAt: Date(timeIntervalSince1970: 0)),
            limit: 10)
    }

    static func zen(_ stores: Stores, at date: Date) async throws -> SittingGroup {
        var ada = stores.person
        ada.timeZone = TimeZone(identifier: "America/New_York")!
        try await stores.people.update(ada)
        let groups = stores.data.groups(of: ada.id)
        let zen = try await groups.create(name: "Zen", at: date)
        try await groups.addInvitation(to: zen.id, key: "link", at: date, expiresAt: date + 30 * 86_400)
        return zen
    }

    @Test(
        "A group sit is told ten minutes before, once, to each device of the members who want it, in each one's zone",
        arguments: Backend.available)
    func sit(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let now = Date(timeIntervalSince1970: 1_795_000_000)
            let zen = try await Self.zen(stores, at: now)
            let bob = try await Self.member(stores, "bob", at: now)
            let carol = try await Self.member(stores, "carol", at: now)
            let adas = try await Self.device(stores, stores.person, "ada")
            let bobs = [try await Self.device(stores, bob, "bob1"), try await Self.device(stores, bob, "bob2")]
            _ = try await Self.device(stores, carol, "carol")
            try await stores.push.setChoices(PushChoices(sits: false), of: carol.id)
            let start = now + 3600
            let sit = try await stores.data.groups(of: stores.person.id).scheduleSit(
                GroupSit(
                    group: zen.id, profile: .new(named: "Zazen"), startsAt: start, weekly: false,
                    timeZone: TimeZone(identifier: "America/New_York")!), at: now)
            let sent = Sent()
            let scheduler = Self.scheduler(stores, sent)

            #expect(await scheduler.tick(at: start - 601) == 0)
            #expect(await scheduler.tick(at: start - 600) == 3)
            let messages = sent.take().sorted { $0.subscription < $1.subscription }
            #expect(messages.map(\.subscription) == [adas.id] + bobs.map(\.id))
            #expect(messages.allSatisfy { $0.urgency == .high && $0.topic == "sit-\(sit.id)" && $0.expires == start })
            #expect(messages.allSatisfy { $0.ttl(at: start - 600) == 600 })
            #expect(messages[1].endpoint.absoluteString == "https://fcm.googleapis.com/fcm/send/bob1")
            let newYork = try Self.payload(messages[0])
            let time = { (zone: TimeZone) in
                let calendar = Calendar.gregorian(in: zone)
                let parts = calendar.dateComponents([.hour, .minute], from: start)
                return String(format: "%02d:%02d", parts.hour!, parts.minute!)
            }
            #expect(
                newYork
                    == Payload(
                        title: "Zazen begins at \(time(TimeZone(identifier: "America/New_York")!))", body: "Zen",
                        url: "/groups/\(zen.id)/sits/\(sit.id)", tag: "sit-\(sit.id)"))
            #expect(try Self.payload(messages[1]).title == "Zazen begins at \(time(Self.berlin))")

            // Once: this instance again, another on the same storage, and after it began.
            #expect(await scheduler.tick(at: start - 595) == 0)
            #expect(await Self.scheduler(try await storage.open(), sent).tick(at: start - 590) == 0)
            #expect(await scheduler.tick(at: start + 1) == 0)
            #expect(sent.take().isEmpty)
        }
    }

    @Test(
        "A sit less than ten minutes ahead is told at once, a moved one at its new time, a cancelled one never",
        arguments: Backend.available)
    func soonMovedCancelled(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let now = Date(timeIntervalSince1970: 1_795_000_000)
            let zen = try await Self.zen(stores, at: now)
            _ = try await Self.device(stores, stores.person, "ada")
            let groups = stores.data.groups(of: stores.person.id)
            let sent = Sent()
            let scheduler = Self.scheduler(stores, sent)

            let soon = try await groups.scheduleSit(
                GroupSit(group: zen.id, profile: .new(named: "Soon"), startsAt: now + 240, weekly: false), at: now)
            #expect(await scheduler.tick(at: now + 1) == 1)
            #expect(try Self.payload(sent.take()[0]).tag == "sit-\(soon.id)")

            let off = try await groups.scheduleSit(
                GroupSit(group: zen.id, profile: .new(named: "Off"), startsAt: now + 1200, weekly: false), at: now)
            try await groups.cancelSit(off.id, of: zen.id, at: now + 2)
            for second in stride(from: 500.0, through: 1300, by: 100) {
                #expect(await scheduler.tick(at: now + second) == 0)
            }

            let moved = try await groups.scheduleSit(
                GroupSit(group: zen.id, profile: .new(named: "Moved"), startsAt: now + 3600, weekly: false), at: now)
            #expect(await scheduler.tick(at: now + 3000) == 1)
            _ = sent.take()
            try await Self.move(moved.id, to: now + 7200, in: stores)
            #expect(await scheduler.tick(at: now + 3100) == 0)
            #expect(await scheduler.tick(at: now + 6599) == 0)
            #expect(await scheduler.tick(at: now + 6600) == 1)
            #expect(sent.take()[0].expires == now + 7200)
        }
    }

    @Test(
        "A weekly sit is told each week at its time in its host's zone, across the change to summer time",
        arguments: Backend.available)
    func weekly(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            // Sunday 22 March 2026, 07:00 in Berlin (06:00 UTC); a week later Berlin is on
            // summer time, and 07:00 is 05:00 UTC.
            let first = Date(timeIntervalSince1970: 1_774_159_200)
            let zen = try await Self.zen(stores, at: first - 86_400)
            let bob = try await Self.member(stores, "bob", at: first - 86_400)
            _ = try await Self.device(stores, bob, "bob")
            let sit = try await stores.data.groups(of: stores.person.id).scheduleSit(
                GroupSit(
                    group: zen.id, profile: .new(named: "Zazen"), startsAt: first, weekly: true,
                    timeZone: Self.berlin), at: first - 86_400)
            let sent = Sent()
            let scheduler = Self.scheduler(stores, sent)
            #expect(await scheduler.tick(at: first - 600) == 1)
            #expect(try Self.payload(sent.take()[0]).title == "Zazen begins at 07:00")
            let second = first + 7 * 86_400 - 3600
            #expect(await scheduler.tick(at: second - 601) == 0)
            #expect(await scheduler.tick(at: second - 600) == 1)
            let message = sent.take()[0]
            #expect(try Self.payload(message).title == "Zazen begins at 07:00")
            #expect(message.expires == second)
            // The hour the naive week (seven times 24 hours) would have said: nothing more.
            #expect(await scheduler.tick(at: first + 7 * 86_400 - 600) == 0)
            #expect(sit.weekly)
        }
    }

    @Test(
        "The daily reminder at its time in the person's zone, on both summer-time days, never twice, skipped once sat",
        arguments: Backend.available)
    func reminder(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let before = Date(timeIntervalSince1970: 1_774_000_000)
            _ = try await Self.zen(stores, at: before)
            // 02:30 in Berlin: on 29 March 2026 the clock jumps from 02:00 to 03:00; on 25
            // October it shows 02:00–03:00 twice.
            let bob = try await Self.member(stores, "bob", reminder: 150, at: before)
            let carol = try await Self.member(stores, "carol", reminder: 450, at: before)
            _ = try await Self.device(stores, bob, "bob")
            _ = try await Self.device(stores, carol, "carol")
            let sent = Sent()
            let scheduler = Self.scheduler(stores, sent)

            // Spring: 02:30 does not happen; it comes at 03:30 summer time (01:30 UTC).
            let spring = Date(timeIntervalSince1970: 1_774_747_800)  // 2026-03-29 01:30 UTC
            #expect(await scheduler.tick(at: spring - 60) == 0)
            #expect(await scheduler.tick(at: spring) == 1)
            let message = sent.take()[0]
            #expect(
                try Self.payload(message)
                    == Payload(
                        title: "Time to sit", body: "Your daily reminder from Sangha.", url: "/", tag: "reminder"))
            #expect(message.urgency == .normal && message.topic == "reminder")

            // Autumn: 02:30 summer time (00:30 UTC), and not again at 02:30 winter time an hour later.
            let autumn = Date(timeIntervalSince1970: 1_792_888_200)  // 2026-10-25 00:30 UTC
            #expect(await scheduler.tick(at: autumn - 1) == 0)
            #expect(await scheduler.tick(at: autumn) == 1)
            _ = sent.take()
            #expect(await scheduler.tick(at: autumn + 3600) == 0)
            #expect(await scheduler.tick(at: autumn + 3660) == 0)

            // Carol, at 07:30 on 26 October (06:30 UTC): sat at 06:00 that morning, so skipped;
            // the next day, not sat yet, reminded.
            let carolsDay = Date(timeIntervalSince1970: 1_792_996_200)  // 2026-10-26 06:30 UTC
            _ = try await stores.data.sessions(of: carol.id).record(
                SittingSession(
                    profileID: nil, profileName: "Dawn", startedAt: carolsDay - 5400, seconds: 1200, completed: true))
            #expect(await scheduler.tick(at: carolsDay) == 0)
            #expect(await scheduler.tick(at: carolsDay + 86_400) == 1)
            #expect(sent.take().count == 1)
        }
    }

    @Test(
        "\"NAME is sitting\" to those who chose it, never about someone hidden, never to someone sitting",
        arguments: Backend.available)
    func sitting(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let now = Date(timeIntervalSince1970: 1_795_000_000)
            let zen = try await Self.zen(stores, at: now)
            let bob = try await Self.member(stores, "bob", at: now)
            let carol = try await Self.member(stores, "carol", at: now)
            var dave = try await Self.member(stores, "dave", at: now)
            for person in [bob, carol, dave] {
                _ = try await Self.device(stores, person, person.username)
                try await stores.push.setChoices(PushChoices(sitting: true), of: person.id)
            }
            _ = try await Self.device(stores, stores.person, "ada")
            dave.showsWhenSitting = false
            try await stores.people.update(dave)
            let sent = Sent()
            let scheduler = Self.scheduler(stores, sent)
            _ = try await stores.data.groups(of: carol.id).startSitting(profileName: "C", at: now, until: now + 900)
            // Carol is sitting: she is not told; Bob and Dave are (Ada did not choose it).
            #expect(await scheduler.tick(at: now + 5) == 2)
            let messages = sent.take().sorted { $0.subscription < $1.subscription }
            #expect(
                try messages.map(Self.payload)
                    == Array(
                        repeating: Payload(
                            title: "Carol is sitting", body: "Zen", url: "/groups/\(zen.id)", tag: "group-\(zen.id)"),
                        count: 2))
            #expect(messages.allSatisfy { $0.urgency == .low && $0.topic == "group-\(zen.id)" })
            #expect(await scheduler.tick(at: now + 10) == 0)
            // Ada begins: Bob and Dave, not Carol (sitting).
            _ = try await stores.data.groups(of: stores.person.id).startSitting(
                profileName: "A", at: now + 20, until: now + 900)
            #expect(await scheduler.tick(at: now + 25) == 2)
            #expect(try sent.take().map { try Self.payload($0).title } == ["Ada is sitting", "Ada is sitting"])
            // Dave, who hides it, begins: no one is told.
            _ = try await stores.data.groups(of: dave.id).startSitting(profileName: "D", at: now + 30, until: now + 900)
            #expect(await scheduler.tick(at: now + 35) == 0)
            // A minute on, a start is no longer news.
            _ = try await stores.data.groups(of: bob.id).startSitting(profileName: "B", at: now + 40, until: now + 900)
            #expect(await scheduler.tick(at: now + 105) == 0)
        }
    }

    @Test(
        "Two instances on one PostgreSQL, ticking at once, post exactly one push to each device",
        .enabled(if: TestPostgres.runs))
    func twoInstances() async throws {
        let service = try await StandInPushService.start()
        defer { service.stop() }
        try await Backend.postgres.withStorage { storage in
            let one = try await storage.open()
            let two = try await storage.open()
            let now = Date(timeIntervalSince1970: 1_795_000_000)
            let zen = try await Self.zen(one, at: now)
            var endpoints = [service.endpoint("ada")]
            _ = try await Self.device(one, one.person, "ada", endpoint: endpoints[0])
            for index in 0..<20 {
                let person = try await Self.member(one, "m\(index)", at: now)
                endpoints.append(service.endpoint("m\(index)"))
                _ = try await Self.device(one, person, "m\(index)", endpoint: endpoints.last)
            }
            let start = now + 3600
            _ = try await one.data.groups(of: one.person.id).scheduleSit(
                GroupSit(group: zen.id, profile: .new(named: "Zazen"), startsAt: start, weekly: false), at: now)
            let origin = try #require(PushEndpoints.origin(parsing: service.origin))
            _ = origin
            var tasks: [Task<Void, any Error>] = []
            var schedulers: [PushScheduler] = []
            let key = VAPID.makePrivateKey()
            for stores in [one, two] {
                let vapid = try #require(
                    VAPID(rawPrivateKey: try await stores.push.vapidKey(keeping: key), contact: "mailto:ops@sangha.org")
                )
                let client = PushPoster.makeClient()
                let sender = PushSender(
                    poster: PushPoster(vapid: vapid, client: client, logger: Self.logger), client: client,
                    logger: Self.logger, gone: { _ in })
                tasks.append(Task { try await sender.run() })
                schedulers.append(PushScheduler(repository: stores.push, send: sender.send, logger: Self.logger))
            }
            defer { for task in tasks { task.cancel() } }
            async let first = schedulers[0].tick(at: start - 600)
            async let second = schedulers[1].tick(at: start - 599)
            let (a, b) = await (first, second)
            #expect(a + b == 21)
            let received = await service.waitFor(21)
            try await Task.sleep(for: .milliseconds(500))
            #expect(service.received().count == 21)
            #expect(Set(received.map(\.name)) == Set(endpoints.map { String($0.split(separator: "/").last!) }))
        }
    }

    /// A host's sit moved: Sangha has no form for it (a host cancels and schedules anew), but
    /// the scheduler reads the start every time, so a sit whose start changed is told at it.
    static func move(_ sit: Int, to start: Date, in stores: Stores) async throws {
        if let sqlite = stores.data as? SQLitePersonalData {
            try await sqlite.database.write { db in
                try db.execute(
                    sql: "UPDATE groupSit SET startsAt = ?, endsAt = ? WHERE id = ?",
                    arguments: [start, start + 600, sit])
            }
        } else if let postgres = stores.data as? PostgresPersonalData {
            try await postgres.database.client.query(
                "UPDATE group_sit SET starts_at = \(start), ends_at = \(start + 600) WHERE id = \(sit)",
                logger: Self.logger)
        }
    }
}
