import Foundation
import GRDB
import Hummingbird
import SanghaCore
import Synchronization

/// The reference FriendService's storage: one SQLite file through GRDB.
///
/// Friends are in lists: the one list `""`, or with `--list-per-token` one per bearer token. Ids
/// come from an AUTOINCREMENT key, so an id is never given out twice, even after the friend
/// holding it was deleted. Each list is kept in memory between writes, with its JSON encoded
/// once: it is what the service is asked for most, and this store is the file's only writer.
public struct FriendStore: Sendable {
    private let database: any DatabaseWriter
    private let lists = ListCaches()

    /// The store's file in its folder.
    public static let fileName = "friends.sqlite"

    /// Opens (creating it when absent) the store in `directory/friends.sqlite`.
    public static func open(directory: URL) throws -> FriendStore {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(fileName).path
        return try FriendStore(database: DatabasePool(path: path))
    }

    /// A store in memory, for tests.
    public static func inMemory() throws -> FriendStore {
        try FriendStore(database: DatabaseQueue())
    }

    init(database: any DatabaseWriter) throws {
        self.database = database
        try Self.migrator.migrate(database)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("createFriend") { db in
            try db.create(table: "friend") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("firstname", .text).notNull()
                table.column("lastname", .text).notNull()
                table.column("phonenumber", .text).notNull()
            }
        }
        migrator.registerMigration("listPerToken") { db in
            try db.execute(sql: "ALTER TABLE friend ADD COLUMN list TEXT NOT NULL DEFAULT ''")
            try db.execute(sql: "CREATE INDEX friend_on_list ON friend (list, id)")
        }
        return migrator
    }

    public func list(_ list: String = "") async throws -> [Friend] {
        try await current(list).friends
    }

    /// The list as `GET /listFriends` sends it.
    public func listJSON(of list: String = "") async throws -> ByteBuffer {
        try await current(list).json
    }

    private func current(_ list: String) async throws -> Listed {
        let cache = lists.cache(for: list)
        let (cached, generation) = cache.current()
        if let cached { return cached }
        let friends = try await database.read { db in
            try Friend.filter(Column("list") == list).order(Column("id")).fetchAll(db)
        }
        let current = Listed(friends: friends, json: ByteBuffer(bytes: try JSONEncoder().encode(friends)))
        cache.store(current, ifStill: generation)
        return current
    }

    /// After a write: the next list is read from the file.
    private func changed(_ list: String) {
        lists.cache(for: list).invalidate()
    }

    public func add(_ draft: FriendDraft, to list: String = "") async throws -> Friend {
        defer { changed(list) }
        return try await database.write { db in
            try db.execute(
                sql: "INSERT INTO friend (firstname, lastname, phonenumber, list) VALUES (?, ?, ?, ?)",
                arguments: [draft.firstname, draft.lastname, draft.phonenumber, list])
            return Friend(
                id: Int(db.lastInsertedRowID),
                firstname: draft.firstname,
                lastname: draft.lastname,
                phonenumber: draft.phonenumber
            )
        }
    }

    /// The friend with the patch's fields replaced, or nil when no friend has that id.
    public func update(id: Int, applying patch: FriendPatch, in list: String = "") async throws -> Friend? {
        defer { changed(list) }
        return try await database.write { db in
            guard var friend = try Friend.filter(key: id).filter(Column("list") == list).fetchOne(db) else {
                return nil
            }
            if let firstname = patch.firstname { friend.firstname = firstname }
            if let lastname = patch.lastname { friend.lastname = lastname }
            if let phonenumber = patch.phonenumber { friend.phonenumber = phonenumber }
            try friend.update(db)
            return friend
        }
    }

    /// Gives the friends of list `from` to list `to` (they keep their ids); how many moved.
    @discardableResult
    public func moveList(from: String, to: String) async throws -> Int {
        defer {
            changed(from)
            changed(to)
        }
        return try await database.write { db in
            try db.execute(sql: "UPDATE friend SET list = ? WHERE list = ?", arguments: [to, from])
            return db.changesCount
        }
    }

    /// Removes every friend of list `list`; how many there were.
    @discardableResult
    public func deleteList(_ list: String) async throws -> Int {
        defer { changed(list) }
        return try await database.write { db in
            try Friend.filter(Column("list") == list).deleteAll(db)
        }
    }

    /// Whether a friend with that id existed.
    public func delete(id: Int, from list: String = "") async throws -> Bool {
        defer { changed(list) }
        return try await database.write { db in
            try Friend.filter(key: id).filter(Column("list") == list).deleteAll(db) > 0
        }
    }
}

extension Friend: FetchableRecord, PersistableRecord {
    public static var databaseTableName: String { "friend" }
}

/// A list read from the file, and its JSON.
private struct Listed: Sendable {
    let friends: [Friend]
    let json: ByteBuffer
}

/// Each list's cache.
private final class ListCaches: Sendable {
    private let caches = Mutex<[String: ListCache]>([:])

    func cache(for list: String) -> ListCache {
        caches.withLock { caches in
            if let cache = caches[list] { return cache }
            let cache = ListCache()
            caches[list] = cache
            return cache
        }
    }
}

/// The last list read, and a count of writes, so that a read that raced a write is not kept.
private final class ListCache: Sendable {
    private let state = Mutex<(listed: Listed?, generation: Int)>((nil, 0))

    func current() -> (listed: Listed?, generation: Int) { state.withLock { $0 } }

    func store(_ listed: Listed, ifStill generation: Int) {
        state.withLock { if $0.generation == generation { $0.listed = listed } }
    }

    func invalidate() {
        state.withLock { $0 = (nil, $0.generation + 1) }
    }
}
