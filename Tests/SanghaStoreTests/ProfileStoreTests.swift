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
        try await withDirectory { directory in
            let fresh = try ProfileStore.open(directory: directory)
            #expect(try await fresh.appliedMigrations() == ["createProfile"])
            _ = try await fresh.create(.new(named: "Kept"))

            let reopened = try ProfileStore.open(directory: directory)
            #expect(try await reopened.appliedMigrations() == ["createProfile"])
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
