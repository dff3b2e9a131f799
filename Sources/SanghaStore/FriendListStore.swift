import Foundation
import GRDB
import SanghaCore
import Synchronization

/// The last friends list the FriendService gave, in `sangha.sqlite`, for when it fails.
///
/// Every friends page hands this store the list it got; writing each to SQLite would cost more
/// than the page. So an unchanged list is written again at most every `refreshInterval`, to
/// refresh its time, and a changed one at once.
public struct FriendListStore: FriendListStorage {
    public static let refreshInterval: TimeInterval = 60
    private let database: any DatabaseWriter
    private let lastSaved = LastSaved()

    public init(database: any DatabaseWriter) {
        self.database = database
    }

    public func save(_ friends: [Friend], at date: Date) async throws {
        guard lastSaved.needsSaving(friends, at: date, refreshInterval: Self.refreshInterval) else { return }
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

/// The list this process saved last, and when.
private final class LastSaved: Sendable {
    private let saved = Mutex<SavedFriendList?>(nil)

    /// Whether `friends` differ from the last list saved, or that was saved `refreshInterval`
    /// ago or more; if so, `friends` at `date` count as saved from now on.
    func needsSaving(_ friends: [Friend], at date: Date, refreshInterval: TimeInterval) -> Bool {
        saved.withLock { last in
            if let saved = last, saved.friends == friends, date.timeIntervalSince(saved.savedAt) < refreshInterval {
                // This very array from now on: the next page sharing it compares in O(1).
                last = SavedFriendList(friends: friends, savedAt: saved.savedAt)
                return false
            }
            last = SavedFriendList(friends: friends, savedAt: date)
            return true
        }
    }

    func forget() {
        saved.withLock { $0 = nil }
    }
}
