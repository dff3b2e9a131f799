import Foundation
import GRDB
import SanghaCore
import SanghaTestSupport
import Testing

@testable import SanghaStore

/// The SQLite store on real files in a temporary folder.
@Suite("Profile store")
struct ProfileStoreTests {
    func withDirectory(_ test: (URL) async throws -> Void) async throws {
        let directory = try RepositoryPaths.temporaryDirectory("profile-store")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await test(directory)
    }

    static let all = [
        "createProfile", "createSavedFriendList", "createSittingSession", "indexProfileName",
        "totalSittingSessions", "people", "signInSessionStart", "door", "groups", "sittingNow", "groupSits",
        "sessionNotes", "practiceDays", "sitClientIDs", "calendars", "groupRemovals", "providerIdentities",
        "signInSessionMethod",
        "personName", "pendingImports",
        "pushNotifications", "personLanguage",
    ]

    static func person(_ username: String) -> Person {
        Person(username: username, name: username.capitalized, createdAt: Date(timeIntervalSince1970: 1_790_000_000))
    }

    @Test("The migrations run on an empty file, and on an existing one they keep the data")
    func migrations() async throws {
        try await withDirectory { directory in
            let fresh = try SanghaDatabase.open(directory: directory)
            #expect(try await SanghaDatabase.appliedMigrations(fresh) == Self.all)
            let ada = try await PeopleStore(database: fresh).create(Self.person("ada"), passwordHash: "-")
            _ = try await ProfileStore(database: fresh, owner: ada.id).create(.new(named: "Kept"))

            let reopened = try SanghaDatabase.open(directory: directory)
            #expect(try await SanghaDatabase.appliedMigrations(reopened) == Self.all)
            #expect(try await ProfileStore(database: reopened, owner: ada.id).list().map(\.name) == ["Kept"])
            #expect(try await integrityCheck(reopened) == ["ok"])
        }
    }

    @Test("Upgrading a deployment from before administrators: its earliest person is one, no one else")
    func upgradeAdministrator() async throws {
        try await withDirectory { directory in
            let path = directory.appendingPathComponent(SanghaDatabase.fileName).path
            do {
                let old = try DatabaseQueue(path: path)
                try SanghaDatabase.migrator.migrate(old, upTo: "signInSessionStart")
                try await old.write { db in
                    try db.execute(
                        sql: """
                            INSERT INTO person (username, name, passwordHash, createdAt)
                            VALUES ('grace', 'Grace', '-', '2026-11-02 00:00:00.000'),
                                   ('ada', 'Ada', '-', '2026-11-01 00:00:00.000');
                            """)
                }
            }
            let people = PeopleStore(database: try SanghaDatabase.open(directory: directory))
            #expect(try await people.credentials(username: "ada")?.person.isAdministrator == true)
            #expect(try await people.credentials(username: "grace")?.person.isAdministrator == false)
        }
    }

