import Foundation
import GRDB
import SanghaCore
import SanghaTestSupport
import Synchronization
import Testing

@testable import SanghaStore

/// `sangha people` writes the file while `serve` runs: what `serve` keeps in memory must follow.
@Suite("Another process's writes to the file")
struct OtherProcessWritesTests {
    @Test(
        "Another connection's write is found and forgets what was kept; this process's own writes are not; nothing is kept until a check"
    )
    func found() async throws {
        let file = try await WatchedFile.open("other-process-writes")
        defer { file.remove() }
        let (data, watch, people, ada) = (file.data, file.watch, file.data.people, file.ada)
        try await people.startSession(key: "k", of: ada.id, at: Date())
        let found = Atomic<Int>(0)
        watch.whenChanged { found.add(1, ordering: .relaxed) }

        // Before a check nothing is trusted: a session is read from the file every time.
        #expect(!watch.hearsEveryChange)
        try await watch.check()
        #expect(watch.hearsEveryChange)
        #expect(try await people.person(session: "k", at: Date())?.name == "Ada Lovelace")

        // This process's own writes are not another's.
        _ = try await data.profiles(of: ada.id).create(.new(named: "Mine"))
        try await watch.check()
        #expect(found.load(ordering: .relaxed) == 0)

        // Another connection renames Ada behind the memory's back: kept, the old name is served
        // until a check finds the write.
        let other = try file.otherProcess()
        try await other.write { db in
            try db.execute(sql: "UPDATE person SET name = 'Ada King' WHERE id = ?", arguments: [ada.id])
        }
        #expect(try await people.person(session: "k", at: Date())?.name == "Ada Lovelace")
        try await watch.check()
        #expect(found.load(ordering: .relaxed) == 1)
        #expect(try await people.person(session: "k", at: Date())?.name == "Ada King")
    }
}

@Suite("Another process's writes to a person's log")
struct OtherProcessPracticeTests {
    @Test("A person's practice is kept until this process writes their log, or a check finds another's write")
    func practice() async throws {
        let file = try await WatchedFile.open("other-process-practice")
        defer { file.remove() }
        let (data, watch, ada) = (file.data, file.watch, file.ada)
        try await watch.check()
        let start = Date(timeIntervalSince1970: 1_794_981_600)
        let today = ada.dayClock.day(of: start)
        func sessions() async throws -> Int {
            try await data.sessions(of: ada.id).practice(today: today, recent: 5, offset: 0).totals.sessions
        }
        #expect(try await sessions() == 0)
        _ = try await data.sessions(of: ada.id).record(
            SittingSession(profileID: nil, profileName: "Sit", startedAt: start, seconds: 600, completed: true))
        #expect(try await sessions() == 1)

        // Another process adds a sit: the kept practice is served until a check finds the write.
        // (With the SQL function the file's triggers count days with, as `sangha` opens it.)
        let other = try file.otherProcess(configuration: SanghaDatabase.configuration)
        try await other.write { db in
            try db.execute(
                sql: """
                    INSERT INTO sittingSession (profileName, startedAt, seconds, completed, ownerID)
                    VALUES ('Elsewhere', ?, 60, 1, ?)
                    """, arguments: [start.addingTimeInterval(-60), ada.id])
        }
        #expect(try await sessions() == 1, "kept")
        try await watch.check()
        #expect(try await sessions() == 2)
    }
}

@Suite("Another process's writes to a calendar feed's person")
struct OtherProcessCalendarTests {
    @Test(
        "The person a feed's key names is kept until this process changes them (disabled, a new key) or a check finds another's write"
    )
    func calendarKeys() async throws {
        // Root administers first: Ada could otherwise be neither disabled nor deleted.
        let file = try await WatchedFile.open("other-process-calendar", administrator: true)
        defer { file.remove() }
        let (watch, people, ada) = (file.watch, file.data.people, file.ada)
        try await people.setCalendarKey("key", of: ada.id)
        try await watch.check()
        #expect(try await people.person(calendarKey: "key")?.name == "Ada Lovelace")

        // Another process renames Ada: the kept person is served until a check finds the write.
        let other = try file.otherProcess()
        try await other.write { db in
            try db.execute(sql: "UPDATE person SET name = 'Ada King' WHERE id = ?", arguments: [ada.id])
        }
        #expect(try await people.person(calendarKey: "key")?.name == "Ada Lovelace", "kept")
        try await watch.check()
        #expect(try await people.person(calendarKey: "key")?.name == "Ada King")

        // This process's own writes forget at once: disabled, no feed; a new key, the old one is no one's.
        try await people.setDisabled(true, of: ada.id)
        #expect(try await people.person(calendarKey: "key") == nil)
        try await people.setDisabled(false, of: ada.id)
        #expect(try await people.person(calendarKey: "key")?.id == ada.id)
        try await people.setCalendarKey("new key", of: ada.id)
        #expect(try await people.person(calendarKey: "key") == nil)
        #expect(try await people.person(calendarKey: "new key")?.calendarKey == "new key")
        try await people.delete(id: ada.id)
        #expect(try await people.person(calendarKey: "new key") == nil)
    }
}

