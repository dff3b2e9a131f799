import Foundation
import GRDB
import SanghaCore

/// The last friends list the FriendService gave, in `sangha.sqlite`, for when it fails.
public struct FriendListStore: FriendListStorage {
    private let database: any DatabaseWriter

    public init(database: any DatabaseWriter) {
        self.database = database
    }

    public func save(_ friends: [Friend], at date: Date) async throws {
        let record = SavedFriendListRecord(id: 1, friends: friends, savedAt: date)
        try await database.write { db in try record.upsert(db) }
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