    @Test("Upgrading a file with open sign-in sessions: each counts its 90 days from its last use")
    func upgradeSessionStart() async throws {
        try await withDirectory { directory in
            let path = directory.appendingPathComponent(SanghaDatabase.fileName).path
            let lastUsed = Date(timeIntervalSince1970: 1_795_000_000)
            do {
                let old = try DatabaseQueue(path: path)
                try SanghaDatabase.migrator.migrate(old, upTo: "people")
                try await old.write { db in
                    try db.execute(
                        sql: """
                            INSERT INTO person (username, name, passwordHash, createdAt)
                            VALUES ('ada', 'Ada', '-', '2026-11-01 00:00:00.000');
                            INSERT INTO signInSession (key, personID, lastUsedAt) VALUES ('open', 1, ?);
                            """, arguments: [lastUsed])
                }
            }
            let people = PeopleStore(database: try SanghaDatabase.open(directory: directory))
            // Used every 29 days it stays open, until 90 days after the last use before the upgrade.
            for day in [0, 29, 58, 87] {
                #expect(
                    try await people.person(session: "open", at: lastUsed + Double(day) * 86_400)?.username == "ada")
            }
            #expect(try await people.person(session: "open", at: lastUsed + SignInSession.longestLife) == nil)
        }
    }

    @Test(
        "Upgrading a file with open sign-in sessions: those of people without a password are the provider's, the others a password's"
    )
    func upgradeSessionMethod() async throws {
        try await withDirectory { directory in
            let path = directory.appendingPathComponent(SanghaDatabase.fileName).path
            let lastUsed = Date(timeIntervalSince1970: 1_795_000_000)
            do {
                let old = try DatabaseQueue(path: path, configuration: SanghaDatabase.configuration)
                try SanghaDatabase.migrator.migrate(old, upTo: "providerIdentities")
                try await old.write { db in
                    try db.execute(
                        sql: """
                            INSERT INTO person (username, name, passwordHash, createdAt)
                            VALUES ('ada', 'Ada', '-', '2026-11-01 00:00:00.000'),
                                   ('grace', 'Grace', '', '2026-11-01 00:00:00.000');
                            INSERT INTO signInSession (key, personID, lastUsedAt, startedAt)
                            VALUES ('ada', 1, ?, ?), ('grace', 2, ?, ?);
                            """, arguments: [lastUsed, lastUsed, lastUsed, lastUsed])
                }
            }
            let people = PeopleStore(database: try SanghaDatabase.open(directory: directory))
            #expect(try await people.endPasswordSessions() == 1)
            #expect(try await people.person(session: "ada", at: lastUsed) == nil)
            #expect(try await people.person(session: "grace", at: lastUsed)?.username == "grace")
        }
    }

    @Test("Upgrading a file from before people: its profiles and sessions become the first person's")
    func upgradeBeforePeople() async throws {
        try await withDirectory { directory in
            // The schema as it was before people, with data in it.
            let path = directory.appendingPathComponent(SanghaDatabase.fileName).path
            do {
                let old = try DatabaseQueue(path: path)
                try SanghaDatabase.migrator.migrate(old, upTo: "totalSittingSessions")
                try await old.write { db in
                    try db.execute(
                        sql: """
                            INSERT INTO profile (name, segments, version) VALUES ('Morning', '[]', 3), ('Evening', '[]', 1);
                            INSERT INTO sittingSession (profileID, profileName, startedAt, seconds, completed)
                            VALUES (1, 'Morning', '2026-11-20 06:00:00.000', 600, 1),
                                   (1, 'Morning', '2026-11-21 06:00:00.000', 900, 1),
                                   (2, 'Evening', '2026-11-21 20:00:00.000', 120, 0);
                            INSERT INTO savedFriendList (id, friends, savedAt) VALUES (1, '[]', '2026-11-21 20:00:00.000');
                            """)
                }
                try old.close()
            }
            let database = try SanghaDatabase.open(directory: directory)
            #expect(try await SanghaDatabase.appliedMigrations(database) == Self.all)
            let people = PeopleStore(database: database)
            var ada = Self.person("ada")
            ada.timeZone = TimeZone(identifier: "UTC")!
            let first = try await people.create(ada, passwordHash: "-")
            let second = try await people.create(Self.person("grace"), passwordHash: "-")

            let profiles = try await ProfileStore(database: database, owner: first.id).list()
            #expect(profiles.map(\.name) == ["Evening", "Morning"])
            // The deployment's saved list was no one's: each person's is saved from their next visit.
            #expect(try await FriendListStore(database: database, person: first.id).load() == nil)
            #expect(try await FriendListStore(database: database, person: second.id).load() == nil)
            #expect(profiles.map(\.version) == [1, 3])
            let sessions = SittingSessionStore(database: database, owner: first.id)
            #expect(try await sessions.recent(limit: 10).count == 3)
            #expect(try await sessions.totals() == SittingTotals(sessions: 3, seconds: 1_620))
            // Their days are counted as they become hers, in her time zone.
            let practice = try await sessions.practice(
                today: LocalDay(year: 2026, month: 11, day: 21), recent: 0, offset: 0)
            #expect(practice.sat.map(\.sessions) == [1, 2] && practice.streak == 2)

            #expect(try await ProfileStore(database: database, owner: second.id).list().isEmpty)
            #expect(try await SittingSessionStore(database: database, owner: second.id).totals().sessions == 0)
            #expect(try await integrityCheck(database) == ["ok"])
        }
    }

    @Test(
        "Upgrading a file with sessions: each person's days are counted, in the server's time zone, which becomes theirs"
    )
    func upgradePracticeDays() async throws {
        try await withDirectory { directory in
            let path = directory.appendingPathComponent(SanghaDatabase.fileName).path
            do {
                let old = try DatabaseQueue(path: path)
                try SanghaDatabase.migrator.migrate(old, upTo: "sessionNotes")
                try await old.write { db in
                    try db.execute(
                        sql: """
                            INSERT INTO person (username, name, passwordHash, createdAt)
                            VALUES ('ada', 'Ada', '-', '2026-11-01 00:00:00.000');
                            INSERT INTO sittingSession (profileName, startedAt, seconds, completed, ownerID)
                            VALUES ('Morning', '2026-11-20 06:00:00.000', 600, 1, 1),
                                   ('Morning', '2026-11-21 06:00:00.000', 900, 1, 1),
                                   ('Morning', '2026-11-21 06:30:00.000', 120, 1, 1);
                            """)
                }
                try old.close()
            }
            let database = try SanghaDatabase.open(directory: directory)
            let ada = try #require(try await PeopleStore(database: database).credentials(id: 1)?.person)
            #expect(ada.timeZone.identifier == TimeZone.current.identifier && ada.dayStartHour == 0)
            let today = ada.dayClock.day(of: Date(timeIntervalSince1970: 1_795_250_000))  // 21 Nov, 08:33 UTC
            let practice = try await SittingSessionStore(database: database, owner: 1).practice(
                today: today, recent: 0, offset: 0)
            #expect(practice.sat.map(\.seconds) == [600, 1020] && practice.streak == 2)
            #expect(try await integrityCheck(database) == ["ok"])
        }
    }

    @Test("The file is in WAL mode, and a new id is never an old one")
    func walAndIDs() async throws {
        try await withDirectory { directory in
            let database = try SanghaDatabase.open(directory: directory)
            let ada = try await PeopleStore(database: database).create(Self.person("ada"), passwordHash: "-")
            let store = ProfileStore(database: database, owner: ada.id)
            let first = try await store.create(.new(named: "One"))
            _ = try await store.delete(id: first.id)
            let second = try await store.create(.new(named: "Two"))
            #expect(second.id == first.id + 1)

            let queue = try DatabaseQueue(path: directory.appendingPathComponent(SanghaDatabase.fileName).path)
            let mode = try await queue.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
            #expect(mode == "wal")
        }
    }

    @Test(
        "A page's read runs while a write is held open, and sees what was committed before it",
        .timeLimit(.minutes(1)))
    func readBesideWriter() async throws {
        try await withDirectory { directory in
            let database = try SanghaDatabase.open(directory: directory)
            let ada = try await PeopleStore(database: database).create(Self.person("ada"), passwordHash: "-")
            let sessions = SittingSessionStore(database: database, owner: ada.id)
            let start = Date(timeIntervalSince1970: 1_790_000_000)
            _ = try await sessions.record(
                SittingSession(profileID: nil, profileName: "Kept", startedAt: start, seconds: 600, completed: true),
                clientID: nil)

            // A write that holds SQLite's write lock, on a thread of its own, until released.
            let writing = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let writer = Thread {
                try? database.write { db in
                    try db.execute(
                        sql: """
                            INSERT INTO sittingSession (profileName, startedAt, seconds, completed, ownerID)
                            VALUES ('Held', ?, 60, 1, ?)
                            """, arguments: [start.addingTimeInterval(3_600), ada.id])
                    writing.signal()
                    release.wait()
                }
            }
            writer.start()
            await withCheckedContinuation { done in
                DispatchQueue.global().async {
                    writing.wait()
                    done.resume()
                }
            }
            defer { release.signal() }
            // WAL readers do not wait for the writer: had this read waited, it would never return.
            let recent = try await sessions.recent(limit: 10, offset: 0)
            let practice = try await sessions.practice(
                today: LocalDay(year: 2026, month: 9, day: 21), recent: 5, offset: 0)
            #expect(recent.map(\.profileName) == ["Kept"])
            #expect(practice.recent.map(\.profileName) == ["Kept"])
        }
    }
}
