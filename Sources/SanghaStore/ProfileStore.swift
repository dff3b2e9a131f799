import Foundation
import GRDB
import SanghaCore
import SanghaStoreSupport
import Synchronization

/// One person's profiles in SQLite through GRDB: `directory/sangha.sqlite` (`SanghaDatabase`).
/// Every statement names the owner, so the store cannot read or change another person's rows.
///
/// Profiles read by id, and the pages of each person's list, are kept in memory (`ProfileCache`,
/// shared by the stores of one file): the editor is the busiest page, and a read through the
/// database pool (a hop to its reader and the segments' JSON) cost about 200 µs, ten times the
/// page's rendering; a list page of 50 cost ten times the editor. Every write goes to SQLite
/// first and then to the memory, so the memory never holds what the file does not. One process
/// per file: another process writing the same file would not be seen by `get` or `list`.
///
/// A profile is one row; its segments, edited as a whole with it, are a JSON column. Every
/// update checks the version the form was loaded with inside the write transaction, so two
/// saves of the same version cannot both win.
public struct ProfileStore: ProfileRepository {
    private let database: any DatabaseWriter
    private let owner: Int
    private let cache: ProfileCache

    /// The profiles of `owner` on an opened, migrated database (`SanghaDatabase.open`).
    public init(database: any DatabaseWriter, owner: Int, cache: ProfileCache = ProfileCache()) {
        self.database = database
        self.owner = owner
        self.cache = cache
    }

    private var owned: QueryInterfaceRequest<ProfileRecord> {
        ProfileRecord.filter(Column("ownerID") == owner)
    }

    public func list(limit: Int, offset: Int) async throws(ProfileRepositoryError) -> ProfileListPage {
        let key = ProfileCache.ListKey(owner: owner, limit: limit, offset: offset)
        let (kept, generation) = cache.list(key)
        if let kept { return kept }
        let page = try await run { [owned] db in
            // One read transaction: the page and the count agree. The order follows the
            // `profile_on_name` index.
            let profiles = try owned.order(Column("name").collating(.nocase), Column("id"))
                .limit(limit, offset: offset)
                .fetchAll(db).map { try $0.profile() }
            return ProfileListPage(profiles: profiles, total: try owned.fetchCount(db))
        }
        cache.store(page, for: key, readAt: generation)
        return page
    }

    public func get(id: Int) async throws(ProfileRepositoryError) -> Profile? {
        let (kept, generation) = cache.profile(id, of: owner)
        if let kept { return kept }
        let profile = try await run { [owned] db in try owned.filter(key: id).fetchOne(db)?.profile() }
        if let profile { cache.store(profile, of: owner, readAt: generation) }
        return profile
    }

    public func create(_ profile: Profile) async throws(ProfileRepositoryError) -> Profile {
        let created = try await write { [owner] db in
            var record = try ProfileRecord(profile, owner: owner)
            record.id = nil
            record.version = 1
            try record.insert(db)
            return Profile(id: record.id ?? 0, name: profile.name, segments: profile.segments, version: 1)
        }
        cache.store(created, of: owner)
        cache.forgetLists(of: owner)
        return created
    }

    public func update(_ profile: Profile) async throws(ProfileRepositoryError) -> Profile {
        // The name and durations the list shows may have changed, whatever the outcome.
        defer { cache.forgetLists(of: owner) }
        do {
            let updated = try await writeUpdate(profile)
            cache.store(updated, of: owner)
            return updated
        } catch {
            // Whatever the file holds now is read again on the next get.
            cache.forget(profile.id)
            throw error
        }
    }

    private func writeUpdate(_ profile: Profile) async throws(ProfileRepositoryError) -> Profile {
        try await write { [owned, owner] db in
            guard let stored = try owned.filter(key: profile.id).fetchOne(db) else {
                throw ProfileRepositoryError.notFound
            }
            guard profile.version == 0 || stored.version == profile.version else {
                throw ProfileRepositoryError.conflict(current: try stored.profile())
            }
            var record = try ProfileRecord(profile, owner: owner)
            record.version = stored.version + 1
            try record.update(db)
            var updated = profile
            updated.version = record.version
            return updated
        }
    }

    public func delete(id: Int) async throws(ProfileRepositoryError) -> Bool {
        defer {
            cache.forget(id)
            cache.forgetLists(of: owner)
        }
        return try await write { [owned] db in try owned.filter(key: id).deleteAll(db) > 0 }
    }

