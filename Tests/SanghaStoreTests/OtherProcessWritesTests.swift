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
        let directory = try RepositoryPaths.temporaryDirectory("other-process-writes")
        defer { try? FileManager.default.removeItem(at: directory) }
        // A check counts for an hour here: only a check can make the memory forget, however busy
        // the machine.
        let data = SQLitePersonalData(
            database: try SanghaDatabase.open(directory: directory), freshness: .seconds(3600))
        let watch = try #require(data.otherProcessWrites)
        let people = data.people
        let ada = try await people.create(
            Person(username: "ada", name: "Ada Lovelace", createdAt: Date()), passwordHash: "-")
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
        let other = try DatabaseQueue(path: directory.appendingPathComponent(SanghaDatabase.fileName).path)
        try await other.write { db in
            try db.execute(sql: "UPDATE person SET name = 'Ada King' WHERE id = ?", arguments: [ada.id])
        }
        #expect(try await people.person(session: "k", at: Date())?.name == "Ada Lovelace")
        try await watch.check()
        #expect(found.load(ordering: .relaxed) == 1)
        #expect(try await people.person(session: "k", at: Date())?.name == "Ada King")
    }
}
