import Foundation
import GRDB
import SanghaCore
import SanghaStore
import SanghaTestSupport
import Testing

/// The SQLite store on real files in a temporary folder.
@Suite("Profile store")
struct ProfileStoreTests {
    func withDirectory(_ test: (URL) async throws -> Void) async throws {
        let directory = try RepositoryPaths.temporaryDirectory("profile-store")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await test(directory)
    }

    @Test("Create, get, list by name, update, delete")
    func crud() async throws {
        try await withDirectory { directory in
            let store = try ProfileStore.open(directory: directory)
            let morning = try await store.create(.new(named: "morning"))
            let evening = try await store.create(.new(named: "Evening"))
            #expect(morning.id == 1)
            #expect(morning.version == 1)
            #expect(try await store.list().map(\.name) == ["Evening", "morning"])

            var changed = morning
            changed.duration = 1200
            changed[.warmUp].enabled = true
            changed[.warmUp][sound: .repeat].interval = 30
            let updated = try await store.update(changed)
            #expect(updated.version == 2)
            #expect(try await store.get(id: morning.id) == updated)

            #expect(try await store.delete(id: evening.id))
            #expect(!(try await store.delete(id: evening.id)))
            #expect(try await store.get(id: evening.id) == nil)
        }
    }

    @Test("Saving over a newer version is a conflict and changes nothing")
    func conflict() async throws {
        try await withDirectory { directory in
            let store = try ProfileStore.open(directory: directory)
            let loaded = try await store.create(.new(named: "Morning"))
            var first = loaded
            first.name = "Saved first"
            _ = try await store.update(first)

            var second = loaded
            second.name = "Saved second, from the old version"
            do {
                _ = try await store.update(second)
                Issue.record("expected a conflict, the save went through")
            } catch let error as ProfileRepositoryError {
                guard case .conflict(let current) = error else {
                    Issue.record("expected .conflict, got \(error)")
                    return
                }
                #expect(current.name == "Saved first")
                #expect(current.version == 2)
            }
            #expect(try await store.get(id: loaded.id)?.name == "Saved first")
        }
    }

    @Test("Updating a profile that is gone is not found")
    func updateMissing() async throws {
        let store = try ProfileStore.inMemory()
        var ghost = Profile.new(named: "Ghost")
        ghost.id = 42
        ghost.version = 1
        do {
            _ = try await store.update(ghost)
            Issue.record("expected .notFound")
        } catch {
            #expect(error == .notFound)
        }
    }

    @Test("The migration runs on an empty file, and on an existing one it keeps the data")
    func migrations() async throws {
        let all = ["createProfile", "createSavedFriendList", "createSittingSession"]
        try await withDirectory { directory in
            let fresh = try ProfileStore.open(directory: directory)
            #expect(try await fresh.appliedMigrations() == all)
            _ = try await fresh.create(.new(named: "Kept"))

            let reopened = try ProfileStore.open(directory: directory)
            #expect(try await reopened.appliedMigrations() == all)
            #expect(try await reopened.list().map(\.name) == ["Kept"])
            #expect(try await reopened.integrityCheck() == ["ok"])
        }
    }

    @Test("The file is in WAL mode, and a new id is never an old one")
    func walAndIDs() async throws {
        try await withDirectory { directory in
            let store = try ProfileStore.open(directory: directory)
            let first = try await store.create(.new(named: "One"))
            _ = try await store.delete(id: first.id)
            let second = try await store.create(.new(named: "Two"))
            #expect(second.id == first.id + 1)

            let queue = try DatabaseQueue(path: directory.appendingPathComponent(ProfileStore.fileName).path)
            let mode = try await queue.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
            #expect(mode == "wal")
        }
    }
}

@Suite("Saved friends list store")
struct FriendListStoreTests {
    @Test("The last list saved is the one loaded, after reopening too")
    func saveAndLoad() async throws {
        let directory = try RepositoryPaths.temporaryDirectory("friend-list")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FriendListStore(database: try SanghaDatabase.open(directory: directory))
        #expect(try await store.load() == nil)
        let first = Date(timeIntervalSince1970: 1_795_000_000)
        let jane = Friend(id: 1, firstname: "Jane", lastname: "Doe", phonenumber: "123")
        try await store.save([jane], at: first)
        try await store.save([], at: first.addingTimeInterval(60))
        try await store.save([jane], at: first.addingTimeInterval(120))
        let reopened = FriendListStore(database: try SanghaDatabase.open(directory: directory))
        #expect(try await reopened.load() == SavedFriendList(friends: [jane], savedAt: first.addingTimeInterval(120)))
    }

    @Test("An unchanged list is written again only after the refresh interval; a changed one at once")
    func throttle() async throws {
        let store = FriendListStore(database: try SanghaDatabase.inMemory())
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        let jane = Friend(id: 1, firstname: "Jane", lastname: "Doe", phonenumber: "123")
        let kenji = Friend(id: 2, firstname: "Kenji", lastname: "Sato", phonenumber: "456")
        try await store.save([jane], at: start)
        try await store.save([jane], at: start + 10)
        #expect(try await store.load()?.savedAt == start)
        try await store.save([jane, kenji], at: start + 20)
        #expect(try await store.load() == SavedFriendList(friends: [jane, kenji], savedAt: start + 20))
        let later = start + 20 + FriendListStore.refreshInterval
        try await store.save([jane, kenji], at: later)
        #expect(try await store.load()?.savedAt == later)
    }
}

@Suite("Profile store: saves that name no version")
struct ProfileStoreUnversionedTests {
    @Test("Version 0 overwrites whatever is stored, and the version still counts up")
    func overwrite() async throws {
        let store = try ProfileStore.inMemory()
        let created = try await store.create(.new(named: "Morning"))
        var changed = created
        changed.name = "Changed"
        _ = try await store.update(changed)
        var blind = created
        blind.version = 0
        blind.name = "Blind"
        let saved = try await store.update(blind)
        #expect(saved.name == "Blind")
        #expect(saved.version == 3)
    }
}
