import Foundation
import SanghaCore
import SanghaTestSupport
import Testing

/// The people repository's contract, and each person's data kept apart, on every backend.
@Suite("People conformance")
struct PeopleConformanceTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    @Test(
        "Calendars: a link found by its key until it is reset, never a disabled person's; the reminder kept with the settings",
        arguments: Backend.available)
    func calendars(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let people = stores.people
            var grace = try await people.create(Stores.person("grace"), passwordHash: "x")
            #expect(grace.calendarKey == nil && grace.reminderMinutes == nil)
            #expect(try await people.person(calendarKey: "key-1") == nil)
            try await people.setCalendarKey("key-1", of: grace.id)
            #expect(try await people.person(calendarKey: "key-1")?.id == grace.id)
            // Another instance finds it too; a reset there ends the old key here once this instance
            // hears of it (SQLite: its next check of the file, within a second).
            let other = try await storage.open().people
            try await other.setCalendarKey("key-2", of: grace.id)
            #expect(try await eventually(within: .seconds(10)) { try await people.person(calendarKey: "key-1") == nil })
            #expect(try await people.person(calendarKey: "key-2")?.calendarKey == "key-2")
            grace.reminderMinutes = 7 * 60 + 5
            try await people.update(grace)
            let stored = try #require(try await other.credentials(id: grace.id)?.person)
            #expect(stored.reminderMinutes == 425 && stored.calendarKey == "key-2")
            try await people.setDisabled(true, of: grace.id)
            #expect(try await people.person(calendarKey: "key-2") == nil)
            await #expect(throws: PeopleRepositoryError.notFound) { try await people.setCalendarKey("k", of: 999_999) }
        }
    }

    @Test(
        "The identity provider's (issuer, subject) signs one person in, whatever their username; it is no one's twice, and goes with the person",
        arguments: Backend.available)
    func providerIdentities(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let people = try await storage.open().people
            let identity = ProviderIdentity(issuer: "https://id.example", subject: "248289761001")
            #expect(try await people.credentials(identity: identity) == nil)
            let grace = try await people.create(
                Stores.person("grace"), passwordHash: "", identity: identity, admission: .anyone, at: Self.now)
            // Another instance finds her by the pair; the same subject of another issuer is no one.
            let other = try await storage.open().people
            let found = try #require(try await other.credentials(identity: identity))
            #expect(found.person.id == grace.id && found.passwordHash.isEmpty)
            #expect(
                try await other.credentials(identity: .init(issuer: "https://other.example", subject: "248289761001"))
                    == nil)
            // A second account for the same pair is refused, and not made.
            await #expect(throws: PeopleRepositoryError.identityTaken) {
                try await people.create(
                    Stores.person("grace2"), passwordHash: "", identity: identity, admission: .anyone, at: Self.now)
            }
            #expect(try await people.credentials(username: "grace2") == nil)
            // Connected later to someone with a password: refused while it signs Grace in.
            let ada = try await people.create(Stores.person("ada2"), passwordHash: "hash")
            await #expect(throws: PeopleRepositoryError.identityTaken) {
                try await people.connect(identity, to: ada.id)
            }
            let adas = ProviderIdentity(issuer: identity.issuer, subject: "ada-sub")
            try await people.connect(adas, to: ada.id)
            #expect(try await other.credentials(identity: adas)?.person.id == ada.id)
            #expect(try await other.connectedIssuers(of: ada.id) == [identity.issuer])
            // Another subject of the same issuer replaces it; disconnecting ends both ways in.
            let again = ProviderIdentity(issuer: identity.issuer, subject: "ada-sub-2")
            try await people.connect(again, to: ada.id)
            #expect(try await other.credentials(identity: adas) == nil)
            try await people.disconnect(issuer: identity.issuer, from: ada.id)
            #expect(try await other.credentials(identity: again) == nil)
            #expect(try await other.connectedIssuers(of: ada.id) == [])
            await #expect(throws: PeopleRepositoryError.notFound) { try await people.connect(again, to: 999_999) }
            try await people.delete(id: grace.id)
            #expect(try await other.credentials(identity: identity) == nil)
        }
    }

    @Test(
        "People: the administrator's list a page at a time, by name ignoring case, with how many in all; everyone read page by page",
        arguments: Backend.available)
    func overviewPages(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let people = stores.people
            // Ada is there; seven more, their names out of order and in both cases.
            for (username, name) in [
                ("gus", "gus"), ("bea", "Bea"), ("dan", "dan"), ("cat", "Cat"), ("fay", "Fay"), ("eve", "eve"),
                ("hal", "Hal"),
            ] {
                var person = Stores.person(username)
                person.name = name
                _ = try await people.create(person, passwordHash: "x")
            }
            try await people.startSession(
                key: "dan-1", of: try #require(try await people.credentials(username: "dan")).person.id, at: Self.now)
            let names = ["Ada", "Bea", "Cat", "dan", "eve", "Fay", "gus", "Hal"]
            for (limit, offset) in [(3, 0), (3, 3), (3, 6), (3, 9), (8, 0), (50, 0), (0, 0)] {
                let page = try await people.overview(at: Self.now, limit: limit, offset: offset)
                #expect(page.count == 8, "\(limit) \(offset)")
                #expect(
                    page.people.map(\.person.name) == Array(names.dropFirst(offset).prefix(limit)), "\(limit) \(offset)"
                )
            }
            let page = try await people.overview(at: Self.now, limit: 2, offset: 2)
            #expect(page.people.map(\.sessions) == [0, 1], "open sessions counted for the page's people")
            // Every field of each person as they are stored, settings changed from a new person's.
            var eve = try #require(try await people.credentials(username: "eve")).person
            (eve.about, eve.showsWhenSitting, eve.showsStreaks, eve.dayStartHour, eve.reminderMinutes) = (
                "Sits at dawn", false, true, 5, 420
            )
            (eve.timeZone, eve.language, eve.calendarKey) = (TimeZone(identifier: "Asia/Tokyo")!, .de, "feed-key")
            try await people.update(eve)
            try await people.setCalendarKey("feed-key", of: eve.id)
            for overview in try await people.overview(at: Self.now, pageSize: 8) {
                #expect(overview.person == (try await people.credentials(id: overview.person.id))?.person)
            }
            #expect(try await people.overview(at: Self.now, pageSize: 3).map(\.person.name) == names)
            #expect(try await storage.open().people.overview(at: Self.now, pageSize: 8).map(\.person.name) == names)
        }
    }

    @Test("People: unique usernames ignoring case, credentials, updates, password hashes", arguments: Backend.available)
    func people(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let people = stores.people
            await #expect(throws: PeopleRepositoryError.usernameTaken) {
                try await people.create(Stores.person("ADA"), passwordHash: "x")
            }
            var grace = try await people.create(Stores.person("grace"), passwordHash: "hash-1")
            #expect(grace.id != stores.person.id)
            #expect(try await people.credentials(username: "GRACE")?.passwordHash == "hash-1")
            #expect(try await people.credentials(username: "nobody") == nil)
            grace.name = "Grace Hopper"
            grace.about = "Navy."
            grace.friendServiceToken = "token-1234"
            try await people.update(grace)
            try await people.setPasswordHash("hash-2", of: grace.id, keepingSession: nil)
            let stored = try #require(try await people.credentials(id: grace.id))
            #expect(stored.person == grace)
            #expect(stored.passwordHash == "hash-2")
            var missing = grace
            missing.id = 999_999
            await #expect(throws: PeopleRepositoryError.notFound) { try await people.update(missing) }
        }
    }

    @Test(
        "'Show me when I sit': on for a new person, kept by update, read wherever a person is",
        arguments: Backend.available)
    func showsWhenSitting(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let people = stores.people
            var grace = try await people.create(Stores.person("grace"), passwordHash: "x")
            #expect(grace.showsWhenSitting)
            #expect(try await people.credentials(id: grace.id)?.person.showsWhenSitting == true)
            try await people.startSession(key: "grace-1", of: grace.id, at: Self.now)
            #expect(try await people.person(session: "grace-1", at: Self.now)?.showsWhenSitting == true)

            grace.showsWhenSitting = false
            try await people.update(grace)
            #expect(try await people.credentials(id: grace.id)?.person == grace)
            #expect(try await people.credentials(username: "grace")?.person.showsWhenSitting == false)
            #expect(try await people.person(session: "grace-1", at: Self.now + 1)?.showsWhenSitting == false)
            #expect(try await storage.open().people.credentials(id: grace.id)?.person.showsWhenSitting == false)
            let listed = try await people.overview(at: Self.now).first(where: { $0.person.id == grace.id })
            #expect(listed?.person.showsWhenSitting == false)
            #expect(try await people.credentials(id: stores.person.id)?.person.showsWhenSitting == true, "only hers")

            grace.showsWhenSitting = true
            try await people.update(grace)
            #expect(try await people.credentials(id: grace.id)?.person == grace)
        }
    }

    @Test(
        "'Show streaks': on for a new person, kept by update, read wherever a person is", arguments: Backend.available)
    func showsStreaks(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let people = stores.people
            var grace = try await people.create(Stores.person("grace"), passwordHash: "x")
            #expect(grace.showsStreaks)
            try await people.startSession(key: "grace-1", of: grace.id, at: Self.now)
            grace.showsStreaks = false
            try await people.update(grace)
            #expect(try await people.credentials(id: grace.id)?.person == grace)
            #expect(try await people.person(session: "grace-1", at: Self.now + 1)?.showsStreaks == false)
            #expect(try await storage.open().people.credentials(username: "grace")?.person.showsStreaks == false)
            let listed = try await people.overview(at: Self.now).first(where: { $0.person.id == grace.id })
            #expect(listed?.person.showsStreaks == false)
            #expect(try await people.credentials(id: stores.person.id)?.person.showsStreaks == true, "only hers")
        }
    }

    @Test(
        "'Language': none (as the browser says) for a new person, kept by update, read wherever a person is",
        arguments: Backend.available)
    func language(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let people = stores.people
            var grace = try await people.create(Stores.person("grace"), passwordHash: "x")
            #expect(grace.language == nil)
            try await people.startSession(key: "grace-1", of: grace.id, at: Self.now)
            grace.language = .ptBR
            try await people.update(grace)
            #expect(try await people.credentials(id: grace.id)?.person == grace)
            #expect(try await people.person(session: "grace-1", at: Self.now + 1)?.language == .ptBR)
            #expect(try await storage.open().people.credentials(username: "grace")?.person.language == .ptBR)
            let listed = try await people.overview(at: Self.now).first(where: { $0.person.id == grace.id })
            #expect(listed?.person.language == .ptBR)
            #expect(try await people.credentials(id: stores.person.id)?.person.language == nil, "only hers")
            grace.language = nil
            try await people.update(grace)
            #expect(try await people.person(session: "grace-1", at: Self.now + 2)?.language == nil)
        }
    }

    @Test(
        "The door: the first person administers; invitations and reset links work once; disabling ends every session",
        arguments: Backend.available)
    func door(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let people = stores.people
            let now = Self.now
            #expect(try await people.hasAnyone())
            #expect(try await people.credentials(id: stores.person.id)?.person.isAdministrator == true)
            // Without a valid invitation no one comes in, and a refusal uses nothing up.
            for key in [nil, "no such key"] as [String?] {
                await #expect(throws: PeopleRepositoryError.invitationNeeded) {
                    try await people.create(
                        Stores.person("bob"), passwordHash: "x", admission: .invitation(key: key), at: now)
                }
            }
            try await people.add(
                OneUseLink(key: "invitation", kind: .invitation, personID: stores.person.id, expiresAt: now + 100))
            await #expect(throws: PeopleRepositoryError.invitationNeeded) {
                try await people.create(
                    Stores.person("bob"), passwordHash: "x", admission: .invitation(key: "invitation"), at: now + 100)
            }
            await #expect(throws: PeopleRepositoryError.usernameTaken) {
                try await people.create(
                    Stores.person("ADA"), passwordHash: "x", admission: .invitation(key: "invitation"), at: now)
            }
            let bob = try await people.create(
                Stores.person("bob"), passwordHash: "x", admission: .invitation(key: "invitation"), at: now)
            #expect(!bob.isAdministrator)
            await #expect(throws: PeopleRepositoryError.invitationNeeded) {
                try await people.create(
                    Stores.person("carol"), passwordHash: "x", admission: .invitation(key: "invitation"), at: now)
            }
            // Disabled: every session ends; enabled again, sign-in works.
            try await people.startSession(key: "bob-1", of: bob.id, at: now)
            try await people.startSession(key: "bob-2", of: bob.id, at: now)
            #expect(try await people.person(session: "bob-1", at: now)?.id == bob.id)
            try await people.setDisabled(true, of: bob.id)
            #expect(try await people.person(session: "bob-1", at: now) == nil)
            #expect(try await people.person(session: "bob-2", at: now) == nil)
            #expect(try await people.credentials(username: "bob")?.person.isDisabled == true)
            try await people.setDisabled(false, of: bob.id)
            #expect(try await people.credentials(username: "bob")?.person.isDisabled == false)
            try await people.makeAdministrator(bob.id)
            #expect(try await people.credentials(id: bob.id)?.person.isAdministrator == true)
            await #expect(throws: PeopleRepositoryError.notFound) { try await people.setDisabled(true, of: 999_999) }
            // A reset link: of its kind only, once, and it ends every session.
            try await people.add(OneUseLink(key: "reset", kind: .passwordReset, personID: bob.id, expiresAt: now + 100))
            #expect(try await people.link(.invitation, key: "reset", at: now) == nil)
            #expect(try await people.link(.passwordReset, key: "reset", at: now)?.personID == bob.id)
            #expect(try await people.link(.passwordReset, key: "reset", at: now + 100) == nil)
            try await people.startSession(key: "bob-3", of: bob.id, at: now + 10)
            #expect(try await people.resetPassword(link: "reset", passwordHash: "new", at: now + 20)?.id == bob.id)
            #expect(try await people.credentials(id: bob.id)?.passwordHash == "new")
            #expect(try await people.person(session: "bob-3", at: now + 20) == nil)
            #expect(try await people.resetPassword(link: "reset", passwordHash: "again", at: now + 20) == nil)
            // The administrator's list: everyone by name, the last sign-in, the sessions open.
            try await people.startSession(key: "bob-4", of: bob.id, at: now + 30)
            let overview = try await people.overview(at: now + 40)
            #expect(overview.map(\.person.username) == ["ada", "bob"])
            #expect(overview[1].sessions == 1)
            #expect(overview[1].lastSignIn == now + 30)
            // One secret for every instance, made once.
            let secret = try await people.cookieSecret()
            #expect(secret.count == 32)
            #expect(try await people.cookieSecret() == secret)
        }
    }

    @Test(
        "The last administrator who can sign in is neither disabled nor deleted while others have accounts; two disabling each other at once: one succeeds",
        arguments: Backend.available)
    func lastAdministrator(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let people = stores.people
            let ada = stores.person
            let bob = try await people.create(Stores.person("bob"), passwordHash: "x", admission: .anyone, at: Self.now)
            await #expect(throws: PeopleRepositoryError.lastAdministrator) {
                try await people.setDisabled(true, of: ada.id)
            }
            await #expect(throws: PeopleRepositoryError.lastAdministrator) { try await people.delete(id: ada.id) }
            #expect(try await people.credentials(id: ada.id)?.person.isDisabled == false)
            try await people.setDisabled(true, of: bob.id)  // not an administrator
            try await people.setDisabled(false, of: bob.id)

            try await people.makeAdministrator(bob.id)
            for _ in 0..<5 {
                // Each answers nil when it succeeded, else its error.
                let disable: @Sendable (Int) async -> PeopleRepositoryError? = { id in
                    do {
                        try await people.setDisabled(true, of: id)
                        return nil
                    } catch { return error as? PeopleRepositoryError ?? .storage("\(error)") }
                }
                async let adaGoes = disable(ada.id)
                async let bobGoes = disable(bob.id)
                let outcomes = [await adaGoes, await bobGoes]
                #expect(outcomes.filter { $0 == nil }.count == 1, "\(outcomes)")
                #expect(outcomes.contains(.lastAdministrator), "\(outcomes)")
                for id in [ada.id, bob.id] { try await people.setDisabled(false, of: id) }
            }
            // With another administrator, one may go; the only person left may delete their account.
            try await people.delete(id: ada.id)
            try await people.delete(id: bob.id)
            #expect(try await people.overview(at: Self.now).isEmpty)
        }
    }

    @Test("A session ends 90 days after its sign-in, however often it is used", arguments: Backend.available)
    func longestLife(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            try await stores.people.startSession(key: "daily", of: stores.person.id, at: Self.now)
            for day in stride(from: 20, through: 80, by: 20) {
                #expect(try await stores.people.person(session: "daily", at: Self.now + Double(day) * 86_400) != nil)
            }
            let last = Self.now + SignInSession.longestLife
            #expect(try await stores.people.person(session: "daily", at: last - 1) != nil)
            #expect(try await stores.people.person(session: "daily", at: last) == nil)
            #expect(try await storage.open().people.person(session: "daily", at: last - 1) == nil, "it was ended")
        }
    }

    @Test(
        "A new password ends the person's other sessions, remembered ones too, or all of them",
        arguments: Backend.available)
    func newPasswordEndsSessions(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let (people, ada) = (stores.people, stores.person.id)
            let grace = try await people.create(Stores.person("grace"), passwordHash: "-")
            for key in ["ada-1", "ada-2", "ada-3"] { try await people.startSession(key: key, of: ada, at: Self.now) }
            try await people.startSession(key: "grace-1", of: grace.id, at: Self.now)
            #expect(try await people.person(session: "ada-2", at: Self.now) != nil)  // remembered, on SQLite

            try await people.setPasswordHash("hash-new", of: ada, keepingSession: "ada-1")
            #expect(try await people.credentials(id: ada)?.passwordHash == "hash-new")
            #expect(try await people.person(session: "ada-1", at: Self.now + 1)?.id == ada)
            #expect(try await people.person(session: "ada-2", at: Self.now + 1) == nil)
            #expect(try await people.person(session: "ada-3", at: Self.now + 1) == nil)
            #expect(try await people.person(session: "grace-1", at: Self.now + 1)?.id == grace.id)
            await #expect(throws: PeopleRepositoryError.notFound) {
                try await people.setPasswordHash("x", of: 999_999, keepingSession: nil)
            }

            try await people.startSession(key: "ada-4", of: ada, at: Self.now)
            try await people.setPasswordHash("hash-newer", of: ada, keepingSession: nil)
            #expect(try await people.person(session: "ada-1", at: Self.now + 2) == nil)
            #expect(try await people.person(session: "ada-4", at: Self.now + 2) == nil)
            #expect(try await storage.open().people.person(session: "grace-1", at: Self.now + 2)?.id == grace.id)
        }
    }

    @Test(
        "With passwords off, the sessions a password started end, remembered ones too, for every instance; the provider's stay",
        arguments: Backend.available)
    func passwordSessionsEnd(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let (people, ada) = (stores.people, stores.person.id)
            let grace = try await people.create(Stores.person("grace"), passwordHash: "-")
            try await people.startSession(key: "ada-password", of: ada, at: Self.now, by: .password)
            try await people.startSession(key: "ada-provider", of: ada, at: Self.now, by: .provider)
            try await people.startSession(key: "grace-password", of: grace.id, at: Self.now)
            #expect(try await people.person(session: "ada-password", at: Self.now) != nil)  // remembered, on SQLite
            #expect(try await people.endPasswordSessions() == 2)
            #expect(try await people.person(session: "ada-password", at: Self.now + 1) == nil)
            #expect(try await people.person(session: "grace-password", at: Self.now + 1) == nil)
            #expect(try await people.person(session: "ada-provider", at: Self.now + 1)?.id == ada)
            let other = try await storage.open().people
            #expect(try await other.person(session: "ada-password", at: Self.now + 1) == nil)
            #expect(try await other.person(session: "ada-provider", at: Self.now + 1)?.id == ada)
            #expect(try await other.endPasswordSessions() == 0)
        }
    }

    @Test("Sign-in sessions: found by key, ended, expired after 30 days unused", arguments: Backend.available)
    func sessions(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let people = stores.people
            try await people.startSession(key: "key-1", of: stores.person.id, at: Self.now)
            #expect(try await people.person(session: "key-1", at: Self.now)?.id == stores.person.id)
            #expect(try await people.person(session: "key-2", at: Self.now) == nil)
            // Used on day 29 it lasts again; used on day 58 too, it has ended by day 89.
            #expect(try await people.person(session: "key-1", at: Self.now + 29 * 86_400) != nil)
            #expect(try await people.person(session: "key-1", at: Self.now + 58 * 86_400) != nil)
            #expect(try await people.person(session: "key-1", at: Self.now + 89 * 86_400) == nil)
            // Another instance agrees.
            let other = try await storage.open()
            #expect(try await other.people.person(session: "key-1", at: Self.now + 58 * 86_400) == nil)
            try await people.startSession(key: "key-3", of: stores.person.id, at: Self.now)
            try await other.people.endSession(key: "key-3")
            #expect(try await people.person(session: "key-3", at: Self.now) == nil)
            // A session just found, then changed through the same store: the change shows at once.
            try await people.startSession(key: "key-4", of: stores.person.id, at: Self.now)
            var person = try #require(try await people.person(session: "key-4", at: Self.now))
            person.name = "Ada King"
            try await people.update(person)
            #expect(try await people.person(session: "key-4", at: Self.now + 1)?.name == "Ada King")
            try await people.endSession(key: "key-4")
            #expect(try await people.person(session: "key-4", at: Self.now + 2) == nil)
            // A new session clears those unused for their lifetime, whether or not they come back.
            try await people.startSession(key: "key-5", of: stores.person.id, at: Self.now)
            try await people.startSession(key: "key-6", of: stores.person.id, at: Self.now + 31 * 86_400)
            #expect(try await people.person(session: "key-5", at: Self.now + 1) == nil, "asked as if at the time")
            #expect(try await people.person(session: "key-6", at: Self.now + 31 * 86_400) != nil)
            // The lifetime exactly: found a second before it, ended at it.
            let start = Self.now + 40 * 86_400
            try await people.startSession(key: "key-7", of: stores.person.id, at: start)
            try await people.startSession(key: "key-8", of: stores.person.id, at: start)
            #expect(try await people.person(session: "key-7", at: start + SignInSession.lifetime - 1) != nil)
            #expect(try await people.person(session: "key-8", at: start + SignInSession.lifetime) == nil)
        }
    }

    @Test("Failed sign-ins are counted per username, ignoring case, within the window", arguments: Backend.available)
    func failures(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let people = try await storage.open().people
            for minute in 0..<5 {
                _ = try await people.countAttempt(
                    of: minute.isMultiple(of: 2) ? "ada" : "ADA", at: Self.now + Double(minute) * 60)
            }
            _ = try await people.countAttempt(of: "grace", at: Self.now)
            let counted = try await people.failures(of: "Ada", since: Self.now)
            #expect(counted.count == 5)
            #expect(counted.first == Self.now)
            #expect(try await people.failures(of: "ada", since: Self.now + 150).count == 2)
            // The limit reached: the next attempt is not counted, and answers the five.
            #expect(try await people.countAttempt(of: "ada", at: Self.now + 600).count == 5)
            #expect(try await people.failures(of: "ada", since: Self.now).count == 5)
            // Attempts at the same moment: no more than the limit are counted.
            let burst = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<20 {
                    group.addTask { try await people.countAttempt(of: "burst", at: Self.now).count }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(burst.filter { $0 < 5 }.count == 5)
            #expect(try await people.failures(of: "burst", since: Self.now).count == 5)
            try await people.clearFailures(of: "ada")
            #expect(try await people.failures(of: "ada", since: Self.now).isEmpty)
            #expect(try await people.failures(of: "grace", since: Self.now).count == 1)
        }
    }

    @Test(
        "Each person's profiles, sessions, totals and saved list are theirs alone; deleting a person deletes them",
        arguments: Backend.available)
    func isolation(backend: Backend) async throws {
        try await backend.withStorage { storage in
            let stores = try await storage.open()
            let ada = stores.person
            let grace = try await stores.people.create(Stores.person("grace"), passwordHash: "x")
            let adaProfile = try await stores.data.profiles(of: ada.id).create(.new(named: "Ada's"))
            let graceProfiles = stores.data.profiles(of: grace.id)
            #expect(try await graceProfiles.get(id: adaProfile.id) == nil)
            #expect(try await graceProfiles.list().isEmpty)
            #expect(try await graceProfiles.delete(id: adaProfile.id) == false)
            var stolen = adaProfile
            stolen.name = "Stolen"
            await #expect(throws: ProfileRepositoryError.notFound) { try await graceProfiles.update(stolen) }
            #expect(try await stores.data.profiles(of: ada.id).get(id: adaProfile.id)?.name == "Ada's")

            let session = SittingSession(
                profileID: adaProfile.id, profileName: "Ada's", startedAt: Self.now, seconds: 600, completed: true)
            _ = try await stores.data.sessions(of: ada.id).record(session)
            let graceSessions = stores.data.sessions(of: grace.id)
            #expect(try await graceSessions.recent(limit: 10).isEmpty)
            #expect(try await graceSessions.totals() == SittingTotals(sessions: 0, seconds: 0))
            #expect(
                try await graceSessions.practice(today: grace.dayClock.day(of: Self.now), recent: 5, offset: 0)
                    == .empty(today: grace.dayClock.day(of: Self.now)))
            #expect(try await stores.data.sessions(of: ada.id).totals() == SittingTotals(sessions: 1, seconds: 600))

            try await stores.data.savedFriends(of: ada.id).save(
                [Friend(id: 1, firstname: "Jane", lastname: "Doe", phonenumber: "1")], at: Self.now)
            #expect(try await stores.data.savedFriends(of: grace.id).load() == nil)

            try await stores.startSession(key: "ada-key")
            try await stores.people.makeAdministrator(grace.id)  // else Ada, the only one, may not go
            try await stores.people.delete(id: ada.id)
            #expect(try await stores.people.credentials(username: "ada") == nil)
            #expect(try await stores.people.person(session: "ada-key", at: Self.now) == nil)
            #expect(try await stores.data.profiles(of: ada.id).get(id: adaProfile.id) == nil)
            #expect(try await stores.data.sessions(of: ada.id).recent(limit: 10).isEmpty)
            #expect(try await stores.data.sessions(of: ada.id).totals() == SittingTotals(sessions: 0, seconds: 0))
            #expect(try await stores.data.savedFriends(of: ada.id).load() == nil)
            #expect(try await stores.people.credentials(username: "grace") != nil)
        }
    }
}

extension Stores {
    func startSession(key: String) async throws {
        try await people.startSession(key: key, of: person.id, at: PeopleConformanceTests.now)
    }
}
