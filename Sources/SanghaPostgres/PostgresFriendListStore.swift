import Foundation
import PostgresNIO
import SanghaCore
import SanghaStoreSupport

/// The last friends list the FriendService gave, in PostgreSQL (`saved_friend_list`), shared by
/// every instance. As with SQLite, an unchanged list is written again at most every
/// `FriendListSaveThrottle.refreshInterval`.
public struct PostgresFriendListStore: FriendListStorage {
    private let database: PostgresDatabase
    private let person: Int
    private let lastSaved: FriendListSaveThrottle

    /// `lastSaved` is shared by an instance's stores: a store is made for each request.
    public init(database: PostgresDatabase, person: Int, lastSaved: FriendListSaveThrottle = FriendListSaveThrottle()) {
        self.database = database
        self.person = person
        self.lastSaved = lastSaved
    }

    public func save(_ friends: [Friend], at date: Date) async throws {
        guard lastSaved.needsSaving(friends, at: date, for: person) else { return }
        let json = String(decoding: try JSONEncoder().encode(friends), as: UTF8.self)
        do {
            try await database.withConnection { [logger = database.logger, person] connection in
                _ = try await connection.query(
                    """
                    INSERT INTO saved_friend_list (person_id, friends, saved_at)
                    VALUES (\(person), \(json)::jsonb, \(date))
                    ON CONFLICT (person_id) DO UPDATE SET friends = excluded.friends, saved_at = excluded.saved_at
                    """, logger: logger)
            }
        } catch {
            lastSaved.forget(person)
            throw error
        }
    }

    public func load() async throws -> SavedFriendList? {
        let row = try await database.withConnection {
            [logger = database.logger, person] connection -> (String, Date)? in
            let rows = try await connection.query(
                "SELECT friends::text, saved_at FROM saved_friend_list WHERE person_id = \(person)", logger: logger)
            for try await row in rows.decode((String, Date).self) { return row }
            return nil
        }
        guard let (json, savedAt) = row else { return nil }
        return SavedFriendList(
            friends: try JSONDecoder().decode([Friend].self, from: Data(json.utf8)), savedAt: savedAt)
    }
}
