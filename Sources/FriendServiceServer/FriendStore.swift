import Foundation
import GRDB
import Hummingbird
import SanghaCore
import Synchronization

/// The reference FriendService's storage: one SQLite file through GRDB.
///
/// Ids come from an AUTOINCREMENT key, so an id is never given out twice, even after the friend
/// holding it was deleted. The list is kept in memory between writes, with its JSON encoded
/// once: it is what the service is asked for most, and this store is the file's only writer.
public struct FriendStore: Sendable {
    private let database: any DatabaseWriter
    private let listed = ListCache()

    /// Opens (creating it when absent) the store in `directory/friends.sqlite`.
    public static func open(directory: URL) throws -> FriendStore {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("friends.sqlite").path
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
        return migrator
    }

    public func list() async throws -> [Friend] {
        try await current().friends
    }

    /// The list as `GET /listFriends` sends it.
    public func listJSON() async throws -> ByteBuffer {
        try await current().json
    }

    private func current() async throws -> Listed {
        let (cached, generation) = listed.current()
        if let cached { return cached }
        let friends = try await database.read { db in try Friend.order(Column("id")).fetchAll(db) }
        let current = Listed(friends: friends, json: ByteBuffer(bytes: try JSONEncoder().encode(friends)))
        listed.store(current, ifStill: generation)
        return current
    }

    /// After a write: the next list is read from the file.
    private func changed() {
        listed.invalidate()
    }

    public func add(_ draft: FriendDraft) async throws -> Friend {
        defer { changed() }
        return try await database.write { db in
            try draft.insert(db)
            return Friend(
                id: Int(db.lastInsertedRowID),
                firstname: draft.firstname,
                lastname: draft.lastname,
                phonenumber: draft.phonenumber
            )
        }
    }

    /// The friend with the patch's fields replaced, or nil when no friend has that id.
    public func update(id: Int, applying patch: FriendPatch) async throws -> Friend? {
        defer { changed() }
        return try await database.write { db in
            guard var friend = try Friend.fetchOne(db, key: id) else { return nil }
            if let firstname = patch.firstname { friend.firstname = firstname }
            if let lastname = patch.lastname { friend.lastname = lastname }
            if let phonenumber = patch.phonenumber { friend.phonenumber = phonenumber }
            try friend.update(db)
            return friend
        }
    }

    /// Whether a friend with that id existed.
    public func delete(id: Int) async throws -> Bool {
        defer { changed() }
        return try await database.write { db in try Friend.deleteOne(db, key: id) }
    }
}

extension Friend: FetchableRecord, PersistableRecord {
    public static var databaseTableName: String { "friend" }
}

extension FriendDraft: PersistableRecord {
    public static var databaseTableName: String { "friend" }
}

/// A list read from the file, and its JSON.
private struct Listed: Sendable {
    let friends: [Friend]
    let json: ByteBuffer
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
