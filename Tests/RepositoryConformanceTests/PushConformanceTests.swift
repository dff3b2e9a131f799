import Foundation
import SanghaCore
import SanghaPostgres
import SanghaStore
import Testing

/// Notifications' storage on every backend: one VAPID key for every instance, a person's
/// devices (ten at most, gone with a sign-out there and with the account), their choices, who
/// gets which message, and each message claimed once per device whatever the instances.
@Suite("Push conformance")
struct PushConformanceTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    static func device(_ person: Int, _ name: String, at date: Date = now, session: String? = nil) -> PushDevice {
        PushDevice(
            person: person, endpoint: "https://fcm.googleapis.com/fcm/send/\(name)",
            p256dh: Array(repeating: 4, count: 65),
            auth: Array(repeating: 7, count: 16), name: "Firefox on Linux", createdAt: date, session: session)
    }

    @Test("The VAPID key made first is every instance's", arguments: Backend.available)
    func vapidKey(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let first = try await storage.open().push
            let one = Array(repeating: UInt8(1), count: 32)
            #expect(try await first.vapidKey(keeping: one) == one)
            #expect(try await storage.open().push.vapidKey(keeping: Array(repeating: 2, count: 32)) == one)
        }
    }

    @Test(
        "A person's devices: newest first, one per endpoint, ten at most, removed by them, by signing out there and with the account",
        arguments: Backend.available)
    func devices(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let (ada, push) = (stores.person, stores.push)
            let grace = try await stores.people.create(Stores.person("grace"), passwordHash: "x")
            var added: [PushDevice] = []
            for index in 0..<PushDevice.limitPerPerson {
                added.append(
                    try await push.add(
                        Self.device(ada.id, "d\(index)", at: Self.now + Double(index), session: "s\(index % 2)"),
                        limit: PushDevice.limitPerPerson))
            }
            #expect(Set(added.map(\.id)).count == 10)
            let listed = try await push.devices(of: ada.id)
            #expect(listed == added.reversed())
            #expect(
                listed[0].p256dh == Array(repeating: 4, count: 65) && listed[0].auth == Array(repeating: 7, count: 16))
            #expect(listed[0].session == "s1" && listed[0].createdAt == Self.now + 9)

            // The eleventh: the oldest goes.
            let eleventh = try await push.add(
                Self.device(ada.id, "d10", at: Self.now + 10), limit: PushDevice.limitPerPerson)
            let after = try await push.devices(of: ada.id)
            #expect(after.count == 10 && after.first == eleventh && !after.contains(added[0]))

            // The same browser subscribed again (here by Grace, signed in on it now) is one device.
            let moved = try await push.add(Self.device(grace.id, "d5", at: Self.now + 20), limit: 10)
            #expect(try await push.devices(of: grace.id) == [moved])
            #expect(try await push.devices(of: ada.id).count == 9)

            // Removing: only one's own.
            #expect(try await push.remove(device: eleventh.id, of: grace.id) == false)
            #expect(try await push.remove(device: eleventh.id, of: ada.id))
            #expect(try await push.remove(device: eleventh.id, of: ada.id) == false)

            // Signing out removes the devices added under that session, and the one named.
            try await push.signedOut(session: "s1", endpoint: added[2].endpoint, of: ada.id)
            #expect(try await push.devices(of: ada.id).map(\.id) == [8, 6, 4].map { added[$0].id })
            try await push.signedOut(session: "s0", endpoint: nil, of: grace.id)
            #expect(try await push.devices(of: ada.id).count == 3)

            // The push service's "gone", and the account's end.
            try await push.delete(device: added[8].id)
            #expect(try await push.devices(of: ada.id).map(\.id) == [added[6].id, added[4].id])
            try await stores.people.delete(id: grace.id)
            #expect(try await push.devices(of: grace.id).isEmpty)
            #expect(try await push.devices(of: ada.id).count == 2)
        }
    }

    @Test("Choices: sits and the reminder on, someone sitting off, until chosen", arguments: Backend.available)
    func choices(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            #expect(
                try await stores.push.choices(of: stores.person.id)
                    == PushChoices(sits: true, reminder: true, sitting: false))
            let chosen = PushChoices(sits: false, reminder: true, sitting: true)
            try await stores.push.setChoices(chosen, of: stores.person.id)
            #expect(try await storage.open().push.choices(of: stores.person.id) == chosen)
            try await stores.push.setChoices(.standard, of: stores.person.id)
            #expect(try await stores.push.choices(of: stores.person.id) == .standard)
        }
    }

    @Test(
        "A message is claimed once per device, by one of two instances claiming at once", arguments: Backend.available)
    func claims(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let other = try await storage.open().push
            let devices = try await (0..<3).asyncMap {
                try await stores.push.add(Self.device(stores.person.id, "c\($0)"), limit: 10).id
            }
            for round in 0..<5 {
                let key = "sit-1-\(round)"
                async let one = stores.push.claim(key, devices: devices, at: Self.now)
                async let two = other.claim(key, devices: devices.reversed(), at: Self.now)
                let (first, second) = try await (one, two)
                #expect((first + second).sorted() == devices.sorted())
                #expect(Set(first).isDisjoint(with: second))
                #expect(try await stores.push.claim(key, devices: devices, at: Self.now).isEmpty)
            }
            #expect(try await stores.push.claim("gone", devices: [999_999], at: Self.now).isEmpty)
            try await stores.push.forgetClaims(before: Self.now + 1)
            #expect(try await other.claim("sit-1-0", devices: devices, at: Self.now).sorted() == devices.sorted())
        }
    }

    @Test(
        "Who hears of a group's sits, whose reminder may be due, who began to sit and who is told",
        arguments: Backend.available)
    func recipients(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let (ada, push, now) = (stores.person, stores.push, Self.now)
            let groups = stores.data.groups(of: ada.id)
            let zen = try await groups.create(name: "Zen", at: now)
            let tea = try await groups.create(name: "Tea", at: now)
            try await groups.addInvitation(to: zen.id, key: "zen", at: now, expiresAt: now + 86_400)
            try await groups.addInvitation(to: tea.id, key: "tea", at: now, expiresAt: now + 86_400)
            var people: [Person] = []
            for name in ["bob", "carol", "dave"] {
                var person = try await stores.people.create(Stores.person(name), passwordHash: "x")
                person.timeZone = TimeZone(identifier: "Europe/Berlin")!
                person.reminderMinutes = 7 * 60 + 30
                // Each hears in their language: Bob Polish, Carol German, Dave none chosen.
                person.language = ["bob": Language.pl, "carol": .de][name]
                try await stores.people.update(person)
                _ = try await stores.data.groups(of: person.id).join(key: "zen", at: now)
                _ = try await stores.data.groups(of: person.id).join(key: "tea", at: now)
                people.append(person)
            }
            let (bob, carol, dave) = (people[0], people[1], people[2])
            let bobs = try await push.add(Self.device(bob.id, "bob"), limit: 10)
            let carols = try await push.add(Self.device(carol.id, "carol"), limit: 10)
            let carols2 = try await push.add(Self.device(carol.id, "carol2"), limit: 10)
            _ = try await push.add(Self.device(ada.id, "ada"), limit: 10)
            // Dave has no device: no message to anyone of his.
            try await push.setChoices(PushChoices(sits: false, reminder: true, sitting: true), of: bob.id)
            try await push.setChoices(PushChoices(sits: true, reminder: false, sitting: true), of: carol.id)

            let weekly = try await groups.scheduleSit(
                GroupSit(group: zen.id, profile: .new(named: "Zazen"), startsAt: now - 30 * 86_400, weekly: true),
                at: now - 30 * 86_400)
            let soon = try await groups.scheduleSit(
                GroupSit(group: tea.id, profile: .new(named: "Matcha"), startsAt: now + 300, weekly: false), at: now)
            let later = try await groups.scheduleSit(
                GroupSit(group: tea.id, profile: .new(named: "Late"), startsAt: now + 7200, weekly: false), at: now)
            let cancelled = try await groups.scheduleSit(
                GroupSit(group: tea.id, profile: .new(named: "Off"), startsAt: now + 400, weekly: false), at: now)
            try await groups.cancelSit(cancelled.id, of: tea.id, at: now)
            let sits = try await push.sits(beginningFrom: now - 60, to: now + 660)
            #expect(sits.map(\.sit.id) == [weekly.id, soon.id])
            #expect(sits.map(\.groupName) == ["Zen", "Tea"])
            #expect(sits[1].sit.profile.name == "Matcha" && sits[1].sit.startsAt == now + 300)
            #expect(!sits.map(\.sit.id).contains(later.id))

            // Bob turned sits off; Carol with both her devices; Ada (on by default).
            let told = try await push.sitRecipients(of: zen.id)
            #expect(told.map(\.person) == [ada.id, carol.id])
            #expect(told[1].devices.map(\.id) == [carols.id, carols2.id])
            #expect(told[1].timeZone == TimeZone(identifier: "Europe/Berlin"))
            #expect(told.map(\.language) == [nil, .de])

            // Only Bob has a reminder he wants and a device; he sat yesterday (his day).
            _ = try await stores.data.sessions(of: bob.id).record(
                SittingSession(profileID: nil, profileName: "X", startedAt: now - 86_400, seconds: 600, completed: true)
            )
            let reminders = try await push.reminderRecipients()
            #expect(reminders.map(\.recipient.person) == [bob.id])
            #expect(reminders[0].minutes == 450 && reminders[0].dayStartHour == 0)
            #expect(reminders[0].recipient.devices == [bobs])
            #expect(reminders[0].recipient.language == .pl)
            #expect(reminders[0].lastDaySat == bob.dayClock.day(of: now - 86_400).number)

            // Dave sits in Tea's sit, Bob alone (hidden), Ada alone.
            var hidden = bob
            hidden.showsWhenSitting = false
            try await stores.people.update(hidden)
            _ = try await stores.data.groups(of: dave.id).startSitting(
                profileName: "Matcha", sit: soon.id, at: now + 300, until: now + 900)
            _ = try await stores.data.groups(of: bob.id).startSitting(profileName: "B", at: now + 301, until: now + 900)
            _ = try await groups.startSitting(profileName: "A", at: now + 302, until: now + 900)
            let starts = try await push.sittingStarts(since: now + 290, at: now + 310)
            #expect(starts.map(\.person) == [dave.id, ada.id])
            #expect(starts[0] == SittingStart(person: dave.id, name: "Dave", since: now + 300, sitGroup: tea.id))
            #expect(try await push.sittingStarts(since: now + 301, at: now + 310).map(\.person) == [ada.id])
            #expect(try await push.sittingStarts(since: now, at: now + 901).isEmpty)

            // Of Dave: Carol (who chose it, not sitting), told of Tea, the sit's group; not Bob
            // (sitting), nor Ada (did not choose it), nor Dave.
            let ofDave = try await push.sittingRecipients(of: starts[0], at: now + 310)
            #expect(ofDave.map(\.recipient.person) == [carol.id])
            #expect(ofDave[0].group == tea.id && ofDave[0].groupName == "Tea")
            #expect(ofDave[0].recipient.devices.count == 2)
            #expect(ofDave[0].recipient.language == .de)
            // Of Ada, alone: Carol, told of the first group they share.
            let ofAda = try await push.sittingRecipients(of: starts[1], at: now + 310)
            #expect(ofAda.map(\.recipient.person) == [carol.id] && ofAda[0].group == min(zen.id, tea.id))
            // Once Bob's sit is over, he is told too.
            #expect(
                try await push.sittingRecipients(of: starts[1], at: now + 901).map(\.recipient.person) == [
                    bob.id, carol.id,
                ])
        }
    }
}

extension Stores {
    var push: any PushRepository {
        if let sqlite = data as? SQLitePersonalData { return sqlite.push }
        return (data as! PostgresPersonalData).push
    }
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var values: [T] = []
        for element in self { values.append(try await transform(element)) }
        return values
    }
}
