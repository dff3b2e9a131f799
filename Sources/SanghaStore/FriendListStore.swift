import Foundation
import GRDB
import SanghaCore

/// The last friends list the FriendService gave, in `sangha.sqlite`, for when it fails.
///
/// Every friends page hands this store the list it got; writing each to SQLite would cost more
/// than the page. So an unchanged list is written again at most every `FriendListSaveThrottle.refreshInterval`, to
/// refresh its time, and a changed one at once.
public struct FriendListStore: FriendListStorage {
    private let database: any DatabaseWriter
    private let lastSaved = FriendListSaveThrottle()

    public init(database: any DatabaseWriter) {
        self.database = database
    }

    public func save(_ friends: [Friend], at date: Date) async throws {
        guard lastSaved.needsSaving(friends, at: date) else { return }
        let record = SavedFriendListRecord(id: 1, friends: friends, savedAt: date)
        do {
            try await database.write { db in try record.upsert(db) }
        } catch {
            lastSaved.forget()
            throw error
        }
    }

    public func load() async throws -> SavedFriendList? {
        try await database.read { db in
            try SavedFriendListRecord.fetchOne(db, key: 1).map {
                SavedFriendList(friends: $0.friends, savedAt: $0.savedAt)
            }
        }
    }
}

struct SavedFriendListRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "savedFriendList"
    var id: Int
    var friends: [Friend]
    var savedAt: Date
}