    private func run<Value: Sendable>(_ read: @escaping @Sendable (Database) throws -> Value)
        async throws(ProfileRepositoryError) -> Value
    {
        do {
            return try await database.read(read)
        } catch {
            throw Self.repositoryError(error)
        }
    }

    private func write<Value: Sendable>(_ update: @escaping @Sendable (Database) throws -> Value)
        async throws(ProfileRepositoryError) -> Value
    {
        do {
            return try await database.write(update)
        } catch {
            throw Self.repositoryError(error)
        }
    }

    private static func repositoryError(_ error: any Error) -> ProfileRepositoryError {
        (error as? ProfileRepositoryError) ?? .storage(String(describing: error))
    }
}

/// A profile as one row of the `profile` table.
struct ProfileRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "profile"

    var id: Int?
    var name: String
    /// The segments' JSON text (`SegmentsJSON`), whose decoding is remembered.
    var segments: String
    var version: Int
    var ownerID: Int?

    init(_ profile: Profile, owner: Int) throws {
        self.id = profile.id == 0 ? nil : profile.id
        self.ownerID = owner
        self.name = profile.name
        self.segments = try SegmentsJSON.encode(profile.segments)
        self.version = profile.version
    }

    func profile() throws -> Profile {
        Profile(id: id ?? 0, name: name, segments: try SegmentsJSON.decode(segments), version: version)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = Int(inserted.rowID)
    }
}

/// Profiles by id with their owners, and pages of each owner's list, as last read from or
/// written to the file.
public final class ProfileCache: Sendable {
    private struct Profiles {
        var entries: [Int: (owner: Int, profile: Profile)] = [:]
        /// Moves on at every write: a read that began before one is not kept over it.
        var generation = 0
    }

    private let profiles = Mutex(Profiles())

    /// One page of one person's list.
    struct ListKey: Hashable {
        let owner: Int
        let limit: Int
        let offset: Int
    }

    private struct Lists {
        var pages: [ListKey: ProfileListPage] = [:]
        /// Moves on at every change of anyone's profiles: a page read before it is not kept.
        var generation = 0
    }

    private let lists = Mutex(Lists())
    /// More pages than this in memory and they are all dropped (it is only a memo).
    static let listLimit = 10_000

    public init() {}

    /// The profile `id` if it is `owner`'s (another's is read, and not found, from the file), or
    /// nil and the generation to keep the one read with.
    func profile(_ id: Int, of owner: Int) -> (Profile?, generation: Int) {
        profiles.withLock { profiles in
            (profiles.entries[id].flatMap { $0.owner == owner ? $0.profile : nil }, profiles.generation)
        }
    }

    /// A profile read from the file, unless a write came since the read began.
    func store(_ profile: Profile, of owner: Int, readAt generation: Int) {
        profiles.withLock { profiles in
            guard profiles.generation == generation else { return }
            profiles.entries[profile.id] = (owner, profile)
        }
    }

    /// A profile just written to the file.
    func store(_ profile: Profile, of owner: Int) {
        profiles.withLock { profiles in
            profiles.entries[profile.id] = (owner, profile)
            profiles.generation += 1
        }
    }

    func forget(_ id: Int) {
        profiles.withLock { profiles in
            profiles.entries[id] = nil
            profiles.generation += 1
        }
    }

    /// The page kept for `key`, or nil and the generation to store the one read from the file with.
    func list(_ key: ListKey) -> (ProfileListPage?, generation: Int) {
        lists.withLock { ($0.pages[key], $0.generation) }
    }

    /// Keeps `page` unless profiles changed since `generation` was handed out: a read that raced
    /// a write never outlives it.
    func store(_ page: ProfileListPage, for key: ListKey, readAt generation: Int) {
        lists.withLock { lists in
            guard lists.generation == generation else { return }
            if lists.pages.count >= Self.listLimit { lists.pages.removeAll() }
            lists.pages[key] = page
        }
    }

    /// After any change of `owner`'s profiles, written to the file.
    func forgetLists(of owner: Int) {
        lists.withLock { lists in
            lists.generation += 1
            lists.pages = lists.pages.filter { $0.key.owner != owner }
        }
    }

    /// After a person and their profiles were deleted.
    func forgetAll() {
        profiles.withLock { profiles in
            profiles.entries.removeAll()
            profiles.generation += 1
        }
        lists.withLock { lists in
            lists.generation += 1
            lists.pages.removeAll()
        }
    }
}