@Suite("Another process's writes to /admin's page")
struct OtherProcessOverviewTests {
    @Test(
        "/admin's page is kept until this process writes a person or a sign-in, a check finds another's write, or its first sign-in ends"
    )
    func overviews() async throws {
        let file = try await WatchedFile.open("other-process-overview", administrator: true)
        defer { file.remove() }
        let (watch, people, ada) = (file.watch, file.data.people, file.ada)
        let now = Date()
        try await watch.check()
        func row(at date: Date = now) async throws -> PersonOverview? {
            try await people.overview(at: date, limit: 10, offset: 0).people.first { $0.person.id == ada.id }
        }
        #expect(try await row()?.sessions == 0)

        // Another process renames Ada: the kept page is served until a check finds the write.
        let other = try file.otherProcess()
        try await other.write { db in
            try db.execute(sql: "UPDATE person SET name = 'Ada King' WHERE id = ?", arguments: [ada.id])
        }
        #expect(try await row()?.person.name == "Ada Lovelace", "kept")
        try await watch.check()
        #expect(try await row()?.person.name == "Ada King")

        // This process's own writes are seen at once: a sign-in, a sign-out, disabled, a newcomer.
        try await people.startSession(key: "one", of: ada.id, at: now, by: .password)
        #expect(try await row()?.sessions == 1)
        try await people.endSession(key: "one")
        #expect(try await row()?.sessions == 0)
        try await people.setDisabled(true, of: ada.id)
        #expect(try await row()?.person.isDisabled == true)
        _ = try await people.create(Person(username: "bo", name: "Bo", createdAt: now), passwordHash: "-")
        #expect(try await people.overview(at: now, limit: 10, offset: 0).count == 3)

        // A sign-in stops counting at the end of its lifetime, with no write: the page is read again.
        try await people.startSession(key: "two", of: ada.id, at: now, by: .password)
        #expect(try await row()?.sessions == 1)
        #expect(try await row(at: now.addingTimeInterval(SignInSession.lifetime - 60))?.sessions == 1)
        #expect(try await row(at: now.addingTimeInterval(SignInSession.lifetime + 60))?.sessions == 0)
    }
}

/// A file of its own with Ada in it (after Root, who administers, with `administrator`), its
/// check for other processes' writes counting for an hour: only a check can make the memory
/// forget, however busy the machine.
struct WatchedFile {
    let directory: URL
    let data: SQLitePersonalData
    let watch: OtherProcessWrites
    let ada: Person

    static func open(_ name: String, administrator: Bool = false) async throws -> WatchedFile {
        let directory = try RepositoryPaths.temporaryDirectory(name)
        let data = SQLitePersonalData(
            database: try SanghaDatabase.open(directory: directory), freshness: .seconds(3600))
        let watch = try #require(data.otherProcessWrites)
        if administrator {
            _ = try await data.people.create(
                Person(username: "root", name: "Root", createdAt: Date()), passwordHash: "-")
        }
        let ada = try await data.people.create(
            Person(username: "ada", name: "Ada Lovelace", createdAt: Date()), passwordHash: "-")
        return WatchedFile(directory: directory, data: data, watch: watch, ada: ada)
    }

    /// A connection of its own to the file, as another process has.
    func otherProcess(configuration: Configuration = Configuration()) throws -> DatabaseQueue {
        try DatabaseQueue(
            path: directory.appendingPathComponent(SanghaDatabase.fileName).path, configuration: configuration)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}
