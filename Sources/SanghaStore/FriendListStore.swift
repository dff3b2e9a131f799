import Foundation
import GRDB
import SanghaCore
import SanghaStoreSupport

/// The last friends list the FriendService gave one person, in `sangha.sqlite`, for when it fails.
///
/// Every friends page hands this store the list it got; writing each to SQLite would cost more
/// than the page. So an unchanged list is written again at most every `FriendListSaveThrottle.refreshInterval`, to
/// refresh its time, and a changed one at once.
public struct FriendListStore: FriendListStorage {
    private let database: any DatabaseWriter
    private let person: Int
    private let lastSaved: FriendListSaveThrottle

    /// `lastSaved` is shared by the stores of one file: a store is made for each request.
    public init(database: any DatabaseWriter, person: Int, lastSaved: FriendListSaveThrottle = FriendListSaveThrottle())
    {
        self.database = database
        self.person = person
        self.lastSaved = lastSaved
    }

    public func save(_ friends: [Friend], at date: Date) async throws {
        guard lastSaved.needsSaving(friends, at: date, for: person) else { return }
        let record = SavedFriendListRecord(personID: person, friends: friends, savedAt: date)
        do {
            try await database.write { db in try record.upsert(db) }
            lastSaved.wrote(friends, at: date, for: person)
        } catch {
            lastSaved.forget(person)
            throw error
        }
    }

    /// The saved list: the one this process wrote last, which is the file's (one process writes
    /// it), without a read; else the file's. Every page asks while the FriendService is down.
    public func load() async throws -> SavedFriendList? {
        if let saved = lastSaved.lastWritten(for: person) { return saved }
        return try await database.readInline { [person] db in
            try SavedFriendListRecord.fetchOne(db, key: person).map {
                SavedFriendList(friends: $0.friends, savedAt: $0.savedAt)
            }
        }
    }
}

struct SavedFriendListRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "savedFriendList"
    var personID: Int
    var friends: [Friend]
    var savedAt: Date
}
