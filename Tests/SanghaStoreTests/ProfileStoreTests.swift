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

    @Test("The migration runs on an empty file, and on an existing one it keeps the data")
    func migrations() async throws {
        let all = [
            "createProfile", "createSavedFriendList", "createSittingSession", "indexProfileName",
            "totalSittingSessions",
        ]
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
