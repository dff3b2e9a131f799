import Foundation
import PostgresNIO
import SanghaCore

/// The last friends list the FriendService gave, in PostgreSQL (`saved_friend_list`), shared by
/// every instance. As with SQLite, an unchanged list is written again at most every
/// `FriendListSaveThrottle.refreshInterval`.
public struct PostgresFriendListStore: FriendListStorage {
    private let database: PostgresDatabase
    private let lastSaved = FriendListSaveThrottle()

    public init(database: PostgresDatabase) {
        self.database = database
    }

    public func save(_ friends: [Friend], at date: Date) async throws {
        guard lastSaved.needsSaving(friends, at: date) else { return }
        let json = String(decoding: try JSONEncoder().encode(friends), as: UTF8.self)
        do {
            try await database.withConnection { [logger = database.logger] connection in
                _ = try await connection.query(
                    """
                    INSERT INTO saved_friend_list (id, friends, saved_at) VALUES (1, \(json)::jsonb, \(date))
                    ON CONFLICT (id) DO UPDATE SET friends = excluded.friends, saved_at = excluded.saved_at
                    """, logger: logger)
            }
        } catch {
            lastSaved.forget()
            throw error
        }
    }

    public func load() async throws -> SavedFriendList? {
        let row = try await database.withConnection { [logger = database.logger] connection -> (String, Date)? in
            let rows = try await connection.query(
                "SELECT friends::text, saved_at FROM saved_friend_list WHERE id = 1", logger: logger)
            for try await row in rows.decode((String, Date).self) { return row }
            return nil
        }
        guard let (json, savedAt) = row else { return nil }
        return SavedFriendList(
            friends: try JSONDecoder().decode([Friend].self, from: Data(json.utf8)), savedAt: savedAt)
    }
}
